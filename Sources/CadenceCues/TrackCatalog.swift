import Foundation

/// A rendered catalog as a player app lists it: the tracks of `catalog.json`, grouped by category.
///
/// Read it once at launch, list `sections`, and find a track's files with `audioURL(in:)` and
/// `cuesURL(in:)` in the catalog's folder (the app bundle for `bundled` tracks, wherever the app
/// downloads `onDemand` ones to):
///
/// ```swift
/// import AVFoundation
/// import CadenceCues
/// import SwiftUI
///
/// struct CatalogView: View {
///     let folder: URL  // holds catalog.json and the bundled tracks: Bundle.main.resourceURL, say
///     let catalog: TrackCatalog  // try TrackCatalog.decode(from: Data(contentsOf: folder.appendingPathComponent(TrackCatalog.fileName)))
///
///     var body: some View {
///         NavigationStack {
///             List(catalog.sections) { section in
///                 Section(section.title) {
///                     ForEach(section.tracks) { track in
///                         NavigationLink {
///                             PlayerView(track: track, folder: folder)
///                         } label: {
///                             LabeledContent(track.title, value: Duration.seconds(track.duration).formatted(.time(pattern: .minuteSecond)))
///                         }
///                         .disabled(track.delivery == .onDemand)  // until downloaded from track.audioURL(in: server)
///                     }
///                 }
///             }
///         }
///     }
/// }
///
/// struct PlayerView: View {
///     let track: TrackCatalog.Track
///     let folder: URL
///     @State private var player: AVPlayer?
///     @State private var timeline: CueTimeline?
///
///     var body: some View {
///         TimelineView(.animation) { _ in
///             // the audio's own clock, looked up in the cue sheet on every display frame
///             let now = timeline?.position(atTime: player?.currentTime().seconds ?? 0)
///             VStack(spacing: 24) {
///                 ZStack {
///                     Circle().stroke(.quaternary, lineWidth: 12)
///                     Circle().trim(from: 0, to: now?.phaseProgress ?? 0)
///                         .stroke(.teal, style: StrokeStyle(lineWidth: 12, lineCap: .round))
///                         .rotationEffect(.degrees(-90))
///                 }
///                 .frame(width: 240, height: 240)
///                 Text(now?.phase?.label ?? (now?.isAtEnd == true ? "Done" : "Settle in")).font(.title2)
///                 ProgressView(value: now?.progress ?? 0)
///             }
///             .padding()
///         }
///         .navigationTitle(track.title)
///         .task {
///             timeline = try? CueTimeline(CueSheet.decode(from: Data(contentsOf: track.cuesURL(in: folder))))
///             player = AVPlayer(url: track.audioURL(in: folder))
///             player?.play()
///         }
///         .onDisappear { player?.pause() }
///     }
/// }
/// ```
///
/// The ring is the phase's progress and the bar the whole track's, both read from the player's
/// `currentTime()`, so pausing, seeking, a call or the lock screen need no code of their own.
///
/// A catalog rendered from recipes with `locales:` or `variants:` lists each recipe once, as a
/// session (cues-v1.2), with its tracks as renditions in several languages and lengths: list
/// `sessionSections` (one row per session) instead of `sections`, and play
/// `session.rendition(preferredLocales: Locale.preferredLanguages, preferredDuration: chosenLength)`
/// (see `Session`, and docs/players.md for a list with a language and a length picker).
public struct TrackCatalog: Sendable, Equatable {
    /// Every track, in the file's order: session by session in a catalog with `sessions` (cues-v1.2),
    /// by id in an earlier one.
    public var tracks: [Track]
    /// The bundled tracks' audio bytes, and the budget the render held them to.
    public var bundle: BundleInfo
    /// The tracks grouped by category, in the order a list shows them (see `sections(of:)`).
    ///
    /// One row per track: every length and language of a session is a row of its own. An app that lists
    /// sessions (one row per recipe, with a length and a language picker) uses `sessions` or
    /// `sessionSections` instead.
    public var sections: [Section]
    /// The sessions (cues-v1.2: one per recipe, its tracks its renditions), in catalog order.
    ///
    /// As `catalog.json` lists them: by `sortOrder` (sessions without one last), then title in the
    /// default locale, then id. A catalog written before sessions has no list: each of its tracks is
    /// then a session of its own, with that one rendition, ordered by the same rule (see `sessions(of:)`).
    public var sessions: [Session]
    /// The sessions grouped by category, in the order a list shows them: categories as in `sections`
    /// (`categoryOrder(_:_:)`, nil last under `uncategorized`), sessions in catalog order inside.
    public var sessionSections: [SessionSection]

