import CadenceCues
import Foundation
import TestKit
import Testing

/// recipe-v1.2 § Breath guidance in a catalog: a track with `haptics: on` writes its two haptics
/// files into the bundle, and `catalog.json` lists them among its sidecars (cues-v1.2 § catalog.json).
@Suite struct HapticsCatalogTests {
    @Test("haptics: on puts OUT.ahap and OUT.haptics.json in the bundle and in the track's sidecars")
    func listed() throws {
        let folder = try TempFolder("haptics-catalog")
        _ = try folder.write(
            "id: buzz\npattern: box\nduration: 40s\nintro: 4s\nhaptics: on\noutput: { sample_rate: 8000, channels: 1, format: flac }\n",
            to: "recipes/buzz.yml")
        _ = try folder.write("id: quiet\npattern: box\nduration: 16s\noutput: { sample_rate: 8000, channels: 1 }\n", to: "recipes/quiet.yml")
        let dist = folder.file("dist")
        let result = try runRender([folder.file("recipes"), "-o", dist, "-q"])
        #expect(result.status == 0, "\(result)")
        let catalog = try TrackCatalog.decode(from: Data(contentsOf: URL(fileURLWithPath: dist + "/catalog.json")))
        let buzz = try #require(catalog.track(id: "buzz"))
        #expect(buzz.sidecars == ["buzz.svg", "buzz.ahap", "buzz.haptics.json"], "\(buzz.sidecars)")
        #expect(catalog.track(id: "quiet")?.sidecars == ["quiet.svg"])
        for name in buzz.sidecars { #expect(FileManager.default.fileExists(atPath: dist + "/" + name), "\(name)") }
        let haptics = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dist + "/buzz.haptics.json"))) as? [String: Any])
        // the waveform's pieces add up to the track's length in milliseconds
        #expect((haptics["timings_ms"] as? [Int])?.reduce(0, +) == 40_000)
        let sheet = try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: dist + "/buzz.cues.json")))
        #expect(sheet.guide?.shape == .sine && sheet.phases.first?.guide == .rise)
    }
}
