import Catalog
import Foundation
import Testing

// recipe-v1.1 § Catalog delivery, end to end: each catalog.json track's `delivery`, the
// top-level `bundle: { bytes, budget }`, and `--bundle-budget SIZE` on the built `render`.
// Every expected size is measured on the files the render left (stat), never copied from one.

/// A catalog of four short tracks of different lengths (so their sizes differ), mono 16 kHz FLAC
/// on pink noise (whose FLAC size grows with its length): two bundled, one of them by default and
/// one saying so, and two on demand, the longer of which is larger than every bundled track.
struct DeliveryCatalog {
    /// `delivery:` in each recipe, by id; nil leaves the key out (bundled by default).
    static let deliveries: [String: String?] = [
        "short-2s": "on-demand", "three-3s": "bundled", "four-4s": nil, "long-6s": "on-demand",
    ]
    static let tracks: [TrackSpec] = [("short-2s", "2"), ("three-3s", "3"), ("four-4s", "4"), ("long-6s", "6")].enumerated().map {
        index, track in
        TrackSpec(
            path: "delivery/\(track.0).yml", id: track.0, writesID: true, title: "Track \(index + 1)", category: "Focus", premium: false,
            sortOrder: index, duration: track.1, phase: "1", bed: .synth("pink-noise"), sampleRate: 16000, channels: 1, format: "flac",
            inhaleHz: 500 + 40 * index)
    }

    let catalog: TestCatalog

    init(label: String = "delivery") throws {
        catalog = try TestCatalog(Self.tracks, label: label)
        for (id, delivery) in Self.deliveries {
            guard let delivery else { continue }
            try setDelivery(id, delivery)
        }
    }

    /// Whether the recipe of `id` says (or defaults to) `bundled`.
    func isBundled(_ id: String) throws -> Bool {
        let text = try catalog.folder.read("recipes/delivery/\(id).yml")
        return !text.contains("\ndelivery: on-demand\n")
    }

