import Catalog
import CatalogManifest
import Foundation
import Testing

/// A shard manifest as `render --shard 1/2` writes one, byte for byte: the reader's reference document.
let referenceManifest = """
    {
      "format": "cadence-catalog",
      "version": 1,
      "shard": {
        "index": 1,
        "count": 2,
        "catalog": [
          "alpha",
          "bravo"
        ]
      },
      "bundle": {
        "bytes": 123456,
        "budget": null
      },
      "sessions": [
        {
          "id": "alpha",
          "title": "Alpha",
          "category": "Focus",
          "premium": false,
          "sort_order": 10,
          "tracks": ["alpha"]
        }
      ],
      "tracks": [
        {
          "id": "alpha",
          "title": "Alpha",
          "category": "Focus",
          "duration": 4.0,
          "file": "alpha.flac",
          "cues": "alpha.cues.json",
          "sidecars": ["alpha.vtt", "alpha.svg"],
          "premium": false,
          "sort_order": 10,
          "session": "alpha",
          "locale": null,
          "variant": null,
          "drafts": 0,
          "delivery": "bundled",
          "frames": 192000,
          "sample_rate": 48000,
          "sha256": "d21e606139e1dba6bd3a90ce5446641e512a792835ccbcf9119762290320af8f",
          "bytes": 123456,
          "loudness_lufs": -16.0,
          "true_peak_dbtp": -1.32,
          "fingerprint": "bc4decdf1b52c7429d4dbd8f2dd621050093eb691194b0c6f8346093fc463a8c"
        }
      ]
    }

    """

/// `referenceManifest` as a Cadence before sessions (issue 32) wrote it: no `sessions`, no track `session`, `locale`, `variant`, `drafts`.
let legacyManifest = """
    {
      "format": "cadence-catalog",
      "version": 1,
      "shard": {
        "index": 1,
        "count": 2,
        "catalog": [
          "alpha",
          "bravo"
        ]
      },
      "bundle": {
        "bytes": 123456,
        "budget": null
      },
      "tracks": [
        {
          "id": "alpha",
          "title": "Alpha",
          "category": "Focus",
          "duration": 4.0,
          "file": "alpha.flac",
          "cues": "alpha.cues.json",
          "sidecars": ["alpha.vtt", "alpha.svg"],
          "premium": false,
          "sort_order": 10,
          "delivery": "bundled",
          "frames": 192000,
          "sample_rate": 48000,
          "sha256": "d21e606139e1dba6bd3a90ce5446641e512a792835ccbcf9119762290320af8f",
          "bytes": 123456,
          "loudness_lufs": -16.0,
          "true_peak_dbtp": -1.32,
          "fingerprint": "bc4decdf1b52c7429d4dbd8f2dd621050093eb691194b0c6f8346093fc463a8c"
        }
      ]
    }

    """

/// The keys of a track entry in `referenceManifest`, in order, and those that may be null or absent.
let referenceEntryKeys = [
    "id", "title", "category", "duration", "file", "cues", "sidecars", "premium", "sort_order", "session", "locale", "variant", "drafts",
    "delivery", "frames", "sample_rate", "sha256",
    "bytes",
    "loudness_lufs", "true_peak_dbtp", "fingerprint",
]
/// The keys of a track its session repeats (cues-v1.2: a session has its first track's).
let sessionRepeats: Set<String> = ["category", "sort_order"]
let optionalEntryKeys: Set<String> = ["category", "sidecars", "sort_order", "locale", "variant", "delivery", "loudness_lufs", "true_peak_dbtp"]

/// `text` with `old` replaced by `new` in its tracks only (after `"tracks": [`) when they hold it, else everywhere:
/// a session repeats some keys of its first track (`title`, `premium`…), and a case changes the track's.
func replacingInTracks(_ text: String, _ old: String, _ new: String) -> String {
    guard let tracks = text.range(of: "\"tracks\": ["), text.range(of: old, range: tracks.upperBound..<text.endIndex) != nil else {
        return text.replacingOccurrences(of: old, with: new)
    }
    return String(text[..<tracks.upperBound]) + text[tracks.upperBound...].replacingOccurrences(of: old, with: new)
}

