import AudioCore
import CatalogManifest
import Foundation
import FuzzDriver

// Fuzzing build (scripts/fuzz.sh: -sanitize=fuzzer -DFUZZING): libFuzzer's own `main` calls
// `LLVMFuzzerTestOneInput`. Ordinary build: this `main` replays the files named on the command line.
//
/// `fuzz-manifest`: bytes → `Manifest.decode` (the in-memory reader `render merge` trusts nothing without) → checks.
///
/// Any input must give a manifest or diagnostics; never crash, hang or leak. Checked:
/// - diagnostics: at least one, at most 101, each one line without control characters, short, kind
///   `data`, and located inside the text (a line of it, a column within that line or just after it);
/// - an accepted manifest: every file name is `<id>.<ext>` of its own track's valid id (checked here
///   independently of the reader: no `/`, no leading `.`, an audio extension, `.cues.json`, a
///   sidecar suffix, each once); ids valid, tracks sorted and unique, in the shard's catalog; the
///   shard within 1…count ≤ 10,000, its catalog sorted and unique; every number in its range, the
///   duration `frames / sample_rate`, text within its byte limit and without control characters;
/// - `jsonText()` reads back equal, and writes back the same bytes.
#if !FUZZING
    @main
    enum FuzzManifestMain {
        static func main() { FuzzDriver.replay("fuzz-manifest", fuzzManifest) }
    }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ManifestFuzz.run(fuzzBytes(data, size))
    return 0
}

