import Catalog
import CatalogManifest
import Foundation
import Testing

/// A track entry for the in-process tests: only what the catalog's order and sessions read differs.
func sessionEntry(
    _ id: String, session: String? = nil, title: String = "Box", sortOrder: Int? = nil, seconds: Double = 60, variant: Double? = nil,
    locale: String? = nil, localeRank: Int = 0, drafts: Int = 0
) -> Manifest.Entry {
    let frames = Int64(seconds * 8000)
    return Manifest.Entry(
        id: id, title: title, category: "Focus", duration: Double(frames) / 8000, file: id + ".flac", cues: id + ".cues.json", sidecars: nil,
        premium: false, sortOrder: sortOrder, session: session ?? id, locale: locale, localeRank: localeRank, variant: variant, drafts: drafts,
        delivery: .bundled, frames: frames, sampleRate: 8000, sha256: String(repeating: "ab", count: 32), bytes: 1000, loudnessLUFS: -16,
        truePeakDBTP: -1.5, fingerprint: String(repeating: "0", count: 64))
}

/// recipe-v1.2 § Sessions in the catalog, in process: the order of a catalog's tracks and sessions, and
/// `catalog.json`'s `sessions` and track keys read back (cues-v1.2 § catalog.json).
@Suite("Sessions in catalog.json, in process")
struct SessionManifestTests {
    /// A recipe with `variants: { duration: [10m, 3m, 5m] }`: one session, its tracks shortest first (by id they
    /// would be 10m, 3m, 5m), and as the session's `tracks`.
    @Test("the variants 10m, 3m, 5m of one recipe are one session, ordered 3m, 5m, 10m")
    func variantsShortestFirst() throws {
        let entries = [
            sessionEntry("box-10m", session: "box", seconds: 600, variant: 600),
            sessionEntry("box-3m", session: "box", seconds: 180, variant: 180),
            sessionEntry("box-5m", session: "box", seconds: 300, variant: 300),
        ]
        let manifest = Manifest(tracks: entries)
        #expect(manifest.tracks.map(\.id) == ["box-3m", "box-5m", "box-10m"])
        #expect(manifest.sessions.map(\.id) == ["box"])
        #expect(manifest.sessions.first?.tracks == ["box-3m", "box-5m", "box-10m"])
        let text = manifest.jsonText()
        #expect(text.contains("\"sessions\": [\n    {\n      \"id\": \"box\",\n      \"title\": \"Box\","), "\(text)")
        #expect(text.contains("\"tracks\": [\"box-3m\", \"box-5m\", \"box-10m\"]"), "\(text)")
        #expect(text.contains("\"variant\": {\"duration\": 180.0},"), "\(text)")
        // written, read back: the same manifest, the same bytes
        let read = try Manifest.decode(Array(text.utf8), file: "c.json")
        #expect(read == manifest && read.jsonText() == text)
    }

    /// Sessions by sort_order (none after every number), then title in Unicode code point order ('Z' before 'a',
    /// 'Zen' before 'Éclair'), then id.
    @Test("sessions go by sort_order (none last), then title by code point, then id")
    func sessionOrder() throws {
        let entries = [
            sessionEntry("none-apple", title: "apple"),
            sessionEntry("none-eclair", title: "\u{C9}clair"),
            sessionEntry("none-zen", title: "Zen"),
            sessionEntry("five-b", title: "Same", sortOrder: 5),
            sessionEntry("five-a", title: "Same", sortOrder: 5),
            sessionEntry("five-alpha", title: "Alpha", sortOrder: 5),
            sessionEntry("minus", title: "Zzz", sortOrder: -3),
            sessionEntry("big", title: "Aaa", sortOrder: 1000),
        ]
        let expected = ["minus", "five-alpha", "five-a", "five-b", "big", "none-zen", "none-apple", "none-eclair"]
        for order in [entries, entries.reversed(), entries.shuffled()] {
            let manifest = Manifest(tracks: order)
            #expect(manifest.tracks.map(\.id) == expected)
            #expect(manifest.sessions.map(\.id) == expected)
        }
    }

