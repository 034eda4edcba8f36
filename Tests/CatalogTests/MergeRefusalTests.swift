import Foundation
import Testing

/// Two real shards of a small catalog, made by `render --shard`, in `<root>/shards/d1` and `d2`,
/// with a file outside them (`<root>/secret.txt`) that a tampered manifest may point at.
struct RenderedShards {
    let catalog: TestCatalog
    let folders: [String]
    let secret: String

    var root: String { catalog.root }
    var manifest: String { folders[0] + "/catalog.json" }

    init() throws {
        // two tracks with synth beds, one per shard
        let catalog = try TestCatalog(TestCatalog.small.filter { $0.id == "charlie-drone" || $0.id == "delta-noise" }, label: "merge-refuse")
        self.catalog = catalog
        folders = try (1...2).map { k in
            let folder = catalog.folder.file("shards/d\(k)")
            let result = try catalog.render(into: folder, ["--shard", "\(k)/2"])
            guard result.status == 0, !result.signaled else { throw TestFailure("shard \(k)/2: \(result)") }
            return folder
        }
        secret = try catalog.folder.write("the secret, not a track\n", to: "secret.txt")
    }

    /// The first track of shard 1's manifest, as JSON values.
    func firstTrack() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest)))
        guard let top = object as? [String: Any], let tracks = top["tracks"] as? [[String: Any]], let first = tracks.first else {
            throw TestFailure("\(manifest): no first track")
        }
        return first
    }

    /// The manifest of shard 1 with `bundle.bytes` replaced by `change` of its bundled tracks' total
    /// as written; returns where the value starts.
    @discardableResult
    func setBundleBytes(_ change: (Int) -> Int) throws -> (line: Int, column: Int) {
        var lines = try String(contentsOfFile: manifest, encoding: .utf8).components(separatedBy: "\n")
        let marker = "\"bytes\": "
        guard let bundle = lines.firstIndex(where: { $0.contains("\"bundle\": {") }),
            let index = lines[bundle...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(marker) }),
            let range = lines[index].range(of: marker)
        else { throw TestFailure("no bundle.bytes in \(manifest)") }
        let line = lines[index]
        let comma = line.hasSuffix(",") ? "," : ""
        let written = Int(line[range.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: ", "))) ?? 0
        lines[index] = String(line[..<range.upperBound]) + String(change(written)) + comma
        try lines.joined(separator: "\n").write(toFile: manifest, atomically: false, encoding: .utf8)
        return (index + 1, line.distance(from: line.startIndex, to: range.upperBound) + 1)
    }

    /// The manifest of shard 1 with the value of the first `"key": ` line replaced by `json` (a
    /// track's key in the first track, not the `bundle`'s `bytes`); returns the 1-based line and
    /// column where that value starts (where an error about it must point).
    @discardableResult
    func setFirst(_ key: String, to json: String) throws -> (line: Int, column: Int) {
        var lines = try String(contentsOfFile: manifest, encoding: .utf8).components(separatedBy: "\n")
        let marker = "\"\(key)\": "
        let shardKeys: Set = ["index", "count", "catalog"]
        let from = shardKeys.contains(key) ? 0 : (lines.firstIndex { $0.contains("\"tracks\": [") } ?? 0)
        guard let index = lines[from...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(marker) }),
            let range = lines[index].range(of: marker)
        else { throw TestFailure("no \(marker) in \(manifest)") }
        let line = lines[index]
        let comma = line.hasSuffix(",") ? "," : ""
        lines[index] = String(line[..<range.upperBound]) + json + comma
        try lines.joined(separator: "\n").write(toFile: manifest, atomically: false, encoding: .utf8)
        return (index + 1, line.distance(from: line.startIndex, to: range.upperBound) + 1)
    }

    /// The manifest of shard 1 with the value of the first session's `"key": ` line replaced by `json`.
    func setSession(_ key: String, to json: String) throws {
        var lines = try String(contentsOfFile: manifest, encoding: .utf8).components(separatedBy: "\n")
        let marker = "\"\(key)\": "
        let from = lines.firstIndex { $0.contains("\"sessions\": [") } ?? 0
        guard let index = lines[from...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(marker) }),
            let range = lines[index].range(of: marker)
        else { throw TestFailure("no session's \(marker) in \(manifest)") }
        let line = lines[index]
        lines[index] = String(line[..<range.upperBound]) + json + (line.hasSuffix(",") ? "," : "")
        try lines.joined(separator: "\n").write(toFile: manifest, atomically: false, encoding: .utf8)
    }

    /// Where the value of the first `"key": ` line starts, without changing it.
    func place(of key: String) throws -> (line: Int, column: Int) {
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        guard let at = position(of: "\"\(key)\": ", in: text) else { throw TestFailure("no \(key) in \(manifest)") }
        return (at.line, at.column + key.utf8.count + 4)
    }
}

