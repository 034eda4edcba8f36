import Foundation

extension TrackCatalog {
    /// The catalog's file name in a rendered bundle.
    public static let fileName = "catalog.json"
    /// The value of `format` in every catalog.
    public static let formatName = "cadence-catalog"
    /// The major version this reader understands, and the version the renderer writes.
    public static let supportedVersion = 1

    /// Reads a `catalog.json` as the renderer writes it, for a player app.
    ///
    /// In order: the bytes must be JSON (UTF-8, a byte-order mark allowed); `format` must be
    /// `cadence-catalog`; `version` a number whose whole part is `supportedVersion` (`1`, `1.1`),
    /// checked before anything else. Then every key the app needs is read with its type, the
    /// first problem thrown with its path (`tracks[2].premium`):
    ///
    /// - each track's `id`, `title`, `file`, `cues` (strings), `duration` (a finite number of
    ///   seconds, not negative), `premium` (a boolean), `sha256` (a string) and `bytes` (a whole
    ///   number, not negative) are required; `category` and `sort_order` may be null or absent;
    /// - what older catalogs lack is filled in: no `delivery` is `bundled`, no `sidecars` is none,
    ///   no `bundle` is the bundled tracks' bytes without a budget;
    /// - `file`, `cues` and each sidecar must be a file name without a folder part (no `/`, `\`,
    ///   `.` or `..`), so that `audioURL(in:)` stays in its folder; ids must be unique and not
    ///   empty; `delivery` must be `bundled` or `on-demand`; `bundle.bytes`, when there, must be the
    ///   bundled tracks' total and `bundle.budget` a whole number or null.
    ///
    /// Keys it does not know are ignored, wherever they are, and so are the renderer's own
    /// (`frames`, `sample_rate`, the levels and `fingerprint`: the cue sheet has the audio's exact
    /// frames; `shard`: a shard's catalog reads as the tracks it holds).
    ///
    /// - Throws: `TrackCatalogError`: `.malformed` (with a 1-based line and column),
    ///   `.notACatalog`, `.unsupportedVersion`, `.missingKey`, `.typeMismatch`, `.invalidValue`.
    public static func decode(from data: Data) throws(TrackCatalogError) -> TrackCatalog {
        let root = try reading { () throws(CueSheetError) in try JSONObjectReader(try JSONParser.parse([UInt8](data)), path: "") }
        let format = try reading { () throws(CueSheetError) in try root.string(Key.format) }
        guard format == formatName else { throw .notACatalog(format: format) }
        let version = try reading { () throws(CueSheetError) in try root.majorVersion(Key.version) }
        guard version.major == Int64(supportedVersion) else { throw .unsupportedVersion(version.written) }
        return try reading { () throws(CueSheetError) in try TrackCatalog(reading: root) }
    }

    /// Reads a catalog from JSON text: `decode(from: Data(text.utf8))`.
    ///
    /// - Throws: `TrackCatalogError`, as `decode(from:)` for data.
    public static func decode(from text: String) throws(TrackCatalogError) -> TrackCatalog {
        try decode(from: Data(text.utf8))
    }

    /// The JSON reader's problems (shared with cue sheets) as a catalog's.
    private static func reading<T>(_ body: () throws(CueSheetError) -> T) throws(TrackCatalogError) -> T {
        do throws(CueSheetError) {
            return try body()
        } catch {
            throw TrackCatalogError(error)
        }
    }

    // Every key is decided on through a `switch` over its object's key enum (TrackCatalogKeys.swift),
    // in the order they are written: read, or skipped with the reason.

    fileprivate init(reading root: JSONObjectReader) throws(CueSheetError) {
        var tracks: [Track] = []
        var bundle: JSONObjectReader?
        for key in Key.allCases {
            switch key {
            case .format, .version: continue  // checked first, by decode(from:)
            case .shard: continue  // which part of a sharded render this is: for `render merge`
            case .bundle: bundle = try root.optionalObject(key)
            case .sessions: continue  // cues-v1.2: not read here yet (the CadenceCues part of issue 32)
            case .tracks:
                var seen: [String: Int] = [:]
                for (i, o) in try root.objects(key).enumerated() {
                    let track = try Track(reading: o)
                    if let first = seen[track.id] {
                        throw .invalidValue(
                            path: o.path(TrackKey.id),
                            reason: "\(JSONText.string(track.id)) is also the id of \(key.rawValue)[\(first)]; expected each id once")
                    }
                    seen[track.id] = i
                    tracks.append(track)
                }
            }
        }
        let info: BundleInfo?
        if let bundle { info = try BundleInfo(reading: bundle, bundled: Self.bundledBytes(of: tracks)) } else { info = nil }
        self.init(tracks: tracks, bundle: info)
    }
}

