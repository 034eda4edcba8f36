import AudioIO
import CadenceCues
import Catalog
import CatalogManifest
import Foundation
import Recipe
import TestKit
import Testing

/// The app's side: `TrackCatalog.decode` (CadenceCues, what a player app links) against `catalog.json`
/// files the catalog renderer wrote, field by field against the `Manifest` the renderer reads back.
@Suite("The app's catalog decoder on rendered catalogs")
struct AppCatalogTests {
    /// Three short tracks: two categories and none, sort orders 20, 10 and none, bundled (said and by default) and on demand.
    static let recipes: [(name: String, text: String)] = [
        (
            "calm/calm-sigh.yml",
            "id: calm-sigh\ntitle: Calm Sigh\ncategory: Calm\nsort_order: 20\ndelivery: bundled\n" + body(seconds: 4, rate: 22050)
        ),
        (
            "focus/deep-focus.yml",
            "id: deep-focus\ntitle: Deep Focus\ncategory: Focus\npremium: true\nsort_order: 10\ndelivery: on-demand\n"
                + body(seconds: 3, rate: 16000)
        ),
        ("night-drift.yaml", "id: night-drift\ntitle: Night Drift\n" + body(seconds: 2, rate: 8000, format: "wav")),
    ]

    static func body(seconds: Int, rate: Int, format: String = "flac") -> String {
        """
        duration: \(seconds)s
        pattern:
          name: Test Pattern
          phases:
            - inhale: 1s
            - exhale: 1s
        output:
          sample_rate: \(rate)
          channels: 1
          format: \(format)
          loudness: off

        """
    }

    /// Renders the recipes into `folder/dist` in process; `shard` renders only that part.
    static func render(into folder: TempFolder, shard: ShardSpec? = nil) throws -> String {
        for recipe in recipes { try folder.write(recipe.text, to: "recipes/" + recipe.name) }
        let dist = folder.file(shard == nil ? "dist" : "shard")
        let plan = CatalogPlan.make(paths: [folder.file("recipes")], assets: nil, hashes: AssetHashes())
        #expect(plan.failures.isEmpty, "\(plan.failures)")
        let summary = try CatalogRenderer(output: dist, assets: nil, jobs: 2, progress: Catalog.Progress(quiet: true), budget: 80_000_000)
            .run(plan: plan, shard: shard)
        #expect(summary.failed.isEmpty, "\(summary.failed)")
        return dist
    }

    static func decode(folder: String) throws -> TrackCatalog {
        try TrackCatalog.decode(from: Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(TrackCatalog.fileName)))
    }

    @Test("every track of a rendered catalog.json reads as the renderer's manifest says, and its cue sheet decodes")
    func readsARenderedCatalog() throws {
        let folder = try TempFolder("app-catalog")
        let dist = try Self.render(into: folder)
        let manifest = try #require(try Manifest.read(folder: dist))
        let catalog = try Self.decode(folder: dist)

        // the manifest and the app's catalog in catalog order (sessions by sort_order: 10, 20, none)
        #expect(manifest.tracks.map(\.id) == ["deep-focus", "calm-sigh", "night-drift"])
        #expect(catalog.tracks.map(\.id) == ["deep-focus", "calm-sigh", "night-drift"])
        for (track, entry) in zip(catalog.tracks, manifest.tracks) {
            #expect(track.id == entry.id)
            #expect(track.title == entry.title)
            #expect(track.category == entry.category)
            #expect(track.duration == entry.duration)
            #expect(track.file == entry.file)
            #expect(track.cues == entry.cues)
            #expect(track.sidecars == (entry.sidecars ?? []))
            #expect(track.premium == entry.premium)
            #expect(track.sortOrder == entry.sortOrder)
            #expect(track.delivery.rawValue == entry.delivery.rawValue)
            #expect(track.sha256 == entry.sha256)
            #expect(track.bytes == entry.bytes)

            let base = URL(fileURLWithPath: dist, isDirectory: true)
            let audio = track.audioURL(in: base)
            #expect(try FileIdentity(audio.path).size == track.bytes)
            #expect(try sha256(ofFile: audio.path) == track.sha256)
            let sheet = try CueSheet.decode(from: Data(contentsOf: track.cuesURL(in: base)))
            #expect(sheet.id == track.id && sheet.title == track.title && sheet.category == track.category)
            #expect(sheet.audio.file == track.file && sheet.audio.sha256 == track.sha256)
            #expect(sheet.audio.duration == track.duration)
            #expect(try CueTimeline(sheet).duration == track.duration)
        }
        // what the recipes say, through the renderer and back
        #expect(catalog.tracks.map(\.delivery) == [.onDemand, .bundled, .bundled])
        #expect(catalog.tracks.map(\.sortOrder) == [10, 20, nil])
        #expect(catalog.tracks.map(\.premium) == [true, false, false])
        #expect(catalog.tracks.map(\.file) == ["deep-focus.flac", "calm-sigh.flac", "night-drift.wav"])
        #expect(catalog.tracks.map(\.duration) == [3, 4, 2])
        #expect(catalog.bundle == TrackCatalog.BundleInfo(bytes: manifest.bundledBytes, budget: manifest.budget))
        #expect(catalog.bundle.budget == 80_000_000)
        #expect(catalog.bundle.bytes == catalog.tracks.filter { $0.delivery == .bundled }.reduce(0) { $0 + $1.bytes })
        #expect(catalog.sections.map(\.title) == ["Calm", "Focus", TrackCatalog.uncategorized])
        #expect(catalog.sections.map { $0.tracks.map(\.id) } == [["calm-sigh"], ["deep-focus"], ["night-drift"]])
    }

    @Test("a shard's catalog.json reads as the tracks it holds")
    func readsAShardsCatalog() throws {
        let folder = try TempFolder("app-catalog-shard")
        let shard: ShardSpec = try #require(ShardSpec(index: 1, count: 2))
        let dist = try Self.render(into: folder, shard: shard)
        let manifest = try #require(try Manifest.read(folder: dist))
        #expect(manifest.shard != nil)
        let catalog = try Self.decode(folder: dist)
        #expect(!catalog.tracks.isEmpty)
        #expect(catalog.tracks.map(\.id) == manifest.tracks.map(\.id))
        #expect(catalog.bundle.bytes == manifest.bundledBytes)
    }

    /// The renderer and the app share the key lists (Manifest's are TrackCatalog's); the delivery words are
    /// spelt in Recipe and in CadenceCues, which cannot depend on each other, and must agree.
    @Test("the recipe's delivery words are the app's")
    func deliveryWordsAgree() {
        #expect(Delivery.allCases.map(\.rawValue) == TrackCatalog.Delivery.allCases.map(\.rawValue))
        #expect(Manifest.EntryKey.self == TrackCatalog.TrackKey.self)
        #expect(Manifest.fileName == TrackCatalog.fileName && Manifest.formatName == TrackCatalog.formatName)
    }
}
