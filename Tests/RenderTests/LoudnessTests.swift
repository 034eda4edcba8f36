import AudioIO
import CadenceCues
import Foundation
import TestKit
import Testing

/// A loudness-normalized render: which bed, which target and ceiling.
struct LoudnessCase: CustomTestStringConvertible, Sendable {
    enum Bed: String, Sendable {
        /// `synth: pink-noise`.
        case pinkNoise
        /// A file of steady noise and a low sine (crest well under the ceiling at -16 LUFS).
        case noiseFile
        /// A file of quiet noise with short loud bursts: reaching the target needs the limiter.
        case spikyFile
    }
    let bed: Bed
    let target: Double
    let truePeak: Double
    let fileExtension: String
    let seconds: Int
    /// Check the limiter ran, after proving from the source's own crest that it had to.
    let needsLimiter: Bool
    /// Cross-check the integrated loudness with ffmpeg's ebur128 filter when ffmpeg is installed.
    let ffmpeg: Bool

    var testDescription: String {
        "\(bed.rawValue) → \(target) LUFS, ≤ \(truePeak) dBTP, .\(fileExtension)\(needsLimiter ? " (limiter)" : "")"
    }
}

@Suite("Loudness normalization")
struct LoudnessTests {
    static let rate = 48000

    @Test(
        "the file's integrated loudness is the target ± 0.5 LU and its true peak within the ceiling",
        arguments: [
            LoudnessCase(bed: .pinkNoise, target: -16, truePeak: -1, fileExtension: "flac", seconds: 6, needsLimiter: false, ffmpeg: false),
            LoudnessCase(bed: .pinkNoise, target: -23, truePeak: -1, fileExtension: "flac", seconds: 6, needsLimiter: false, ffmpeg: false),
            LoudnessCase(bed: .noiseFile, target: -16, truePeak: -1, fileExtension: "wav", seconds: 6, needsLimiter: false, ffmpeg: false),
            LoudnessCase(bed: .noiseFile, target: -23, truePeak: -2, fileExtension: "flac", seconds: 6, needsLimiter: false, ffmpeg: true),
            LoudnessCase(bed: .spikyFile, target: -16, truePeak: -1, fileExtension: "flac", seconds: 3, needsLimiter: true, ffmpeg: true),
            LoudnessCase(bed: .pinkNoise, target: -9, truePeak: -1, fileExtension: "flac", seconds: 3, needsLimiter: true, ffmpeg: false),
            LoudnessCase(bed: .pinkNoise, target: -16, truePeak: -1, fileExtension: "ogg", seconds: 4, needsLimiter: false, ffmpeg: false),
            LoudnessCase(bed: .pinkNoise, target: -9, truePeak: -1, fileExtension: "ogg", seconds: 3, needsLimiter: true, ffmpeg: false),
        ])
    func loudness(_ c: LoudnessCase) throws {
        let folder = try TempFolder("loudness")
        let rate = Self.rate
        try folder.folder("assets")
        let bedYAML: String
        var sourceCrest: Double?
        switch c.bed {
        case .pinkNoise:
            bedYAML = "synth: pink-noise"
        case .noiseFile, .spikyFile:
            let frames = (c.seconds + 1) * rate
            let samples = c.bed == .noiseFile ? Self.noiseBed(frames: frames) : Self.spikyBed(frames: frames)
            try Fixture.writeSound(folder.file("assets/bed.wav"), samples, sampleRate: rate, channels: 2)
            // the mix is this bed alone (no cues, 0 dB, same rate): its crest is the source's
            let source = try measureLoudness(try readAudio(folder.file("assets/bed.wav")))
            sourceCrest = source.truePeak - source.lufs
            bedYAML = "file: bed.wav"
        }
        let recipe = """
            duration: \(c.seconds)s
            \(inlinePattern([TestPhase(kind: "inhale", length: "1s"), TestPhase(kind: "exhale", length: "1s")]))cues: {}
            bed:
              \(bedYAML)
            output:
              sample_rate: \(rate)
              channels: 2
              loudness: LOUDNESS
              true_peak: \(c.truePeak) dBTP
            """
        let recipePath = try folder.write(recipe.replacingOccurrences(of: "LOUDNESS", with: "\(c.target) LUFS"), to: "track.yml")

        if c.needsLimiter {
            if sourceCrest == nil {
                // the synth's crest: the same bed rendered as is
                let raw = try folder.write(recipe.replacingOccurrences(of: "LOUDNESS", with: "off"), to: "raw.yml")
                try renderInProcess(raw, to: folder.file("raw/raw.wav"), assets: folder.file("assets"))
                let measured = try measureLoudness(try readAudio(folder.file("raw/raw.wav")))
                sourceCrest = measured.truePeak - measured.lufs
            }
            let crest = try #require(sourceCrest)
            // premise: a plain gain to the target would put the true peak over the ceiling
            try #require(
                c.target + crest > c.truePeak + 0.5,
                "test premise: a crest of \(crest) dB at \(c.target) LUFS stays under \(c.truePeak) dBTP")
        }

