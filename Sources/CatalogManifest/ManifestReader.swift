import AudioCore
import CadenceCues
import Recipe

extension Manifest {
    /// Reads and validates a manifest from its bytes, in memory; `file` names it in the diagnostics.
    ///
    /// The bytes must be one JSON document, read by the project's strict parser (UTF-8, no key
    /// twice in one object, nesting at most `Limits.maxDepth`), holding a `cadence-catalog`
    /// version 1 manifest within `Limits`, whose every id and file name is one `render` could have
    /// written (`ManifestReader` lists the rules). Keys it does not know are ignored, wherever they
    /// are; a known key with the wrong type or a value out of range is an error. Every problem is
    /// reported, up to `Limits.maxProblems`, at its line and column with its key path:
    /// `dist-1/catalog.json:12:15: error: tracks[3].file: expected …, found '../../secret.txt'`.
    public static func decode(_ bytes: [UInt8], file: String) throws(DiagnosticList) -> Manifest {
        guard bytes.count <= Limits.maxBytes else { throw ManifestProblem.tooLarge(file: file, size: "\(bytes.count) bytes") }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw DiagnosticList([ManifestProblem.syntax(in: bytes, file: file, error: error)])
        }
        var reader = ManifestReader()
        let manifest = reader.manifest(root)
        guard let manifest, reader.problems.isEmpty else {
            throw DiagnosticList(ManifestProblem.locate(reader.problems, in: bytes, file: file))
        }
        return manifest
    }

    /// The key path of a track's key, as messages name it: `tracks[3].file`.
    public static func path(track index: Int, _ key: EntryKey) -> String { "\(Key.tracks.rawValue)[\(index)].\(key.rawValue)" }
}

/// The checks behind `Manifest.decode`: a parsed document → a `Manifest`, or the problems found.
///
/// What is refused, each at its key:
/// - `format` other than `cadence-catalog`, `version` other than 1 (checked first: another kind of file is
///   reported as such, not as twenty missing keys);
/// - `shard`: `count` outside 1…`Limits.maxShards`, `index` outside 1…`count`, `catalog` holding an
///   invalid id (`Recipe.isValidID`) or not sorted with each id once;
/// - `tracks`: ids invalid, not sorted with each once, or (in a shard) not in `shard.catalog`;
///   `file` other than `<id>.<ext>` for an audio format's extension, `cues` other than `<id>.cues.json`,
///   a sidecar other than `<id>.vtt`, `<id>.chapters.json` or `<id>.svg` or listed twice (so no name has a
///   folder part or is hidden); `sha256` and `fingerprint` other than 64 lower-case hex digits; `bytes`
///   outside 1…`Limits.maxTrackBytes`; `sample_rate` outside `Limits.sampleRates`; `frames` outside
///   1…24 h at that rate; `duration` not `frames / sample_rate` within half a frame; `title` or `category`
///   over their byte limits or holding a control character; levels outside `Limits.levels`.
public struct ManifestReader {
    private(set) var problems: [ManifestProblem] = []

    /// Reads the whole manifest; nil when something could not be read (and was reported).
    mutating func manifest(_ root: JSONValue) -> Manifest? {
        guard let top = object(root, path: "", what: "an object (a cadence-catalog manifest)") else { return nil }
        guard readFormat(top) else { return nil }
        var shard: Manifest.ShardInfo?
        if let value = top.members[Manifest.Key.shard.rawValue], value != .null {
            shard = readShard(value, path: top.path(Manifest.Key.shard.rawValue))
        }
        // a manifest written before sessions has no `sessions`: its tracks are sorted by id, and lack their keys
        let sessionsValue = top.members[Manifest.Key.sessions.rawValue]
        let predatesSessions = sessionsValue == nil
        let tracks = readTracks(top, catalog: shard.map { Set($0.catalog) }, predatesSessions: predatesSessions)
        var sessions: [Manifest.Session]?
        if let sessionsValue { sessions = readSessions(sessionsValue, path: top.path(Manifest.Key.sessions.rawValue)) }
        guard problems.isEmpty, var tracks else { return nil }
        if let sessions {
            checkSessions(sessions, tracks: &tracks)
            guard problems.isEmpty else { return nil }
        }
        var manifest = Manifest(tracks: tracks, shard: shard)
        manifest.predatesSessions = predatesSessions
        if let value = top.members[Manifest.Key.bundle.rawValue], value != .null {
            manifest.budget = readBundle(value, path: top.path(Manifest.Key.bundle.rawValue), bundled: manifest.bundledBytes) ?? nil
        }
        return problems.isEmpty ? manifest : nil
    }

