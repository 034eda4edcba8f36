import AudioIO
import Foundation
import Testing

@Suite("CAF (Apple Lossless) output")
struct AppleLosslessTests {
    /// Loud white noise hardly compresses: ALAC packets near their 24-bit size, over 100 of them.
    static func recipe(bitDepth: String) -> String {
        """
        duration: 15s
        \(inlinePattern([TestPhase(kind: "inhale", length: "2s"), TestPhase(kind: "exhale", length: "2s")]))cues: {}
        bed:
          synth: white-noise
          gain: 4 dB
        output:
          sample_rate: 48000
          channels: 2
          bit_depth: \(bitDepth)
          loudness: off
        """
    }

    // Rendered by the binary: a crash inside the encoder must fail this test, not the whole test process.
    @Test(
        "a loud, incompressible track renders to .caf and decodes to the same samples as .wav",
        .enabled(if: canWrite(.caf24) && canWrite(.caf16), "this libsndfile cannot write ALAC in CAF"), arguments: ["24", "16"])
    func loudNoise(_ bitDepth: String) throws {
        let folder = try TempFolder("caf")
        let recipe = try folder.write(Self.recipe(bitDepth: bitDepth), to: "noise.yml")
        let caf = folder.file("out/noise.caf")
        let result = try runRender([recipe, "-o", caf, "--quiet"])
        #expect(!result.signaled, "render crashed: \(result)")
        guard result.status == 0 else {
            // "where libsndfile can": a libsndfile that cannot write this safely may be refused, cleanly
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("libsndfile"), "a refusal should say why: \(result)")
            #expect(!FileManager.default.fileExists(atPath: caf))
            #expect(!FileManager.default.fileExists(atPath: cueSheetPath(for: caf)))
            return
        }

        let wav = folder.file("ref/noise.wav")
        try renderInProcess(recipe, to: wav)
        let decoded = try readAudio(caf)
        let reference = try readAudio(wav)
        #expect(decoded.frames == 15 * 48000)
        // lossless: the same quantized samples as the WAV of the same recipe and bit depth
        #expect(decoded.samples == reference.samples, "the .caf does not decode to the .wav's samples")
        let sheet = try readCueSheet(cueSheetPath(for: caf))
        #expect(sheet.audio.sha256 == (try sha256(ofFile: caf)))
    }
}
