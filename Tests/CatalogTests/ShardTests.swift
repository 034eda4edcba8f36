import Foundation
import Testing

/// `--shard K/N` and `render merge`: a catalog split over CI jobs and joined again.
@Suite("Shards and merge")
struct ShardTests {
    /// Renders shards 1…n of the catalog into `<root>/d1` … `<root>/dn`; returns the folders.
    static func renderShards(_ catalog: TestCatalog, count n: Int = 3) throws -> [String] {
        try (1...n).map { k in
            let folder = catalog.folder.file("d\(k)")
            let result = try catalog.render(into: folder, ["--shard", "\(k)/\(n)"])
            #expect(result.status == 0 && !result.signaled, "shard \(k)/\(n): \(result)")
            return folder
        }
    }

    /// The ids a shard's manifest lists.
    static func ids(in folder: String) throws -> [String] {
        try CatalogManifest.read(folder + "/catalog.json").tracks.map(\.id)
    }

    @Test("three shards split the catalog disjointly and stably; merged they are byte for byte the unsharded render")
    func shardsMergeToFull() throws {
        let catalog = try TestCatalog()
        let full = catalog.folder.file("full")
        let whole = try catalog.render(into: full)
        try #require(whole.status == 0, "\(whole)")
        let shards = try Self.renderShards(catalog)

        var seen: [String: Int] = [:]
        let total = catalog.tracks.map(\.seconds).reduce(0, +)
        let longest = catalog.tracks.map(\.seconds).max() ?? 0
        for (k, folder) in shards.enumerated() {
            let ids = try Self.ids(in: folder)
            #expect(!ids.isEmpty, "shard \(k + 1)/3 is empty (5 tracks over 3 shards)")
            for id in ids { seen[id, default: 0] += 1 }
            let tracks = ids.compactMap { catalog.track($0) }
            #expect(tracks.count == ids.count, "shard \(k + 1) lists unknown ids: \(ids)")
            // its folder holds its own tracks and nothing else, each consistent with the manifest
            let expected = (tracks.flatMap(\.fileNames) + bundleFiles).sorted()
            let held = try filesUnder(folder)
            #expect(held == expected, "shard \(k + 1) holds \(held)")
            try verifyOutput(folder, of: catalog, tracks: tracks)
            // balanced by length: no shard gets more than an even share plus one track
            let seconds = tracks.map(\.seconds).reduce(0, +)
            #expect(seconds <= total / 3 + longest + 1e-9, "shard \(k + 1) has \(seconds) s of \(total) s")
        }
        #expect(seen.keys.sorted() == catalog.ids, "the shards together hold \(seen.keys.sorted())")
        #expect(seen.values.allSatisfy { $0 == 1 }, "a track is in two shards: \(seen)")

        // stable: the same shard again, elsewhere, is the same
        let again = catalog.folder.file("d2-again")
        #expect(try catalog.render(into: again, ["--shard", "2/3"]).status == 0)
        #expect(try folderDifferences(again, shards[1]) == [])

        let merged = catalog.folder.file("merged")
        let merge = try runRender(["merge"] + shards.map { $0 + "/" } + ["-o", merged + "/"], in: catalog.root)
        #expect(merge.status == 0 && !merge.signaled, "\(merge)")
        #expect(try folderDifferences(merged, full) == [], "the merged bundle differs from the unsharded render")
        try verifyOutput(merged, of: catalog)
    }

    @Test("merge refuses a missing shard and two shards that disagree, naming the track")
    func mergeRefuses() throws {
        let catalog = try TestCatalog()
        let shards = try Self.renderShards(catalog)
        let lastIDs = try Self.ids(in: shards[2])
        try #require(!lastIDs.isEmpty)

        // shard 3 missing
        let partial = catalog.folder.file("partial")
        let missing = try runRender(["merge", shards[0], shards[1], "-o", partial], in: catalog.root)
        #expect(missing.status != 0 && !missing.signaled, "\(missing)")
        #expect(lastIDs.contains { id in missing.lines.contains { $0.contains(id) } }, "no missing track named (\(lastIDs)): \(missing)")
        #expect(!FileManager.default.fileExists(atPath: partial + "/catalog.json"), "a refused merge wrote a manifest")

        // shard 2 rendered again after one of its tracks changed: two versions of one track
        let secondIDs = try Self.ids(in: shards[1])
        let changed = try #require(secondIDs.first)
        try catalog.editRecipe(changed) { $0.replacingOccurrences(of: "length: 300ms, gain: -18 dB }", with: "length: 250ms, gain: -18 dB }") }
        let other = catalog.folder.file("d2-other")
        let rerender = try catalog.render(into: other, ["--shard", "2/3"])
        try #require(rerender.status == 0, "\(rerender)")
        try #require(try Self.ids(in: other) == secondIDs, "a cue's length moved \(changed) to another shard")
        let conflicting = catalog.folder.file("conflict")
        let conflict = try runRender(["merge", shards[0], shards[1], other, shards[2], "-o", conflicting], in: catalog.root)
        #expect(conflict.status != 0 && !conflict.signaled, "\(conflict)")
        #expect(conflict.lines.contains { $0.contains(changed) }, "the conflicting track \(changed) is not named: \(conflict)")
        #expect(!FileManager.default.fileExists(atPath: conflicting + "/catalog.json"), "a refused merge wrote a manifest")
    }

