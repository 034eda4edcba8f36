import AudioIO
import CSndfile
import Foundation
import Sidecars
import TestKit
import Testing

/// Golden files (after FFmpeg FATE's framecrc): for every starter recipe (`recipes/**/*.yml`) and
/// every short case in `Tests/Golden/recipes/`, the release `render` output decoded with
/// libsndfile, hashed in blocks of 65,536 frames, every sidecar the recipe writes (`.ahap`,
/// `.haptics.json`, …) by its SHA-256 and a summary of what it holds, and the cue sheet verbatim
/// (for Opus, its `audio.sha256` masked), compared with the committed `Tests/Golden/<name>.framecrc`. They pin
/// the sound as the code makes it today, so a refactor that changes one sample says where.
/// Opus is the exception (`levelOnly`): libopus 1.3.1 picks its SIMD code by the processor at run
/// time, so the same bytes in decode to other floats on another processor (an AVX-512 EPYC and the
/// machine the file was recorded on differ in every block, and by 0.03 dB of true peak). Its blocks
/// are pinned by RMS and peak level (within 0.1 and 0.5 dB), its cue sheet's measured loudness and
/// true peak within 0.1: a moved cue, a lost fade or a gain change still fails.
///
/// `CADENCE_RECORD_GOLDEN=1 swift test --filter GoldenTests` (re)writes the files. Integer formats
/// are read with `sf_readf_int` (exact); float WAV and the lossy formats with `sf_readf_float`,
/// hashing the float bit patterns: exact on one machine and library set, not across processors
/// (spec: Opus and MP3 encoders may differ), nor across libsndfile, libFLAC, libvorbis, libopus,
/// LAME or mpg123 versions.
@Suite("Golden files: the decoded sound and cue sheet of each starter recipe and format case")
struct GoldenTests {
    static let blockFrames = 65_536
    static let folder = repositoryRoot + "/Tests/Golden"
    static let recording = ProcessInfo.processInfo.environment["CADENCE_RECORD_GOLDEN"] == "1"
    static let recordCommand = "CADENCE_RECORD_GOLDEN=1 swift test --filter GoldenTests (after swift build -c release)"

    /// Cases whose render is refused with some library versions; the refusal (exit status and
    /// message) is then what the golden file pins. Any other refusal fails the test.
    static let mayBeRefused: [String: String] = [
        "caf24": "CAF (ALAC) output needs libsndfile 1.2.2 or later (Debian 12 has 1.2.0)"
    ]

    /// Output formats whose file bytes differ from one processor to another, so the cue sheet's
    /// `audio.sha256` is masked in their golden files (their decoded samples are still compared;
    /// `ReproducibilityTests` checks that two renders on one machine give the same bytes).
    static let unreproducibleBytes: [String: String] = [
        "opus": "libopus chooses its SIMD code by the processor at run time, so its bytes differ across processors"
    ]

    /// Output formats whose decoded floats depend on the processor: their blocks are described by
    /// level, not hash (see the type's comment), and compared within `Golden.levelTolerance`.
    static let levelOnly: [String: String] = [
        "opus": "libopus chooses its SIMD code by the processor at run time"
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        /// The golden file's name without `.framecrc`.
        let name: String
        /// The recipe, relative to the repository.
        let recipe: String
        /// Pass `--assets <repo>/assets` (the test recipes; the starter ones find it themselves).
        let assets: Bool
        var testDescription: String { name }
    }

