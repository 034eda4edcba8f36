import AudioCore
import Foundation
import TestKit
import Testing

/// The gain under the limiter is planned from pass 1's own data (`LimiterModel`), with nothing
/// rendered again: the encode pass measures what it delivers, and a track is encoded again
/// only when it missed its target by more than 0.3 LU.
@Suite("The limiter's gain correction")
struct LimiterCorrectionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The bed: `sparse` (a 2 ms burst every 4 s over noise: the limiter works around each
        /// burst only, and is idle again long before the next), or a synth that the limiter
        /// holds almost everywhere.
        var bed: String
        var target: Double
        var seconds: Int
        /// The most whole encodings again the track may take (the model's miss over 0.3 LU).
        var maximumAgain: Int
        var testDescription: String { name }
    }

    static let cases = [
        // nothing rendered again: the model's gain is within 0.3 LU
        Case(name: "a burst every 4 s", bed: "sparse", target: -16, seconds: 40, maximumAgain: 0),
        // noise the limiter holds everywhere: the probe's envelope at 8 thresholds gets it within 0.3 LU too
        Case(name: "pink noise held everywhere", bed: "pink-noise", target: -9, seconds: 20, maximumAgain: 0),
    ]

    @Test(
        "the limited gain planned without rendering reaches the target within 0.3 LU, measured in the one encode pass",
        .enabled(if: freshReleaseRender != nil, "needs .build/release/render newer than Sources/ (swift build -c release)"),
        arguments: cases)
    func correction(_ c: Case) throws {
        let folder = try TempFolder("limited")
        let rate = LoudnessTests.rate
        try folder.folder("assets")
        var bed = "synth: \(c.bed)"
        if c.bed == "sparse" {
            try Fixture.writeSound(folder.file("assets/bed.wav"), Self.sparseBed(frames: (c.seconds + 1) * rate), sampleRate: rate, channels: 2)
            bed = "file: bed.wav"
        }
        let recipe = try folder.write(
            """
            duration: \(c.seconds)s
            pattern: box
            cues: { inhale: none, hold: none, exhale: none, start: none, end: none }
            bed: { \(bed) }
            output: { sample_rate: \(rate), channels: 2, format: flac, loudness: \(c.target) LUFS, true_peak: -1 dBTP }
            """, to: "track.yml")
        let output = folder.file("out/track.flac")
        let render = try #require(freshReleaseRender)
        let result = try run("/usr/bin/env", ["CADENCE_STAGES=1", render, recipe, "-o", output, "--assets", folder.file("assets")])
        try #require(result.status == 0, "render failed: \(result.stderr.suffix(600))")

        let sheet =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("out/track.cues.json")))) as? [String: Any]
        let audio = try #require(sheet?["audio"] as? [String: Any])
        let reported = try #require(audio["loudness_lufs"] as? Double)
        let measured = try measureLoudness(try readAudio(output))
        // the limiter ran: the true peak sits at its ceiling (-1 dBTP less the 0.3 dB margin)
        #expect(measured.truePeak > -1.6 && measured.truePeak <= -1, "true peak \(measured.truePeak) dBTP: the limiter should hold it near -1.3")
        #expect(abs(reported - measured.lufs) <= 0.03, "cue sheet \(reported) LUFS, the file measures \(measured.lufs)")
        #expect(abs(measured.lufs - c.target) <= 0.3, "the file measures \(measured.lufs) LUFS, target \(c.target)")

        let stages = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("cadence-stages: ") })
        let json = try JSONSerialization.jsonObject(with: Data(stages.dropFirst("cadence-stages: ".count).utf8)) as? [String: Any]
        // pass 1, the encode pass, and a whole pass for each encoding again
        let remeasured = try #require(json?["remeasured_frames"] as? Int)
        let again = remeasured / (c.seconds * rate)
        #expect(remeasured % (c.seconds * rate) == 0 && again <= c.maximumAgain, "rendered again: \(remeasured) frames")
        #expect(json?["passes"] as? Int == 2 + again, "passes over the mix: \(stages)")
    }

    /// Stereo: white noise at ±0.1 with a 2 ms, 3 kHz burst at 0.9 every 4 s.
    static func sparseBed(frames: Int) -> [Float] {
        let rate = LoudnessTests.rate
        var out = Fixture.whiteNoise(frames: frames * 2, amplitude: 0.1, seed: 31)
        let burst = rate / 500
        var start = rate
        while start + burst < frames {
            for k in 0..<burst {
                let x = Float(0.9 * sin(Double.pi * Double(k) / Double(burst)) * sin(2 * Double.pi * 3000 * Double(k) / Double(rate)))
                out[2 * (start + k)] += x
                out[2 * (start + k) + 1] += x
            }
            start += 4 * rate
        }
        return out
    }
}
