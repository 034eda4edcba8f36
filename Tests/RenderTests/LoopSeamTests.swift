import Foundation
import Testing

/// A short bed looped over a longer track.
struct SeamCase: CustomTestStringConvertible, Sendable {
    enum Bed: String, Sendable {
        /// 437 Hz for 2.3 s: 1005.1 periods, so the end does not meet the start.
        case sine
        /// Low-passed noise.
        case smoothNoise
    }
    let bed: Bed
    let crossfade: String
    /// True: the seams must be as smooth as the bed; false: a hard loop whose click the test must see.
    let smooth: Bool
    var testDescription: String { "\(bed.rawValue) bed, crossfade \(crossfade)" }
}

@Suite("Loop seams")
struct LoopSeamTests {
    static let rate = 48000
    static let bedSeconds = "2.3"
    static let duration = "12s"
    /// How much larger than the bed's own largest step a seam's step may be. An equal-power
    /// crossfade of two correlated passes can reach √2 × the amplitude, hence not 1.
    static let allowedFactor: Float = 2

    @Test(
        "a looped bed has no clicks at its seams (and a hard loop shows one)",
        arguments: [
            SeamCase(bed: .sine, crossfade: "0.5s", smooth: true),
            SeamCase(bed: .smoothNoise, crossfade: "0.5s", smooth: true),
            SeamCase(bed: .sine, crossfade: "0s", smooth: false),
        ])
    func seams(_ c: SeamCase) throws {
        let folder = try TempFolder("seams")
        let rate = Self.rate
        let bedFrames = Int(Seconds(Self.bedSeconds).frame(at: rate))
        let bed: [Float] =
            switch c.bed {
            case .sine: Fixture.sine(frequency: 437, amplitudes: [0.4], sampleRate: rate, frames: bedFrames)
            case .smoothNoise: Fixture.smoothNoise(frames: bedFrames, amplitude: 0.4, seed: 0x5EA)
            }
        try Fixture.writeSound(folder.file("assets/loop.wav"), bed, sampleRate: rate, channels: 1)
        let recipe = try folder.write(
            """
            duration: \(Self.duration)
            \(inlinePattern([TestPhase(kind: "inhale", length: "4s"), TestPhase(kind: "exhale", length: "4s")]))cues: {}
            bed:
              file: loop.wav
              crossfade: \(c.crossfade)
            output:
              sample_rate: \(rate)
              channels: 2
              bit_depth: 32f
              loudness: off
            """, to: "loop.yml")
        let output = folder.file("out/loop.wav")
        try renderInProcess(recipe, to: output, assets: folder.file("assets"))
        let audio = try readAudio(output)
        #expect(Int64(audio.frames) == Seconds(Self.duration).frame(at: rate))

        // the bed's own largest step (inside it, not across its ends)
        var bedStep: Float = 0
        for n in 1..<bed.count { bedStep = max(bedStep, abs(bed[n] - bed[n - 1])) }
        // the largest step anywhere in the track, on either channel: the seams are somewhere in here
        var trackStep: Float = 0
        var worst = 0
        for channel in 0..<audio.channels {
            for n in 1..<audio.frames {
                let step = abs(audio[n, channel] - audio[n - 1, channel])
                if step > trackStep { trackStep = step; worst = n }
            }
        }
        // the bed plays: the track is not silent and loops (sound in the last second)
        #expect(audio.rms(0, (audio.frames - rate)..<audio.frames) > 0.05, "the looped bed should still sound at the end")
        if c.smooth {
            #expect(
                trackStep <= Self.allowedFactor * bedStep,
                "a click at frame \(worst) (\(Double(worst) / Double(rate)) s): step \(trackStep), the bed's largest is \(bedStep)")
        } else {
            // proves the measurement can fail: a hard seam of a sine that stops mid-period jumps
            #expect(
                trackStep > 4 * bedStep,
                "a hard loop should click: largest step \(trackStep) vs the bed's \(bedStep)")
        }
    }
}