    /// The starter recipes (`recipes/breathing/box-breathing.yml` → `breathing-box-breathing`), then
    /// the test recipes (`Tests/Golden/recipes/mono.yml` → `mono`); longest first by the recorded
    /// frame count, so that two cores finish together.
    static let cases: [Case] = {
        var cases: [Case] = []
        let starter = (FileManager.default.enumerator(atPath: repositoryRoot + "/recipes")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yml") }.sorted()
        for path in starter {
            let name = String(path.dropLast(4)).replacingOccurrences(of: "/", with: "-")
            cases.append(Case(name: name, recipe: "recipes/" + path, assets: false))
        }
        let tests = ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/recipes")) ?? [])
            .filter { $0.hasSuffix(".yml") }.sorted()
        for file in tests {
            cases.append(Case(name: String(file.dropLast(4)), recipe: "Tests/Golden/recipes/" + file, assets: true))
        }
        precondition(Set(cases.map(\.name)).count == cases.count, "two golden cases share a name: \(cases.map(\.name))")
        func seconds(_ c: Case) -> Double {
            guard let text = try? String(contentsOfFile: folder + "/\(c.name).framecrc", encoding: .utf8) else { return .infinity }
            let header = Golden(text).header
            return Double(header.value("frames") ?? "").flatMap { f in Double(header.value("sample rate") ?? "").map { f / $0 } } ?? 0
        }
        let lengths = Dictionary(uniqueKeysWithValues: cases.map { ($0.name, seconds($0)) })
        return cases.sorted { (lengths[$0.name]!, $1.name) > (lengths[$1.name]!, $0.name) }
    }()

    @Test(
        "the decoded sound and the cue sheet are those of the golden file",
        .enabled(if: freshReleaseRender != nil, "needs .build/release/render newer than Sources/ (swift build -c release)"),
        arguments: cases)
    func golden(_ c: Case) throws {
        for (name, actual) in try Self.framecrcs(of: c, render: try #require(freshReleaseRender)) {
            let path = Self.folder + "/\(name).framecrc"
            let existing = try? String(contentsOfFile: path, encoding: .utf8)
            if Self.recording {
                if existing != actual { try Data(actual.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) }
                continue
            }
            guard let expected = existing else {
                Issue.record("no golden file Tests/Golden/\(name).framecrc for \(c.recipe); record it with \(Self.recordCommand)")
                continue
            }
            guard let difference = Golden.difference(expected: Golden(expected), actual: Golden(actual)) else { continue }
            let scratch = (NSTemporaryDirectory() as NSString).appendingPathComponent("cadence-golden-actual")
            try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let written = scratch + "/\(name).framecrc"
            try? Data(actual.utf8).write(to: URL(fileURLWithPath: written), options: .atomic)
            Issue.record(
                """
                \(c.recipe) no longer renders as Tests/Golden/\(name).framecrc: \(difference)
                this render's file: \(written) (diff it with the golden file); if the change is intended, \
                re-record with \(Self.recordCommand) and say why in the commit
                """)
        }
    }

    @Test("every golden file belongs to a case (a renamed or removed recipe leaves none behind)")
    func noOrphans() throws {
        let names = Set(Self.cases.map(\.name))
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".framecrc") }
        // a recipe with several renditions has a file per rendition: `<case>@<track id>.framecrc`
        let orphans = files.filter { !names.contains(String($0.dropLast(".framecrc".count).split(separator: "@").first ?? "")) }.sorted()
        #expect(orphans.isEmpty, "Tests/Golden holds golden files with no recipe: \(orphans); remove them or restore their recipes")
    }

    // MARK: - Making a framecrc

    /// Renders `c` in a fresh folder (no `-o`: the recipe's own format, named `<id>.<ext>`) and
    /// describes what it wrote: one text named as the case for a recipe that makes one track; for
    /// one with several renditions (variants, locales), one per track, named `<case>@<track id>`.
    static func framecrcs(of c: Case, render: String) throws -> [(name: String, text: String)] {
        let work = try TempFolder("golden")
        var arguments = [repositoryRoot + "/" + c.recipe, "--quiet"]
        if c.assets { arguments += ["--assets", repositoryRoot + "/assets"] }
        let result = try spawn(render, arguments, in: work.path, timeLimit: 1800)
        var lines = ["# cadence golden v1", "# recipe: \(c.recipe)"]
        guard result.status == 0, result.signal == 0 else {
            guard mayBeRefused[c.name] != nil, result.signal == 0, result.status != 70 else {
                throw TestFailure("render \(c.recipe) failed: \(result)")
            }
            lines.append("# refused: exit status \(result.status)")
            let message = result.stderr.replacingOccurrences(of: repositoryRoot + "/", with: "").trimmingCharacters(in: .newlines)
            lines += message.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }
            return [(c.name, lines.joined(separator: "\n") + "\n")]
        }
        let files = try work.listing()
        let sheets = files.filter { $0.hasSuffix(".cues.json") }.sorted()
        // the sidecars a recipe asks for (`haptics: on`, `output.sidecars`) are named after their track
        let sidecars = Set(sheets.flatMap { sheet in SidecarKind.allCases.map { String(sheet.dropLast(".cues.json".count)) + $0.suffix } })
        let audio = files.filter { !$0.hasSuffix(".cues.json") && !sidecars.contains($0) }
        guard !sheets.isEmpty, sheets.count == audio.count else {
            throw TestFailure("render \(c.recipe) wrote \(files), not an audio file and a cue sheet per track")
        }
        return try sheets.map { sheetName in
            let stem = String(sheetName.dropLast(".cues.json".count))
            guard let file = audio.first(where: { ($0 as NSString).deletingPathExtension == stem }) else {
                throw TestFailure("render \(c.recipe) wrote the cue sheet \(sheetName) without its audio: \(files)")
            }
            var lines = lines
            lines.append("# file: \(file)")
            lines += try blocks(of: work.file(file))
            for kind in SidecarKind.allCases where files.contains(stem + kind.suffix) {
                lines.append(try sidecarLine(work.file(stem + kind.suffix), kind: kind))
            }
            var sheet = try work.read(sheetName)
            if let reason = unreproducibleBytes[(file as NSString).pathExtension] {
                lines.append("# cues: audio.sha256 masked (\(reason))")
                sheet = sheet.replacingOccurrences(
                    of: #""sha256": "[0-9a-f]{64}""#, with: #""sha256": "(masked)""#, options: .regularExpression)
            }
            lines.append("# cues")
            if !sheet.hasSuffix("\n") { sheet += "\n" }
            return (sheets.count == 1 ? c.name : "\(c.name)@\(stem)", lines.joined(separator: "\n") + "\n" + sheet)
        }
    }

    /// `# sidecar: box-5m.ahap, 391234 bytes, sha256 <64 hex digits>, …`: a sidecar's bytes pinned by
    /// their hash, with what it holds in words, so that a changed golden line says what moved: for an
    /// AHAP file its events by type, for an Android waveform its pieces and their sum in milliseconds.
    static func sidecarLine(_ path: String, kind: SidecarKind) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var hasher = SHA256Hasher()
        data.withUnsafeBytes { hasher.update($0) }
        var line = "# sidecar: \((path as NSString).lastPathComponent), \(data.count) bytes, sha256 \(SHA256Hasher.hex(hasher.finalize()))"
        switch kind {
        case .ahap:
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let events = (object?["Pattern"] as? [[String: Any]] ?? []).compactMap { $0["Event"] as? [String: Any] }
            let types = Dictionary(grouping: events) { $0["EventType"] as? String ?? "?" }.mapValues(\.count)
            line += ", \(events.count) events (" + types.keys.sorted().map { "\(types[$0]!) \($0)" }.joined(separator: ", ") + ")"
        case .haptics:
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let timings = object?["timings_ms"] as? [Int] ?? []
            line += ", \(timings.count) pieces, \(timings.reduce(0, +)) ms"
        default:
            break
        }
        return line
    }

    struct Spawned: CustomStringConvertible {
        /// The exit status (0 when killed by a signal).
        let status: Int32
        /// The signal that ended the process, or 0.
        let signal: Int32
        let stderr: String
        var description: String {
            (signal != 0 ? "killed by signal \(signal)" : "exit status \(status)") + "; stderr: " + String(stderr.suffix(1500))
        }
    }

    /// Runs `executable` in `directory` with posix_spawn, polling `waitpid` (TestKit's `run` waits in
    /// Foundation's `Process.waitUntilExit`, which spins: two renders waited for that way cost the
    /// test process a third of a core on a 2-core machine). stdout goes to /dev/null. SIGKILL after
    /// `timeLimit` seconds.
    static func spawn(_ executable: String, _ arguments: [String], in directory: String, timeLimit: Double) throws -> Spawned {
        let scratch = try TempFolder("proc")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.file("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // glibc's posix_spawn_file_actions_addchdir_np is not imported: a shell changes folder, then execs
        let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
        let argv = command.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard error == 0 else { throw TestFailure("posix_spawn \(executable): \(String(cString: strerror(error)))") }
        let deadline = Date().addingTimeInterval(timeLimit)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR { throw TestFailure("waitpid: \(String(cString: strerror(errno)))") }
            if Date() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                throw TestFailure("\(executable) \(arguments) ran past \(Int(timeLimit)) s and was killed")
            }
            usleep(20_000)
        }
        let signal = status & 0x7f
        return Spawned(status: signal != 0 ? 0 : (status >> 8) & 0xff, signal: signal, stderr: try scratch.read("stderr"))
    }

    static let majorNames: [Int32: String] = [
        Int32(SF_FORMAT_WAV): "WAV", Int32(SF_FORMAT_WAVEX): "WAVEX", Int32(SF_FORMAT_RF64): "RF64",
        Int32(SF_FORMAT_FLAC): "FLAC", Int32(SF_FORMAT_CAF): "CAF", Int32(SF_FORMAT_OGG): "OGG",
        Int32(SF_FORMAT_MPEG): "MPEG", Int32(SF_FORMAT_AIFF): "AIFF",
    ]
    /// Subtypes read exactly as integers; every other one is read as floats.
    static let integerSubtypes: [Int32: String] = [
        Int32(SF_FORMAT_PCM_S8): "PCM_S8", Int32(SF_FORMAT_PCM_U8): "PCM_U8", Int32(SF_FORMAT_PCM_16): "PCM_16",
        Int32(SF_FORMAT_PCM_24): "PCM_24", Int32(SF_FORMAT_PCM_32): "PCM_32", Int32(SF_FORMAT_ALAC_16): "ALAC_16",
        Int32(SF_FORMAT_ALAC_20): "ALAC_20", Int32(SF_FORMAT_ALAC_24): "ALAC_24", Int32(SF_FORMAT_ALAC_32): "ALAC_32",
    ]
    static let floatSubtypes: [Int32: String] = [
        Int32(SF_FORMAT_FLOAT): "FLOAT", Int32(SF_FORMAT_DOUBLE): "DOUBLE", Int32(SF_FORMAT_VORBIS): "VORBIS",
        Int32(SF_FORMAT_OPUS): "OPUS", Int32(SF_FORMAT_MPEG_LAYER_III): "MPEG_LAYER_III",
    ]

    /// The header lines and one line per block of the decoded file: `index, first frame, frames,
    /// the first 16 hex digits of the SHA-256 of the block's samples` (native-endian 32-bit words).
    static func blocks(of path: String) throws -> [String] {
        if (path as NSString).pathExtension == "m4a" { return try m4aBlocks(of: path) }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw TestFailure("sf_open \(path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(handle) }
        let channels = Int(info.channels)
        let major = info.format & Int32(SF_FORMAT_TYPEMASK), subtype = info.format & Int32(SF_FORMAT_SUBMASK)
        let integer = integerSubtypes[subtype] != nil
        let byLevel = !integer && levelOnly[(path as NSString).pathExtension] != nil
        let subtypeName = integerSubtypes[subtype] ?? floatSubtypes[subtype] ?? String(format: "subtype 0x%04x", subtype)
        let majorName = majorNames[major] ?? String(format: "major 0x%06x", major)
        var ints = [Int32](repeating: 0, count: integer ? blockFrames * channels : 0)
        var floats = [Float](repeating: 0, count: integer ? 0 : blockFrames * channels)
        var lines: [String] = []
        var first = 0
        while true {
            var got = 0
            while got < blockFrames {
                let wanted = sf_count_t(blockFrames - got), offset = got * channels
                let n =
                    integer
                    ? ints.withUnsafeMutableBufferPointer { sf_readf_int(handle, $0.baseAddress! + offset, wanted) }
                    : floats.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress! + offset, wanted) }
                if n <= 0 { break }
                got += Int(n)
            }
            if got == 0 { break }
            if byLevel {
                lines.append("\(lines.count), \(first), \(got), \(Golden.levels(floats[0..<(got * channels)]))")
                first += got
                if got < blockFrames { break }
                continue
            }
            var hasher = SHA256Hasher()
            let bytes = got * channels * 4
            if integer {
                ints.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<bytes])) }
            } else {
                floats.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<bytes])) }
            }
            let hex = SHA256Hasher.hex(hasher.finalize()).prefix(16)
            lines.append("\(lines.count), \(first), \(got), \(hex)")
            first += got
            if got < blockFrames { break }
        }
        guard Int(sf_error(handle)) == Int(SF_ERR_NO_ERROR) else {
            throw TestFailure("decoding \(path) failed after \(first) frames: \(String(cString: sf_strerror(handle)))")
        }
        var header = [
            "# format: \((path as NSString).pathExtension) (\(majorName), \(subtypeName)), read with \(integer ? "sf_readf_int" : "sf_readf_float")",
            "# sample rate: \(info.samplerate)",
            "# channels: \(channels)",
            "# frames: \(first)",
        ]
        if info.frames != sf_count_t(first) { header.append("# frames in the header: \(info.frames)") }
        if byLevel, let reason = levelOnly[(path as NSString).pathExtension] {
            header.append("# blocks of \(blockFrames) frames: index, first frame, frames, RMS and peak level (\(reason): compared within tolerances)")
        } else {
            header.append(
                "# blocks of \(blockFrames) frames: index, first frame, frames, SHA-256 of the block's \(integer ? "int32" : "float32") samples (16 hex digits)"
            )
        }
        return header + lines
    }
}

