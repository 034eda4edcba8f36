import CadenceCues
import Foundation
import Recipe
import Render
import Testing

/// A render uses both cores (analysis halves, the encoder beside the mixer); a catalog's
/// `-j 1` uses one. The bytes must not depend on which.
@Suite("Threads do not change the bytes")
struct ThreadingTests {
    @Test("one thread and every core give the same FLAC and cue sheet, with the limiter working")
    func sameBytes() throws {
        let folder = try TempFolder("threads")
        // a peaky bed (noise bursts) so that -12 LUFS needs the limiter; 75 s so the analysis is split
        let rate = 16000
        var samples = Fixture.smoothNoise(frames: rate * 20, amplitude: 0.05, seed: 3)
        for burst in stride(from: rate / 2, to: samples.count / 2 - 400, by: rate * 3) {
            for i in 0..<400 { samples[(burst + i) * 2] += 0.8; samples[(burst + i) * 2 + 1] -= 0.8 }
        }
        try Fixture.writeSound(folder.file("assets/beds/bursts.wav"), samples, sampleRate: rate, channels: 2)
        let recipe = try folder.write(
            """
            duration: 75s
            pattern: coherent
            bed: { file: beds/bursts.wav, crossfade: 1s }
            output: { sample_rate: 16000, channels: 2, loudness: -12 LUFS, true_peak: -1 dBTP }
            """, to: "recipes/t.yml")
        var digests: [[String]] = []
        for threads in [1, 2] {
            let output = folder.file("out\(threads)/t.flac")
            _ = try folder.folder("out\(threads)")
            let track = try TrackRenderer(threads: threads).render(
                recipe: RecipeLoader.load(path: recipe), outputPath: output, assets: folder.file("assets"))
            #expect(track.limited, "the limiter did not engage: the test would not cover the limited analysis")
            digests.append([try sha256(ofFile: output), try sha256(ofFile: track.cueSheetPath)])
        }
        #expect(digests[0] == digests[1])
    }
}