    /// A session's renditions by locale (its place in `locales:`), then length: the default locale's first,
    /// whatever the tags' alphabetical order; its title and category are the first rendition's.
    @Test("a session's renditions go by locale as listed, then length; the session has its first rendition's title")
    func localesThenLength() throws {
        let entries = [
            sessionEntry("s-5m-en", session: "s", title: "Sleep", seconds: 300, variant: 300, locale: "en", localeRank: 1),
            sessionEntry("s-3m-en", session: "s", title: "Sleep", seconds: 180, variant: 180, locale: "en", localeRank: 1),
            sessionEntry("s-5m-de", session: "s", title: "Schlaf", seconds: 300, variant: 300, locale: "de", localeRank: 0),
            sessionEntry("s-3m-de", session: "s", title: "Schlaf", seconds: 180, variant: 180, locale: "de", localeRank: 0),
        ]
        let manifest = Manifest(tracks: entries)
        #expect(manifest.tracks.map(\.id) == ["s-3m-de", "s-5m-de", "s-3m-en", "s-5m-en"])
        #expect(manifest.sessions.map(\.title) == ["Schlaf"])
        // read back, each locale's place comes from the order of the session's tracks
        let read = try Manifest.decode(Array(manifest.jsonText().utf8), file: "c.json")
        #expect(read.tracks.map(\.localeRank) == [0, 0, 1, 1])
        #expect(read == manifest)
    }

    /// Two sessions (a recipe with two variants, then a plain one), as written.
    static let twoSessions: String = Manifest(tracks: [
        sessionEntry("box-5m", session: "box", title: "Box", sortOrder: 1, seconds: 300, variant: 300, drafts: 2),
        sessionEntry("box-3m", session: "box", title: "Box", sortOrder: 1, seconds: 180, variant: 180, drafts: 2),
        sessionEntry("calm", title: "Calm", sortOrder: 2),
    ]).jsonText()