extension GoldenTests {
    /// `blocks(of:)` for M4A, which libsndfile does not read: decoded by `M4AReader`
    /// (libavformat + libavcodec, up to the edit list's duration) as float32, hashed alike.
    static func m4aBlocks(of path: String) throws -> [String] {
        let file = try MP4File(path: path)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let probe = try M4AProbe(path: path)
        var pending: [Float] = []
        var lines: [String] = []
        var first = 0
        func flush(_ frames: Int) {
            var hasher = SHA256Hasher()
            pending.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<(frames * probe.channels * 4)])) }
            lines.append("\(lines.count), \(first), \(frames), \(SHA256Hasher.hex(hasher.finalize()).prefix(16))")
            first += frames
            pending.removeFirst(frames * probe.channels)
        }
        try M4AReader.decode(descriptor: fd, path: path) { samples, frames in
            pending.append(contentsOf: samples[0..<(frames * probe.channels)])
            while pending.count >= blockFrames * probe.channels { flush(blockFrames) }
        }
        if !pending.isEmpty { flush(pending.count / probe.channels) }
        return [
            "# format: m4a (MP4, \(probe.codec)), read with M4AReader (libavformat + libavcodec) as float32",
            "# sample rate: \(file.movieTimescale)",
            "# channels: \(probe.channels)",
            "# frames: \(first)",
            "# edit list: \(file.audioEdits.map { $0.map { "\($0.duration) frames from \($0.mediaTime)" }.joined(separator: ", ") } ?? "none")",
            "# blocks of \(blockFrames) frames: index, first frame, frames, SHA-256 of the block's float32 samples (16 hex digits)",
        ] + lines
    }

    /// The codec and channel count of an M4A file's audio track, from ffprobe-free MP4 boxes:
    /// the sample entry's type (`mp4a`, `alac`) and channel count.
    struct M4AProbe {
        var codec: String
        var channels: Int

        init(path: String) throws {
            let file = try MP4File(path: path)
            let bytes = file.bytes
            // the sound sample entry: 'mp4a' or 'alac' followed by the AudioSampleEntry fields
            for name in ["mp4a", "alac"] {
                let needle = Array(name.utf8)
                var k = 4
                while k + 28 < bytes.count {
                    if bytes[k..<(k + 4)].elementsEqual(needle), bytes[k + 4..<(k + 10)].allSatisfy({ $0 == 0 }) {
                        codec = name == "mp4a" ? "AAC" : "ALAC"
                        channels = Int(bytes[k + 20]) << 8 | Int(bytes[k + 21])
                        return
                    }
                    k += 1
                }
            }
            throw TestFailure("\(path): no mp4a or alac sample entry")
        }
    }
}