    // MARK: - The document

    private mutating func readFormat(_ top: JSONObjectReader) -> Bool {
        let formatKey = Manifest.Key.format.rawValue
        guard let format = value(top, formatKey) else { return false }
        guard format == .string(Manifest.formatName) else {
            report(top.path(formatKey), "expected '\(Manifest.formatName)' (a catalog manifest), found \(shown(format))")
            return false
        }
        let versionKey = Manifest.Key.version.rawValue
        guard let version = value(top, versionKey) else { return false }
        guard (try? top.int64(versionKey)) == Int64(Manifest.version) else {
            report(
                top.path(versionKey),
                "expected \(Manifest.version) (this reader reads \(Manifest.formatName) version \(Manifest.version)), found \(shown(version))")
            return false
        }
        return true
    }

    private mutating func readShard(_ value: JSONValue, path: String) -> Manifest.ShardInfo? {
        guard let o = object(value, path: path, what: "an object (which shard this is)") else { return nil }
        let before = problems.count
        let count = integer(o, Manifest.ShardKey.count.rawValue, in: 1...Int64(Manifest.Limits.maxShards), "a number of shards")
        let index = integer(
            o, Manifest.ShardKey.index.rawValue, in: 1...(count ?? Int64(Manifest.Limits.maxShards)), "a shard number",
            note: count == nil ? nil : o.path(Manifest.ShardKey.count.rawValue))
        let catalog = idList(o, Manifest.ShardKey.catalog.rawValue)
        guard problems.count == before, let count, let index, let catalog else { return nil }
        return Manifest.ShardInfo(index: Int(index), count: Int(count), catalog: catalog)
    }

    /// `bundle`: `bytes` must be the bundled tracks' total (`bundled`), `budget` null or a size in
    /// bytes; returns the budget. Absent in a manifest older than catalog delivery.
    private mutating func readBundle(_ value: JSONValue, path: String, bundled: Int64) -> Int64?? {
        guard let o = object(value, path: path, what: "an object (the bundled tracks' bytes and the budget)") else { return nil }
        let most = Manifest.Limits.maxBundleBytes
        let bytesKey = Manifest.BundleKey.bytes.rawValue
        if let bytes = integer(o, bytesKey, in: 0...most, "a size in bytes"), bytes != bundled {
            report(o.path(bytesKey), "expected \(bundled) (the bytes of the tracks whose delivery is bundled), found \(bytes)")
        }
        let budgetKey = Manifest.BundleKey.budget.rawValue
        guard let budget = o.members[budgetKey], budget != .null else { return .some(nil) }
        guard let n = try? o.int64(budgetKey), (1...most).contains(n) else {
            report(o.path(budgetKey), "expected a budget in bytes from 1 to \(most), or null, found \(shown(budget))")
            return nil
        }
        return .some(n)
    }