/// One way of tampering with shard 1: what it changes, and the error `merge` must give.
struct Tamper: Sendable, CustomTestStringConvertible {
    let label: String
    /// The exit status: 65 for bad data, 66 for a manifest that cannot be read as one.
    let status: Int32
    /// The key path the error names; nil when the error is about the file as a whole.
    let key: String?
    /// Makes the change; returns where the error must point (nil: no line and column, only the file).
    let apply: @Sendable (RenderedShards) throws -> (line: Int, column: Int)?

    var testDescription: String { label }

    static func digest(_ path: String) throws -> String { try sha256(ofFile: path) }
    static func size(_ path: String) throws -> Int64 { try FileIdentity(path).size }

    static let all: [Tamper] = [
        Tamper(label: "file ../../secret.txt with its sha256 and bytes", status: 65, key: "tracks[0].file") { s in
            try s.setFirst("sha256", to: "\"\(try digest(s.secret))\"")
            try s.setFirst("bytes", to: "\(try size(s.secret))")
            return try s.setFirst("file", to: "\"../../secret.txt\"")
        },
        Tamper(label: "file an absolute path with its sha256 and bytes", status: 65, key: "tracks[0].file") { s in
            try s.setFirst("sha256", to: "\"\(try digest(s.secret))\"")
            try s.setFirst("bytes", to: "\(try size(s.secret))")
            return try s.setFirst("file", to: "\"\(s.secret)\"")
        },
        Tamper(label: "cues with ../", status: 65, key: "tracks[0].cues") { s in
            let cues = try #require(try s.firstTrack()["cues"] as? String)
            try FileManager.default.copyItem(atPath: s.folders[0] + "/" + cues, toPath: s.root + "/shards/" + cues)
            return try s.setFirst("cues", to: "\"../\(cues)\"")
        },
        Tamper(label: "a sidecar with ../", status: 65, key: "tracks[0].sidecars[0]") { s in
            let sidecars = try #require(try s.firstTrack()["sidecars"] as? [String])
            try FileManager.default.copyItem(atPath: s.folders[0] + "/" + sidecars[0], toPath: s.root + "/shards/" + sidecars[0])
            let at = try s.setFirst("sidecars", to: "[\"../\(sidecars[0])\"]")
            return (at.line, at.column + 1)
        },
        Tamper(label: "an id not in the shard's catalog, its files renamed to match", status: 65, key: "tracks[0].id") { s in
            let track = try s.firstTrack()
            let id = try #require(track["id"] as? String)
            let names =
                [try #require(track["file"] as? String), try #require(track["cues"] as? String)]
                + (try #require(track["sidecars"] as? [String]))
            for name in names {
                try FileManager.default.moveItem(
                    atPath: s.folders[0] + "/" + name, toPath: s.folders[0] + "/" + name.replacingOccurrences(of: id, with: "intruder"))
            }
            try s.setFirst("file", to: "\"\(names[0].replacingOccurrences(of: id, with: "intruder"))\"")
            try s.setFirst("cues", to: "\"\(names[1].replacingOccurrences(of: id, with: "intruder"))\"")
            try s.setFirst(
                "sidecars",
                to: "[" + names.dropFirst(2).map { "\"\($0.replacingOccurrences(of: id, with: "intruder"))\"" }.joined(separator: ", ") + "]")
            return try s.setFirst("id", to: "\"intruder\"")
        },
        // a track's bytes changed alone: the bundle's total no longer adds up
        Tamper(label: "bytes wrong", status: 65, key: "bundle.bytes") { s in
            try s.setFirst("bytes", to: "5")
            return try s.setBundleBytes { $0 }
        },
        // and with the total made to agree: the file's size gives it away
        Tamper(label: "bytes wrong, bundle total adjusted", status: 65, key: "tracks[0].bytes") { s in
            let old = try #require(try s.firstTrack()["bytes"] as? Int)
            let at = try s.setFirst("bytes", to: "5")
            try s.setBundleBytes { $0 - old + 5 }
            return at
        },
        Tamper(label: "sha256 of another file", status: 65, key: "tracks[0].sha256") { s in
            try s.setFirst("sha256", to: "\"\(try digest(s.secret))\"")
        },
        Tamper(label: "sha256 in upper case", status: 65, key: "tracks[0].sha256") { s in
            let sha = try #require(try s.firstTrack()["sha256"] as? String)
            return try s.setFirst("sha256", to: "\"\(sha.uppercased())\"")
        },
        Tamper(label: "shard index 3 of 2", status: 65, key: "shard.index") { s in try s.setFirst("index", to: "3") },
        Tamper(label: "shard count 0", status: 65, key: "shard.count") { s in try s.setFirst("count", to: "0") },
        Tamper(label: "a title of 300 KB", status: 65, key: "tracks[0].title") { s in
            try s.setFirst("title", to: "\"" + String(repeating: "Long title ", count: 300_000 / 11) + "\"")
        },
        Tamper(label: "a manifest over the size limit (padded with spaces)", status: 65, key: nil) { s in
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: s.manifest))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0x20, count: 16 << 20))
            try handle.close()
            return (1, 1)
        },
        Tamper(label: "frames 1e400 (valid JSON)", status: 65, key: "tracks[0].frames") { s in try s.setFirst("frames", to: "1e400") },
        Tamper(label: "a negative frame count", status: 65, key: "tracks[0].frames") { s in try s.setFirst("frames", to: "-48000") },
        Tamper(label: "duration that is not frames / sample_rate", status: 65, key: "tracks[0].duration") { s in
            try s.setFirst("duration", to: "4000.0")
        },
        // what the page and the apps show: each checked against the track's cue sheet
        Tamper(label: "loudness_lufs 200", status: 65, key: "tracks[0].loudness_lufs") { s in try s.setFirst("loudness_lufs", to: "200.0") },
        Tamper(label: "loudness_lufs off by 0.01", status: 65, key: "tracks[0].loudness_lufs") { s in
            let lufs = try #require(try s.firstTrack()["loudness_lufs"] as? Double)
            return try s.setFirst("loudness_lufs", to: "\(((lufs + 0.01) * 100).rounded() / 100)")
        },
        Tamper(label: "loudness_lufs null", status: 65, key: "tracks[0].loudness_lufs") { s in try s.setFirst("loudness_lufs", to: "null") },
        Tamper(label: "true_peak_dbtp -200", status: 65, key: "tracks[0].true_peak_dbtp") { s in
            try s.setFirst("true_peak_dbtp", to: "-200.0")
        },
        // its session's too, so that only the cue sheet can tell
        Tamper(label: "another title", status: 65, key: "tracks[0].title") { s in
            try s.setSession("title", to: "\"Another Title\"")
            return try s.setFirst("title", to: "\"Another Title\"")
        },
        Tamper(label: "another category", status: 65, key: "tracks[0].category") { s in
            try s.setSession("category", to: "\"Elsewhere\"")
            return try s.setFirst("category", to: "\"Elsewhere\"")
        },
        // cues-v1.2: drafts against the cue sheet, the session against the sessions, a catalog.json from before sessions
        Tamper(label: "drafts not the cue sheet's", status: 65, key: "tracks[0].drafts") { s in try s.setFirst("drafts", to: "3") },
        Tamper(label: "a track naming another session", status: 65, key: "tracks[0].session") { s in
            try s.setFirst("session", to: "\"elsewhere\"")
        },
        Tamper(label: "a catalog.json written before sessions", status: 65, key: "sessions") { s in
            let text = try String(contentsOfFile: s.manifest, encoding: .utf8)
            try SessionEndToEndTests.older(text).write(toFile: s.manifest, atomically: false, encoding: .utf8)
            return (1, 1)
        },
        Tamper(label: "a duplicate key", status: 65, key: "tracks[0].premium") { s in
            guard let premium = try s.firstTrack()["premium"] as? Bool else { throw TestFailure("no premium in \(s.manifest)") }
            let value = premium ? "true" : "false"
            let at = try s.setFirst("premium", to: "\(value), \"premium\": \(value)")
            return (at.line, at.column + value.count + 2)
        },
        Tamper(label: "a FIFO named catalog.json", status: 66, key: nil) { s in
            try FileManager.default.removeItem(atPath: s.manifest)
            guard mkfifo(s.manifest, 0o644) == 0 else { throw TestFailure("mkfifo: \(String(cString: strerror(errno)))") }
            return nil
        },
        Tamper(label: "a symbolic link as the track file, pointing outside", status: 65, key: "tracks[0].file") { s in
            let file = try #require(try s.firstTrack()["file"] as? String)
            try FileManager.default.moveItem(atPath: s.folders[0] + "/" + file, toPath: s.root + "/" + file)
            try FileManager.default.createSymbolicLink(atPath: s.folders[0] + "/" + file, withDestinationPath: "../../" + file)
            return try s.place(of: "file")
        },
    ]
}

