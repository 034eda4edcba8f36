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
            guard let digest = SHA256Hasher.hex(ofFile: audio) else {
                problems.append("\(audio): error: track '\(id)' is listed but its audio file is missing")
                continue
            }
            if digest != item.entry.sha256 {
                problems.append("\(audio): error: track '\(id)' does not match the sha256 in its manifest")
            }
            if !FileManager.default.fileExists(atPath: cues) {
                problems.append("\(cues): error: track '\(id)' has no cue sheet")
            }
            for name in item.entry.sidecars ?? [] {
                let sidecar = (item.folder as NSString).appendingPathComponent(name)
                if !FileManager.default.fileExists(atPath: sidecar) {
                    problems.append("\(sidecar): error: track '\(id)' lists this sidecar but it is missing")
                }
            }
        }
        if !problems.isEmpty { throw Failure(messages: problems) }

        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        for (_, item) in entries.sorted(by: { $0.key < $1.key }) {
            for name in item.entry.files {
                try copy((item.folder as NSString).appendingPathComponent(name), to: (output as NSString).appendingPathComponent(name))
            }
        }
        let merged = Manifest(tracks: entries.values.map(\.entry))
        try AtomicOutputFile.write(Array(merged.jsonText().utf8), to: (output as NSString).appendingPathComponent(Manifest.fileName))
        try PreviewIndex.write(folder: output, manifest: merged)
        return entries.count
    }

    /// Copies a file whole, in 1 MiB pieces, appearing under its name only when complete.
    private static func copy(_ source: String, to destination: String) throws {
        if let from = realPath(source), from == realPath(destination) { return }
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw ManifestError(path: source, reason: "cannot read")
        }
        defer { try? input.close() }
        let file = try AtomicOutputFile(path: destination)
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try file.write([UInt8](chunk))
        }
        try file.commit()
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
