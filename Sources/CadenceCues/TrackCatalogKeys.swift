// MARK: - Keys of catalog.json, written once

// The one list of `catalog.json`'s keys, in the order they are written. Three programs walk these
// lists through exhaustive `switch`es, so a key added here does not compile until each has decided
// what to do with it: the renderer's writer (`Manifest.jsonText()` in Catalog, which calls them
// `Manifest.Key`, `BundleKey`, `ShardKey` and `EntryKey`), its strict reader (`Manifest.decode`), and
// the app's `TrackCatalog.decode(from:)`.

extension TrackCatalog {
    /// The keys of the document.
    public enum Key: String, CaseIterable, Sendable {
        /// `format`: always `cadence-catalog`.
        case format
        /// `version`: the catalog's version (`1`).
        case version
        /// `shard`: which part of a sharded render this is (`ShardKey`); only in a shard's catalog.
        case shard
        /// `bundle`: the bundled tracks' bytes and budget (`BundleKey`).
        case bundle
        /// `sessions`: the catalog's sessions in order, each with its tracks in order (`SessionKey`; cues-v1.2).
        case sessions
        /// `tracks`: every track, in catalog order (`TrackKey`): session by session.
        case tracks
    }

    /// The keys of `bundle`: the bundled tracks' audio bytes and the budget they were held to.
    public enum BundleKey: String, CaseIterable, Sendable {
        /// `bytes`: the bundled tracks' total audio bytes.
        case bytes
        /// `budget`: the render's `--bundle-budget` in bytes, or `null`.
        case budget
    }

    /// The keys of `shard`, written only by a render of one shard (`render --shard K/N`).
    public enum ShardKey: String, CaseIterable, Sendable {
        /// `index`: this shard's number K of `--shard K/N`, from 1.
        case index
        /// `count`: the number of shards, N.
        case count
        /// `catalog`: the ids of the whole catalog, every shard's tracks.
        case catalog
    }

    /// The keys of a track; the renderer leaves `sidecars` out of a track without the list.
    public enum TrackKey: String, CaseIterable, Sendable {
        /// `id`: the track's id.
        case id
        /// `title`: the track's title.
        case title
        /// `category`: its category, or `null`.
        case category
        /// `duration`: its length in seconds.
        case duration
        /// `file`: the audio file's name.
        case file
        /// `cues`: the cue sheet's name.
        case cues
        /// `sidecars`: the sidecar files' names.
        case sidecars
        /// `premium`: whether the track is premium.
        case premium
        /// `sort_order`: its place in its category, or `null`.
        case sortOrder = "sort_order"
        /// `session`: the id of its session, the recipe it was rendered from (cues-v1.2).
        case session
        /// `locale`: its locale tag as written in the recipe's `locales:`, or `null`.
        case locale
        /// `variant`: `{"duration": SECONDS}` for a variant, else `null`.
        case variant
        /// `drafts`: how many of its cue sheet's `voice` entries are drafts (0 when none).
        case drafts
        /// `delivery`: `bundled` or `on-demand`.
        case delivery
        /// `frames`: the audio's length in frames (the renderer's; the app reads the cue sheet's).
        case frames
        /// `sample_rate`: the audio's rate in Hz (the renderer's).
        case sampleRate = "sample_rate"
        /// `sha256`: the hash of the audio file's bytes.
        case sha256
        /// `bytes`: the audio file's size.
        case bytes
        /// `loudness_lufs`: the audio's loudness (the renderer's).
        case loudnessLUFS = "loudness_lufs"
        /// `true_peak_dbtp`: the audio's true peak (the renderer's).
        case truePeakDBTP = "true_peak_dbtp"
        /// `fingerprint`: what the track was rendered from, so the renderer knows when to render it again.
        case fingerprint
    }

    /// The keys of a session of `sessions` (cues-v1.2), in the order they are written.
    public enum SessionKey: String, CaseIterable, Sendable {
        /// `id`: the session's id, its recipe's.
        case id
        /// `title`: its title in the default locale (its first track's).
        case title
        /// `category`: its category in the default locale, or `null`.
        case category
        /// `premium`: whether it is premium.
        case premium
        /// `sort_order`: its place in the catalog, or `null`.
        case sortOrder = "sort_order"
        /// `tracks`: the ids of its tracks (renditions), in order.
        case tracks
    }

    /// The keys of a track's `variant` object.
    public enum VariantKey: String, CaseIterable, Sendable {
        /// `duration`: the variant's length in seconds, as its recipe's `variants.duration` gives it.
        case duration
    }
}

extension TrackCatalog.Key: JSONKey {}
extension TrackCatalog.SessionKey: JSONKey {}
extension TrackCatalog.VariantKey: JSONKey {}
extension TrackCatalog.BundleKey: JSONKey {}
extension TrackCatalog.ShardKey: JSONKey {}
extension TrackCatalog.TrackKey: JSONKey {}