// MARK: - Reading and comparing

/// A framecrc text split into its header (`#` lines before `# cues`), block lines, sidecar lines
/// (`# sidecar: …`) and cue sheet lines.
struct Golden {
    var header: [String] = []
    var blocks: [String] = []
    var sidecars: [String] = []
    var cues: [String] = []

    init(_ text: String) {
        var inCues = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if inCues {
                cues.append(line)
            } else if line == "# cues" {
                inCues = true
            } else if line.hasPrefix("# sidecar: ") {
                sidecars.append(line)
            } else if line.hasPrefix("#") {
                header.append(line)
            } else if !line.isEmpty {
                blocks.append(line)
            }
        }
    }

    /// What differs, in words; nil when nothing does.
    static func difference(expected: Golden, actual: Golden) -> String? {
        var words: [String] = []
        if expected.header != actual.header {
            let changed = zip(expected.header, actual.header).filter { $0 != $1 }.map { "'\($0)' is now '\($1)'" }
            let extra = expected.header.count == actual.header.count ? [] : ["\(expected.header.count) header lines are now \(actual.header.count)"]
            words.append("header: " + (changed + extra).joined(separator: "; "))
        }
        let count = max(expected.blocks.count, actual.blocks.count)
        let differing = (0..<count).filter {
            $0 >= expected.blocks.count || $0 >= actual.blocks.count || !sameBlock(expected.blocks[$0], actual.blocks[$0])
        }
        if let index = differing.first {
            let line = index < expected.blocks.count ? expected.blocks[index] : actual.blocks[index]
            let firstFrame = Int(line.split(separator: ",").dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            let rate = Double(expected.header.value("sample rate") ?? actual.header.value("sample rate") ?? "") ?? 0
            let time = rate > 0 ? String(format: "%.3f s", Double(firstFrame) / rate) : "?"
            let missing =
                expected.blocks.count == actual.blocks.count ? "" : " (\(expected.blocks.count) blocks are now \(actual.blocks.count))"
            words.append("\(differing.count) of \(count) blocks differ\(missing); the first is block \(index), from frame \(firstFrame) (\(time))")
        } else {
            words.append("the \(count) blocks of sound are the same")
        }
        let sidecarsDiffer = expected.sidecars != actual.sidecars
        if sidecarsDiffer {
            let count = max(expected.sidecars.count, actual.sidecars.count)
            for k in 0..<count where k >= expected.sidecars.count || k >= actual.sidecars.count || expected.sidecars[k] != actual.sidecars[k] {
                let was = k < expected.sidecars.count ? String(expected.sidecars[k].dropFirst(2)) : "(none)"
                let now = k < actual.sidecars.count ? String(actual.sidecars[k].dropFirst(2)) : "(none)"
                words.append("'\(was)' is now '\(now)'")
            }
        }
        let byLevel = expected.header.contains { $0.contains("RMS and peak level") }
        let cuesDiffer =
            expected.cues.count != actual.cues.count || zip(expected.cues, actual.cues).contains { !sameCueLine($0, $1, byLevel: byLevel) }
        if cuesDiffer {
            let lines = max(expected.cues.count, actual.cues.count)
            let at = (0..<lines).first {
                $0 >= expected.cues.count || $0 >= actual.cues.count || !sameCueLine(expected.cues[$0], actual.cues[$0], byLevel: byLevel)
            }!
            let was = at < expected.cues.count ? expected.cues[at].trimmingCharacters(in: .whitespaces) : "(no line)"
            let now = at < actual.cues.count ? actual.cues[at].trimmingCharacters(in: .whitespaces) : "(no line)"
            words.append("the cue sheet differs from its line \(at + 1): '\(was)' is now '\(now)'")
        } else {
            words.append("the cue sheet is the same")
        }
        if expected.header == actual.header && differing.isEmpty && !sidecarsDiffer && !cuesDiffer { return nil }
        return words.joined(separator: "; ")
    }

    /// How far a level-only block (RMS, peak: dB) and a level-only cue sheet's measured
    /// loudness and true peak (LU, dB) may move between processors.
    static let levelTolerance = (rms: 0.1, peak: 0.5, measured: 0.1)

    /// `rms -23.41 dBFS, peak -5.12 dBFS` of interleaved samples (`-inf` for digital silence).
    static func levels(_ samples: ArraySlice<Float>) -> String {
        var sum = 0.0, peak: Float = 0
        for x in samples {
            sum += Double(x) * Double(x)
            peak = max(peak, abs(x))
        }
        func dB(_ v: Double) -> String { v > 0 ? String(format: "%.2f", 20 * log10(v)) : "-inf" }
        return "rms \(dB((sum / Double(max(samples.count, 1))).squareRoot())) dBFS, peak \(dB(Double(peak))) dBFS"
    }

    /// Two block lines are the same: equal text, or level lines at the same place within `levelTolerance`.
    static func sameBlock(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        func parts(_ line: String) -> (place: String, rms: Double, peak: Double)? {
            let fields = line.components(separatedBy: ", ")
            guard fields.count == 5, fields[3].hasPrefix("rms "), fields[4].hasPrefix("peak ") else { return nil }
            func number(_ f: String) -> Double? { Double(f.split(separator: " ")[1]) }
            guard let rms = number(fields[3]), let peak = number(fields[4]) else { return nil }
            return (fields[0..<3].joined(separator: ", "), rms, peak)
        }
        guard let x = parts(a), let y = parts(b), x.place == y.place else { return false }
        return abs(x.rms - y.rms) <= levelTolerance.rms && abs(x.peak - y.peak) <= levelTolerance.peak
    }

    /// Two cue sheet lines are the same: equal text, or (for a level-only case) the measured
    /// `loudness_lufs` or `true_peak_dbtp` within `levelTolerance.measured`.
    static func sameCueLine(_ a: String, _ b: String, byLevel: Bool) -> Bool {
        if a == b { return true }
        guard byLevel else { return false }
        func measured(_ line: String) -> (key: String, value: Double)? {
            let t = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "")
            for key in ["\"loudness_lufs\": ", "\"true_peak_dbtp\": "] where t.hasPrefix(key) {
                return Double(t.dropFirst(key.count)).map { (key, $0) }
            }
            return nil
        }
        guard let x = measured(a), let y = measured(b), x.key == y.key else { return false }
        return abs(x.value - y.value) <= levelTolerance.measured
    }
}

extension [String] {
    /// The value of a `# key: value` header line.
    fileprivate func value(_ key: String) -> String? {
        first { $0.hasPrefix("# \(key): ") }.map { String($0.dropFirst(key.count + 4)) }
    }
}