    /// The catalog's ids: an array of valid ids, sorted, each once.
    private mutating func idList(_ o: JSONObjectReader, _ key: String) -> [String]? {
        guard let value = value(o, key) else { return nil }
        guard case .array(let items) = value else {
            report(o.path(key), "expected an array of ids, found \(shown(value))")
            return nil
        }
        var ids: [String] = []
        ids.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let path = "\(o.path(key))[\(i)]"
            guard case .string(let id) = item, Recipe.isValidID(id) else {
                report(path, "expected an id (\(Recipe.idRule)), found \(shown(item))")
                continue
            }
            if let last = ids.last, last >= id {
                report(path, "expected the ids sorted, each once, found \(DiagnosticText.quoted(id)) after \(DiagnosticText.quoted(last))")
                continue
            }
            ids.append(id)
            if problems.count >= Manifest.Limits.maxProblems { break }
        }
        return ids.count == items.count ? ids : nil
    }

    private mutating func readTracks(_ top: JSONObjectReader, catalog: Set<String>?, predatesSessions: Bool) -> [Manifest.Entry]? {
        let key = Manifest.Key.tracks.rawValue
        guard let value = value(top, key) else { return nil }
        guard case .array(let items) = value else {
            report(top.path(key), "expected an array of tracks, found \(shown(value))")
            return nil
        }
        var tracks: [Manifest.Entry] = []
        tracks.reserveCapacity(items.count)
        var seen: [String: Int] = [:]
        for (i, item) in items.enumerated() {
            if problems.count >= Manifest.Limits.maxProblems { break }
            guard let o = object(item, path: "\(top.path(key))[\(i)]", what: "an object (a track)"),
                let entry = entry(o, index: i, catalog: catalog, predatesSessions: predatesSessions)
            else { continue }
            // in catalog order (checked with the sessions, `checkSessions`), each id once
            if !predatesSessions {
                if let first = seen[entry.id] {
                    report(
                        Manifest.path(track: i, .id),
                        "expected each id once, found \(DiagnosticText.quoted(entry.id)) again (also \(top.path(key))[\(first)])")
                    continue
                }
                seen[entry.id] = i
            } else if let last = tracks.last, last.id >= entry.id {
                report(
                    Manifest.path(track: i, .id),
                    "expected the tracks sorted by id, each once, found \(DiagnosticText.quoted(entry.id)) after \(DiagnosticText.quoted(last.id))")
                continue
            }
            tracks.append(entry)
        }
        return tracks.count == items.count ? tracks : nil
    }

    // MARK: - One track

    /// One entry, every key read in `EntryKey`'s order: the switch names each key once, so a key
    /// added to `EntryKey` (and so to the writer) cannot be forgotten here.
    private mutating func entry(_ o: JSONObjectReader, index: Int, catalog: Set<String>?, predatesSessions: Bool) -> Manifest.Entry? {
        let before = problems.count
        // the id first: the file names are made from it
        let id = self.id(o, catalog: catalog)
        var title: String?, category: String??, duration: Double?, file: String?, cues: String?, sidecars: [String]??
        var premium: Bool?, sortOrder: Int??, delivery: Delivery?, frames: Int64?, sampleRate: Int64?, sha256: String?, bytes: Int64?
        var loudness: Double??, truePeak: Double??, fingerprint: String?
        // a manifest written before sessions: each track its own session, no locale, no variant, no draft counted
        var session = predatesSessions ? id : nil, locale: String?? = .some(nil), variant: Double?? = .some(nil)
        var drafts: Int? = predatesSessions ? 0 : nil
        for key in Manifest.EntryKey.allCases {
            let name = key.rawValue
            switch key {
            case .id: continue
            case .title: title = text(o, name, limit: Manifest.Limits.maxTitleBytes, optional: false) ?? nil
            case .category: category = text(o, name, limit: Manifest.Limits.maxCategoryBytes, optional: true)
            case .duration: duration = number(o, name)
            case .file:
                file = fileName(o, name, id: id, allowed: TrackFileNames.audioNames) { id in
                    let extensions = AudioFormat.fileExtensions.joined(separator: ", ")
                    return "'\(TrackFileNames.audio(id, .flac))'-style name: the track's own id and an audio extension (\(extensions))"
                }
            case .cues:
                cues = fileName(o, name, id: id, allowed: { [TrackFileNames.cueSheet($0)] }) {
                    "'\(TrackFileNames.cueSheet($0))', the track's own id"
                }
            case .sidecars: sidecars = sidecarList(o, name, id: id)
            case .premium: premium = bool(o, name)
            case .sortOrder: sortOrder = optionalInteger(o, name)
            // a manifest written before sessions: these keys are not read (a render derives them again)
            case .session: if !predatesSessions { session = sessionID(o, name) }
            case .locale: if !predatesSessions { locale = localeTag(o, name) }
            case .variant: if !predatesSessions { variant = self.variant(o, name) }
            case .drafts:
                if !predatesSessions {
                    drafts = integer(o, name, in: 0...Manifest.Limits.maxDrafts, "a number of draft prompts").map { Int($0) }
                }
            case .delivery: delivery = self.delivery(o, name)
            case .frames:
                let rate = Manifest.Limits.sampleRates.upperBound
                frames = integer(o, name, in: 1...(Manifest.Limits.maxSeconds * Int64(rate)), "a number of frames", note: "24 h at \(rate) Hz")
            case .sampleRate:
                sampleRate = integer(
                    o, name, in: Int64(Manifest.Limits.sampleRates.lowerBound)...Int64(Manifest.Limits.sampleRates.upperBound), "a sample rate in Hz")
            case .sha256: sha256 = hexDigest(o, name)
            case .bytes: bytes = integer(o, name, in: 1...Manifest.Limits.maxTrackBytes, "a size in bytes")
            case .loudnessLUFS: loudness = level(o, name)
            case .truePeakDBTP: truePeak = level(o, name)
            case .fingerprint: fingerprint = hexDigest(o, name)
            }
        }
        if let frames, let sampleRate {
            checkTiming(o, frames: frames, sampleRate: sampleRate, duration: duration)
        }
        guard problems.count == before, let id, let title, let category, let duration, let file, let cues, let sidecars, let premium,
            let sortOrder, let delivery, let frames, let sampleRate, let sha256, let bytes, let loudness, let truePeak, let fingerprint,
            let session, let locale, let variant, let drafts
        else { return nil }
        return Manifest.Entry(
            id: id, title: title, category: category, duration: duration, file: file, cues: cues, sidecars: sidecars, premium: premium,
            sortOrder: sortOrder, session: session, locale: locale, localeRank: 0, variant: variant, drafts: drafts, delivery: delivery,
            frames: frames, sampleRate: Int(sampleRate), sha256: sha256, bytes: bytes,
            loudnessLUFS: loudness,
            truePeakDBTP: truePeak, fingerprint: fingerprint)
    }

    private mutating func id(_ o: JSONObjectReader, catalog: Set<String>?) -> String? {
        let key = Manifest.EntryKey.id.rawValue
        guard let value = value(o, key) else { return nil }
        guard case .string(let id) = value, Recipe.isValidID(id) else {
            report(o.path(key), "expected an id (\(Recipe.idRule)), found \(shown(value))")
            return nil
        }
        if let catalog, !catalog.contains(id) {
            report(
                o.path(key),
                "expected an id listed in this shard's \(Manifest.Key.shard.rawValue).\(Manifest.ShardKey.catalog.rawValue), found \(DiagnosticText.quoted(id))"
            )
            return nil
        }
        return id
    }

    /// A track's `session`: an id.
    private mutating func sessionID(_ o: JSONObjectReader, _ key: String) -> String? {
        guard let value = value(o, key) else { return nil }
        guard case .string(let id) = value, Recipe.isValidID(id) else {
            report(o.path(key), "expected a session id (\(Recipe.idRule)), found \(shown(value))")
            return nil
        }
        return id
    }

    /// A track's `locale`: null, or a tag (`Manifest.isLocaleTag`).
    private mutating func localeTag(_ o: JSONObjectReader, _ key: String) -> String?? {
        guard let value = o.members[key], value != .null else { return .some(nil) }
        guard case .string(let tag) = value, Manifest.isLocaleTag(tag) else {
            report(
                o.path(key),
                "expected a locale tag (letters, digits and '-', as 'en', 'pt-BR'; at most \(Manifest.Limits.maxLocaleBytes) bytes) or null, found \(shown(value))"
            )
            return nil
        }
        return .some(tag)
    }

    /// A track's `variant`: null, or `{"duration": SECONDS}` with a length above zero and at most 24 h.
    private mutating func variant(_ o: JSONObjectReader, _ key: String) -> Double?? {
        guard let value = o.members[key], value != .null else { return .some(nil) }
        guard let v = object(value, path: o.path(key), what: "{\"duration\": SECONDS} (a variant's length) or null") else { return nil }
        let durationKey = Manifest.VariantKey.duration.rawValue
        guard let seconds = number(v, durationKey) else { return nil }
        guard seconds > 0, seconds <= Double(Manifest.Limits.maxSeconds) else {
            report(
                v.path(durationKey),
                "expected a length in seconds above 0 and at most \(Manifest.Limits.maxSeconds) (24 h), found \(JSONText.number(seconds))")
            return nil
        }
        return .some(seconds)
    }

    /// `sessions`: an array of sessions, each `{id, title, category, premium, sort_order, tracks}`, ids each once.
    private mutating func readSessions(_ value: JSONValue, path: String) -> [Manifest.Session]? {
        guard case .array(let items) = value else {
            report(path, "expected an array of sessions, found \(shown(value))")
            return nil
        }
        var sessions: [Manifest.Session] = []
        var seen: [String: Int] = [:]
        for (i, item) in items.enumerated() {
            if problems.count >= Manifest.Limits.maxProblems { break }
            guard let o = object(item, path: "\(path)[\(i)]", what: "an object (a session)") else { continue }
            let before = problems.count
            var id: String?, title: String?, category: String??, premium: Bool?, sortOrder: Int??, tracks: [String]?
            for key in Manifest.SessionKey.allCases {
                let name = key.rawValue
                switch key {
                case .id: id = sessionID(o, name)
                case .title: title = text(o, name, limit: Manifest.Limits.maxTitleBytes, optional: false) ?? nil
                case .category: category = text(o, name, limit: Manifest.Limits.maxCategoryBytes, optional: true)
                case .premium: premium = bool(o, name)
                case .sortOrder: sortOrder = optionalInteger(o, name)
                case .tracks: tracks = trackIDs(o, name)
                }
            }
            guard problems.count == before, let id, let title, let category, let premium, let sortOrder, let tracks else { continue }
            if let first = seen[id] {
                report(
                    o.path(Manifest.SessionKey.id.rawValue),
                    "expected each session once, found \(DiagnosticText.quoted(id)) again (also \(path)[\(first)])")
                continue
            }
            seen[id] = i
            sessions.append(Manifest.Session(id: id, title: title, category: category, premium: premium, sortOrder: sortOrder, tracks: tracks))
        }
        return sessions.count == items.count ? sessions : nil
    }

    /// A session's `tracks`: a non-empty array of ids, each once.
    private mutating func trackIDs(_ o: JSONObjectReader, _ key: String) -> [String]? {
        guard let value = value(o, key) else { return nil }
        guard case .array(let items) = value, !items.isEmpty else {
            report(o.path(key), "expected an array of track ids, at least one, found \(shown(value))")
            return nil
        }
        var ids: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let id) = item, Recipe.isValidID(id), !ids.contains(id) else {
                report("\(o.path(key))[\(i)]", "expected the id of a track, each once (\(Recipe.idRule)), found \(shown(item))")
                return nil
            }
            ids.append(id)
        }
        return ids
    }

    /// `sessions` against `tracks` (cues-v1.2 § catalog.json): every track in exactly one session, the one its
    /// `session` names; each session's keys those of its first track; the tracks and sessions in catalog order
    /// (`Manifest.ordered`). Sets each entry's `localeRank` from its session's order of locales.
    private mutating func checkSessions(_ sessions: [Manifest.Session], tracks: inout [Manifest.Entry]) {
        let sessionsKey = Manifest.Key.sessions.rawValue
        var listedIn: [String: (session: Int, id: String)] = [:]
        for (s, session) in sessions.enumerated() {
            for (k, id) in session.tracks.enumerated() {
                let place = "\(sessionsKey)[\(s)].\(Manifest.SessionKey.tracks.rawValue)[\(k)]"
                if let other = listedIn[id] {
                    report(place, "expected every track in one session, found \(DiagnosticText.quoted(id)) also in \(sessionsKey)[\(other.session)]")
                } else if !tracks.contains(where: { $0.id == id }) {
                    report(place, "expected the id of a track of this catalog, found \(DiagnosticText.quoted(id))")
                } else {
                    listedIn[id] = (s, session.id)
                }
            }
        }
        for (i, track) in tracks.enumerated() {
            guard let listed = listedIn[track.id] else {
                report(
                    Manifest.path(track: i, .id),
                    "expected a track listed in a session's \(Manifest.SessionKey.tracks.rawValue), found \(DiagnosticText.quoted(track.id)) in none")
                continue
            }
            if listed.id != track.session {
                report(
                    Manifest.path(track: i, .session),
                    "expected \(DiagnosticText.quoted(listed.id)), the session that lists this track (\(sessionsKey)[\(listed.session)]), found \(DiagnosticText.quoted(track.session))"
                )
            }
        }
        guard problems.isEmpty else { return }
        // a session lists its renditions locale by locale: the order of their first appearance is the locales' order
        for session in sessions {
            var locales: [String?] = []
            for id in session.tracks {
                guard let i = tracks.firstIndex(where: { $0.id == id }) else { continue }
                let locale = tracks[i].locale?.lowercased()
                if !locales.contains(locale) { locales.append(locale) }
                tracks[i].localeRank = locales.firstIndex(of: locale) ?? 0
            }
        }
        let expected = Manifest(tracks: tracks)
        for (i, (found, wanted)) in zip(tracks, expected.tracks).enumerated() where found.id != wanted.id {
            report(
                Manifest.path(track: i, .id),
                "expected \(DiagnosticText.quoted(wanted.id)) here, found \(DiagnosticText.quoted(found.id)): the tracks go session by session (sessions by sort_order, title, id; a session's tracks by locale, then length)"
            )
            break
        }
        let wantedSessions = expected.sessions
        if wantedSessions.count != sessions.count {
            report(sessionsKey, "expected \(wantedSessions.count) sessions (those its tracks name), found \(sessions.count)")
            return
        }
        for (s, (found, wanted)) in zip(sessions, wantedSessions).enumerated() {
            if found.id != wanted.id {
                report(
                    "\(sessionsKey)[\(s)].\(Manifest.SessionKey.id.rawValue)",
                    "expected \(DiagnosticText.quoted(wanted.id)) here, found \(DiagnosticText.quoted(found.id)): the sessions go by sort_order (none last), title, then id"
                )
                return
            }
            for key in Manifest.SessionKey.allCases where found.jsonValue(key) != wanted.jsonValue(key) {
                let what = key == .tracks ? "its tracks in order" : "its first track's \(key.rawValue)"
                report(
                    "\(sessionsKey)[\(s)].\(key.rawValue)",
                    "expected \(DiagnosticText.clip(wanted.jsonValue(key))) (\(what)), found \(DiagnosticText.clip(found.jsonValue(key)))")
            }
        }
    }

    /// A file name that must be one of the names `allowed` makes from the track's id (when the id was
    /// refused, only its type is checked); `expected` says what they are, given the id.
    private mutating func fileName(
        _ o: JSONObjectReader, _ key: String, id: String?, allowed: (String) -> [String], expected: (String) -> String
    ) -> String? {
        guard let value = value(o, key) else { return nil }
        guard case .string(let name) = value else {
            report(o.path(key), "expected a file name, found \(shown(value))")
            return nil
        }
        guard let id else { return nil }
        guard allowed(id).contains(name) else {
            report(o.path(key), "expected \(expected(id)), found \(DiagnosticText.quoted(name))")
            return nil
        }
        return name
    }

    /// `sidecars`: absent or null (an older manifest), or an array of sidecar names of the track's id, each once.
    private mutating func sidecarList(_ o: JSONObjectReader, _ key: String, id: String?) -> [String]?? {
        guard let value = o.members[key], value != .null else { return .some(nil) }
        guard case .array(let items) = value else {
            report(o.path(key), "expected an array of file names or null, found \(shown(value))")
            return nil
        }
        guard let id else { return nil }
        let allowed = TrackFileNames.sidecarNames(id)
        let before = problems.count
        var names: [String] = []
        for (i, item) in items.enumerated() {
            let path = "\(o.path(key))[\(i)]"
            guard case .string(let name) = item, allowed.contains(name) else {
                report(path, "expected one of \(allowed.map { "'\($0)'" }.joined(separator: ", ")) (the track's own id), found \(shown(item))")
                if problems.count >= Manifest.Limits.maxProblems { break }
                continue
            }
            guard !names.contains(name) else {
                report(path, "expected each sidecar once, found \(DiagnosticText.quoted(name)) again")
                continue
            }
            names.append(name)
        }
        return problems.count == before ? .some(names) : nil
    }

    /// `duration` must be `frames / sample_rate`, within half a frame; `frames` at most 24 h at the track's rate.
    private mutating func checkTiming(_ o: JSONObjectReader, frames: Int64, sampleRate: Int64, duration: Double?) {
        let most = Manifest.Limits.maxSeconds * sampleRate
        guard frames <= most else {
            report(
                o.path(Manifest.EntryKey.frames.rawValue),
                "expected a number of frames from 1 to \(most) (24 h at \(sampleRate) Hz), found \(frames)")
            return
        }
        guard let duration else { return }
        let exact = Double(frames) / Double(sampleRate)
        if !(abs(duration - exact) <= 0.5 / Double(sampleRate)) {
            report(
                o.path(Manifest.EntryKey.duration.rawValue),
                "expected \(JSONText.number(exact)) (frames / sample_rate: \(frames) frames at \(sampleRate) Hz), found \(DiagnosticText.clip(JSONText.number(duration)))"
            )
        }
    }

    // MARK: - Values

    /// A required key's value, or a problem naming it.
    private mutating func value(_ o: JSONObjectReader, _ key: String) -> JSONValue? {
        guard let value = o.members[key] else {
            report(o.path(key), "missing (a required key)")
            return nil
        }
        return value
    }

    private mutating func object(_ value: JSONValue, path: String, what: String) -> JSONObjectReader? {
        guard let o = try? JSONObjectReader(value, path: path) else {
            report(path, "expected \(what), found \(shown(value))")
            return nil
        }
        return o
    }

    /// A whole number in `range` (`480000`, `4.8e5`), read exactly.
    private mutating func integer(
        _ o: JSONObjectReader, _ key: String, in range: ClosedRange<Int64>, _ what: String, note: String? = nil
    ) -> Int64? {
        guard let value = value(o, key) else { return nil }
        guard let n = try? o.int64(key), range.contains(n) else {
            let why = note.map { " (\($0))" } ?? ""
            report(o.path(key), "expected \(what) from \(range.lowerBound) to \(range.upperBound)\(why), found \(shown(value))")
            return nil
        }
        return n
    }

    /// `delivery`: `bundled` or `on-demand`; absent (a manifest older than catalog delivery) is bundled.
    private mutating func delivery(_ o: JSONObjectReader, _ key: String) -> Delivery? {
        guard let value = o.members[key] else { return .bundled }
        guard case .string(let word) = value, let delivery = Delivery(rawValue: word) else {
            report(o.path(key), "expected \(Delivery.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")), found \(shown(value))")
            return nil
        }
        return delivery
    }

    /// A whole number that fits in `Int`, or null, or absent.
    private mutating func optionalInteger(_ o: JSONObjectReader, _ key: String) -> Int?? {
        guard let value = o.members[key], value != .null else { return .some(nil) }
        guard let n = try? o.int(key) else {
            report(o.path(key), "expected a whole number or null, found \(shown(value))")
            return nil
        }
        return .some(n)
    }

    /// A finite number.
    private mutating func number(_ o: JSONObjectReader, _ key: String) -> Double? {
        guard let value = value(o, key) else { return nil }
        guard let x = try? o.double(key) else {
            report(o.path(key), "expected a number, found \(shown(value))")
            return nil
        }
        return x
    }

    /// A level in dB within `Limits.levels`, or null, or absent.
    private mutating func level(_ o: JSONObjectReader, _ key: String) -> Double?? {
        guard let value = o.members[key], value != .null else { return .some(nil) }
        let range = Manifest.Limits.levels
        guard let x = try? o.double(key), range.contains(x) else {
            report(o.path(key), "expected a level from \(Int(range.lowerBound)) to \(Int(range.upperBound)) dB or null, found \(shown(value))")
            return nil
        }
        return .some(x)
    }

    private mutating func bool(_ o: JSONObjectReader, _ key: String) -> Bool? {
        guard let value = value(o, key) else { return nil }
        guard case .bool(let b) = value else {
            report(o.path(key), "expected true or false, found \(shown(value))")
            return nil
        }
        return b
    }

    /// A SHA-256 as 64 lower-case hex digits.
    private mutating func hexDigest(_ o: JSONObjectReader, _ key: String) -> String? {
        guard let value = value(o, key) else { return nil }
        guard case .string(let text) = value, text.utf8.count == 64,
            text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else {
            report(o.path(key), "expected a SHA-256 as 64 lower-case hex digits, found \(shown(value))")
            return nil
        }
        return text
    }

    /// Text for people (a title, a category): a string within `limit` bytes of UTF-8 and without control characters;
    /// `optional`: also null or absent (`.some(nil)`). nil when refused.
    private mutating func text(_ o: JSONObjectReader, _ key: String, limit: Int, optional: Bool) -> String?? {
        if optional, o.members[key] == nil || o.members[key] == .null { return .some(nil) }
        guard let value = value(o, key) else { return nil }
        guard case .string(let s) = value else {
            report(o.path(key), "expected a string\(optional ? " or null" : ""), found \(shown(value))")
            return nil
        }
        if let problem = ManifestReader.textProblem(s, limit: limit) {
            report(o.path(key), problem)
            return nil
        }
        return .some(s)
    }

    /// Why `text` cannot be a manifest's title or category (over `limit` bytes of UTF-8, or holding a
    /// control character), or nil: the one rule, also applied by `CatalogPlan` before a render.
    public static func textProblem(_ text: String, limit: Int) -> String? {
        let size = text.utf8.count
        if size > limit {
            return "expected at most \(limit) bytes of UTF-8, found \(size) bytes (\(DiagnosticText.quoted(text)))"
        }
        if text.unicodeScalars.contains(where: DiagnosticText.isControl) {
            return "expected text without control characters, found \(DiagnosticText.quoted(text))"
        }
        return nil
    }

    /// A value as a message shows it: a string quoted and clipped (`'../../x'`), a number as written (clipped), others by kind.
    private func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): DiagnosticText.quoted(s)
        case .number(let text): DiagnosticText.clip(text)
        default: value.found
        }
    }

    /// Notes a problem; beyond `Limits.maxProblems` + 1 they are dropped (`ManifestProblem.locate` shows
    /// the first `maxProblems`, and says so when there were more).
    private mutating func report(_ path: String, _ message: String) {
        guard problems.count <= Manifest.Limits.maxProblems else { return }
        problems.append(ManifestProblem(path: path, message: message))
    }
}

