import Foundation
import TestKit
import Testing

/// Synth beds and layers in a rendered track (recipe-v1.1 § Beds): binaural frequencies at the end of a
/// long track, layers summed at their gains, and ducking lowering every layer.
@Suite struct SynthBedRenderTests {
    /// A tones-free recipe over `bed`, as 32-bit float WAV with no loudness change.
    static func recipe(id: String, duration: String, bed: String, rate: Int, voice: String = "") -> String {
        """
        id: \(id)
        duration: \(duration)
        pattern: box
        cues: none
        bed: \(bed)
        \(voice)
        output: { sample_rate: \(rate), channels: 2, bit_depth: 32f, loudness: off, true_peak: 0 dBTP }
        """
    }

    /// The amplitude of `frequency` in channel `c` over `range` (whole periods: no leakage).
    static func amplitude(_ audio: DecodedAudio, _ c: Int, _ frequency: Double, _ range: Range<Int>) -> Double {
        2 * goertzel(audio, channel: c, frequency: frequency, range: range).squareRoot() / Double(range.count)
    }

    @Test("binaural at the end of a 6-minute track: each sample is carrier ∓ beat/2's sine at its frame, left and right")
    func binauralAtTheEnd() throws {
        let folder = try TempFolder("binaural-long")
        let rate = 8000
        let recipe = try folder.write(
            Self.recipe(id: "binaural-long", duration: "6m", bed: "{ synth: binaural 200 Hz 7.5 Hz }", rate: rate), to: "recipes/b.yml")
        try renderInProcess(recipe, to: folder.file("out.wav"))
        let audio = try readAudio(folder.file("out.wav"))
        #expect(audio.frames == 6 * 60 * rate)
        let amplitude = 0.125 * 2.0.squareRoot()
        var worst = 0.0
        // the last second, against the exact phase: 196.25 Hz and 203.75 Hz (× 100 whole)
        for frame in (audio.frames - rate)..<audio.frames {
            for (c, hundredths) in [(0, 19625), (1, 20375)] {
                let turns = (Int64(hundredths) * Int64(frame)) % (Int64(rate) * 100)
                let expected = amplitude * sin(2 * Double.pi * Double(turns) / Double(rate * 100))
                worst = max(worst, abs(Double(audio[frame, c]) - expected))
            }
        }
        #expect(worst < 1e-5, "largest difference from the exact sine in the last second: \(worst)")
        // and by frequency, over the last 4 s (whole periods of both tones): each channel's energy at its own tone
        let last = (audio.frames - 4 * rate)..<audio.frames
        #expect(abs(Self.amplitude(audio, 0, 196.25, last) / amplitude - 1) < 1e-3)
        #expect(Self.amplitude(audio, 0, 203.75, last) < 1e-3 * amplitude)
        #expect(abs(Self.amplitude(audio, 1, 203.75, last) / amplitude - 1) < 1e-3)
    }

    @Test("layers are summed, each at its gain: the layered track is the sum of each layer rendered alone")
    func layersAtTheirGains() throws {
        let folder = try TempFolder("bed-layers")
        let rate = 48000
        let binaural = "{ synth: binaural 200 Hz 10 Hz, gain: -6 dB }"
        let isochronic = "{ synth: isochronic 600 Hz 10 Hz, gain: -12 dB, fade_in: 1s }"
        var rendered: [DecodedAudio] = []
        for (name, bed) in [("both", "[ \(binaural), \(isochronic) ]"), ("first", binaural), ("second", "[ \(isochronic) ]")] {
            let recipe = try folder.write(Self.recipe(id: name, duration: "16s", bed: bed, rate: rate), to: "recipes/\(name).yml")
            try renderInProcess(recipe, to: folder.file("\(name).wav"))
            rendered.append(try readAudio(folder.file("\(name).wav")))
        }
        let (both, first, second) = (rendered[0], rendered[1], rendered[2])
        var worst: Float = 0
        for i in both.samples.indices { worst = max(worst, abs(both.samples[i] - (first.samples[i] + second.samples[i]))) }
        #expect(worst < 1e-6, "layered − (first + second): \(worst)")
        let window = (3 * rate)..<(4 * rate)
        // the binaural's left tone at -6 dB, the isochronic carrier (half its peak amplitude) at -12 dB
        #expect(abs(decibels(Self.amplitude(both, 0, 195, window) / (0.125 * 2.0.squareRoot())) + 6) < 0.05)
        let isochronicPeak = 0.125 / (0.5 * 0.375).squareRoot()
        #expect(abs(decibels(Self.amplitude(both, 1, 600, window) / (isochronicPeak / 2)) + 12) < 0.05)
        // the second layer's fade-in: silent at frame 0, the first layer not
        #expect(abs(second[0, 0]) < 1e-7)
    }

    @Test("ducking under a prompt lowers every layer by the same depth")
    func duckingLowersEveryLayer() throws {
        let folder = try TempFolder("bed-layers-duck")
        let rate = 48000
        try Fixture.writeSound(
            folder.file("assets/voice/tone.wav"), Fixture.sine(frequency: 1000, amplitudes: [0.3], sampleRate: rate, frames: 3 * rate),
            sampleRate: rate, channels: 1)
        let voice = "voice:\n  duck: 12 dB\n  prompts:\n    - { at: 5s, file: voice/tone.wav, text: One }"
        let recipe = try folder.write(
            Self.recipe(
                id: "duck-layers", duration: "16s", bed: "[ { synth: binaural 200 Hz 10 Hz }, { synth: isochronic 600 Hz 10 Hz, gain: -6 dB } ]",
                rate: rate, voice: voice), to: "recipes/d.yml")
        try renderInProcess(recipe, to: folder.file("out.wav"))
        let audio = try readAudio(folder.file("out.wav"))
        let before = (2 * rate)..<(3 * rate), under = (6 * rate)..<(7 * rate)
        for (c, frequency) in [(0, 195.0), (1, 205.0), (0, 600.0)] {
            let drop = decibels(Self.amplitude(audio, c, frequency, under) / Self.amplitude(audio, c, frequency, before))
            #expect(abs(drop + 12) < 0.05, "\(frequency) Hz on channel \(c): \(drop) dB")
        }
    }
}
