import CadenceCues
import Recipe

extension Manifest {
    /// The ceilings and ranges a manifest must keep to, so that no `catalog.json`, however
    /// hostile, costs `merge` unbounded memory or time or puts nonsense into a bundle.
    ///
    /// One table: each constant names where it is checked, and breaking one is an error at the
    /// key (or the file) that breaks it. The catalog render keeps to the same limits (`CatalogPlan`
    /// refuses a title or category the reader would refuse), so an honest shard always merges.
    public enum Limits {
        /// The largest manifest file: 16 MiB (a catalog of 10,000 tracks is about 7 MB).
        /// Checked on the open file before reading it (`ManifestFile.read`), which reads at most
        /// one byte more, so a huge file costs no more than a 16 MiB one.
        public static let maxBytes = 16 << 20
        /// The longest `title`, in bytes of UTF-8: 256. Control characters are refused in it.
        public static let maxTitleBytes = 256
        /// The longest `category`, in bytes of UTF-8: 256. Control characters are refused in it.
        public static let maxCategoryBytes = 256
        /// The most shards a catalog may be split into (`shard.count`, and `--shard K/N`): 10,000.
        public static let maxShards = 10_000
        /// Accepted `sample_rate` values, in Hz: those of a recipe, 8,000 to 384,000 (`RecipeLimits.sampleRates`).
        public static let sampleRates = RecipeLimits.sampleRates
        /// The longest track, in seconds: 24 h, as for a recipe (`RecipeLimits.maxDuration`).
        /// `frames` must lie in 1…`maxSeconds` × `sample_rate`, and `duration` be `frames / sample_rate`.
        public static let maxSeconds: Int64 = RecipeLimits.maxDuration.nanoseconds / 1_000_000_000
        /// The largest audio file (`bytes`): 2 TiB, above the largest track a recipe allows: 24 h at
        /// 384 kHz, 8 channels, 32-bit float WAV, 86,400 × 384,000 × 8 × 4 bytes ≈ 1.06 TB (`RecipeLimits`
        /// `maxDuration`, `sampleRates`, `channelCounts`). `merge` also checks it is the file's size.
        public static let maxTrackBytes: Int64 = 1 << 41
        /// The largest `bundle.bytes` and `bundle.budget`: 100,000 tracks at `maxTrackBytes` (a 16 MiB
        /// manifest holds fewer entries than that).
        public static let maxBundleBytes: Int64 = maxTrackBytes * 100_000
        /// The largest cue sheet a bundle may hold: 64 MiB (a 24 h track of 100,000 phases takes about 30 MB).
        /// `merge` reads each cue sheet to check it describes its track, and refuses a larger one unread.
        public static let maxCueSheetBytes = 64 << 20
        /// Accepted `loudness_lufs` and `true_peak_dbtp` values (or null), in dB: -200 to +200.
        public static let levels: ClosedRange<Double> = -200...200
        /// The most draft prompts a track's `drafts` may count: 10,000,000 (a 24 h track of 1 s phases
        /// with a draft on every one has 86,400).
        public static let maxDrafts: Int64 = 10_000_000
        /// The longest `locale` tag, in bytes: 35 (BCP 47's longest well-formed tags are shorter in practice).
        public static let maxLocaleBytes = 35
        /// The most problems reported for one manifest: 100, then "too many problems".
        public static let maxProblems = 100
        /// How deep arrays and objects may nest (the parser's cap, `JSONParser.maximumDepth`): 64; a manifest needs 4.
        public static let maxDepth = JSONParser.maximumDepth
    }
}