// MARK: - Problems, placed in the text

/// One problem found in a manifest, at a key path (`tracks[3].file`; `""` for the whole document),
/// before it is placed at a line and column of the text.
public struct ManifestProblem {
    public var path: String
    /// What was expected and found, without the path.
    public var message: String
    public var kind: FailureKind = .data

    public init(path: String, message: String, kind: FailureKind = .data) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    /// The problems as diagnostics at the line and column of their key's value (for a missing key,
    /// of the nearest enclosing value), `path: message`; at most `Limits.maxProblems`, then a last
    /// one saying so. The text is read once more to find the places.
    public static func locate(_ problems: [ManifestProblem], in bytes: [UInt8], file: String) -> [Diagnostic] {
        let shown = problems.prefix(Manifest.Limits.maxProblems)
        var paths: Set<String> = [""]
        for problem in shown {
            var path = problem.path
            while !path.isEmpty {
                paths.insert(path)
                path = parent(of: path)
            }
        }
        let places = JSONParser.locations(of: paths, in: bytes)
        var diagnostics = shown.map { problem in
            var path = problem.path
            while places[path] == nil && !path.isEmpty { path = parent(of: path) }
            let place = places[path] ?? (1, 1)
            let text = problem.path.isEmpty ? problem.message : "\(problem.path): \(problem.message)"
            return Diagnostic(text, at: SourceLocation(file: file, line: place.line, column: place.column), kind: problem.kind)
        }
        if problems.count > shown.count {
            diagnostics.append(
                Diagnostic("too many problems; stopped after \(shown.count)", at: SourceLocation(file: file, line: 1, column: 1)))
        }
        return diagnostics
    }

