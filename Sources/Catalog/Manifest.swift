import CadenceCues
import Foundation

/// `catalog.json`: the bundle manifest the player apps load, one entry per track.
///
/// Written with keys in a fixed order and tracks sorted by id, so the same
/// catalog gives the same bytes; a shard's manifest also says which shard it is
/// and which ids the whole catalog holds, so that `merge` can find what is missing.
public struct Manifest: Sendable, Equatable {
    public static let fileName = "catalog.json"

    public var tracks: [Entry]
    public var shard: ShardInfo?

    public init(tracks: [Entry], shard: ShardInfo? = nil) {
        self.tracks = tracks.sorted { $0.id < $1.id }
        self.shard = shard
    }

    public struct Entry: Sendable, Equatable, Codable {
        public var id: String
        public var title: String
        public var category: String?
        public var duration: Double
        public var file: String
        public var cues: String
        /// Sidecar files beside the audio (`<id>.vtt`, `<id>.chapters.json`, `<id>.svg`).
        public var sidecars: [String]?
        public var premium: Bool
        public var sortOrder: Int?
        public var frames: Int64
        public var sampleRate: Int
        public var sha256: String
        public var bytes: Int64
        public var loudnessLUFS: Double?
        public var truePeakDBTP: Double?
        public var fingerprint: String

        enum CodingKeys: String, CodingKey {
            case id, title, category, duration, file, cues, sidecars, premium, frames, sha256, bytes, fingerprint
            case sortOrder = "sort_order", sampleRate = "sample_rate", loudnessLUFS = "loudness_lufs", truePeakDBTP = "true_peak_dbtp"
        }
    }
}

extension Manifest.Entry {
    /// Every file of the track: audio, cue sheet, sidecars.
    public var files: [String] { [file, cues] + (sidecars ?? []) }
}

extension Manifest {
    public struct ShardInfo: Sendable, Equatable, Codable {
        public var index: Int
        public var count: Int
        /// Every id of the whole catalog, sorted.
        public var catalog: [String]
    }

    private struct Document: Codable {
        var format: String
        var version: Int
        var shard: ShardInfo?
        var tracks: [Entry]
    }

    /// Reads a manifest; nil when the file does not exist.
    public static func read(folder: String) throws -> Manifest? {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let document = try JSONDecoder().decode(Document.self, from: data)
        guard document.format == "cadence-catalog", document.version == 1 else {
            throw ManifestError(path: path, reason: "not a cadence-catalog version 1 manifest")
        }
        return Manifest(tracks: document.tracks, shard: document.shard)
    }

    /// The manifest as JSON, keys in a fixed order, one track per block.
    public func jsonText() -> String {
        var j = JSONText()
        j.open()
        j.field("format", "cadence-catalog")
        j.field("version", 1)
        if let shard {
            j.open("shard")
            j.field("index", shard.index)
            j.field("count", shard.count)
            j.open("catalog", array: true)
            for id in shard.catalog { j.inlineValue(JSONText.string(id)) }
            j.close(array: true)
            j.close()
        }
        j.open("tracks", array: true)
        for t in tracks {
            j.open()
            j.field("id", t.id)
            j.field("title", t.title)
            j.field("category", t.category)
            j.field("duration", t.duration)
            j.field("file", t.file)
            j.field("cues", t.cues)
            if let sidecars = t.sidecars {
                j.raw("sidecars", "[" + sidecars.map(JSONText.string).joined(separator: ", ") + "]")
            }
            j.field("premium", t.premium)
            j.raw("sort_order", t.sortOrder.map(String.init) ?? "null")
            j.field("frames", t.frames)
            j.field("sample_rate", t.sampleRate)
            j.field("sha256", t.sha256)
            j.field("bytes", t.bytes)
            j.field("loudness_lufs", t.loudnessLUFS)
            j.field("true_peak_dbtp", t.truePeakDBTP)
            j.field("fingerprint", t.fingerprint)
            j.close()
        }
        j.close(array: true)
        j.close()
        return j.text
    }
}

/// A manifest that cannot be used.
public struct ManifestError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): error: \(reason)" }
}
