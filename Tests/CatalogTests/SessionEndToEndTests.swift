import Foundation
import TestKit
import Testing

/// recipe-v1.2 § Sessions in the catalog and § Drafts made visible, end to end through `render`.
@Suite("Sessions in a rendered catalog")
struct SessionEndToEndTests {
    /// A recipe with `variants` of `lengths` (8 kHz mono, no bed: cheap to render), and a plain one placed first.
    static func catalog(_ label: String, lengths: String) throws -> TempFolder {
        let folder = try TempFolder(label)
        _ = try folder.write(
            "id: box\ntitle: Morning Box Breathing\nvariants: { duration: [\(lengths)] }\npattern: box\n"
                + "output: { sample_rate: 8000, channels: 1 }\n", to: "recipes/box.yml")
        _ = try folder.write(
            "id: calm\ntitle: Calm\nsort_order: 1\nduration: 32s\npattern: box\noutput: { sample_rate: 8000, channels: 1 }\n",
            to: "recipes/calm.yml")
        return folder
    }

    /// The three lengths of "Morning Box Breathing", written 10m, 3m, 5m: one session, shortest first.
    @Test("a recipe with variants [10m, 3m, 5m] is one session of three tracks, ordered 3m, 5m, 10m, after a session with a sort_order")
    func variantsAreOneSession() throws {
        let folder = try Self.catalog("session-variants", lengths: "10m, 3m, 5m")
        let result = try runRender([folder.file("recipes"), "-o", folder.file("dist"), "-q"])
        try #require(result.status == 0, "\(result)")
        let manifest = try CatalogManifest.read(folder.file("dist/catalog.json"))
        #expect(manifest.tracks.map(\.id) == ["calm", "box-3m", "box-5m", "box-10m"])
        #expect(manifest.sessions.map(\.id) == ["calm", "box"])
        #expect(manifest.sessions.map(\.tracks) == [["calm"], ["box-3m", "box-5m", "box-10m"]])
        #expect(manifest.sessions.last?.title == "Morning Box Breathing")
        #expect(manifest.tracks.map(\.session) == ["calm", "box", "box", "box"])
        let raw = try String(contentsOfFile: folder.file("dist/catalog.json"), encoding: .utf8)
        for (id, seconds) in [("calm", "null"), ("box-3m", "{\"duration\": 180.0}"), ("box-10m", "{\"duration\": 600.0}")] {
            let entry = try #require(raw.range(of: "\"id\": \"\(id)\",").map { raw[$0.upperBound...] })
            let variant = try #require(entry.range(of: "\"variant\": ").map { entry[$0.upperBound...].prefix { $0 != "\n" } })
            #expect(variant == seconds + ",", "\(id): \(variant)")
        }
        // the page: one card per session, the 3-minute rendition shown first with a length picker
        let page = try String(contentsOfFile: folder.file("dist/index.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "<div class=\"session\"").count - 1 == 2, "\(page)")
        #expect(page.components(separatedBy: "data-track-id=").count - 1 == 4)
        #expect(page.contains("<select class=\"pick-length\""))
        #expect(!page.contains("<select class=\"pick-locale\""))
    }

    /// A catalog.json of a Cadence before sessions: the next render keeps every track (up to date), and
    /// writes sessions and drafts, counted from the cue sheets on disk.
    @Test("a render over a catalog.json written before sessions renders nothing again and writes sessions and drafts")
    func upgradesAnOlderCatalog() throws {
        let folder = try DraftVoiceEndToEndTests.folder("session-upgrade")
        _ = try folder.write(DraftWarningTests.variants, to: "recipes/drafty.yml")
        let dist = folder.file("dist")
        try #require(try runRender([folder.file("recipes"), "-o", dist, "-q"]).status == 0)
        let path = dist + "/catalog.json"
        let written = try String(contentsOfFile: path, encoding: .utf8)
        try Self.older(written).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("drafts"))

        let again = try runRender([folder.file("recipes"), "-o", dist])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("rendered     0\nup to date   2\n"), "\(again.stdout)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written)
    }

    /// `text` as a Cadence before sessions wrote it: no `sessions`, no track `session`, `locale`, `variant`, `drafts`.
    static func older(_ text: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "  \"sessions\": ["))
        let end = try #require(lines[start...].firstIndex(of: "  ],"))
        lines.removeSubrange(start...end)
        let keys = ["session", "locale", "variant", "drafts"].map { "      \"\($0)\": " }
        return lines.filter { line in !keys.contains { line.hasPrefix($0) } }.joined(separator: "\n")
    }

    /// Shards keep a session whole, and their merge is the whole catalog's render, sessions included.
    @Test("a session's renditions are rendered by one shard, and the shards merge into the whole catalog, byte for byte")
    func shardsKeepSessionsWhole() throws {
        let folder = try Self.catalog("session-shards", lengths: "64s, 16s, 32s")
        let full = folder.file("full")
        try #require(try runRender([folder.file("recipes"), "-o", full, "-q"]).status == 0)
        var shardIDs: [[String]] = []
        for k in 1...2 {
            let out = folder.file("d\(k)")
            try #require(try runRender([folder.file("recipes"), "-o", out, "--shard", "\(k)/2", "-q"]).status == 0)
            shardIDs.append(try CatalogManifest.read(out + "/catalog.json").tracks.map(\.id))
        }
        // box (112 s in all) in one shard, calm (32 s) in the other
        #expect(shardIDs.sorted { $0.count < $1.count } == [["calm"], ["box-16s", "box-32s", "box-64s"]], "\(shardIDs)")
        let merged = folder.file("merged")
        let result = try runRender(["merge", folder.file("d1"), folder.file("d2"), "-o", merged])
        #expect(result.status == 0, "\(result)")
        #expect(try folderDifferences(merged, full) == [])
    }
}