    /// `tracks[3]` for `tracks[3].file`, `tracks` for `tracks[3]`, `""` for `tracks`.
    static func parent(of path: String) -> String {
        guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return String(path[..<cut])
    }

    /// A document that is not JSON: the parser's reason at its place, with the key path being read there.
    static func syntax(in bytes: [UInt8], file: String, error: CueSheetError) -> Diagnostic {
        var line = 1, column = 1, reason = "\(error)", path = ""
        if let found = JSONParser.syntaxError(in: bytes) {
            (line, column, reason, path) = (found.line, found.column, found.reason, found.path)
        } else if case .malformed(let why, let l, let c) = error {
            (line, column, reason) = (l, c, why)
        }
        // the path and reason may repeat keys of the input: printable, and cut to a line
        let message = (path.isEmpty ? "" : "\(cut(path)): ") + "malformed JSON: " + cut(reason)
        return Diagnostic(message, at: SourceLocation(file: file, line: line, column: column))
    }

    /// `the manifest is N bytes; expected at most 16 MiB (16777216 bytes)`, at the file's first line.
    static func tooLarge(file: String, size: String) -> DiagnosticList {
        let limit = Manifest.Limits.maxBytes
        return DiagnosticList([
            Diagnostic(
                "the manifest is \(size); expected at most \(limit >> 20) MiB (\(limit) bytes)", at: SourceLocation(file: file, line: 1, column: 1))
        ])
    }

    /// Text from the input made printable and at most 200 characters long.
    private static func cut(_ text: String) -> String {
        let printable = DiagnosticText.printable(text)
        return printable.unicodeScalars.count <= 200 ? printable : String(String.UnicodeScalarView(printable.unicodeScalars.prefix(199))) + "…"
    }
}
