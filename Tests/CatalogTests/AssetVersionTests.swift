import AudioIO
import Catalog
import Foundation
import TestKit
import Testing

/// A catalog fingerprints each asset, then renders: the render must read the version it fingerprinted.
@Suite("Assets that change between fingerprint and render")
struct AssetVersionTests {
    /// A WAV of `seconds` seconds of a sine at `hz`, written through libsndfile.
    static func writeBed(_ path: String, hz: Double, seconds: Int) throws {
        let rate = 48000
        let samples = (0..<(rate * seconds)).map { Float(0.2 * sin(2 * Double.pi * hz * Double($0) / Double(rate))) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw TestFailure("open \(path)") }
        defer { close(fd) }
        let writer = try SoundFileWriter(fileDescriptor: fd, path: path, format: .wav16, sampleRate: rate, channels: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0, frames: samples.count) }
        try writer.finish()
    }

    @Test("a bed overwritten after the catalog fingerprinted it fails its track; the manifest never vouches for other bytes")
    func bedChangedAfterFingerprint() throws {
        let folder = try TempFolder("versions")
        let bed = folder.file("assets/bed.wav")
        try Self.writeBed(bed, hz: 220, seconds: 3)
        try folder.write("id: calm\nduration: 16s\npattern: box\nbed: { file: bed.wav }\noutput: { loudness: off }\n", to: "recipes/calm.yml")
        try folder.write("id: quiet\nduration: 16s\npattern: box\noutput: { loudness: off }\n", to: "recipes/quiet.yml")
        let dist = folder.file("dist")
        let plan = CatalogPlan.make(paths: [folder.file("recipes")], assets: folder.file("assets"), hashes: AssetHashes())
        #expect(plan.failures.isEmpty, "\(plan.failures)")
        // an author saves a new take while the catalog is between its fingerprints and its renders
        Thread.sleep(forTimeInterval: 0.01)
        try Self.writeBed(bed, hz: 330, seconds: 3)
        let summary = try CatalogRenderer(output: dist, assets: folder.file("assets"), jobs: 1, progress: Progress(quiet: true))
            .run(plan: plan, shard: nil)
        #expect(summary.rendered == 1, "the track without the bed still renders")
        let failed = try #require(summary.failed.first, "the track of the changed bed must fail")
        #expect(failed.file.hasSuffix("calm.yml"))
        #expect(failed.diagnostics.contains { $0.message.contains("changed since it was fingerprinted") }, "\(failed.diagnostics)")
        let manifest = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dist + "/catalog.json")), as: UTF8.self)
        #expect(!manifest.contains("\"calm\""), "the manifest lists a track rendered from another version of its bed")
        #expect(!FileManager.default.fileExists(atPath: dist + "/calm.flac"))
        // the next run fingerprints the new take and renders it
        let again = CatalogPlan.make(paths: [folder.file("recipes")], assets: folder.file("assets"), hashes: AssetHashes())
        let second = try CatalogRenderer(output: dist, assets: folder.file("assets"), jobs: 1, progress: Progress(quiet: true))
            .run(plan: again, shard: nil)
        #expect(second.failed.isEmpty && second.rendered == 1, "\(second.failed)")
    }
}
