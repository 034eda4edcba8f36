import CadenceCues
import Foundation
import TestKit
import Testing

/// The output's true peak against the ceiling, by FFmpeg's meter and by a 16× reference, on the
/// signals a short interpolator under-reads (issue 30, item 3: a white-noise bed at -5 LUFS
/// under -1 dBTP measured -0.6 dBTP in FFmpeg while the cue sheet said -1.3).
@Suite struct TruePeakCeilingTests {
    enum Bed: String, CaseIterable, Sendable {
        case whiteNoise = "white noise"
        case pinkNoise = "pink noise"
        case square = "square 997 Hz"
        case nearNyquist = "sines at 19.7 and 21.3 kHz"

        /// A ceiling the bed at -6 LUFS passes (so the limiter holds it) by a little: a square wave
        /// has no crest to take, so a deeper cut could not keep the loudness.
        var ceiling: Double {
            switch self {
            case .whiteNoise: -2
            case .pinkNoise: -1
            case .square: -7.5
            case .nearNyquist: -6.1
            }
        }
    }

    @Test("the file's true peak is at most the ceiling (FFmpeg, 16×) and the cue sheet within 0.1 dB of 16×", arguments: Bed.allCases)
    func ceilingHolds(_ bed: Bed) throws {
        let folder = try TempFolder("true-peak")
        try folder.folder("assets")
        let rate = 48000
        let bedYAML: String
        switch bed {
        case .whiteNoise: bedYAML = "{ synth: white-noise }"
        case .pinkNoise: bedYAML = "{ synth: pink-noise }"
        case .square, .nearNyquist:
            let frames = 5 * rate
            var samples = [Float](repeating: 0, count: frames * 2)
            for n in 0..<frames {
                let t = Double(n) / Double(rate)
                let v =
                    bed == .square
                    ? (sin(2 * Double.pi * 997 * t) >= 0 ? 0.3 : -0.3)
                    : 0.2 * sin(2 * Double.pi * 19_700 * t) + 0.2 * sin(2 * Double.pi * 21_300 * t + 1)
                samples[2 * n] = Float(v)
                samples[2 * n + 1] = Float(v)
            }
            try Fixture.writeSound(folder.file("assets/bed.wav"), samples, sampleRate: rate, channels: 2)
            bedYAML = "{ file: bed.wav }"
        }
        let recipe = """
            duration: 4s
            \(inlinePattern([TestPhase(kind: "inhale", length: "1s"), TestPhase(kind: "exhale", length: "1s")]))cues: {}
            bed: \(bedYAML)
            output: { channels: 2, format: wav, bit_depth: 32f, loudness: -6 LUFS, true_peak: \(bed.ceiling) dBTP }
            """
        let path = try folder.write(recipe, to: "track.yml")
        let output = folder.file("track.wav")
        let (track, sheet) = try renderInProcess(path, to: output, assets: folder.file("assets"))
        try #require(track.limited, "premise: at -6 LUFS the limiter holds \(bed.rawValue) under \(bed.ceiling) dBTP")
        let audio = try readAudio(output)
        let reference = ReferenceTruePeak.peakDB(audio.samples, channels: audio.channels)
        #expect(reference <= bed.ceiling, "\(bed.rawValue): 16× reference \(reference) dBTP over \(bed.ceiling)")
        let cue = try #require(sheet.audio.truePeakDBTP)
        #expect(abs(cue - reference) <= 0.1, "\(bed.rawValue): cue sheet \(cue) dBTP, 16× reference \(reference)")
        if let ffmpeg = which("ffmpeg") {
            let result = try run(ffmpeg, ["-hide_banner", "-nostats", "-i", output, "-filter_complex", "ebur128=peak=true", "-f", "null", "-"])
            let peak = try #require(LoudnessTests.ffmpegSummary(result.stderr, label: "Peak:"), "\(result.stderr.suffix(600))")
            #expect(peak <= bed.ceiling, "\(bed.rawValue): ffmpeg's ebur128 reads \(peak) dBTP, over \(bed.ceiling)")
        }
    }
}