    /// Makes a catalog of `tracks` (sorted by id); `bundle` defaults to the bundled tracks' bytes without a budget.
    ///
    /// The sessions are the tracks grouped by their `session` (see `sessions(of:)`): with tracks made by
    /// `Track.init`'s defaults, each track is a session of its own.
    public init(tracks: [Track], bundle: BundleInfo? = nil) {
        self.init(ordered: tracks.sorted { $0.id < $1.id }, sessions: Self.sessions(of: tracks), bundle: bundle)
    }

    /// Makes a catalog of `sessions`, in this order: `tracks` are their renditions, session by session, as
    /// `catalog.json` lists them. `bundle` defaults to the bundled tracks' bytes without a budget.
    ///
    /// Nothing is checked: each rendition's `session` is taken as it is.
    public init(sessions: [Session], bundle: BundleInfo? = nil) {
        self.init(ordered: sessions.flatMap(\.renditions), sessions: sessions, bundle: bundle)
    }

    /// The catalog with its parts as given.
    init(ordered tracks: [Track], sessions: [Session], bundle: BundleInfo?) {
        self.tracks = tracks
        self.bundle = bundle ?? BundleInfo(bytes: Self.bundledBytes(of: tracks), budget: nil)
        self.sections = Self.sections(of: tracks)
        self.sessions = sessions
        self.sessionSections = Self.sessionSections(of: sessions)
    }

    /// The session with this id, if there is one. O(n) in the sessions.
    public func session(id: String) -> Session? { sessions.first { $0.id == id } }

    /// The session a track is a rendition of. O(n) in the sessions.
    public func session(of track: Track) -> Session? { session(id: track.session) }

    /// The sessions of one category (nil: those without one), in catalog order. O(n) in the sessions.
    public func sessions(inCategory category: String?) -> [Session] { sessions.filter { $0.category == category } }

    /// The rendition of `session` to play for a listener: `session.rendition(preferredLocales:preferredDuration:)`.
    ///
    /// ```swift
    /// let track = catalog.rendition(for: session, preferredLocales: Locale.preferredLanguages, preferredDuration: 300)
    /// ```
    public func rendition(for session: Session, preferredLocales: [String], preferredDuration: Double? = nil) -> Track? {
        session.rendition(preferredLocales: preferredLocales, preferredDuration: preferredDuration)
    }

    /// The track with this id, if there is one. O(n) in the tracks.
    public func track(id: String) -> Track? { tracks.first { $0.id == id } }

    /// The header of the section of tracks without a category, the last section.
    public static let uncategorized = "Uncategorized"

    /// One track of the catalog.
    public struct Track: Sendable, Hashable, Identifiable {
        /// The track's id, unique in the catalog and not empty (`box-breathing-5m`).
        public var id: String
        /// The title to show.
        public var title: String
        /// The track's category (`Focus`), or nil for none: listed under `TrackCatalog.uncategorized`.
        public var category: String?
        /// The audio's length in seconds (its frames / its sample rate).
        public var duration: Double
        /// The audio file's name, beside `catalog.json` (no folder part).
        public var file: String
        /// The cue sheet's name, beside `catalog.json`.
        public var cues: String
        /// Sidecar files' names (`<id>.vtt` captions, `<id>.chapters.json`, `<id>.svg`); empty when the catalog lists none.
        public var sidecars: [String]
        /// Whether the track is premium, as the recipe says: for the app to gate.
        public var premium: Bool
        /// Where the track goes in its category: lower first; nil after every number.
        public var sortOrder: Int?
        /// Shipped inside the app, or fetched when needed.
        public var delivery: Delivery
        /// The SHA-256 of the audio file's bytes, as 64 lower-case hex digits: to check a download.
        public var sha256: String
        /// The audio file's size in bytes.
        public var bytes: Int64

        /// cues-v1.2: the id of the session (recipe) the track is a rendition of; in a catalog written
        /// before sessions, the track's own `id`.
        public var session: String
        /// cues-v1.2: the track's locale, its BCP 47 tag as the recipe's `locales:` writes it (`pt-BR`), or nil
        /// for a recipe without `locales:`. `title` and `category` are in this language.
        public var locale: String?
        /// cues-v1.2: the variant the track is (`variants:`, one length of several), or nil when it is not one.
        public var variant: Variant?
        /// cues-v1.2: how many of its voice prompts are drafts (spoken by the draft voice, not recorded yet);
        /// 0 when none, and in a catalog written before the count.
        public var drafts: Int

        /// The length to offer a listener, in seconds: the variant's `duration` for a variant, else the audio's.
        public var length: Double { variant?.duration ?? duration }

