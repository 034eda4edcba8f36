import CadenceCues

/// The sessions of a manifest (recipe-v1.2 § Sessions in the catalog): each recipe's renditions
/// in one row, and the catalog order of tracks and sessions.
extension Manifest {
    /// One entry of `sessions`: a recipe's renditions, as an app lists them in one row.
    public struct Session: Sendable, Equatable {
        public var id: String
        /// The title and category of its first track (in the default locale).
        public var title: String
        public var category: String?
        public var premium: Bool
        public var sortOrder: Int?
        /// Its tracks' ids, in order.
        public var tracks: [String]

        public init(id: String, title: String, category: String?, premium: Bool, sortOrder: Int?, tracks: [String]) {
            self.id = id
            self.title = title
            self.category = category
            self.premium = premium
            self.sortOrder = sortOrder
            self.tracks = tracks
        }

        /// The JSON text of one key's value.
        public func jsonValue(_ key: Manifest.SessionKey) -> String {
            switch key {
            case .id: JSONText.string(id)
            case .title: JSONText.string(title)
            case .category: category.map(JSONText.string) ?? "null"
            case .premium: premium ? "true" : "false"
            case .sortOrder: sortOrder.map(String.init) ?? "null"
            case .tracks: "[" + tracks.map(JSONText.string).joined(separator: ", ") + "]"
            }
        }
    }

    /// The sessions of the tracks (in catalog order, as `tracks` holds them): each with the keys of its first track.
    public var sessions: [Session] {
        var sessions: [Session] = []
        var index: [String: Int] = [:]
        for track in tracks {
            if let i = index[track.session] {
                sessions[i].tracks.append(track.id)
            } else {
                index[track.session] = sessions.count
                sessions.append(
                    Session(
                        id: track.session, title: track.title, category: track.category, premium: track.premium, sortOrder: track.sortOrder,
                        tracks: [track.id]))
            }
        }
        return sessions
    }

    /// `tracks` in catalog order (recipe-v1.2 § Sessions in the catalog). A session's renditions go by
    /// locale (`localeRank`), then length, shortest first (a variant's length, else the track's), then id;
    /// the sessions by `sort_order` (those without one after those with one), then by title in the
    /// default locale (their first rendition's) in Unicode code point order, then by id.
    public static func ordered(_ tracks: [Entry]) -> [Entry] {
        var groups: [String: [Entry]] = [:]
        for track in tracks { groups[track.session, default: []].append(track) }
        let sessions = groups.map { id, members in
            (id: id, members: members.sorted(by: renditionOrder))
        }
        return
            sessions
            .sorted { a, b in
                sessionOrder(a.id, a.members[0], b.id, b.members[0])
            }
            .flatMap(\.members)
    }

    /// The order of two renditions of one session.
    static func renditionOrder(_ a: Entry, _ b: Entry) -> Bool {
        if a.localeRank != b.localeRank { return a.localeRank < b.localeRank }
        let la = a.variant ?? a.duration, lb = b.variant ?? b.duration
        if la != lb { return la < lb }
        return codePointsBefore(a.id, b.id)
    }

    /// The order of two sessions, given each one's first rendition: `TrackCatalog.SessionRank`, the rule
    /// players read catalogs by.
    static func sessionOrder(_ a: String, _ firstA: Entry, _ b: String, _ firstB: Entry) -> Bool {
        TrackCatalog.SessionRank(sortOrder: firstA.sortOrder, title: firstA.title, id: a)
            < TrackCatalog.SessionRank(sortOrder: firstB.sortOrder, title: firstB.title, id: b)
    }

    /// `a` before `b` in Unicode code point order (Swift's `<` on String compares canonical equivalents, not code points).
    static func codePointsBefore(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
    }
}

extension Manifest {
    /// A locale tag a manifest may hold: 1 to `Limits.maxLocaleBytes` ASCII letters, digits and `-`,
    /// starting with a letter, not ending with `-` (`en`, `pt-BR`, `zh-Hans`). The recipe checks tags fully (BCP 47).
    public static func isLocaleTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard let first = bytes.first, let last = bytes.last, bytes.count <= Limits.maxLocaleBytes else { return false }
        func isLetter(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) }
        return isLetter(first) && last != 45 && bytes.allSatisfy { isLetter($0) || (48...57).contains($0) || $0 == 45 }
    }
}
