import CadenceCues
import Foundation
import Testing

/// `catalog.json` with cues-v1.2's sessions, as the renderer writes it: three sessions, one in two locales, one
/// in three lengths, one plain.
enum SessionCatalogFixture {
    struct Rendition {
        var id: String
        var title: String
        var category: String?
        var session: String
        var locale: String?
        var variant: Double?
        var drafts = 0
        var premium = false
        var sortOrder: Int?
    }

    static let renditions: [Rendition] = [
        Rendition(
            id: "sleep-wind-down-en", title: "Sleep Wind-Down", category: "Sleep", session: "sleep-wind-down", locale: "en", premium: true,
            sortOrder: 1),
        Rendition(
            id: "sleep-wind-down-de", title: "Einschlafen", category: "Schlaf", session: "sleep-wind-down", locale: "de", drafts: 2, premium: true,
            sortOrder: 1),
        Rendition(id: "sigh", title: "Sigh", category: "Focus", session: "sigh", sortOrder: 2),
        Rendition(id: "box-3m", title: "Box", category: "Focus", session: "box", variant: 180),
        Rendition(id: "box-5m", title: "Box", category: "Focus", session: "box", variant: 300),
        Rendition(id: "box-10m", title: "Box", category: "Focus", session: "box", variant: 600),
    ]

    static func json(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }

    static func entry(_ r: Rendition) -> String {
        let duration = r.variant.map { JSONText.number($0 + 0.5) } ?? "120.0"
        return """
                {
                  "id": "\(r.id)",
                  "title": "\(r.title)",
                  "category": \(json(r.category)),
                  "duration": \(duration),
                  "file": "\(r.id).flac",
                  "cues": "\(r.id).cues.json",
                  "premium": \(r.premium),
                  "sort_order": \(r.sortOrder.map(String.init) ?? "null"),
                  "delivery": "bundled",
                  "sha256": "\(String(repeating: "ab", count: 32))",
                  "bytes": 100,
                  "session": "\(r.session)",
                  "locale": \(json(r.locale)),
                  "variant": \(r.variant.map { "{\"duration\": \(Int($0))}" } ?? "null"),
                  "drafts": \(r.drafts)
                }
            """
    }

    static let sessions = """
          "sessions": [
            { "id": "sleep-wind-down", "title": "Sleep Wind-Down", "category": "Sleep", "premium": true, "sort_order": 1, "tracks": ["sleep-wind-down-en", "sleep-wind-down-de"] },
            { "id": "sigh", "title": "Sigh", "category": "Focus", "premium": false, "sort_order": 2, "tracks": ["sigh"] },
            { "id": "box", "title": "Box", "category": "Focus", "premium": false, "sort_order": null, "tracks": ["box-3m", "box-5m", "box-10m"] }
          ],
        """

    static let text =
        "{\n  \"format\": \"cadence-catalog\",\n  \"version\": 1,\n  \"bundle\": {\"bytes\": 600, \"budget\": null},\n" + sessions + "\n"
        + "  \"tracks\": [\n" + renditions.map(entry).joined(separator: ",\n") + "\n  ]\n}\n"

    static func decodeError(_ text: String) -> TrackCatalogError? {
        do {
            _ = try TrackCatalog.decode(from: text)
            return nil
        } catch {
            return error
        }
    }

    /// A session made in memory with one rendition per (locale, length) pair, in the catalog's order.
    static func session(locales: [String?], lengths: [Double?]) -> TrackCatalog.Session {
        var renditions: [TrackCatalog.Track] = []
        for locale in locales {
            for length in lengths {
                let id = ["s", length.map { "\(Int($0))s" }, locale?.lowercased()].compactMap { $0 }.joined(separator: "-")
                renditions.append(
                    TrackCatalog.Track(
                        id: id, title: "Title \(locale ?? "-")", category: nil, duration: (length ?? 90) + 0.25, file: id + ".flac",
                        cues: id + ".cues.json", premium: false, sortOrder: nil, delivery: .bundled, sha256: "", bytes: 1, session: "s",
                        locale: locale, variant: length.map { TrackCatalog.Variant(duration: $0) }))
            }
        }
        return TrackCatalog.Session(id: "s", title: "Title", category: nil, premium: false, sortOrder: nil, renditions: renditions)
    }
}