        /// Makes a track. Nothing is checked (`decode(from:)` checks what it reads).
        ///
        /// `session` defaults to the track's own id (a session of one rendition); `locale` and `variant` to
        /// none, `drafts` to 0.
        public init(
            id: String, title: String, category: String?, duration: Double, file: String, cues: String, sidecars: [String] = [],
            premium: Bool, sortOrder: Int?, delivery: Delivery, sha256: String, bytes: Int64, session: String? = nil, locale: String? = nil,
            variant: Variant? = nil, drafts: Int = 0
        ) {
            self.session = session ?? id
            self.locale = locale
            self.variant = variant
            self.drafts = drafts
            self.id = id
            self.title = title
            self.category = category
            self.duration = duration
            self.file = file
            self.cues = cues
            self.sidecars = sidecars
            self.premium = premium
            self.sortOrder = sortOrder
            self.delivery = delivery
            self.sha256 = sha256
            self.bytes = bytes
        }

        /// The audio file in `folder`: the catalog's folder, or the base URL on-demand tracks are fetched from.
        public func audioURL(in folder: URL) -> URL { folder.appendingPathComponent(file, isDirectory: false) }

        /// The cue sheet in `folder` (see `audioURL(in:)`).
        public func cuesURL(in folder: URL) -> URL { folder.appendingPathComponent(cues, isDirectory: false) }
    }

    /// A track's `variant` (cues-v1.2): which of its recipe's `variants:` it is.
    public struct Variant: Sendable, Hashable {
        /// The variant's length in seconds, as `variants: { duration: [...] }` gives it (`300` for `5m`); above 0.
        public var duration: Double

        /// Makes a variant of `duration` seconds.
        public init(duration: Double) { self.duration = duration }
    }

    /// `delivery` (recipe-v1.1 § Catalog delivery): inside the app, or fetched by the app when needed.
    /// A catalog older than catalog delivery has none: its tracks are bundled.
    public enum Delivery: String, Sendable, CaseIterable {
        /// `bundled`: shipped inside the app, beside `catalog.json`.
        case bundled
        /// `on-demand`: fetched by the app when needed (`sha256` and `bytes` let it check the download).
        case onDemand = "on-demand"
    }

    /// `bundle`: the bundled tracks' total audio bytes and `--bundle-budget`, if the render had one.
    public struct BundleInfo: Sendable, Equatable {
        /// The total audio bytes of the tracks whose delivery is `bundled`.
        public var bytes: Int64
        /// The render's `--bundle-budget` in bytes, or nil when it had none.
        public var budget: Int64?

        /// Makes the bundle's figures.
        public init(bytes: Int64, budget: Int64?) {
            self.bytes = bytes
            self.budget = budget
        }
    }

    /// The tracks of one category, in order.
    public struct Section: Sendable, Equatable, Identifiable {
        /// The tracks' category; nil for the tracks without one.
        public var category: String?
        /// The header to show: the category, or `TrackCatalog.uncategorized`.
        public var title: String
        /// Its tracks in the order a list shows them (see `TrackCatalog.sections(of:)`).
        public var tracks: [Track]
        /// The category (nil for the uncategorized section): unique within a catalog.
        public var id: String? { category }
    }
}

// MARK: - Grouping

extension TrackCatalog {
    /// `tracks` grouped by category, as the catalog's preview page (`index.html`) groups them.
    ///
    /// Categories in alphabetical order, ignoring case first (`calm` before `Focus`) and then exactly,
    /// with the tracks without a category last, under `uncategorized`. Inside a category, by
    /// `sortOrder` (tracks without one after every number), then title, then id. Comparisons are
    /// Swift's `String` ordering, not the user's locale, so every device lists a catalog alike.
    public static func sections(of tracks: [Track]) -> [Section] {
        let groups = Dictionary(grouping: tracks, by: \.category)
        return groups.keys.sorted(by: categoryOrder).map { category in
            let members = (groups[category] ?? []).sorted {
                ($0.sortOrder ?? Int.max, $0.title, $0.id) < ($1.sortOrder ?? Int.max, $1.title, $1.id)
            }
            return Section(category: category, title: category ?? uncategorized, tracks: members)
        }
    }

    /// Whether category `a` is listed before `b`: case-insensitive, then exact; nil last. The
    /// preview page orders its groups by it too.
    public static func categoryOrder(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, _): false
        case (_, nil): true
        case (let a?, let b?): (a.lowercased(), a) < (b.lowercased(), b)
        }
    }

    /// The bytes of the tracks whose delivery is bundled, what `bundle.bytes` holds (`Int64.max` should they overflow it).
    static func bundledBytes(of tracks: [Track]) -> Int64 {
        tracks.reduce(0) { total, track in
            guard track.delivery == .bundled else { return total }
            let (sum, overflow) = total.addingReportingOverflow(track.bytes)
            return overflow ? .max : sum
        }
    }
}