/// `render merge` takes nothing on trust: every path, id, number and file of a shard's manifest is checked,
/// and a refused merge writes nothing.
@Suite("Merge refuses untrusted shards")
struct MergeRefusalTests {
    @Test("a tampered shard manifest is refused at its key, with nothing written anywhere", arguments: Tamper.all)
    func tampered(_ tamper: Tamper) throws {
        let shards = try RenderedShards()
        // an older bundle where one merge goes: it must stay as it was
        let older = shards.catalog.folder.file("older")
        try #require(try runRender(["merge"] + shards.folders + ["-o", older], in: shards.root).status == 0)
        let location = try tamper.apply(shards)

        for output in [shards.catalog.folder.file("fresh"), older] {
            let before = treeSnapshot(shards.root)
            let result = try runRender(["merge", shards.folders[0], shards.folders[1], "-o", output], in: shards.root)
            #expect(result.status == tamper.status && !result.signaled, "\(tamper.label): \(result)")
            let after = treeSnapshot(shards.root)
            #expect(snapshotChanges(before, after) == [], "\(tamper.label): a refused merge changed \(snapshotChanges(before, after))")

            let errors = result.stderr.split(separator: "\n").map(String.init)
            #expect(!errors.isEmpty && errors.allSatisfy { $0.contains(": error: ") }, "\(tamper.label): \(result.stderr)")
            let place = location.map { ":\($0.line):\($0.column)" } ?? ""
            let prefix = "shards/d1/catalog.json\(place): error: " + (tamper.key.map { "\($0): " } ?? "")
            #expect(errors.contains { $0.contains(prefix) }, "\(tamper.label): no error starting \(prefix): \(result.stderr)")
            #expect(errors.allSatisfy { $0.utf8.count < 1000 }, "\(tamper.label): an error line of \(errors.map(\.utf8.count).max() ?? 0) bytes")
        }
    }