@Suite struct TrackCatalogSessionTests {
    @Test func readsTheSessionsAndEachTracksRenditionKeys() throws {
        let catalog = try TrackCatalog.decode(from: SessionCatalogFixture.text)
        #expect(catalog.sessions.map(\.id) == ["sleep-wind-down", "sigh", "box"])
        // tracks in the file's order, session by session
        #expect(catalog.tracks.map(\.id) == SessionCatalogFixture.renditions.map(\.id))
        let sleep = try #require(catalog.session(id: "sleep-wind-down"))
        #expect(sleep.title == "Sleep Wind-Down" && sleep.category == "Sleep" && sleep.premium && sleep.sortOrder == 1)
        #expect(sleep.renditions.map(\.id) == ["sleep-wind-down-en", "sleep-wind-down-de"])
        #expect(sleep.locales == ["en", "de"] && sleep.defaultLocale == "en" && sleep.hasDrafts)
        let german = try #require(catalog.track(id: "sleep-wind-down-de"))
        #expect(german.session == "sleep-wind-down" && german.locale == "de" && german.variant == nil && german.drafts == 2)
        #expect(german.title == "Einschlafen" && german.category == "Schlaf" && german.length == 120)
        #expect(catalog.session(of: german) == sleep)
        let box = try #require(catalog.session(id: "box"))
        #expect(box.locales.isEmpty && box.defaultLocale == nil && !box.hasDrafts && box.sortOrder == nil)
        #expect(box.lengths == [180, 300, 600] && box.lengths(inLocale: nil) == [180, 300, 600])
        // a variant's length is its nominal duration, not the audio's seconds
        #expect(catalog.track(id: "box-5m")?.variant == TrackCatalog.Variant(duration: 300) && catalog.track(id: "box-5m")?.length == 300)
        #expect(catalog.track(id: "box-5m")?.duration == 300.5)
        #expect(catalog.track(id: "sigh")?.variant == nil && catalog.track(id: "sigh")?.drafts == 0)
        #expect(catalog.session(id: "nope") == nil)
    }

    @Test func groupsSessionsByCategoryInCatalogOrder() throws {
        let catalog = try TrackCatalog.decode(from: SessionCatalogFixture.text)
        #expect(catalog.sessionSections.map(\.title) == ["Focus", "Sleep"])
        #expect(catalog.sessionSections.map { $0.sessions.map(\.id) } == [["sigh", "box"], ["sleep-wind-down"]])
        #expect(catalog.sessions(inCategory: "Focus").map(\.id) == ["sigh", "box"])
        #expect(catalog.sessions(inCategory: nil).isEmpty && catalog.sessions(inCategory: "Schlaf").isEmpty)
        // the per-track sections still list every rendition
        #expect(catalog.sections.flatMap(\.tracks).count == 6)
    }

