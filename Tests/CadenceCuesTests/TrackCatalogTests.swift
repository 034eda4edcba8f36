import CadenceCues
import Foundation
import Testing

/// `catalog.json` as the renderer writes it (recipe-v1.1 § Catalog delivery), made from a few fields per track.
enum CatalogFixture {
    struct Row {
        var id: String
        var title: String
        var category: String?
        var sortOrder: Int?
        var delivery: String
        var bytes: Int64
        var premium = false
    }

    /// Six tracks over four categories (one of them nil, one in lower case), with ties in sort order.
    static let rows: [Row] = [
        Row(id: "alpha-box", title: "Alpha Box", category: "Focus", sortOrder: 20, delivery: "bundled", bytes: 1000),
        Row(id: "bravo-calm", title: "Bravo Calm", category: "calm", sortOrder: nil, delivery: "bundled", bytes: 2000, premium: true),
        Row(id: "charlie-focus", title: "Charlie Focus", category: "Focus", sortOrder: 10, delivery: "on-demand", bytes: 5000),
        Row(id: "delta-drift", title: "Delta Drift", category: nil, sortOrder: 5, delivery: "on-demand", bytes: 7000),
        Row(id: "echo-focus", title: "Echo Focus", category: "Focus", sortOrder: 10, delivery: "bundled", bytes: 3000),
        Row(id: "foxtrot-sleep", title: "Foxtrot — Schlaf", category: "Sleep", sortOrder: 1, delivery: "bundled", bytes: 400),
    ]

    static func sha256(_ id: String) -> String { String(repeating: id.count % 2 == 0 ? "ab" : "cd", count: 32) }

    /// cues-v1.2's track keys: this fixture is a catalog written before sessions, which has none of them.
    static let sessionKeys: Set<TrackCatalog.TrackKey> = [.session, .locale, .variant, .drafts]

    /// One track's entry with the renderer's keys in its order (those of a catalog before sessions), but those in `without`.
    static func entry(_ r: Row, without: Set<TrackCatalog.TrackKey> = []) -> String {
        let fields = TrackCatalog.TrackKey.allCases.filter { !without.contains($0) && !sessionKeys.contains($0) }.map { key in
            let value =
                switch key {
                case .id: "\"\(r.id)\""
                case .title: "\"\(r.title)\""
                case .category: r.category.map { "\"\($0)\"" } ?? "null"
                case .duration: "4.0"
                case .file: "\"\(r.id).flac\""
                case .cues: "\"\(r.id).cues.json\""
                case .sidecars: "[\"\(r.id).vtt\", \"\(r.id).svg\"]"
                case .premium: "\(r.premium)"
                case .sortOrder: r.sortOrder.map(String.init) ?? "null"
                case .session: "\"\(r.id)\""
                case .locale, .variant: "null"
                case .drafts: "0"
                case .delivery: "\"\(r.delivery)\""
                case .frames: "192000"
                case .sampleRate: "48000"
                case .sha256: "\"\(sha256(r.id))\""
                case .bytes: "\(r.bytes)"
                case .loudnessLUFS: "-16.0"
                case .truePeakDBTP: "-1.5"
                case .fingerprint: "\"\(String(repeating: "0", count: 64))\""
                }
            return "\"\(key.rawValue)\": \(value)"
        }
        return "    {\n      " + fields.joined(separator: ",\n      ") + "\n    }"
    }

    /// The keys only the renderer reads.
    static let renderersKeys: Set<TrackCatalog.TrackKey> = [.frames, .sampleRate, .loudnessLUFS, .truePeakDBTP, .fingerprint]

    /// A catalog of `rows`' entries without the keys in `without`, and with a `bundle` when given one.
    static func catalog(bundle: String?, without: Set<TrackCatalog.TrackKey> = []) -> String {
        var text = "{\n  \"format\": \"cadence-catalog\",\n  \"version\": 1,\n"
        if let bundle { text += "  \"bundle\": \(bundle),\n" }
        text += "  \"tracks\": [\n" + rows.map { entry($0, without: without) }.joined(separator: ",\n") + "\n  ]\n}\n"
        return text
    }