enum ManifestFuzz {
    static let file = "shard/catalog.json"
    /// The audio extensions and sidecar suffixes a bundle may hold (Recipe's `AudioFormat`, Sidecars' `SidecarKind`), written out here.
    static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "opus", "mp3", "caf", "m4a"]
    static let sidecarSuffixes = [".vtt", ".chapters.json", ".svg"]

    static func run(_ bytes: [UInt8]) {
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(bytes, file: file)
        } catch {
            checkDiagnostics(error, in: bytes)
            return
        }
        checkManifest(manifest)
        checkRoundTrip(manifest)
        if fuzzVerbose { print("manifest: \(manifest.tracks.count) tracks, shard \(manifest.shard.map { "\($0.index)/\($0.count)" } ?? "none")") }
    }

    // MARK: - Diagnostics

    /// The lengths in characters (UTF-8 lead bytes) of the text's lines, split at line feeds as the reader counts them.
    static func lineLengths(_ bytes: [UInt8]) -> [Int] {
        var lengths = [0]
        for b in bytes {
            if b == 0x0A {
                lengths.append(0)
            } else if b & 0xC0 != 0x80 {
                lengths[lengths.count - 1] += 1
            }
        }
        return lengths
    }

    static func checkDiagnostics(_ list: DiagnosticList, in bytes: [UInt8]) {
        if fuzzVerbose { print("\(list.diagnostics.count) diagnostic(s)\n\(list)") }
        fuzzCheck(!list.diagnostics.isEmpty, "refused without a diagnostic")
        fuzzCheck(list.diagnostics.count <= 101, "\(list.diagnostics.count) diagnostics")
        let lines = lineLengths(bytes)
        for diagnostic in list.diagnostics {
            let text = diagnostic.description
            fuzzCheck(!diagnostic.message.isEmpty, "empty message: \(text)")
            fuzzCheck(diagnostic.kind == .data, "kind \(diagnostic.kind) for bad input: \(text)")
            guard let location = diagnostic.location else {
                fuzzCheck(false, "diagnostic without a line: \(text)")
                continue
            }
            fuzzCheck(location.file == file, "location in \(location.file): \(text)")
            fuzzCheck(
                location.line >= 1 && location.line <= lines.count && location.column >= 1 && location.column <= lines[location.line - 1] + 1,
                "location \(location.line):\(location.column) outside the input (\(lines.count) lines): \(text.prefix(300))")
            for scalar in text.unicodeScalars {
                let v = scalar.value
                fuzzCheck(
                    !(v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v)),
                    "control character U+\(String(v, radix: 16)) in a message: \(text.debugDescription.prefix(300))")
            }
            fuzzCheck(text.utf8.count <= 1_000, "a message of \(text.utf8.count) bytes: \(text.prefix(200))…")
        }
    }

    // MARK: - An accepted manifest

    /// `[A-Za-z0-9][A-Za-z0-9._-]{0,99}`, written out again.
    static func isID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        func alphanumeric(_ b: UInt8) -> Bool { (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) }
        guard let first = bytes.first, alphanumeric(first), bytes.count <= 100 else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// A name that cannot leave its folder or hide: no `/`, no `\`, no leading `.`, no control character, not empty.
    static func checkName(_ name: String, _ what: String) {
        fuzzCheck(!name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\"), "\(what): \(name.debugDescription)")
        fuzzCheck(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(what): \(name.debugDescription)")
    }

    static func isHex64(_ s: String) -> Bool { s.utf8.count == 64 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }

    static func checkText(_ s: String, limit: Int, _ what: String) {
        fuzzCheck(s.utf8.count <= limit, "\(what) of \(s.utf8.count) bytes")
        fuzzCheck(!s.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(what) with a control character: \(s.debugDescription)")
    }

    static func checkManifest(_ manifest: Manifest) {
        var catalog: Set<String>?
        if let shard = manifest.shard {
            fuzzCheck(
                shard.count >= 1 && shard.count <= 10_000 && shard.index >= 1 && shard.index <= shard.count, "shard \(shard.index)/\(shard.count)")
            fuzzCheck(shard.catalog.allSatisfy(isID), "an invalid id in the catalog")
            fuzzCheck(zip(shard.catalog, shard.catalog.dropFirst()).allSatisfy { $0 < $1 }, "catalog not sorted and unique")
            catalog = Set(shard.catalog)
        }
        fuzzCheck(Set(manifest.tracks.map(\.id)).count == manifest.tracks.count, "an id twice in tracks")
        fuzzCheck(Manifest.ordered(manifest.tracks).map(\.id) == manifest.tracks.map(\.id), "tracks not in catalog order")
        let sessions = manifest.sessions
        fuzzCheck(sessions.flatMap(\.tracks) == manifest.tracks.map(\.id), "sessions do not list the tracks in order")
        fuzzCheck(Set(sessions.map(\.id)).count == sessions.count, "a session twice")
        for t in manifest.tracks {
            fuzzCheck(isID(t.id), "id \(t.id.debugDescription)")
            fuzzCheck(isID(t.session), "session \(t.session.debugDescription) of \(t.id)")
            fuzzCheck(t.locale.map(Manifest.isLocaleTag) ?? true, "locale \(String(describing: t.locale)) of \(t.id)")
            fuzzCheck((0...10_000_000).contains(t.drafts), "drafts \(t.drafts) of \(t.id)")
            fuzzCheck(t.variant.map { $0 > 0 && $0 <= 86_400 } ?? true, "variant \(String(describing: t.variant)) of \(t.id)")
            if let catalog { fuzzCheck(catalog.contains(t.id), "track \(t.id) not in the shard's catalog") }
            for name in t.files { checkName(name, "a file of \(t.id)") }
            let ext = t.file.hasPrefix(t.id + ".") ? String(t.file.dropFirst(t.id.count + 1)) : ""
            fuzzCheck(audioExtensions.contains(ext), "file \(t.file.debugDescription) of \(t.id)")
            fuzzCheck(t.cues == t.id + ".cues.json", "cues \(t.cues.debugDescription) of \(t.id)")
            let sidecars = t.sidecars ?? []
            fuzzCheck(Set(sidecars).count == sidecars.count, "sidecars repeat: \(sidecars)")
            fuzzCheck(sidecars.allSatisfy { name in sidecarSuffixes.contains { name == t.id + $0 } }, "sidecars \(sidecars) of \(t.id)")

            fuzzCheck((8000...384_000).contains(t.sampleRate), "sample rate \(t.sampleRate)")
            fuzzCheck(t.frames >= 1 && t.frames <= 86_400 * Int64(t.sampleRate), "\(t.frames) frames at \(t.sampleRate) Hz")
            let exact = Double(t.frames) / Double(t.sampleRate)
            fuzzCheck(t.duration.isFinite && abs(t.duration - exact) <= 0.5 / Double(t.sampleRate), "duration \(t.duration) for \(exact)")
            fuzzCheck(t.bytes >= 1 && t.bytes <= 1 << 41, "bytes \(t.bytes)")
            fuzzCheck(
                isHex64(t.sha256) && isHex64(t.fingerprint), "sha256 \(t.sha256.debugDescription), fingerprint \(t.fingerprint.debugDescription)")
            checkText(t.title, limit: 256, "title")
            if let category = t.category { checkText(category, limit: 256, "category") }
            for level in [t.loudnessLUFS, t.truePeakDBTP].compactMap({ $0 }) {
                fuzzCheck(level.isFinite && level >= -200 && level <= 200, "level \(level)")
            }
        }
    }

    static func checkRoundTrip(_ manifest: Manifest) {
        let text = manifest.jsonText()
        do {
            let again = try Manifest.decode(Array(text.utf8), file: file)
            // one written before sessions is written with them (its tracks' defaults), and reads back equal
            fuzzCheck(again == manifest, "jsonText() reads back different:\n\(text.prefix(2000))")
            fuzzCheck(again.jsonText() == text, "jsonText() writes back other bytes")
        } catch {
            fuzzCheck(false, "jsonText() of an accepted manifest is refused: \(error)\n\(text.prefix(2000))")
        }
    }
}
