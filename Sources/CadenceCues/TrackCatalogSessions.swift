// MARK: - Sessions (cues-v1.2)

extension TrackCatalog {
    /// A session (recipe-v1.2 § Sessions in the catalog): one recipe, listed once, with its tracks as its
    /// renditions, one per language and length.
    ///
    /// An app shows one row per session and plays the rendition that suits the listener:
    /// `rendition(preferredLocales:preferredDuration:)` picks it from the listener's languages and a
    /// length; `locales` and `lengths(inLocale:)` are what a language picker and a length picker offer.
    public struct Session: Sendable, Hashable, Identifiable {
        /// The session's id, its recipe's (`sleep-wind-down`): unique among the catalog's sessions.
        public var id: String
        /// The title in the session's default locale (its first rendition's). Show a rendition's `title`
        /// to a listener of another language: `title(preferredLocales:)`.
        public var title: String
        /// The category in the default locale, or nil for none: `TrackCatalog.sessionSections` groups by it.
        public var category: String?
        /// Whether the session is premium, as its recipe says: for the app to gate.
        public var premium: Bool
        /// Where the session goes in the catalog: lower first; nil after every number.
        public var sortOrder: Int?
        /// Its tracks, in the catalog's order: by locale (as the recipe lists `locales:`), then by length,
        /// shortest first. Never empty in a decoded catalog.
        public var renditions: [Track]

        /// Makes a session. Nothing is checked (`TrackCatalog.decode(from:)` checks what it reads).
        public init(id: String, title: String, category: String?, premium: Bool, sortOrder: Int?, renditions: [Track]) {
            self.id = id
            self.title = title
            self.category = category
            self.premium = premium
            self.sortOrder = sortOrder
            self.renditions = renditions
        }

        /// The session's default locale, its first rendition's (the first of its recipe's `locales:`);
        /// nil for a session without locales.
        public var defaultLocale: String? { renditions.first?.locale }

        /// Its renditions' locales, each once (compared ignoring case), in rendition order, the default
        /// first: what a language picker offers. Empty for a session without locales.
        public var locales: [String] {
            var seen: Set<String> = []
            return renditions.compactMap(\.locale).filter { seen.insert($0.lowercased()).inserted }
        }

        /// Every length its renditions have, in seconds, each once, shortest first.
        public var lengths: [Double] { Self.distinctLengths(renditions) }

        /// The lengths of its renditions in `locale` (matched ignoring case; nil: the renditions
        /// without a locale), shortest first: what a length picker offers once a language is chosen.
        public func lengths(inLocale locale: String?) -> [Double] { Self.distinctLengths(renditions(inLocale: locale)) }

        /// Its renditions in `locale` (matched ignoring case; nil: those without a locale), in order.
        public func renditions(inLocale locale: String?) -> [Track] {
            let wanted = locale?.lowercased()
            return renditions.filter { $0.locale?.lowercased() == wanted }
        }

        /// The locale to play for a listener who prefers `preferredLocales`, most preferred first (BCP 47
        /// tags such as `Locale.preferredLanguages`): the first that `LocaleTag.lookup(_:in:)` finds among
        /// `locales` (`de-AT` finds `de`; `zh-Hant-TW` finds `zh-Hant`, else `zh`), else `defaultLocale`.
        /// Returned as the catalog writes it; nil for a session without locales.
        public func locale(preferredLocales: [String]) -> String? {
            LocaleTag.lookup(preferredLocales, in: locales) ?? defaultLocale
        }

        /// The rendition to play: in the locale `locale(preferredLocales:)` chooses, the one whose length
        /// is nearest `preferredDuration` seconds (of two as near, the shorter); without a preferred length,
        /// that locale's first, shortest, rendition. Nil only for a session without renditions, which a
        /// decoded catalog never has.
        ///
        /// With a language picker, pass the chosen tag alone: `rendition(preferredLocales: [chosen], …)`.
        /// O(r) in the renditions (and the lookup's cost, `LocaleTag.lookup(_:in:)`).
        public func rendition(preferredLocales: [String] = [], preferredDuration: Double? = nil) -> Track? {
            let candidates = renditions(inLocale: locale(preferredLocales: preferredLocales))
            guard let preferred = preferredDuration, !preferred.isNaN else { return candidates.first }
            return candidates.min { a, b in
                let (da, db) = (abs(a.length - preferred), abs(b.length - preferred))
                return da != db ? da < db : a.length < b.length
            }
        }

        /// The title to show a listener who prefers `preferredLocales`: the chosen locale's rendition's title
        /// (`title` when the session has no renditions).
        public func title(preferredLocales: [String]) -> String { rendition(preferredLocales: preferredLocales)?.title ?? title }

        /// Where the session goes in catalog order.
        public var rank: SessionRank { SessionRank(sortOrder: sortOrder, title: title, id: id) }