    /// A catalog written before sessions: each track is a session of its own, ordered as recipe-v1.2 orders
    /// sessions (sort order, none last; then title; then id).
    @Test func aCatalogWithoutSessionsReadsEachTrackAsASessionOfItsOwn() throws {
        let catalog = try TrackCatalog.decode(from: CatalogFixture.current)
        #expect(catalog.sessions.map(\.id) == ["foxtrot-sleep", "delta-drift", "charlie-focus", "echo-focus", "alpha-box", "bravo-calm"])
        for session in catalog.sessions {
            let track = try #require(catalog.track(id: session.id))
            #expect(session.renditions == [track])
            #expect(track.session == track.id && track.locale == nil && track.variant == nil && track.drafts == 0)
            #expect(session.title == track.title && session.category == track.category && session.premium == track.premium)
            #expect(session.rendition(preferredLocales: ["de-AT"], preferredDuration: 10) == track)
        }
        #expect(
            catalog.sessionSections.map { $0.sessions.map(\.id) } == [
                ["bravo-calm"], ["charlie-focus", "echo-focus", "alpha-box"], ["foxtrot-sleep"], ["delta-drift"],
            ])
        // an older catalog still reads as before
        #expect(try TrackCatalog.decode(from: CatalogFixture.older).sessions.count == 6)
    }

    /// Sessions ordered by sort order (without one last), then title by code point, then id.
    @Test func ordersSessionsAsTheSpecDoes() {
        func track(_ id: String, _ title: String, _ sortOrder: Int?) -> TrackCatalog.Track {
            TrackCatalog.Track(
                id: id, title: title, category: nil, duration: 1, file: id + ".flac", cues: id + ".cues.json", premium: false,
                sortOrder: sortOrder, delivery: .bundled, sha256: "", bytes: 1)
        }
        let tracks = [
            track("a", "Zed", nil), track("b", "alpha", nil), track("c", "Mid", 3), track("d", "Mid", 3), track("e", "Last", .max),
            track("f", "\u{C9}mile", 3), track("g", "Beta", nil), track("z", "E\u{301}mile", 3),
        ]
        // code point order: "B" < "E" < "M" < "Z" < "a" < "É" (so the decomposed "Émile" of z, which Swift's
        // `==` calls equal to f's, goes first); .max is a number, before every session without one
        #expect(TrackCatalog.sessions(of: tracks).map(\.id) == ["z", "c", "d", "f", "e", "g", "a", "b"])
    }

    /// Tracks made in memory with a `session` are grouped, their renditions by locale (as first given), then length.
    @Test func groupsTracksMadeInMemoryBySession() {
        let made = SessionCatalogFixture.session(locales: ["en", "de"], lengths: [300, 180])
        let catalog = TrackCatalog(tracks: made.renditions.reversed())
        #expect(catalog.sessions.count == 1)
        #expect(catalog.sessions[0].renditions.map(\.id) == ["s-180s-de", "s-300s-de", "s-180s-en", "s-300s-en"])
        let fromSessions = TrackCatalog(sessions: [made])
        #expect(fromSessions.tracks.map(\.id) == made.renditions.map(\.id) && fromSessions.sessions == [made])
    }

    // MARK: Choosing a rendition

    /// (preferred locales, the locale chosen) for a session in en (the default), de, pt, zh-Hant and zh.
    static let localeTable: [([String], String)] = [
        (["de-AT"], "de"),
        (["pt-BR"], "pt"),
        (["zh-Hant-TW"], "zh-Hant"),
        (["zh-Hans-CN"], "zh"),
        (["zh-Hant"], "zh-Hant"),
        (["ja-JP"], "en"),
        ([], "en"),
        (["DE-at"], "de"),
        (["ZH-hANT-tw"], "zh-Hant"),
        (["de_AT"], "de"),
        (["ja", "fr-CA", "de-CH", "en"], "de"),
        (["en-GB", "de"], "en"),
        (["fr", "pt-PT", "de"], "pt"),
        (["de-x-phonebk"], "de"),
        (["*"], "en"),
    ]

    @Test(arguments: localeTable)
    func choosesTheLocaleByRFC4647Lookup(_ preferred: [String], _ chosen: String) {
        let session = SessionCatalogFixture.session(locales: ["en", "de", "pt", "zh-Hant", "zh"], lengths: [nil])
        #expect(session.locale(preferredLocales: preferred) == chosen)
        #expect(session.rendition(preferredLocales: preferred)?.locale == chosen)
        #expect(session.title(preferredLocales: preferred) == "Title \(chosen)")
    }

    /// A lookup never widens a tag: `pt` does not find `pt-BR`; the default is played instead.
    @Test func aLookupDoesNotWidenATag() {
        let session = SessionCatalogFixture.session(locales: ["en", "pt-BR", "zh-Hant"], lengths: [nil])
        #expect(session.locale(preferredLocales: ["pt"]) == "en")
        #expect(session.locale(preferredLocales: ["pt-br"]) == "pt-BR")  // as the catalog writes it
        #expect(session.locale(preferredLocales: ["zh-Hans-CN"]) == "en")  // not the other script
        #expect(LocaleTag.fallbacks(of: "zh-Hant-TW") == ["zh-Hant-TW", "zh-Hant", "zh"])
        #expect(LocaleTag.fallbacks(of: "de-x-phonebk") == ["de-x-phonebk", "de"])
        #expect(LocaleTag.lookup(["fr"], in: ["en", "de"]) == nil)
    }

    /// (preferred length, the length chosen) for a session of 180, 300 and 600 seconds.
    static let lengthTable: [(Double?, Double)] = [
        (nil, 180), (300, 300), (240, 180), (241, 300), (450, 300), (451, 600), (10_000, 600), (0, 180), (-5, 180), (.nan, 180),
        (299.9, 300),
    ]

    @Test(arguments: lengthTable)
    func choosesTheNearestLengthTheShorterOnATie(_ preferred: Double?, _ chosen: Double) {
        let session = SessionCatalogFixture.session(locales: [nil], lengths: [180, 300, 600])
        #expect(session.rendition(preferredDuration: preferred)?.length == chosen)
        #expect(session.rendition(preferredLocales: ["de"], preferredDuration: preferred)?.length == chosen)
    }

    @Test func choosesTheLengthWithinTheChosenLocale() throws {
        let session = SessionCatalogFixture.session(locales: ["en", "de"], lengths: [180, 300, 600])
        #expect(session.rendition(preferredLocales: ["de-AT"], preferredDuration: 290)?.id == "s-300s-de")
        #expect(session.rendition(preferredLocales: ["fr"], preferredDuration: 1000)?.id == "s-600s-en")
        #expect(session.rendition(preferredLocales: ["de"])?.id == "s-180s-de")
        #expect(session.lengths(inLocale: "DE") == [180, 300, 600] && session.lengths(inLocale: "fr").isEmpty)
        #expect(session.renditions(inLocale: "de").map(\.id) == ["s-180s-de", "s-300s-de", "s-600s-de"])
        let catalog = TrackCatalog(sessions: [session])
        #expect(catalog.rendition(for: session, preferredLocales: ["de"], preferredDuration: 600)?.id == "s-600s-de")
        let empty = TrackCatalog.Session(id: "e", title: "E", category: nil, premium: false, sortOrder: nil, renditions: [])
        #expect(empty.rendition(preferredLocales: ["de"], preferredDuration: 1) == nil && empty.title(preferredLocales: ["de"]) == "E")
    }

    @Test(arguments: [
        ("de", true), ("pt-BR", true), ("zh-Hans-CN", true), ("es-419", true), ("x-klingon", true), ("i-klingon", true), ("", false),
        ("de_AT", false), ("-de", false), ("de-", false), ("d", false), ("x", false), ("deutschland1", false), ("de--at", false),
        ("de-abcdefghi", false), ("1de", false), ("dé", false),
    ])
    func checksATagsShape(_ tag: String, _ wellFormed: Bool) {
        #expect(LocaleTag.isWellFormed(tag) == wellFormed)
    }

    // MARK: Bad catalogs

    @Test(arguments: [
        (
            #""tracks": ["box-3m", "box-5m", "box-10m"]"#, #""tracks": ["box-3m", "box-5m", "box-10n"]"#,
            #"sessions[2].tracks[2]: "box-10n" is not the id of a track in tracks, did you mean "box-10m"?"#
        ),
        (
            #""tracks": ["sigh"]"#, #""tracks": ["sigh", "box-3m"]"#,
            #"sessions[2].tracks[0]: "box-3m" is also listed by sessions[1]; expected each track in exactly one session"#
        ),
        (
            #""tracks": ["sigh"]"#, #""tracks": ["sigh", "sigh"]"#,
            #"sessions[1].tracks[1]: "sigh" is also item 0 of this list; expected each track in exactly one session"#
        ),
        (
            #""tracks": ["box-3m", "box-5m", "box-10m"]"#, #""tracks": ["box-3m", "box-5m"]"#,
            #"tracks[5].session: "box-10m" is in no session's tracks; expected each track in exactly one session"#
        ),
        (
            #""session": "box","#, #""session": "bx","#,
            #"tracks[3].session: "bx" is not the id of a session; expected "box", the session that lists it (sessions[2])"#
        ),
        (
            #""session": "box","#, #""session": "sigh","#,
            #"tracks[3].session: "sigh" does not list this track; expected "box", the session that lists it (sessions[2])"#
        ),
        (#""session": "box","#, #""session": "","#, #"tracks[3].session: expected a session's id, found """#),
        (#""session": "box","#, "", "tracks[3].session: missing (a required key)"),
        (
            #""id": "sigh", "title": "Sigh""#, #""id": "sleep-wind-down", "title": "Sigh""#,
            #"sessions[1].id: "sleep-wind-down" is also the id of sessions[0]; expected each id once"#
        ),
        (#""id": "sigh", "title": "Sigh""#, #""id": "", "title": "Sigh""#, #"sessions[1].id: expected an id, found """#),
        (#""tracks": ["sigh"]"#, #""tracks": []"#, "sessions[1].tracks: expected the ids of the session's tracks, found none"),
        (#""tracks": ["sigh"]"#, #""tracks": "sigh""#, #"sessions[1].tracks: expected an array of strings, found "sigh""#),
        (#""tracks": ["sigh"]"#, #""tracks": [7]"#, "sessions[1].tracks[0]: expected a string, found 7"),
        (#""id": "sigh", "title": "Sigh", "#, #""id": "sigh", "#, "sessions[1].title: missing (a required key)"),
        (#""premium": false, "sort_order": 2"#, #""premium": "no", "sort_order": 2"#, #"sessions[1].premium: expected true or false, found "no""#),
        (#""sort_order": 2,"#, #""sort_order": 2.5,"#, "sessions[1].sort_order: expected an integer or null, found 2.5"),
        (#""sessions": ["#, #""sessions": {}, "x": ["#, "sessions: expected an array, found an object"),
        (
            #""locale": "de","#, #""locale": "de_DE","#,
            #"tracks[1].locale: expected a BCP 47 language tag (en, de, pt-BR) or null, found "de_DE""#
        ),
        (#""locale": "de","#, #""locale": 5,"#, "tracks[1].locale: expected a string or null, found 5"),
        (
            #""locale": "de","#, #""locale": null,"#,
            #"sessions[0].tracks: lists "sleep-wind-down-en", with a locale, and "sleep-wind-down-de", without one; a session's renditions all have a locale or none has"#
        ),
        (#""drafts": 2"#, #""drafts": -1"#, "tracks[1].drafts: expected a count of draft prompts, not negative, found -1"),
        (#""drafts": 2"#, #""drafts": 1.5"#, "tracks[1].drafts: expected an integer or null, found 1.5"),
        (#""duration": 300}"#, #""duration": 0}"#, "tracks[4].variant.duration: expected a length in seconds above 0, found 0.0"),
        (#""duration": 300}"#, #""duration": "5m"}"#, #"tracks[4].variant.duration: expected a number, found "5m""#),
        (#"{"duration": 300}"#, "{}", "tracks[4].variant.duration: missing (a required key)"),
        (#"{"duration": 300}"#, "300", "tracks[4].variant: expected an object or null, found 300"),
    ])
    func namesTheProblemAtItsPath(_ of: String, _ with: String, _ message: String) throws {
        var text = SessionCatalogFixture.text
        if with.isEmpty {
            // the key removed: the whole line
            text = try TrackCatalogTests.replacingFirst("\n      " + of, with: "", in: text)
        } else {
            text = try TrackCatalogTests.replacingFirst(of, with: with, in: text)
        }
        #expect(SessionCatalogFixture.decodeError(text)?.description == message)
    }

    /// A catalog whose tracks name sessions it does not list: written by a broken merge, refused.
    @Test func aTrackNamingASessionNeedsTheList() throws {
        let text = try TrackCatalogTests.replacingFirst(SessionCatalogFixture.sessions, with: "", in: SessionCatalogFixture.text)
        #expect(
            SessionCatalogFixture.decodeError(text)?.description
                == #"tracks[0].session: names session "sleep-wind-down", but the catalog has no sessions list"#)
    }

    /// A shard's catalog holds some tracks of a session: the ids other shards hold are left out, not refused.
    @Test func aShardsSessionsListOnlyTheTracksItHolds() throws {
        var text = SessionCatalogFixture.text
        for id in ["box-5m", "box-10m"] {
            let entry = SessionCatalogFixture.entry(try #require(SessionCatalogFixture.renditions.first { $0.id == id }))
            text = try TrackCatalogTests.replacingFirst(",\n" + entry, with: "", in: text)
        }
        text = try TrackCatalogTests.replacingFirst(#""bytes": 600"#, with: #""bytes": 400"#, in: text)
        #expect(SessionCatalogFixture.decodeError(text)?.description.contains(#""box-5m" is not the id of a track"#) == true)
        let shard = try TrackCatalogTests.replacingFirst(
            "  \"bundle\"", with: "  \"shard\": {\"index\": 1, \"count\": 2, \"catalog\": []},\n  \"bundle\"", in: text)
        let catalog = try TrackCatalog.decode(from: shard)
        #expect(catalog.session(id: "box")?.renditions.map(\.id) == ["box-3m"])
    }
}