        let output = folder.file("out/track.\(c.fileExtension)")
        let (track, sheet) = try renderInProcess(recipePath, to: output, assets: folder.file("assets"))
        let audio = try readAudio(output)
        #expect(Int64(audio.frames) == Seconds("\(c.seconds)").frame(at: rate))

        let measured = try measureLoudness(audio)
        #expect(abs(measured.lufs - c.target) <= 0.5, "integrated loudness \(measured.lufs) LUFS, target \(c.target) ± 0.5")
        #expect(measured.truePeak <= c.truePeak, "true peak \(measured.truePeak) dBTP over the ceiling \(c.truePeak)")
        if c.needsLimiter {
            #expect(track.limited, "the limiter should have run")
            // and it did its job: the output's crest is smaller than the source's
            // (lossless only: a lossy codec's overshoot changes the peaks it was given)
            if let crest = sourceCrest, !["ogg", "opus", "mp3"].contains(c.fileExtension) {
                #expect(measured.truePeak - measured.lufs < crest - 1, "crest \(measured.truePeak - measured.lufs) dB, source \(crest) dB")
            }
        }

        // the cue sheet reports what the file measures
        let lufs = try #require(sheet.audio.loudnessLUFS, "audio.loudness_lufs missing")
        let peak = try #require(sheet.audio.truePeakDBTP, "audio.true_peak_dbtp missing")
        #expect(abs(lufs - measured.lufs) <= 0.1, "cue sheet loudness \(lufs), measured \(measured.lufs)")
        // true peak: within 0.1 dB of an independent 16× reference (libebur128's 4× filter reads
        // limited noise up to a few tenths of a dB apart, which the renderer's 0.3 dB margin covers)
        let reference = ReferenceTruePeak.peakDB(audio.samples, channels: audio.channels)
        #expect(abs(peak - reference) <= 0.1, "cue sheet true peak \(peak), 16× reference \(reference)")

        if c.ffmpeg, let ffmpeg = which("ffmpeg") {
            let result = try run(ffmpeg, ["-hide_banner", "-nostats", "-i", output, "-filter_complex", "ebur128=peak=true", "-f", "null", "-"])
            #expect(result.status == 0, "ffmpeg failed: \(result.stderr.suffix(500))")
            let integrated = Self.ffmpegSummary(result.stderr, label: "I:")
            let truePeak = Self.ffmpegSummary(result.stderr, label: "Peak:")
            if let integrated {
                #expect(abs(integrated - c.target) <= 0.5, "ffmpeg ebur128: I = \(integrated) LUFS, target \(c.target)")
                #expect(abs(integrated - measured.lufs) <= 0.2, "ffmpeg ebur128: I = \(integrated) LUFS, libebur128 \(measured.lufs)")
            } else {
                Issue.record("no integrated loudness in ffmpeg's output: \(result.stderr.suffix(800))")
            }
            if let truePeak {
                // ffmpeg's true-peak meter oversamples differently: allow it 0.3 dB
                #expect(truePeak <= c.truePeak + 0.3, "ffmpeg ebur128: true peak \(truePeak) dBFS")
            }
        }
    }

    /// The last `label` value in ffmpeg's ebur128 summary.
    static func ffmpegSummary(_ text: String, label: String) -> Double? {
        guard let summary = text.range(of: "Summary:", options: .backwards) else { return nil }
        for line in text[summary.upperBound...].split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(label) else { continue }
            let fields = trimmed.dropFirst(label.count).split(separator: " ")
            if let first = fields.first, let value = Double(first) { return value }
        }
        return nil
    }

    /// Stereo: smooth noise on each channel plus a 220 Hz sine, about -20 dBFS RMS, crest ~ 10 dB.
    static func noiseBed(frames: Int) -> [Float] {
        let left = Fixture.smoothNoise(frames: frames, amplitude: 0.3, seed: 11)
        let right = Fixture.smoothNoise(frames: frames, amplitude: 0.3, seed: 12)
        let sine = Fixture.sine(frequency: 220, amplitudes: [0.1], sampleRate: rate, frames: frames)
        var out = [Float](repeating: 0, count: frames * 2)
        for n in 0..<frames {
            out[2 * n] = left[n] + sine[n]
            out[2 * n + 1] = right[n] + sine[n]
        }
        return out
    }

    /// Stereo: white noise at ±0.02 with a 2 ms, 3 kHz burst at 0.9 every half second.
    static func spikyBed(frames: Int) -> [Float] {
        let noise = Fixture.whiteNoise(frames: frames * 2, amplitude: 0.02, seed: 21)
        var out = noise
        let burst = rate / 500
        var start = rate / 4
        while start + burst < frames {
            for k in 0..<burst {
                let window = sin(Double.pi * Double(k) / Double(burst))
                let x = Float(0.9 * window * sin(2 * Double.pi * 3000 * Double(k) / Double(rate)))
                out[2 * (start + k)] += x
                out[2 * (start + k) + 1] += x
            }
            start += rate / 2
        }
        return out
    }
}
