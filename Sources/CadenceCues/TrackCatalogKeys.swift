// MARK: - Keys of catalog.json, written once

// The one list of `catalog.json`'s keys, in the order they are written. Three programs walk these
// lists through exhaustive `switch`es, so a key added here does not compile until each has decided
// what to do with it: the renderer's writer (`Manifest.jsonText()` in Catalog, which calls them
// `Manifest.Key`, `BundleKey`, `ShardKey` and `EntryKey`), its strict reader (`Manifest.decode`), and
// the app's `TrackCatalog.decode(from:)`.

extension TrackCatalog {
    /// The keys of the document.
    public enum Key: String, CaseIterable, Sendable {
        case format, version, shard, bundle, tracks
    }

    /// The keys of `bundle`: the bundled tracks' audio bytes and the budget they were held to.
    public enum BundleKey: String, CaseIterable, Sendable {
        case bytes, budget
    }

    /// The keys of `shard`, written only by a render of one shard (`render --shard K/N`).
    public enum ShardKey: String, CaseIterable, Sendable {
        case index, count, catalog
    }

    /// The keys of a track; the renderer leaves `sidecars` out of a track without the list.
    public enum TrackKey: String, CaseIterable, Sendable {
        case id, title, category, duration, file, cues, sidecars, premium
        case sortOrder = "sort_order"
        case delivery
        case frames
        case sampleRate = "sample_rate"
        case sha256, bytes
        case loudnessLUFS = "loudness_lufs"
        case truePeakDBTP = "true_peak_dbtp"
        case fingerprint
    }
}

extension TrackCatalog.Key: JSONKey {}
extension TrackCatalog.BundleKey: JSONKey {}
extension TrackCatalog.ShardKey: JSONKey {}
extension TrackCatalog.TrackKey: JSONKey {}