/// The place of `mark` in the tracks of `text` when they hold it, else its first place.
func placeInTracks(of mark: String, in text: String) -> (line: Int, column: Int)? {
    if let tracks = text.range(of: "\"tracks\": ["), text.range(of: mark, range: tracks.upperBound..<text.endIndex) != nil {
        let before = text[..<tracks.upperBound].components(separatedBy: mark).count - 1
        return position(of: mark, in: text, occurrence: before + 1)
    }
    return position(of: mark, in: text)
}

/// The diagnostics of decoding `text` as `m.json`, one line each; empty when it decodes.
func manifestErrors(_ text: String) -> [String] {
    do {
        _ = try Manifest.decode(Array(text.utf8), file: "m.json")
        return []
    } catch {
        return error.diagnostics.map(\.description)
    }
}

/// One change to the reference manifest and the error it must give.
struct BadManifest: Sendable, CustomTestStringConvertible {
    let label: String
    let old: String
    let new: String
    /// The key path the error names.
    let path: String
    /// The text right before the place the error points at (its first occurrence in the changed document).
    let mark: String
    /// Words the message must hold.
    let says: String
    /// The place, when no `mark` can name it (it is not the first occurrence of anything on its line).
    let place: (line: Int, column: Int)?

    var testDescription: String { label }

    init(_ label: String, _ old: String, _ new: String, path: String, mark: String = "", at place: (Int, Int)? = nil, says: String) {
        (self.label, self.old, self.new, self.path, self.mark, self.place, self.says) = (label, old, new, path, mark, place, says)
    }

    static func field(_ key: String, _ label: String, from old: String, to new: String, path: String? = nil, says: String) -> BadManifest {
        BadManifest(label, "\"\(key)\": \(old)", "\"\(key)\": \(new)", path: path ?? "tracks[0].\(key)", mark: "\"\(key)\": ", says: says)
    }