    @Test("a shard rendered into a reused folder (a CI cache) holds and lists only its own tracks, and merges")
    func shardIntoReusedFolder() throws {
        let catalog = try TestCatalog()
        // yesterday's folder: the whole catalog, as a cache restored from an earlier pipeline could hold
        let reused = catalog.folder.file("reused")
        try #require(try catalog.render(into: reused).status == 0)
        let fresh = try Self.renderShards(catalog)
        let secondIDs = try Self.ids(in: fresh[1])
        // today: a track of shard 1 changes; shards 1 and 3 start empty, shard 2 reuses the old folder
        let changed = try #require(try Self.ids(in: fresh[0]).first)
        try catalog.editRecipe(changed) { $0.replacingOccurrences(of: "length: 300ms, gain: -18 dB }", with: "length: 250ms, gain: -18 dB }") }
        for folder in fresh { try FileManager.default.removeItem(atPath: folder) }
        let shards = try Self.renderShards(catalog)
        try #require(try Self.ids(in: shards[1]) == secondIDs, "a cue's length moved a track to another shard")
        let again = try catalog.render(into: reused, ["--shard", "2/3"])
        #expect(again.status == 0, "\(again)")

        let listed = try Self.ids(in: reused)
        #expect(listed == secondIDs, "shard 2/3 in a reused folder lists \(listed), not \(secondIDs)")
        let held = try filesUnder(reused)
        let expected = (secondIDs.compactMap { catalog.track($0) }.flatMap(\.fileNames) + bundleFiles).sorted()
        #expect(held == expected, "shard 2/3 in a reused folder holds \(held)")

        let full = catalog.folder.file("full")
        try #require(try catalog.render(into: full).status == 0)
        let merged = catalog.folder.file("merged")
        let merge = try runRender(["merge", shards[0], reused, shards[2], "-o", merged], in: catalog.root)
        #expect(merge.status == 0 && !merge.signaled, "\(merge)")
        #expect(try folderDifferences(merged, full) == [])
    }

    @Test("a shard in a reused folder removes no track while a recipe does not load; once it loads, the other shards' tracks go")
    func shardKeepsTracksWhileARecipeFails() throws {
        let catalog = try TestCatalog()
        let reused = catalog.folder.file("reused")
        try #require(try catalog.render(into: reused).status == 0)
        let trackFiles = try filesUnder(reused).filter { !bundleFiles.contains($0) }
        let before = try Dictionary(uniqueKeysWithValues: trackFiles.map { ($0, try bytes(reused + "/" + $0)) })
        let broken = try #require(catalog.tracks.first)
        try catalog.editRecipe(broken.id) { $0.replacingOccurrences(of: "duration:", with: "durration:") }

        let failing = try catalog.render(into: reused, ["--shard", "2/3"])
        #expect(failing.status == 65, "\(failing)")
        for (name, old) in before.sorted(by: { $0.key < $1.key }) {
            #expect((try? bytes(reused + "/" + name)) == old, "\(name) was removed or changed while \(broken.path) failed to load")
        }
        #expect(try Self.ids(in: reused) == catalog.ids, "the manifest stopped listing tracks while a recipe failed")

        try catalog.editRecipe(broken.id) { $0.replacingOccurrences(of: "durration:", with: "duration:") }
        let fixed = try catalog.render(into: reused, ["--shard", "2/3"])
        #expect(fixed.status == 0, "\(fixed)")
        let own = try Self.ids(in: reused)
        #expect(!own.isEmpty && own.count < catalog.ids.count, "shard 2/3 lists \(own)")
        let expected = (own.compactMap { catalog.track($0) }.flatMap(\.fileNames) + bundleFiles).sorted()
        let held = try filesUnder(reused)
        #expect(held == expected, "extra: \(Set(held).subtracting(expected).sorted()), missing: \(Set(expected).subtracting(held).sorted())")
    }

    /// The CI variables `--shard auto` reads, each meaning shard 2 of 3.
    enum CI: String, CaseIterable, Sendable {
        case gitlab, kubernetes, cadence
        var environment: [String: String] {
            switch self {
            case .gitlab: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]
            case .kubernetes: ["JOB_COMPLETION_INDEX": "1", "CADENCE_SHARD_TOTAL": "3"]
            case .cadence: ["CADENCE_SHARD": "2/3"]
            }
        }
    }

    @Test("--shard auto reads the CI's variables", arguments: CI.allCases)
    func auto(_ ci: CI) throws {
        let catalog = try TestCatalog()
        let explicit = catalog.folder.file("explicit"), auto = catalog.folder.file("auto")
        let reference = try catalog.render(into: explicit, ["--shard", "2/3"])
        try #require(reference.status == 0, "\(reference)")
        let result = try catalog.render(into: auto, ["--shard", "auto"], environment: ci.environment)
        #expect(result.status == 0 && !result.signaled, "\(result)")
        #expect(try folderDifferences(auto, explicit) == [])
    }

    @Test("a shard that is not K/N with 1 ≤ K ≤ N is a command-line error", arguments: ["0/3", "4/3", "1/0", "two/3", "3", ""])
    func badShard(_ shard: String) throws {
        let catalog = try TestCatalog([try #require(TestCatalog.small.first)])
        let dist = catalog.folder.file("dist")
        let result = try catalog.render(into: dist, ["--shard", shard])
        #expect(result.status == 64 && !result.signaled, "--shard '\(shard)': \(result)")
        #expect(!FileManager.default.fileExists(atPath: dist + "/catalog.json"))
    }
}
