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
    ///   bundled tracks' total and `bundle.budget` a whole number or null;
    /// - cues-v1.2: `sessions`, when there, is a list of sessions, each with `id` (a string, not empty,
    ///   each once), `title`, `premium`, `tracks` (the ids of at least one track) required and
    ///   `category` and `sort_order` that may be null; every track is listed by exactly one session, a
    ///   listed id must be a track's, and each track's `session` (then required) must name the session
    ///   that lists it; a session's renditions all have a `locale` or none has. A track's `locale` is a
    ///   well-formed BCP 47 tag or null, its `variant` `{"duration": SECONDS}` (above 0) or null, its
    ///   `drafts` a whole number, not negative. Nothing is counted on trust: renditions are matched to
    ///   tracks by id. A catalog without `sessions` (written before them) reads each track as a session of
    ///   its own (`sessions(of:)`), and its tracks must not name a session; absent `locale`, `variant`
    ///   and `drafts` are none, none and 0.
    ///
    /// Keys it does not know are ignored, wherever they are, and so are the renderer's own
    /// (`frames`, `sample_rate`, the levels and `fingerprint`: the cue sheet has the audio's exact
    /// frames; `shard`: a shard's catalog reads as the tracks it holds, and its sessions leave out the
    /// tracks other shards hold).
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
        var tracks: [(track: Track, reader: JSONObjectReader)] = []
        var bundle: JSONObjectReader?
        var isShard = false
        for key in Key.allCases {
            switch key {
            case .format, .version: continue  // checked first, by decode(from:)
            case .shard: isShard = root.members[key.rawValue] != nil  // for `render merge`; here, a session may list other shards' tracks
            case .bundle: bundle = try root.optionalObject(key)
            case .sessions: continue  // cues-v1.2: read once the tracks are known, below
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
                    tracks.append((track, o))
                }
            }
        }
        let sessions = try root.optionalObjects(Key.sessions).map { list throws(CueSheetError) in
            try Self.sessions(reading: list, tracks: tracks, isShard: isShard)
        }
        let all = tracks.map(\.track)
        let info: BundleInfo?
        if let bundle { info = try BundleInfo(reading: bundle, bundled: Self.bundledBytes(of: all)) } else { info = nil }
        if let sessions {
            self.init(ordered: all, sessions: sessions, bundle: info)
        } else {
            // a catalog written before sessions: each track is a session of its own, and names none
            for (track, o) in tracks where o.members[TrackKey.session.rawValue] != nil {
                throw .invalidValue(
                    path: o.path(TrackKey.session),
                    reason: "names session \(JSONText.string(track.session)), but the catalog has no \(Key.sessions.rawValue) list")
            }
            self.init(ordered: all, sessions: Self.sessions(of: all), bundle: info)
        }
    }

    /// `sessions` (cues-v1.2), checked against the tracks: ids unique and not empty; each session lists at
    /// least one track, each an id of `tracks`; every track listed by exactly one session, which is the one
    /// its `session` names; a session's renditions all with a locale or all without. In a shard's catalog, a
    /// session's ids of tracks other shards hold are left out (and a session left without any).
    private static func sessions(
        reading list: [JSONObjectReader], tracks: [(track: Track, reader: JSONObjectReader)], isShard: Bool
    ) throws(CueSheetError) -> [Session] {
        let trackIndex = Dictionary(tracks.enumerated().map { ($0.element.track.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let tracksKey = Key.tracks.rawValue
        var sessionIndex: [String: Int] = [:]
        var sessionIDs: [String] = []
        // each track id: the session listing it and the position in that session's list
        var listedBy: [String: (session: Int, item: Int)] = [:]
        var sessions: [Session] = []
        for (i, o) in list.enumerated() {
            var id = "", title = "", category: String?, premium = false, sortOrder: Int?, renditions: [Track] = []
            for key in SessionKey.allCases {
                switch key {
                case .id:
                    id = try o.string(key)
                    if id.isEmpty { throw .invalidValue(path: o.path(key), reason: "expected an id, found \"\"") }
                    if let first = sessionIndex[id] {
                        throw .invalidValue(
                            path: o.path(key),
                            reason: "\(JSONText.string(id)) is also the id of \(Key.sessions.rawValue)[\(first)]; expected each id once")
                    }
                    sessionIndex[id] = i
                    sessionIDs.append(id)
                case .title: title = try o.string(key)
                case .category: category = try o.optionalString(key)
                case .premium: premium = try o.bool(key)
                case .sortOrder: sortOrder = try o.optionalInt(key)
                case .tracks:
                    let ids = try o.strings(key)
                    if ids.isEmpty { throw .invalidValue(path: o.path(key), reason: "expected the ids of the session's tracks, found none") }
                    for (j, trackID) in ids.enumerated() {
                        let path = "\(o.path(key))[\(j)]"
                        if let (s, item) = listedBy[trackID] {
                            let other = s == i ? "also item \(item) of this list" : "also listed by \(Key.sessions.rawValue)[\(s)]"
                            throw .invalidValue(
                                path: path, reason: "\(JSONText.string(trackID)) is \(other); expected each track in exactly one session")
                        }
                        guard let t = trackIndex[trackID] else {
                            if isShard { continue }  // held by another shard
                            throw .invalidValue(
                                path: path, reason: "\(JSONText.string(trackID)) is not the id of a track in \(tracksKey)\(nearMiss(trackID, tracks))"
                            )
                        }
                        listedBy[trackID] = (i, j)
                        renditions.append(tracks[t].track)
                    }
                    if let with = renditions.first(where: { $0.locale != nil }), let without = renditions.first(where: { $0.locale == nil }) {
                        throw .invalidValue(
                            path: o.path(key),
                            reason: "lists \(JSONText.string(with.id)), with a locale, and \(JSONText.string(without.id)), without one; "
                                + "a session's renditions all have a locale or none has")
                    }
                }
            }
            guard !renditions.isEmpty else { continue }  // a shard's: its tracks are all in other shards
            sessions.append(Session(id: id, title: title, category: category, premium: premium, sortOrder: sortOrder, renditions: renditions))
        }
        for (t, (track, o)) in tracks.enumerated() {
            let named = o.members[TrackKey.session.rawValue] != nil
            guard let (s, _) = listedBy[track.id] else {
                throw .invalidValue(
                    path: named ? o.path(TrackKey.session) : "\(tracksKey)[\(t)]",
                    reason:
                        "\(JSONText.string(track.id)) is in no session's \(SessionKey.tracks.rawValue); expected each track in exactly one session")
            }
            let sessionID = sessionIDs[s]
            guard named else { throw .missingKey(path: o.path(TrackKey.session)) }
            guard track.session == sessionID else {
                let what = sessionIndex[track.session] == nil ? "is not the id of a session" : "does not list this track"
                throw .invalidValue(
                    path: o.path(TrackKey.session),
                    reason: "\(JSONText.string(track.session)) \(what); expected \(JSONText.string(sessionID)), the session that lists it "
                        + "(\(Key.sessions.rawValue)[\(s)])")
            }
        }
        return sessions
    }

    /// `, did you mean "box-5m"?` when a track's id is a near miss of `id` (a case or one-letter difference), else "".
    private static func nearMiss(_ id: String, _ tracks: [(track: Track, reader: JSONObjectReader)]) -> String {
        let lowered = id.lowercased()
        let near = tracks.map(\.track.id).first { candidate in
            candidate.lowercased() == lowered || (abs(candidate.count - id.count) <= 1 && editDistance(candidate, id, limit: 1) <= 1)
        }
        return near.map { ", did you mean \(JSONText.string($0))?" } ?? ""
    }

    /// The Levenshtein distance between `a` and `b`, counted up to `limit + 1`.
    private static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
        var previous = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[y.count]
    }
}

extension TrackCatalog.Track {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        // every branch of the switch below assigns its key's value or throws
        var id = "", title = "", category: String?, duration = 0.0, file = "", cues = "", sidecars: [String] = [], premium = false
        var session: String?, locale: String?, variant: TrackCatalog.Variant?, drafts = 0
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
            // cues-v1.2's keys, which a catalog written before sessions lacks: no session (the track is its own), no
            // locale, no variant, no drafts
            case .session:
                session = try o.optionalString(key)
                if session == "" { throw .invalidValue(path: o.path(key), reason: "expected a session's id, found \"\"") }
            case .locale:
                locale = try o.optionalString(key)
                if let locale, !LocaleTag.isWellFormed(locale) {
                    throw .invalidValue(
                        path: o.path(key), reason: "expected a BCP 47 language tag (en, de, pt-BR) or null, found \(JSONText.string(locale))")
                }
            case .variant:
                variant = try o.optionalObject(key).map { v throws(CueSheetError) in try TrackCatalog.Variant(reading: v) }
            case .drafts:
                drafts = try o.optionalInt(key) ?? 0
                if drafts < 0 { throw .invalidValue(path: o.path(key), reason: "expected a count of draft prompts, not negative, found \(drafts)") }
            }
        }
        self.init(
            id: id, title: title, category: category, duration: duration, file: file, cues: cues, sidecars: sidecars, premium: premium,
            sortOrder: sortOrder, delivery: delivery, sha256: sha256, bytes: bytes, session: session, locale: locale, variant: variant,
            drafts: drafts)
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

extension TrackCatalog.Variant {
    /// `variant`: its `duration`, a finite number of seconds above 0.
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        var duration = 0.0
        for key in TrackCatalog.VariantKey.allCases {
            switch key {
            case .duration:
                duration = try o.double(key)
                guard duration > 0 else {
                    throw .invalidValue(path: o.path(key), reason: "expected a length in seconds above 0, found \(JSONText.number(duration))")
                }
            }
        }
        self.init(duration: duration)
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