    static let all: [BadManifest] = [
        field(
            "file", "file ../../secret.txt", from: "\"alpha.flac\"", to: "\"../../secret.txt\"",
            says:
                "expected 'alpha.flac'-style name: the track's own id and an audio extension (wav, flac, ogg, opus, mp3, caf, m4a), found '../../secret.txt'"
        ),
        field("file", "file an absolute path", from: "\"alpha.flac\"", to: "\"/etc/passwd\"", says: "found '/etc/passwd'"),
        field("file", "file in a subfolder", from: "\"alpha.flac\"", to: "\"sub/alpha.flac\"", says: "found 'sub/alpha.flac'"),
        field("file", "file hidden", from: "\"alpha.flac\"", to: "\".alpha.flac\"", says: "found '.alpha.flac'"),
        field("file", "file of another track's id", from: "\"alpha.flac\"", to: "\"bravo.flac\"", says: "found 'bravo.flac'"),
        field("file", "file with an extension that is not audio", from: "\"alpha.flac\"", to: "\"alpha.txt\"", says: "found 'alpha.txt'"),
        field("file", "file a number", from: "\"alpha.flac\"", to: "5", says: "expected a file name, found 5"),
        field(
            "cues", "cues with ../", from: "\"alpha.cues.json\"", to: "\"../alpha.cues.json\"",
            says: "expected 'alpha.cues.json', the track's own id, found '../alpha.cues.json'"),
        BadManifest(
            "a sidecar with ../", "\"alpha.svg\"]", "\"../alpha.svg\"]", path: "tracks[0].sidecars[1]", mark: "\"alpha.vtt\", ",
            says:
                "expected one of 'alpha.vtt', 'alpha.chapters.json', 'alpha.svg', 'alpha.captions.vtt', 'alpha.ahap', 'alpha.haptics.json' (the track's own id), found '../alpha.svg'"
        ),
        BadManifest(
            "a sidecar listed twice", "\"alpha.svg\"]", "\"alpha.vtt\" ]", path: "tracks[0].sidecars[1]", mark: "\"alpha.vtt\", ",
            says: "expected each sidecar once, found 'alpha.vtt' again"),
        field(
            "sidecars", "sidecars not an array", from: "[\"alpha.vtt\", \"alpha.svg\"]", to: "\"alpha.svg\"",
            says: "expected an array of file names or null, found 'alpha.svg'"),
        field(
            "id", "an id with a slash", from: "\"alpha\"", to: "\"../alpha\"",
            says: "expected an id (letters, digits, '.', '_' or '-', starting with a letter or digit, at most 100 characters), found '../alpha'"),
        field(
            "id", "an id not in the shard's catalog", from: "\"alpha\"", to: "\"charlie\"",
            says: "expected an id listed in this shard's shard.catalog, found 'charlie'"),
        // the catalog's second id is on line 9, column 7
        BadManifest(
            "catalog ids out of order", "\"alpha\",\n      \"bravo\"", "\"bravo\",\n      \"alpha\"", path: "shard.catalog[1]",
            at: (9, 7), says: "expected the ids sorted, each once, found 'alpha' after 'bravo'"),
        BadManifest(
            "a catalog id given twice", "\"bravo\"\n", "\"alpha\"\n", path: "shard.catalog[1]", at: (9, 7),
            says: "expected the ids sorted, each once, found 'alpha' after 'alpha'"),
        BadManifest(
            "a catalog id that is not valid", "\"bravo\"\n", "\".hidden\"\n", path: "shard.catalog[1]", at: (9, 7),
            says: "expected an id (letters"),
        field(
            "index", "shard index 3 of 2", from: "1", to: "3", path: "shard.index", says: "expected a shard number from 1 to 2 (shard.count), found 3"
        ),
        field("index", "shard index 0", from: "1", to: "0", path: "shard.index", says: "found 0"),
        field("count", "shard count 0", from: "2", to: "0", path: "shard.count", says: "expected a number of shards from 1 to 10000, found 0"),
        field("count", "shard count over the limit", from: "2", to: "10001", path: "shard.count", says: "found 10001"),
        field(
            "frames", "frames 1e400", from: "192000", to: "1e400",
            says: "expected a number of frames from 1 to 33177600000 (24 h at 384000 Hz), found 1e400"),
        field("frames", "frames negative", from: "192000", to: "-192000", says: "found -192000"),
        field("frames", "frames not whole", from: "192000", to: "192000.5", says: "found 192000.5"),
        field("frames", "frames as a string", from: "192000", to: "\"192000\"", says: "found '192000'"),
        field(
            "frames", "frames over 24 h at the track's rate", from: "192000", to: "5000000000",
            says: "expected a number of frames from 1 to 4147200000 (24 h at 48000 Hz), found 5000000000"),
        field(
            "duration", "duration that is not frames / sample_rate", from: "4.0", to: "4.5",
            says: "expected 4.0 (frames / sample_rate: 192000 frames at 48000 Hz), found 4.5"),
        field("duration", "duration 1e400", from: "4.0", to: "1e400", says: "expected a number, found 1e400"),
        field("sample_rate", "sample rate 0", from: "48000", to: "0", says: "expected a sample rate in Hz from 8000 to 384000, found 0"),
        // the track's bytes, not the bundle's (its line holds the same text, less indented)
        BadManifest(
            "bytes 0", "      \"bytes\": 123456", "      \"bytes\": 0", path: "tracks[0].bytes", at: (45, 16),
            says: "expected a size in bytes from 1 to 2199023255552, found 0"),
        BadManifest("bytes 1e30", "      \"bytes\": 123456", "      \"bytes\": 1e30", path: "tracks[0].bytes", at: (45, 16), says: "found 1e30"),
        field("sha256", "sha256 in upper case", from: "\"d21e", to: "\"D21E", says: "expected a SHA-256 as 64 lower-case hex digits, found 'D21E"),
        field(
            "sha256", "sha256 too short", from: "\"d21e606139e1dba6", to: "\"d21e6061\", \"x\": \"",
            says: "expected a SHA-256 as 64 lower-case hex digits"),
        field("fingerprint", "fingerprint not hex", from: "\"bc4d", to: "\"zz4d", says: "expected a SHA-256 as 64 lower-case hex digits"),
        field(
            "title", "a title of 300 bytes", from: "\"Alpha\"", to: "\"" + String(repeating: "x", count: 300) + "\"",
            says: "expected at most 256 bytes of UTF-8, found 300 bytes"),
        field(
            "title", "a title with a line break", from: "\"Alpha\"", to: "\"Al\\npha\"",
            says: "expected text without control characters, found 'Al\\npha'"),
        field("title", "a title with a C1 control", from: "\"Alpha\"", to: "\"Al\\u0085pha\"", says: "expected text without control characters"),
        field("title", "a title that is null", from: "\"Alpha\"", to: "null", says: "expected a string, found null"),
        field(
            "category", "a category of 257 bytes", from: "\"Focus\"", to: "\"" + String(repeating: "\u{E9}", count: 128) + "c\"",
            says: "expected at most 256 bytes of UTF-8, found 257 bytes"),
        field("premium", "premium a string", from: "false", to: "\"no\"", says: "expected true or false, found 'no'"),
        field("sort_order", "sort order not whole", from: "10", to: "1.5", says: "expected a whole number or null, found 1.5"),
        field("loudness_lufs", "loudness 1e400", from: "-16.0", to: "1e400", says: "expected a level from -200 to 200 dB or null, found 1e400"),
        field("true_peak_dbtp", "true peak out of range", from: "-1.32", to: "-1000", says: "found -1000"),
        BadManifest(
            "another format", "\"cadence-catalog\"", "\"session-cues\"", path: "format", mark: "\"format\": ",
            says: "expected 'cadence-catalog' (a catalog manifest), found 'session-cues'"),
        BadManifest(
            "version 2", "\"version\": 1", "\"version\": 2", path: "version", mark: "\"version\": ",
            says: "expected 1 (this reader reads cadence-catalog version 1), found 2"),
        BadManifest(
            "a key twice in one object", "\"premium\": false,", "\"premium\": false, \"premium\": true,", path: "tracks[0].premium",
            mark: "\"premium\": false, ", says: "malformed JSON: key \"premium\" appears twice in one object"),
        BadManifest(
            "nesting deeper than 64 in an unknown key", "\"version\": 1,",
            "\"version\": 1, \"deep\": " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + ",",
            path: "deep" + String(repeating: "[0]", count: 63), mark: "\"deep\": " + String(repeating: "[", count: 63),
            says: "malformed JSON: arrays and objects nested more than 64 deep"),
    ]
}