    /// The catalog as the renderer writes it today: bundle (the bundled tracks' 6,400 bytes, an 80 MB budget), delivery, sidecars.
    static let current = catalog(bundle: "{\n    \"bytes\": 6400,\n    \"budget\": 80000000\n  }")

    /// The same tracks as a renderer older than catalog delivery wrote them: no bundle, delivery or sidecars.
    static let older = catalog(bundle: nil, without: [.delivery, .sidecars])

    static func decodeError(_ text: String) -> TrackCatalogError? {
        do {
            _ = try TrackCatalog.decode(from: text)
            return nil
        } catch {
            return error
        }
    }
}

@Suite struct TrackCatalogTests {
    @Test func readsEveryFieldAnAppNeeds() throws {
        let catalog = try TrackCatalog.decode(from: CatalogFixture.current)
        #expect(catalog.tracks.map(\.id) == CatalogFixture.rows.map(\.id))
        #expect(
            catalog.track(id: "charlie-focus")
                == TrackCatalog.Track(
                    id: "charlie-focus", title: "Charlie Focus", category: "Focus", duration: 4.0, file: "charlie-focus.flac",
                    cues: "charlie-focus.cues.json", sidecars: ["charlie-focus.vtt", "charlie-focus.svg"], premium: false, sortOrder: 10,
                    delivery: .onDemand, sha256: CatalogFixture.sha256("charlie-focus"), bytes: 5000))
        let bravo = try #require(catalog.track(id: "bravo-calm"))
        #expect(bravo.premium && bravo.sortOrder == nil && bravo.delivery == .bundled && bravo.category == "calm")
        #expect(catalog.track(id: "delta-drift")?.category == nil)
        #expect(catalog.track(id: "foxtrot-sleep")?.title == "Foxtrot — Schlaf")
        #expect(catalog.track(id: "nope") == nil)
        #expect(catalog.bundle == TrackCatalog.BundleInfo(bytes: 6400, budget: 80_000_000))
    }

    /// Categories alphabetically, case ignored first; nil last as "Uncategorized"; inside, by sort order, title, id.
    @Test func groupsTracksByCategoryAsThePreviewPageDoes() throws {
        let catalog = try TrackCatalog.decode(from: CatalogFixture.current)
        #expect(catalog.sections.map(\.category) == ["calm", "Focus", "Sleep", nil])
        #expect(catalog.sections.map(\.title) == ["calm", "Focus", "Sleep", "Uncategorized"])
        #expect(catalog.sections.map(\.id) == ["calm", "Focus", "Sleep", nil])
        #expect(
            catalog.sections.map { $0.tracks.map(\.id) } == [
                ["bravo-calm"], ["charlie-focus", "echo-focus", "alpha-box"], ["foxtrot-sleep"], ["delta-drift"],
            ])
        #expect(catalog.sections.flatMap(\.tracks).count == catalog.tracks.count)
    }

    @Test(arguments: [
        // (categories as given, the order of the sections)
        (["b", "A", "a", "B"], ["A", "a", "B", "b"]),
        (["Sleep", "", "focus", "Focus"], ["", "Focus", "focus", "Sleep"]),
        (["Ünï", "Z", "a"], ["a", "Z", "Ünï"]),
    ])
    func ordersCategoriesIgnoringCaseThenExactly(_ categories: [String], _ order: [String]) {
        let tracks = categories.enumerated().map { i, category in
            TrackCatalog.Track(
                id: "t\(i)", title: "T", category: category, duration: 1, file: "t\(i).flac", cues: "t\(i).cues.json", premium: false,
                sortOrder: nil, delivery: .bundled, sha256: "", bytes: 1)
        }
        #expect(TrackCatalog.sections(of: tracks).map(\.category) == order)
    }

    /// Without a sort order a track comes after every numbered one; ties go by title, then id.
    @Test func ordersTracksBySortOrderThenTitleThenID() {
        func track(_ id: String, _ title: String, _ sortOrder: Int?) -> TrackCatalog.Track {
            TrackCatalog.Track(
                id: id, title: title, category: "C", duration: 1, file: id + ".flac", cues: id + ".cues.json", premium: false,
                sortOrder: sortOrder, delivery: .bundled, sha256: "", bytes: 1)
        }
        let tracks = [
            track("a", "Zed", nil), track("b", "Alpha", nil), track("c", "Mid", 3), track("d", "Mid", 3), track("e", "Last", .max),
            track("f", "First", -2),
        ]
        #expect(TrackCatalog.sections(of: tracks).map { $0.tracks.map(\.id) } == [["f", "c", "d", "b", "e", "a"]])
    }

    /// A catalog written before catalog delivery: every track bundled, the bundle totalled here, no budget, no sidecars.
    @Test func fillsInWhatOlderCatalogsLack() throws {
        let older = try TrackCatalog.decode(from: CatalogFixture.older)
        #expect(older.tracks.allSatisfy { $0.delivery == .bundled && $0.sidecars.isEmpty })
        #expect(older.bundle == TrackCatalog.BundleInfo(bytes: CatalogFixture.rows.reduce(0) { $0 + $1.bytes }, budget: nil))
        let current = try TrackCatalog.decode(from: CatalogFixture.current)
        #expect(older.tracks.map(\.id) == current.tracks.map(\.id))
        #expect(older.sections.map(\.title) == current.sections.map(\.title))
        let nulls = try Fixture.edit(CatalogFixture.current, [(#""budget": 80000000"#, #""budget": null"#)])
        #expect(try TrackCatalog.decode(from: nulls).bundle.budget == nil)
    }

    @Test func ignoresUnknownKeysAndTheRenderersOwn() throws {
        let full = try TrackCatalog.decode(from: CatalogFixture.current)
        let unknown = try Fixture.edit(
            CatalogFixture.current,
            [
                (#""version": 1,"#, #""version": 1, "generator": {"name": "cadence", "n": [1, null]},"#),
                (#""bytes": 6400,"#, #""bytes": 6400, "currency": "EUR","#),
                (#""id": "alpha-box","#, #""id": "alpha-box", "color": "teal", "tags": ["a"],"#),
                // a shard's catalog reads as the tracks it holds
                ("\n}\n", ",\n  \"shard\": {\"index\": 1, \"count\": 2, \"catalog\": [\"alpha-box\"]}\n}\n"),
            ])
        #expect(try TrackCatalog.decode(from: unknown) == full)
        // the renderer's bookkeeping is not read at all: neither its types nor its presence matter
        let odd = try Self.replacingFirst(#""sample_rate": 48000"#, with: #""sample_rate": "fast""#, in: CatalogFixture.current)
        #expect(try TrackCatalog.decode(from: odd) == full)
        let bare = CatalogFixture.catalog(bundle: #"{"bytes": 6400, "budget": 80000000}"#, without: CatalogFixture.renderersKeys)
        #expect(!bare.contains("fingerprint") && !bare.contains("sample_rate") && !bare.contains("frames"))
        #expect(try TrackCatalog.decode(from: bare) == full)
    }

    /// What happens to a catalog without each key of a track, decided for every key of `TrackKey`:
    /// refused, read as its default (set by the function on the track as the fixture has it), or ignored.
    enum WhenMissing {
        case required, ignored
        case defaulted(@Sendable (inout TrackCatalog.Track) -> Void)
    }
    static func whenMissing(_ key: TrackCatalog.TrackKey) -> WhenMissing {
        switch key {
        case .id, .title, .duration, .file, .cues, .premium, .sha256, .bytes: .required
        case .category: .defaulted { $0.category = nil }
        case .sidecars: .defaulted { $0.sidecars = [] }
        case .sortOrder: .defaulted { $0.sortOrder = nil }
        case .delivery: .defaulted { $0.delivery = .bundled }
        case .frames, .sampleRate, .loudnessLUFS, .truePeakDBTP, .fingerprint: .ignored
        // cues-v1.2: a catalog before sessions has none (this fixture); TrackCatalogSessionTests reads them
        case .session, .locale, .variant, .drafts: .ignored
        }
    }

    @Test(arguments: TrackCatalog.TrackKey.allCases.filter { !CatalogFixture.sessionKeys.contains($0) })
    func readsEachTrackKeyAsDecided(_ key: TrackCatalog.TrackKey) throws {
        let object = try #require(JSONSerialization.jsonObject(with: Data(CatalogFixture.current.utf8)) as? [String: Any])
        var tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks[2][key.rawValue] != nil, "the fixture has every key")
        tracks[2][key.rawValue] = nil
        var edited = object
        edited["tracks"] = tracks
        // without the bundle, which the reader then totals itself: a track that became bundled still reads
        edited["bundle"] = nil
        let text = String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self)
        switch Self.whenMissing(key) {
        case .required:
            #expect(CatalogFixture.decodeError(text) == .missingKey(path: "tracks[2].\(key.rawValue)"))
        case .defaulted(let setDefault):
            let track = try #require(try TrackCatalog.decode(from: text).track(id: "charlie-focus"))
            var expected = try #require(try TrackCatalog.decode(from: CatalogFixture.current).track(id: "charlie-focus"))
            #expect(track != expected, "the fixture's value is not the default")
            setDefault(&expected)
            #expect(track == expected)
        case .ignored:
            #expect(try TrackCatalog.decode(from: text).tracks == TrackCatalog.decode(from: CatalogFixture.current).tracks)
        }
    }

    @Test(arguments: [
        (#""premium": false,"#, #""premium": "no","#, #"tracks[0].premium: expected true or false, found "no""#),
        (#""bytes": 1000,"#, #""bytes": 1000.5,"#, "tracks[0].bytes: expected an integer, found 1000.5"),
        (#""bytes": 1000,"#, #""bytes": -1,"#, "tracks[0].bytes: expected a size in bytes, not negative, found -1"),
        (#""sort_order": 20,"#, #""sort_order": "20","#, #"tracks[0].sort_order: expected an integer or null, found "20""#),
        (#""title": "Alpha Box","#, #""title": null,"#, "tracks[0].title: expected a string, found null"),
        (#""category": "Focus","#, #""category": 1,"#, "tracks[0].category: expected a string or null, found 1"),
        (#""duration": 4.0,"#, #""duration": -4.0,"#, "tracks[0].duration: expected seconds, not negative, found -4.0"),
        (
            #""file": "alpha-box.flac","#, #""file": "../alpha-box.flac","#,
            #"tracks[0].file: expected a file name without a folder part, found "../alpha-box.flac""#
        ),
        (#""cues": "alpha-box.cues.json","#, #""cues": "..","#, #"tracks[0].cues: expected a file name without a folder part, found "..""#),
        (
            #""sidecars": ["alpha-box.vtt", "#, #""sidecars": ["a\\b.vtt", "#,
            #"tracks[0].sidecars[0]: expected a file name without a folder part, found "a\\b.vtt""#
        ),
        (#""sidecars": ["alpha-box.vtt", "#, #""sidecars": [7, "#, "tracks[0].sidecars[0]: expected a string, found 7"),
        (#""delivery": "on-demand","#, #""delivery": "streamed","#, #"tracks[2].delivery: expected "bundled" or "on-demand", found "streamed""#),
        (#""delivery": "on-demand","#, #""delivery": null,"#, "tracks[2].delivery: expected a string, found null"),
        (#""id": "bravo-calm","#, #""id": "alpha-box","#, #"tracks[1].id: "alpha-box" is also the id of tracks[0]; expected each id once"#),
        (#""id": "bravo-calm","#, #""id": "","#, #"tracks[1].id: expected an id, found """#),
        (#""bytes": 6400,"#, #""bytes": 6401,"#, "bundle.bytes: expected 6400 (the bytes of the tracks whose delivery is bundled), found 6401"),
        (#""budget": 80000000"#, #""budget": "80MB""#, #"bundle.budget: expected an integer or null, found "80MB""#),
        (#""budget": 80000000"#, #""budget": -5"#, "bundle.budget: expected a size in bytes or null, not negative, found -5"),
        (#""tracks": ["#, #""tracks": {}, "x": ["#, "tracks: expected an array, found an object"),
        (#""bundle": {"#, #""bundle": 5, "b": {"#, "bundle: expected an object or null, found 5"),
        (
            #""format": "cadence-catalog""#, #""format": "session-cues""#,
            #"not a track catalog: format is "session-cues", expected "cadence-catalog""#
        ),
        (#""version": 1,"#, #""version": 2,"#, "catalog version 2 is not supported by this reader (supports 1)"),
        (#""version": 1,"#, #""version": "1","#, #"version: expected a number, found "1""#),
    ])
    func namesTheProblemAtItsPath(_ of: String, _ with: String, _ message: String) throws {
        let text = try Self.replacingFirst(of, with: with, in: CatalogFixture.current)
        #expect(CatalogFixture.decodeError(text)?.description == message)
    }

    @Test func typedErrorsForAnAppToTellApart() throws {
        #expect(
            CatalogFixture.decodeError(try Self.replacingFirst(#""version": 1,"#, with: #""version": 2.5,"#, in: CatalogFixture.current))
                == .unsupportedVersion("2.5"))
        #expect(CatalogFixture.decodeError(#"{"format": "x"}"#) == .notACatalog(format: "x"))
        #expect(CatalogFixture.decodeError(#"{"version": 1}"#) == .missingKey(path: "format"))
        #expect(CatalogFixture.decodeError("[]") == .typeMismatch(path: "document", expected: "an object", found: "an array"))
        #expect(
            CatalogFixture.decodeError("{\"format\": ") == .malformed(reason: "unexpected end of document, expected a value", line: 1, column: 12))
        #expect(try TrackCatalog.decode(from: Data([0xEF, 0xBB, 0xBF] + Array(CatalogFixture.current.utf8))).tracks.count == 6)
        let error: any Error = TrackCatalogError.missingKey(path: "tracks[0].id")
        #expect(error.localizedDescription == "tracks[0].id: missing (a required key)")
        #expect(try TrackCatalog.decode(from: #"{"format": "cadence-catalog", "version": 1.1, "tracks": []}"#) == TrackCatalog(tracks: []))
    }

    @Test func findsATracksFilesInAFolder() throws {
        let track = try #require(try TrackCatalog.decode(from: CatalogFixture.current).track(id: "echo-focus"))
        let bundle = URL(fileURLWithPath: "/App.app/Catalog", isDirectory: true)
        #expect(track.audioURL(in: bundle).path == "/App.app/Catalog/echo-focus.flac")
        #expect(track.cuesURL(in: bundle).path == "/App.app/Catalog/echo-focus.cues.json")
        let server = try #require(URL(string: "https://cdn.example.com/catalog/"))
        #expect(track.audioURL(in: server).absoluteString == "https://cdn.example.com/catalog/echo-focus.flac")
    }

    /// `text` with the first occurrence of `of` replaced.
    static func replacingFirst(_ of: String, with: String, in text: String) throws -> String {
        let range = try #require(text.range(of: of), "\(of) is not in the fixture")
        return text.replacingCharacters(in: range, with: with)
    }
}