    /// Writes `delivery: VALUE` into the recipe of `id`, in place of the one it has, or after `sort_order:`.
    func setDelivery(_ id: String, _ value: String) throws {
        try catalog.editRecipe(id) { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let at = lines.firstIndex(where: { $0.hasPrefix("delivery:") }) {
                lines[at] = "delivery: \(value)"
            } else if let at = lines.firstIndex(where: { $0.hasPrefix("sort_order:") }) {
                lines.insert("delivery: \(value)", at: at + 1)
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// What catalog.json says of delivery: the `bundle` object (both keys required, `budget` possibly
/// null) and each track's `delivery`, file and bytes.
struct DeliveryView: Decodable {
    struct Bundle: Decodable {
        let bytes: Int64
        let budget: Int64?

        enum CodingKeys: String, CodingKey { case bytes, budget }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            bytes = try c.decode(Int64.self, forKey: .bytes)
            guard c.contains(.budget) else {
                throw DecodingError.keyNotFound(CodingKeys.budget, .init(codingPath: c.codingPath, debugDescription: "bundle.budget is missing"))
            }
            budget = try c.decodeNil(forKey: .budget) ? nil : c.decode(Int64.self, forKey: .budget)
        }
    }

    struct Track: Decodable {
        let id: String
        let file: String
        let bytes: Int64
        let delivery: String
        let fingerprint: String
        let sha256: String
    }

    let bundle: Bundle
    let tracks: [Track]

    static func read(_ folder: String) throws -> DeliveryView {
        try JSONDecoder().decode(DeliveryView.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/catalog.json")))
    }

    func track(_ id: String) throws -> Track {
        guard let track = tracks.first(where: { $0.id == id }) else { throw TestFailure("catalog.json has no track \(id)") }
        return track
    }
}

/// The on-disk size of every audio file in `folder` whose recipe is bundled, summed (stat, not the manifest).
func bundledBytesOnDisk(_ folder: String, of d: DeliveryCatalog) throws -> Int64 {
    try d.catalog.tracks.filter { try d.isBundled($0.id) }.reduce(0) { $0 + (try FileIdentity(folder + "/" + $1.audioName).size) }
}

/// The tracks whose recipe is bundled, largest audio file in `folder` first.
func bundledBySize(_ folder: String, of d: DeliveryCatalog) throws -> [(track: TrackSpec, bytes: Int64)] {
    try d.catalog.tracks.filter { try d.isBundled($0.id) }.map { ($0, try FileIdentity(folder + "/" + $0.audioName).size) }
        .sorted { $0.bytes > $1.bytes }
}

/// The summary's `bundled …` line.
func bundledLine(_ result: ProcessResult) -> String? { result.stdout.split(separator: "\n").map(String.init).first { $0.hasPrefix("bundled ") } }

@Suite("Catalog delivery and the bundle budget, end to end")
struct BundleBudgetTests {
    @Test("catalog.json gives each track the recipe's delivery, and bundle.bytes sums only the bundled tracks' audio files")
    func manifestDelivery() throws {
        let d = try DeliveryCatalog()
        let dist = d.catalog.folder.file("dist")
        let result = try d.catalog.render(into: dist)
        try #require(result.status == 0 && !result.signaled, "\(result)")
        try verifyOutput(dist, of: d.catalog)

        let view = try DeliveryView.read(dist)
        #expect(view.tracks.map(\.id).sorted() == d.catalog.ids)
        for track in d.catalog.tracks {
            let entry = try view.track(track.id)
            let expected = (DeliveryCatalog.deliveries[track.id] ?? nil) ?? "bundled"
            #expect(entry.delivery == expected, "\(track.id): delivery '\(entry.delivery)', its recipe says \(expected)")
            #expect(entry.bytes == (try FileIdentity(dist + "/" + track.audioName).size), "\(track.id): bytes is not the file's size")
        }
        let bundled = try bundledBytesOnDisk(dist, of: d)
        let everything = try d.catalog.tracks.reduce(Int64(0)) { $0 + (try FileIdentity(dist + "/" + $1.audioName).size) }
        #expect(view.bundle.bytes == bundled, "bundle.bytes \(view.bundle.bytes), the bundled files weigh \(bundled) (all files \(everything))")
        #expect(view.bundle.bytes < everything)
        #expect(view.bundle.budget == nil, "bundle.budget without --bundle-budget: \(String(describing: view.bundle.budget))")

        // the summary's line gives the bundled size (decimal units, as ByteSize.format writes it)
        let line = try #require(bundledLine(result), "no 'bundled' line in the summary: \(result)")
        #expect(line.contains(ByteSize.format(bundled)), "\(line)")
        #expect(!line.contains("budget"), "a budget in the summary without --bundle-budget: \(line)")
    }

    /// A budget's text and the bytes catalog.json must record for it.
    static let budgets: [(text: String, bytes: Int64)] = [
        ("80MB", 80_000_000), ("80MiB", 83_886_080), ("80 MB", 80_000_000), ("1.5GB", 1_500_000_000), ("0.5GiB", 536_870_912),
        ("80000000", 80_000_000),
    ]

    @Test("bundle.budget is the budget's exact byte count, rewritten by an up-to-date run, and null again without the flag")
    func budgetRecorded() throws {
        let d = try DeliveryCatalog(label: "delivery-budget")
        let dist = d.catalog.folder.file("dist")
        try #require(try d.catalog.render(into: dist).status == 0)
        let audio = try identities(dist).filter { $0.key.hasSuffix(".flac") }

        for (text, bytes) in Self.budgets {
            let result = try d.catalog.render(into: dist, ["--bundle-budget", text])
            #expect(result.status == 0, "--bundle-budget '\(text)': \(result)")
            for id in d.catalog.ids { #expect(reportsUpToDate(result, id), "'\(text)': \(id) rendered again: \(result)") }
            let view = try DeliveryView.read(dist)
            #expect(
                view.bundle.budget == bytes, "--bundle-budget '\(text)': bundle.budget \(String(describing: view.bundle.budget)), expected \(bytes)")
            #expect(view.bundle.bytes == (try bundledBytesOnDisk(dist, of: d)))
            let line = bundledLine(result) ?? ""
            #expect(line.contains(ByteSize.format(bytes)), "'\(text)': the summary does not show the budget: \(line)")
        }
        // the = form
        #expect(try d.catalog.render(into: dist, ["--bundle-budget=80MiB"]).status == 0)
        #expect(try DeliveryView.read(dist).bundle.budget == 83_886_080)

        let without = try d.catalog.render(into: dist)
        #expect(without.status == 0, "\(without)")
        #expect(try DeliveryView.read(dist).bundle.budget == nil, "a run without --bundle-budget kept the last run's budget")
        #expect(try identities(dist).filter { $0.key.hasSuffix(".flac") } == audio, "changing the budget rewrote audio")
    }

    @Test("a budget of exactly the bundled bytes passes, one byte less fails with 65 after rendering everything, naming the largest bundled tracks")
    func budgetPassAndFail() throws {
        let d = try DeliveryCatalog(label: "delivery-measure")
        let measured = d.catalog.folder.file("dist")
        try #require(try d.catalog.render(into: measured).status == 0)
        let total = try bundledBytesOnDisk(measured, of: d)
        let ranked = try bundledBySize(measured, of: d)
        let largest = try #require(ranked.first)
        // what the test stands on: sizes all differ, and an on-demand track outweighs every bundled one
        let sizes = try d.catalog.tracks.map { try FileIdentity(measured + "/" + $0.audioName).size }
        try #require(Set(sizes).count == sizes.count, "two tracks have the same size: \(sizes)")
        let long = try FileIdentity(measured + "/long-6s.flac").size
        try #require(largest.track.id == "four-4s" && long > largest.bytes, "long-6s: \(long) bytes, largest bundled: \(largest)")

        // an up-to-date run: within the budget at exactly the total, over it a byte below
        let exact = try d.catalog.render(into: measured, ["--bundle-budget", "\(total)"])
        #expect(exact.status == 0, "a budget equal to the bundled bytes (\(total)): \(exact)")
        #expect(!exact.stderr.contains("error"), "\(exact)")
        let roomy = try d.catalog.render(into: measured, ["--bundle-budget", "80MB"])
        #expect(roomy.status == 0, "\(roomy)")
        let tight = try d.catalog.render(into: measured, ["--bundle-budget", "\(total - 1)"])
        #expect(tight.status == 65 && !tight.signaled, "a budget one byte under the bundled bytes: \(tight)")

        // a fresh render over budget: every file is written first, and the manifest records the budget
        let other = try DeliveryCatalog(label: "delivery-over")
        let dist = other.catalog.folder.file("dist")
        let over = try other.catalog.render(into: dist, ["--bundle-budget", "\(total - 1)"])
        #expect(over.status == 65 && !over.signaled, "\(over)")
        let written = try filesUnder(dist)
        #expect(written == other.catalog.expectedOutputs, "an over-budget render left \(written)")
        try verifyOutput(dist, of: other.catalog)
        try #require(try bundledBytesOnDisk(dist, of: other) == total, "the same recipes rendered to other sizes")
        for id in other.catalog.ids { #expect(over.lines.contains { $0.contains(id) && $0.contains("rendered") }, "\(id) not rendered: \(over)") }
        let view = try DeliveryView.read(dist)
        #expect(view.bundle.bytes == total && view.bundle.budget == total - 1)

        // the error names the largest bundled track's file (first), and no on-demand track, not even the largest file
        let error = over.stderr
        #expect(error.contains("error"), "\(over)")
        #expect(error.contains(largest.track.audioName), "the error does not name \(largest.track.audioName), the largest bundled: \(error)")
        for track in other.catalog.tracks where !(try other.isBundled(track.id)) {
            #expect(!error.contains(track.audioName), "the error names \(track.audioName), which is on demand: \(error)")
        }
        let named = ranked.compactMap { entry in error.range(of: entry.track.audioName).map { (entry.track.id, $0.lowerBound) } }
        #expect(named.map(\.0) == named.sorted { $0.1 < $1.1 }.map(\.0), "the bundled tracks are not named largest first: \(error)")
        #expect(error.contains("\(total)") && error.contains("\(total - 1)"), "the error lacks the exact bytes and budget: \(error)")
        // the summary still comes, with the budget
        let line = try #require(bundledLine(over), "no 'bundled' line: \(over)")
        #expect(line.contains(ByteSize.format(total)), "\(line)")
    }

    /// Arguments after the recipes folder that must be refused as usage (64) before anything is read or written.
    static let usageErrors: [(label: String, arguments: @Sendable (DeliveryCatalog, String) -> [String])] = [
        ("a budget in megs", { d, dist in [d.catalog.recipes, "-o", dist, "--bundle-budget", "80 megs"] }),
        ("a budget of 0", { d, dist in [d.catalog.recipes, "-o", dist, "--bundle-budget", "0"] }),
        ("a negative budget", { d, dist in [d.catalog.recipes, "-o", dist, "--bundle-budget", "-5MB"] }),
        ("a budget of a fraction of a byte", { d, dist in [d.catalog.recipes, "-o", dist, "--bundle-budget=1.5B"] }),
        ("a budget with no value", { d, dist in [d.catalog.recipes, "-o", dist, "--bundle-budget"] }),
        ("a budget with --check", { d, _ in ["--check", d.catalog.recipes, "--bundle-budget", "80MB"] }),
        ("a budget with --shard 1/2", { d, dist in [d.catalog.recipes, "-o", dist, "--shard", "1/2", "--bundle-budget", "80MB"] }),
        (
            "a budget with one recipe file",
            { d, _ in [d.catalog.recipePath(DeliveryCatalog.tracks[0]), "-o", d.catalog.folder.path + "/one.flac", "--bundle-budget", "80MB"] }
        ),
    ]

    @Test(
        "a budget that does not parse, or is given where no bundle is rendered, is a usage error and nothing is written",
        arguments: usageErrors.indices)
    func usage(_ i: Int) throws {
        let c = Self.usageErrors[i]
        let d = try DeliveryCatalog(label: "delivery-usage")
        let dist = d.catalog.folder.path + "/dist"
        let before = treeSnapshot(d.catalog.root)
        let result = try runRender(c.arguments(d, dist), in: d.catalog.root)
        #expect(result.status == 64 && !result.signaled, "\(c.label): \(result)")
        #expect(result.stderr.contains("--bundle-budget"), "\(c.label): the message does not name the option: \(result)")
        #expect(!result.lines.contains { $0.hasPrefix("rendered") }, "\(c.label): \(result)")
        #expect(
            snapshotChanges(before, treeSnapshot(d.catalog.root)).isEmpty, "\(c.label) wrote \(snapshotChanges(before, treeSnapshot(d.catalog.root)))"
        )
    }

    @Test("a changed delivery updates catalog.json without rendering the track again, and fixes an over-budget bundle")
    func deliveryChange() throws {
        let d = try DeliveryCatalog(label: "delivery-change")
        let dist = d.catalog.folder.file("dist")
        try #require(try d.catalog.render(into: dist).status == 0)
        let before = try identities(dist)
        let oldView = try DeliveryView.read(dist)
        let four = try FileIdentity(dist + "/four-4s.flac")
        let fourHash = try sha256(ofFile: dist + "/four-4s.flac")
        let total = try bundledBytesOnDisk(dist, of: d)

        // over budget by a byte: 65, nothing rendered
        let tight = try d.catalog.render(into: dist, ["--bundle-budget", "\(total - 1)"])
        #expect(tight.status == 65, "\(tight)")
        #expect(tight.stderr.contains("four-4s.flac"), "\(tight)")

        // four-4s (bundled by default) goes on demand: the same budget now passes, nothing is rendered
        try d.setDelivery("four-4s", "on-demand")
        let moved = try d.catalog.render(into: dist, ["--bundle-budget", "\(total - 1)"])
        #expect(moved.status == 0, "four-4s on demand should bring the bundle under \(total - 1) bytes: \(moved)")
        for id in d.catalog.ids { #expect(reportsUpToDate(moved, id), "\(id) is not reported up to date: \(moved)") }
        #expect(!moved.lines.contains { $0.hasPrefix("rendered:") }, "\(moved)")
        let changed = changedNames(before, try identities(dist)).subtracting(bundleFiles)
        #expect(changed.isEmpty, "a changed delivery rewrote \(changed.sorted())")
        #expect(try FileIdentity(dist + "/four-4s.flac") == four)
        #expect(try sha256(ofFile: dist + "/four-4s.flac") == fourHash)

        let view = try DeliveryView.read(dist)
        #expect(try view.track("four-4s").delivery == "on-demand")
        #expect(try view.track("four-4s").fingerprint == oldView.track("four-4s").fingerprint, "delivery is not the sound's: the fingerprint changed")
        #expect(try view.track("four-4s").sha256 == fourHash)
        for id in d.catalog.ids where id != "four-4s" { #expect(try view.track(id).delivery == oldView.track(id).delivery, "\(id)") }
        #expect(view.bundle.bytes == total - four.size, "bundle.bytes \(view.bundle.bytes), expected \(total) − \(four.size)")
        #expect(view.bundle.bytes == (try bundledBytesOnDisk(dist, of: d)))
        #expect(view.bundle.budget == total - 1)

        // and the other way: long-6s, on demand, is now bundled, still not rendered again
        try d.setDelivery("long-6s", "bundled")
        let back = try d.catalog.render(into: dist)
        #expect(back.status == 0, "\(back)")
        #expect(reportsUpToDate(back, "long-6s"), "\(back)")
        #expect(changedNames(before, try identities(dist)).subtracting(bundleFiles).isEmpty)
        let last = try DeliveryView.read(dist)
        #expect(try last.track("long-6s").delivery == "bundled")
        #expect(last.bundle.bytes == (try bundledBytesOnDisk(dist, of: d)))
        #expect(last.bundle.bytes == total - four.size + (try FileIdentity(dist + "/long-6s.flac").size))
        #expect(last.bundle.budget == nil)
    }

    @Test("render merge --bundle-budget checks and records the joined bundle")
    func merge() throws {
        let d = try DeliveryCatalog(label: "delivery-merge")
        let shards = [d.catalog.folder.file("s1"), d.catalog.folder.file("s2")]
        for (k, folder) in shards.enumerated() {
            let result = try d.catalog.render(into: folder, ["--shard", "\(k + 1)/2"])
            try #require(result.status == 0, "shard \(k + 1): \(result)")
        }
        let plain = d.catalog.folder.file("plain")
        let joined = try runRender(["merge"] + shards + ["-o", plain], in: d.catalog.root)
        try #require(joined.status == 0, "\(joined)")
        let total = try bundledBytesOnDisk(plain, of: d)
        let view = try DeliveryView.read(plain)
        #expect(view.bundle.bytes == total && view.bundle.budget == nil)
        for track in d.catalog.tracks {
            #expect(try view.track(track.id).delivery == ((try d.isBundled(track.id)) ? "bundled" : "on-demand"), "\(track.id)")
        }
        #expect(bundledLine(joined)?.contains(ByteSize.format(total)) == true, "\(joined)")

        let within = d.catalog.folder.file("within")
        let ok = try runRender(["merge"] + shards + ["-o", within, "--bundle-budget", "\(total)"], in: d.catalog.root)
        #expect(ok.status == 0, "\(ok)")
        #expect(try DeliveryView.read(within).bundle.budget == total)

        let overFolder = d.catalog.folder.file("over")
        let over = try runRender(["merge"] + shards + ["-o", overFolder, "--bundle-budget", "\(total - 1)"], in: d.catalog.root)
        #expect(over.status == 65 && !over.signaled, "\(over)")
        #expect(over.stderr.contains("four-4s.flac") && !over.stderr.contains("long-6s.flac"), "\(over)")
        #expect(try DeliveryView.read(overFolder).bundle.budget == total - 1)

        let bad = d.catalog.folder.path + "/bad"
        let refused = try runRender(["merge"] + shards + ["-o", bad, "--bundle-budget", "80 megs"], in: d.catalog.root)
        #expect(refused.status == 64, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: bad))
    }
}