@Suite("The manifest reader, in process")
struct ManifestReaderTests {
    @Test("the reference manifest reads, and writes back byte for byte")
    func roundTrip() throws {
        let manifest = try Manifest.decode(Array(referenceManifest.utf8), file: "m.json")
        #expect(manifest.jsonText() == referenceManifest)
        #expect(try Manifest.decode(Array(manifest.jsonText().utf8), file: "m.json") == manifest)
        let entry = try #require(manifest.tracks.first)
        #expect(entry.file == "alpha.flac" && entry.sidecars == ["alpha.vtt", "alpha.svg"] && entry.frames == 192000 && entry.bytes == 123456)
        #expect(manifest.shard == Manifest.ShardInfo(index: 1, count: 2, catalog: ["alpha", "bravo"]))
    }

    @Test("each refused change is reported once, at its line and column, with its key path, on one line", arguments: BadManifest.all)
    func refused(_ c: BadManifest) throws {
        #expect(referenceManifest.contains(c.old), "the case does not apply: \(c.old)")
        let text = replacingInTracks(referenceManifest, c.old, c.new)
        let errors = manifestErrors(text)
        let place = try c.place ?? #require(placeInTracks(of: c.mark, in: text).map { ($0.line, $0.column + c.mark.count) }, "no \(c.mark)")
        let prefix = "m.json:\(place.line):\(place.column): error: \(c.path): "
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix(prefix) == true, "expected \(prefix)…, got \(errors)")
        #expect(errors.first?.contains(c.says) == true, "expected '\(c.says)' in \(errors)")
        #expect(errors.allSatisfy { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }, "\(errors)")
    }

    @Test("the entry keys are those the writer writes, and every one is read with its type", arguments: referenceEntryKeys)
    func everyKeyIsRead(_ key: String) throws {
        #expect(Manifest.EntryKey.allCases.map(\.rawValue) == referenceEntryKeys)
        let line = try #require(referenceManifest.split(separator: "\n").last { $0.hasPrefix("      \"\(key)\": ") })
        // an object where the value belongs (an array for `variant`, an object): refused at the key, so the reader reads it
        let wrongValue = key == "variant" ? "[]" : "{}"
        let wrong = replacingInTracks(referenceManifest, String(line), "      \"\(key)\": \(wrongValue)" + (line.hasSuffix(",") ? "," : ""))
        let errors = manifestErrors(wrong)
        #expect(errors.count == 1 && errors[0].contains(": error: tracks[0].\(key): expected "), "\(key): \(errors)")
        // absent: an error for a required key, at the track's '{'; null for an optional one
        // (a key its session repeats goes from both, or the session is refused for differing from its track)
        let without =
            (sessionRepeats.contains(key)
            ? referenceManifest.replacingOccurrences(of: line + "\n", with: "") : replacingInTracks(referenceManifest, line + "\n", ""))
            .replacingOccurrences(of: ",\n    }", with: "\n    }")
        if optionalEntryKeys.contains(key) {
            let manifest = try Manifest.decode(Array(without.utf8), file: "m.json")
            // absent: sidecars are left out, a delivery is bundled (an older manifest), the others null
            let written = key == "sidecars" ? "\"premium\"" : key == "delivery" ? "\"delivery\": \"bundled\"" : "\"\(key)\": null"
            #expect(manifest.jsonText().contains(written))
            #expect(!(key == "sidecars" && manifest.jsonText().contains("\"sidecars\"")))
        } else {
            #expect(manifestErrors(without) == ["m.json:27:5: error: tracks[0].\(key): missing (a required key)"])
        }
    }

    @Test("keys it does not know are ignored, wherever they are")
    func unknownKeys() throws {
        let reference = try Manifest.decode(Array(referenceManifest.utf8), file: "m.json")
        let extended =
            referenceManifest
            .replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1, \"later\": {\"x\": [1, 2.5e3, null]},")
            .replacingOccurrences(of: "\"count\": 2,", with: "\"count\": 2, \"weights\": [1, 2],")
            .replacingOccurrences(of: "\"premium\": false,", with: "\"premium\": false, \"channels\": 2,")
        #expect(try Manifest.decode(Array(extended.utf8), file: "m.json") == reference)
    }

    /// Texts that are not a manifest as a whole, and the start of their one error.
    static let wholeDocuments: [(label: String, text: String, error: String)] = [
        ("empty", "", "m.json:1:1: error: malformed JSON: empty document"),
        ("an array", "[]", "m.json:1:1: error: expected an object (a cadence-catalog manifest), found an array"),
        ("a trailing comma", "{\"format\": \"cadence-catalog\",}", "m.json:1:30: error: malformed JSON: expected a key in double quotes"),
        ("no format", "{}", "m.json:1:1: error: format: missing (a required key)"),
        (
            "over 16 MiB", referenceManifest + String(repeating: " ", count: 16 << 20),
            "m.json:1:1: error: the manifest is \(referenceManifest.utf8.count + (16 << 20)) bytes; expected at most 16 MiB (16777216 bytes)"
        ),
    ]

    @Test("a text that is not a manifest at all gives one error at its place", arguments: wholeDocuments.indices)
    func wholeDocument(_ i: Int) throws {
        let c = Self.wholeDocuments[i]
        let errors = manifestErrors(c.text)
        #expect(errors.count == 1 && errors[0].hasPrefix(c.error), "\(c.label): \(errors)")
    }

    @Test("a manifest with a problem in every track stops after 100 problems")
    func manyProblems() throws {
        let track = "{\"id\": \"../x\"}"
        let text =
            "{\"format\": \"cadence-catalog\", \"version\": 1, \"tracks\": [" + Array(repeating: track, count: 500).joined(separator: ",\n") + "]}"
        let errors = manifestErrors(text)
        #expect(errors.count == 101, "\(errors.count) errors")
        #expect(errors.last == "m.json:1:1: error: too many problems; stopped after 100")
    }
}