    /// One change to `twoSessions`, and where and what the reader must say.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let label: String
        let old: String
        let new: String
        /// Which occurrence of `old` to change (1: the first; 0: every one).
        let occurrence: Int
        let path: String
        let says: String
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        Refusal(
            label: "a track naming another session", old: "\"session\": \"calm\"", new: "\"session\": \"box\"", occurrence: 1,
            path: "tracks[2].session", says: "expected 'calm', the session that lists this track (sessions[1]), found 'box'"),
        Refusal(
            label: "a session not listing one of its tracks", old: "\"tracks\": [\"box-3m\", \"box-5m\"]", new: "\"tracks\": [\"box-3m\"]",
            occurrence: 1, path: "tracks[1].id", says: "expected a track listed in a session's tracks, found 'box-5m' in none"),
        Refusal(
            label: "a track in two sessions", old: "\"tracks\": [\"calm\"]", new: "\"tracks\": [\"calm\", \"box-3m\"]", occurrence: 1,
            path: "sessions[1].tracks[1]", says: "expected every track in one session, found 'box-3m' also in sessions[0]"),
        Refusal(
            label: "a session listing a track that is not in the catalog", old: "\"tracks\": [\"calm\"]",
            new: "\"tracks\": [\"calm\", \"ghost\"]", occurrence: 1, path: "sessions[1].tracks[1]",
            says: "expected the id of a track of this catalog, found 'ghost'"),
        Refusal(
            label: "a session's tracks out of order", old: "\"tracks\": [\"box-3m\", \"box-5m\"]", new: "\"tracks\": [\"box-5m\", \"box-3m\"]",
            occurrence: 1, path: "sessions[0].tracks", says: "expected [\"box-3m\", \"box-5m\"] (its tracks in order)"),
        Refusal(
            label: "a session's title not its first track's", old: "\"title\": \"Box\"", new: "\"title\": \"Boxes\"", occurrence: 1,
            path: "sessions[0].title", says: "expected \"Box\" (its first track's title), found \"Boxes\""),
        Refusal(
            label: "sessions out of order (calm's sort_order 0, in its session and track)", old: "\"sort_order\": 2", new: "\"sort_order\": 0",
            occurrence: 0, path: "tracks[0].id",
            says: "expected 'calm' here, found 'box-3m'"),
        Refusal(
            label: "drafts negative", old: "\"drafts\": 0", new: "\"drafts\": -1", occurrence: 1, path: "tracks[2].drafts",
            says: "expected a number of draft prompts from 0 to 10000000, found -1"),
        Refusal(
            label: "drafts a string", old: "\"drafts\": 2", new: "\"drafts\": \"2\"", occurrence: 1, path: "tracks[0].drafts",
            says: "expected a number of draft prompts"),
        Refusal(
            label: "a locale with a slash", old: "\"locale\": null", new: "\"locale\": \"../en\"", occurrence: 1, path: "tracks[0].locale",
            says: "expected a locale tag"),
        Refusal(
            label: "a variant of length 0", old: "\"variant\": {\"duration\": 180.0}", new: "\"variant\": {\"duration\": 0}", occurrence: 1,
            path: "tracks[0].variant.duration", says: "expected a length in seconds above 0"),
        Refusal(
            label: "a variant that is a number", old: "\"variant\": {\"duration\": 180.0}", new: "\"variant\": 180", occurrence: 1,
            path: "tracks[0].variant", says: "expected {\"duration\": SECONDS}"),
        Refusal(
            label: "a session id that is not an id", old: "\"session\": \"calm\"", new: "\"session\": \"../calm\"", occurrence: 1,
            path: "tracks[2].session", says: "expected a session id"),
        Refusal(
            label: "a track without its session", old: "\"session\": \"calm\",\n", new: "", occurrence: 1, path: "tracks[2].session",
            says: "missing (a required key)"),
        Refusal(
            label: "sessions not an array", old: "\"sessions\": [", new: "\"sessions\": 5, \"x\": [", occurrence: 1, path: "sessions",
            says: "expected an array of sessions, found 5"),
    ]

    @Test("a manifest whose sessions and tracks disagree is refused at the key, naming what was expected", arguments: refusals)
    func refused(_ c: Refusal) throws {
        let text = Self.twoSessions
        let ranges = text.ranges(of: c.old)
        try #require(ranges.count >= max(1, c.occurrence), "the case does not apply: \(c.old)")
        let changed =
            c.occurrence == 0
            ? text.replacingOccurrences(of: c.old, with: c.new) : text.replacingCharacters(in: ranges[c.occurrence - 1], with: c.new)
        let errors = manifestErrors(changed)
        #expect(errors.first?.contains(": error: \(c.path): ") == true, "\(c.label): \(errors)")
        #expect(errors.first?.contains(c.says) == true, "\(c.label): expected '\(c.says)' in \(errors)")
    }

    /// An upgraded renderer reads the catalog.json of the one before: every track its own session, no
    /// locale, no variant, no drafts (a render then derives them), sorted by id as it was written.
    @Test("a catalog.json written before sessions still reads, with the old defaults, and is written with sessions")
    func olderManifest() throws {
        let manifest = try Manifest.decode(Array(legacyManifest.utf8), file: "m.json")
        #expect(manifest.predatesSessions)
        let entry = try #require(manifest.tracks.first)
        #expect(entry.session == "alpha" && entry.locale == nil && entry.variant == nil && entry.drafts == 0)
        let written = manifest.jsonText()
        #expect(written == referenceManifest, "\(written)")
        let again = try Manifest.decode(Array(written.utf8), file: "m.json")
        #expect(!again.predatesSessions && again == manifest)
        // written before sessions, its tracks are sorted by id: another order is refused, as before
        let twoTracks = Manifest(tracks: [sessionEntry("b", title: "A"), sessionEntry("a", title: "B")]).jsonText()
        let older = try #require(
            twoTracks.components(separatedBy: "  \"sessions\": [").first.flatMap { head in
                twoTracks.components(separatedBy: "  ],\n  \"tracks\": [").last.map { head + "  \"tracks\": [" + $0 }
            })
        let errors = manifestErrors(older)
        #expect(errors.count == 1 && errors[0].contains("tracks[1].id: expected the tracks sorted by id"), "\(errors)\n\(older)")
    }
}