    @Test("the shards untampered merge, and byte for byte as a render of the whole catalog")
    func honest() throws {
        let shards = try RenderedShards()
        let full = shards.catalog.folder.file("full")
        try #require(try shards.catalog.render(into: full).status == 0)
        let merged = shards.catalog.folder.file("merged")
        let result = try runRender(["merge"] + shards.folders + ["-o", merged], in: shards.root)
        #expect(result.status == 0 && !result.signaled, "\(result)")
        #expect(try folderDifferences(merged, full) == [])
    }

    /// Folders on the command line that cannot be merged as given: the folders `merge` is given
    /// (from the rendered shards and an empty folder), the exit status and the error text it must print.
    struct Folders: Sendable, CustomTestStringConvertible {
        let label: String
        let status: Int32
        let expected: String
        /// The output folder `dist` is a file already.
        var outputIsAFile = false
        let folders: @Sendable (_ shards: RenderedShards, _ empty: String) -> [String]

        var testDescription: String { label }

        static let all: [Folders] = [
            Folders(label: "a shard folder given twice (d1 and d1/)", status: 64, expected: "shards/d1/: error: is the folder ") {
                s, _ in s.folders + [s.folders[0] + "/"]
            },
            Folders(label: "a shard folder that does not exist", status: 66, expected: "nowhere: error: no such shard folder") {
                s, _ in s.folders + [s.root + "/nowhere"]
            },
            Folders(label: "a folder without catalog.json", status: 66, expected: "empty/catalog.json: error: no catalog.json") {
                s, empty in s.folders + [empty]
            },
            Folders(label: "shard 2 of 2 not given", status: 66, expected: "error: shard 2/2 is missing") { s, _ in [s.folders[0]] },
            Folders(
                label: "the output is a file (nothing can be created there)", status: 73,
                expected: "dist: error: mkdir failed: a file of that name is in the way", outputIsAFile: true
            ) { s, _ in s.folders },
        ]
    }

    @Test("folders that cannot be merged as given are refused, with nothing written", arguments: Folders.all)
    func folders(_ c: Folders) throws {
        let shards = try RenderedShards()
        let empty = try shards.catalog.folder.folder("empty")
        let dist = shards.catalog.folder.file("dist")
        if c.outputIsAFile { try shards.catalog.folder.write("not a folder\n", to: "dist") }
        let before = treeSnapshot(shards.root)
        let result = try runRender(["merge"] + c.folders(shards, empty) + ["-o", dist], in: shards.root)
        #expect(result.status == c.status && !result.signaled, "\(result)")
        #expect(result.stderr.contains(c.expected), "no '\(c.expected)': \(result.stderr)")
        #expect(snapshotChanges(before, treeSnapshot(shards.root)) == [])
    }
}
