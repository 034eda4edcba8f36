import AudioCore
import AudioIO
import Foundation

/// Joins shard folders into one bundle: every track once, none missing, none in conflict.
public enum Merge {
    public struct Failure: Error, CustomStringConvertible {
        public let messages: [String]
        public var description: String { messages.joined(separator: "\n") }
    }

    /// Merges `inputs` (shard output folders) into `output`; returns the number of tracks.
    public static func run(inputs: [String], output: String) throws -> Int {
        var problems: [String] = []
        var entries: [String: (entry: Manifest.Entry, folder: String)] = [:]
        var expected: Set<String> = []
        var shardCount: Int?
        var seenShards: Set<Int> = []
        for folder in inputs {
            let manifest: Manifest
            do {
                guard let read = try Manifest.read(folder: folder) else {
                    problems.append("\(folder): error: no \(Manifest.fileName) (not a render output folder)")
                    continue
                }
                manifest = read
            } catch {
                problems.append("\(folder)/\(Manifest.fileName): error: \(error)")
                continue
            }
            if let shard = manifest.shard {
                if let count = shardCount, count != shard.count {
                    problems.append("\(folder): error: shard \(shard.index)/\(shard.count) does not match the others' count \(count)")
                }
                shardCount = shard.count
                if !seenShards.insert(shard.index).inserted {
                    problems.append("\(folder): error: shard \(shard.index)/\(shard.count) given twice")
                }
                expected.formUnion(shard.catalog)
            }
            for entry in manifest.tracks {
                if let other = entries[entry.id] {
                    if other.entry != entry {
                        problems.append("\(folder): error: track '\(entry.id)' conflicts with the one in \(other.folder) (different sha256 or metadata)")
                    }
                    continue
                }
                entries[entry.id] = (entry, folder)
            }
        }
        if let count = shardCount {
            for k in 1...count where !seenShards.contains(k) {
                problems.append("error: shard \(k)/\(count) is missing")
            }
        }
        for id in expected.sorted() where entries[id] == nil {
            problems.append("error: track '\(id)' is missing from every shard")
        }
        // every listed file must be there, whole
        for (id, item) in entries.sorted(by: { $0.key < $1.key }) {
            let audio = (item.folder as NSString).appendingPathComponent(item.entry.file)
            let cues = (item.folder as NSString).appendingPathComponent(item.entry.cues)
            guard let data = FileManager.default.contents(atPath: audio) else {
                problems.append("\(audio): error: track '\(id)' is listed but its audio file is missing")
                continue
            }
            if SHA256Hasher.hex(SHA256Hasher.digest([UInt8](data))) != item.entry.sha256 {
                problems.append("\(audio): error: track '\(id)' does not match the sha256 in its manifest")
            }
            if !FileManager.default.fileExists(atPath: cues) {
                problems.append("\(cues): error: track '\(id)' has no cue sheet")
            }
        }
        if !problems.isEmpty { throw Failure(messages: problems) }

        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for (_, item) in entries.sorted(by: { $0.key < $1.key }) {
            for name in [item.entry.file, item.entry.cues] {
                try copy((item.folder as NSString).appendingPathComponent(name), to: (output as NSString).appendingPathComponent(name))
            }
        }
        let merged = Manifest(tracks: entries.values.map(\.entry))
        let file = try AtomicOutputFile(path: (output as NSString).appendingPathComponent(Manifest.fileName))
        try file.write(Array(merged.jsonText().utf8))
        try file.commit()
        return entries.count
    }

    /// Copies a file whole, appearing under its name only when complete.
    private static func copy(_ source: String, to destination: String) throws {
        if (try? FileManager.default.attributesOfItem(atPath: source)[.systemFileNumber] as? Int)
            == (try? FileManager.default.attributesOfItem(atPath: destination)[.systemFileNumber] as? Int),
           FileManager.default.fileExists(atPath: destination), (source as NSString).standardizingPath == (destination as NSString).standardizingPath {
            return
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw ManifestError(path: source, reason: "cannot read")
        }
        let file = try AtomicOutputFile(path: destination)
        try file.write([UInt8](data))
        try file.commit()
    }
}