        /// Whether any rendition has draft prompts (`Track.drafts` above 0): for a DRAFT badge in a test build.
        public var hasDrafts: Bool { renditions.contains { $0.drafts > 0 } }

        private static func distinctLengths(_ tracks: [Track]) -> [Double] { Array(Set(tracks.map(\.length))).sorted() }
    }

    /// The sessions of one category, in catalog order: a section of a list of sessions.
    public struct SessionSection: Sendable, Hashable, Identifiable {
        /// The sessions' category (in their default locale); nil for the sessions without one.
        public var category: String?
        /// The header to show: the category, or `TrackCatalog.uncategorized`.
        public var title: String
        /// Its sessions, in catalog order.
        public var sessions: [Session]
        /// The category (nil for the uncategorized section): unique within a catalog.
        public var id: String? { category }
    }

    /// `tracks` grouped into sessions by their `session`, as a catalog written before sessions is read.
    ///
    /// A session takes its id from the tracks' `session` and its title, category, premium and sort order
    /// from its first track as given; its renditions are ordered by locale (in the order the tracks first
    /// give them), then length, then id. Sessions are ordered as `catalog.json` orders them (recipe-v1.2):
    /// by `sortOrder`, those without one last, then by title in Unicode code point order, then by id. Tracks
    /// whose `session` is their own id (every track of an earlier catalog) are each a session of their own.
    public static func sessions(of tracks: [Track]) -> [Session] {
        var order: [String] = []
        var groups: [String: [Track]] = [:]
        for track in tracks {
            if groups[track.session] == nil { order.append(track.session) }
            groups[track.session, default: []].append(track)
        }
        let sessions = order.compactMap { id -> Session? in
            guard let members = groups[id], let first = members.first else { return nil }
            var localeOrder: [String: Int] = [:]
            for track in members where localeOrder[track.locale?.lowercased() ?? ""] == nil {
                localeOrder[track.locale?.lowercased() ?? ""] = localeOrder.count
            }
            let renditions = members.sorted {
                let (la, lb) = (localeOrder[$0.locale?.lowercased() ?? ""] ?? 0, localeOrder[$1.locale?.lowercased() ?? ""] ?? 0)
                return la != lb ? la < lb : $0.length != $1.length ? $0.length < $1.length : $0.id < $1.id
            }
            return Session(
                id: id, title: first.title, category: first.category, premium: first.premium, sortOrder: first.sortOrder, renditions: renditions)
        }
        return sessions.sorted(by: sessionOrder)
    }

    /// Whether session `a` is listed before `b` (recipe-v1.2): `a.rank < b.rank`.
    public static func sessionOrder(_ a: Session, _ b: Session) -> Bool { a.rank < b.rank }

    /// Where a session goes in catalog order (recipe-v1.2 § Sessions in the catalog): by sort order, lower
    /// first, a session without one after every number; then by title (in the default locale), then by id,
    /// both in Unicode code point order (not Swift's `<` on `String`, which compares canonical equivalents).
    ///
    /// The one statement of the rule: `catalog.json`'s writer orders its sessions by it, and
    /// `sessions(of:)` orders those of a catalog written before sessions.
    public struct SessionRank: Sendable, Comparable {
        /// The session's `sortOrder`; nil sorts after every number.
        public var sortOrder: Int?
        /// The session's title in its default locale.
        public var title: String
        /// The session's id.
        public var id: String

        /// Makes the rank of a session with these keys.
        public init(sortOrder: Int?, title: String, id: String) {
            self.sortOrder = sortOrder
            self.title = title
            self.id = id
        }

        /// Whether `a` goes before `b`.
        public static func < (a: Self, b: Self) -> Bool {
            switch (a.sortOrder, b.sortOrder) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if !a.title.unicodeScalars.elementsEqual(b.title.unicodeScalars) { return codePointsBefore(a.title, b.title) }
            return codePointsBefore(a.id, b.id)
        }

        /// Whether `a` and `b` have the same sort order, title and id, code point for code point.
        public static func == (a: Self, b: Self) -> Bool {
            a.sortOrder == b.sortOrder && a.title.unicodeScalars.elementsEqual(b.title.unicodeScalars)
                && a.id.unicodeScalars.elementsEqual(b.id.unicodeScalars)
        }

        private static func codePointsBefore(_ a: String, _ b: String) -> Bool {
            a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
        }
    }

    /// `sessions` grouped by category: categories in `categoryOrder(_:_:)` (nil last, under
    /// `uncategorized`), the sessions of each in the order given.
    public static func sessionSections(of sessions: [Session]) -> [SessionSection] {
        let groups = Dictionary(grouping: sessions, by: \.category)
        return groups.keys.sorted(by: categoryOrder).map { category in
            SessionSection(category: category, title: category ?? uncategorized, sessions: groups[category] ?? [])
        }
    }
}