extension TrackCatalog.Track {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        // every branch of the switch below assigns its key's value or throws
        var id = "", title = "", category: String?, duration = 0.0, file = "", cues = "", sidecars: [String] = [], premium = false
        var sortOrder: Int?, delivery = TrackCatalog.Delivery.bundled, sha256 = "", bytes: Int64 = 0
        for key in TrackCatalog.TrackKey.allCases {
            switch key {
            case .id:
                id = try o.string(key)
                if id.isEmpty { throw .invalidValue(path: o.path(key), reason: "expected an id, found \"\"") }
            case .title: title = try o.string(key)
            case .category: category = try o.optionalString(key)
            case .duration:
                duration = try o.double(key)
                if duration < 0 {
                    throw .invalidValue(path: o.path(key), reason: "expected seconds, not negative, found \(JSONText.number(duration))")
                }
            case .file: file = try Self.fileName(try o.string(key), path: o.path(key))
            case .cues: cues = try Self.fileName(try o.string(key), path: o.path(key))
            case .sidecars:
                let names = try o.optionalStrings(key) ?? []
                for (i, name) in names.enumerated() { _ = try Self.fileName(name, path: "\(o.path(key))[\(i)]") }
                sidecars = names
            case .premium: premium = try o.bool(key)
            case .sortOrder: sortOrder = try o.optionalInt(key)
            case .delivery: delivery = try Self.delivery(o, key)
            case .sha256: sha256 = try o.string(key)
            case .bytes:
                bytes = try o.int64(key)
                if bytes < 0 { throw .invalidValue(path: o.path(key), reason: "expected a size in bytes, not negative, found \(bytes)") }
            // the renderer's bookkeeping: the track's cue sheet has the audio's exact frames, rate and levels;
            // the fingerprint tells the renderer which tracks to render again
            case .frames, .sampleRate, .loudnessLUFS, .truePeakDBTP, .fingerprint: continue
            // cues-v1.2: not read here yet (the CadenceCues part of issue 32)
            case .session, .locale, .variant, .drafts: continue
            }
        }
        self.init(
            id: id, title: title, category: category, duration: duration, file: file, cues: cues, sidecars: sidecars, premium: premium,
            sortOrder: sortOrder, delivery: delivery, sha256: sha256, bytes: bytes)
    }

    /// `name` if it is a file name without a folder part: not empty, not `.` or `..`, without `/`, `\` or control characters.
    private static func fileName(_ name: String, path: String) throws(CueSheetError) -> String {
        let plain =
            !name.isEmpty && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
        guard plain else {
            throw .invalidValue(path: path, reason: "expected a file name without a folder part, found \(JSONText.string(name))")
        }
        return name
    }

    /// `delivery`: absent (a catalog older than catalog delivery) is bundled.
    private static func delivery(_ o: JSONObjectReader, _ key: TrackCatalog.TrackKey) throws(CueSheetError) -> TrackCatalog.Delivery {
        guard o.members[key.rawValue] != nil else { return .bundled }
        let word = try o.string(key)
        guard let delivery = TrackCatalog.Delivery(rawValue: word) else {
            let known = TrackCatalog.Delivery.allCases.map { JSONText.string($0.rawValue) }.joined(separator: " or ")
            throw .invalidValue(path: o.path(key), reason: "expected \(known), found \(JSONText.string(word))")
        }
        return delivery
    }
}

extension TrackCatalog.BundleInfo {
    /// `bundle`, whose `bytes` must be `bundled`, the total of the tracks whose delivery is bundled.
    fileprivate init(reading o: JSONObjectReader, bundled: Int64) throws(CueSheetError) {
        var bytes: Int64 = 0, budget: Int64?
        for key in TrackCatalog.BundleKey.allCases {
            switch key {
            case .bytes:
                bytes = try o.int64(key)
                guard bytes == bundled else {
                    throw .invalidValue(
                        path: o.path(key), reason: "expected \(bundled) (the bytes of the tracks whose delivery is bundled), found \(bytes)")
                }
            case .budget:
                budget = try o.optionalInt64(key)
                if let budget, budget < 0 {
                    throw .invalidValue(path: o.path(key), reason: "expected a size in bytes or null, not negative, found \(budget)")
                }
            }
        }
        self.init(bytes: bytes, budget: budget)
    }
}
