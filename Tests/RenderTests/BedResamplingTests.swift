import AudioIO
import Foundation
import Testing

/// A 1 kHz bed at some rate and channel count, to be rendered at 48 kHz stereo.
struct ResampleCase: CustomTestStringConvertible, Sendable {
    let rate: Int
    /// Peak amplitude of the sine on each channel of the bed.
    let amplitudes: [Double]
    let fileName: String
    let format: SoundFileWriter.Format
    var testDescription: String { "\(amplitudes.count)-channel \(rate) Hz bed (\(fileName))" }
}

@Suite("File beds are converted to the output rate and channels")
struct BedResamplingTests {
    static let outputRate = 48000
    static let gainDB = -6.0
    static let duration = "10s"

    @Test(
        "a 1 kHz bed stays a 1 kHz bed at its level on both channels",
        arguments: [
            ResampleCase(rate: 44100, amplitudes: [0.25, 0.125], fileName: "tone-44k.flac", format: .flac24),
            ResampleCase(rate: 22050, amplitudes: [0.3], fileName: "tone-22k.wav", format: .wavFloat),
        ])
    func resampled(_ c: ResampleCase) throws {
        let folder = try TempFolder("resample")
        // 12 s of sine: longer than the track, so it plays straight through without a seam
        let bed = Fixture.sine(frequency: 1000, amplitudes: c.amplitudes, sampleRate: c.rate, frames: 12 * c.rate)
        try Fixture.writeSound(
            folder.file("assets/beds/\(c.fileName)"), bed, sampleRate: c.rate, channels: c.amplitudes.count,
            format: c.format)
        // the recipe lives in recipes/: the assets folder is found by going up from it
        let recipe = try folder.write(
            """
            duration: \(Self.duration)
            \(inlinePattern([TestPhase(kind: "inhale", length: "2s"), TestPhase(kind: "exhale", length: "2s")]))cues: {}
            bed:
              file: beds/\(c.fileName)
              gain: \(Self.gainDB) dB
            output:
              sample_rate: \(Self.outputRate)
              channels: 2
              bit_depth: 32f
              loudness: off
            """, to: "recipes/tone.yml")
        let output = folder.file("out/tone.wav")
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let audio = try readAudio(output)

        let rate = Self.outputRate
        let expectedFrames = Seconds(Self.duration).frame(at: rate)
        #expect(Int64(audio.frames) == expectedFrames)
        #expect(sheet.audio.frames == expectedFrames)
        #expect(audio.sampleRate == rate)
        try #require(audio.channels == 2)

        let gain = pow(10, Self.gainDB / 20)
        let middle = rate / 2..<(audio.frames - rate / 2)
        let early = rate / 100..<(rate * 11 / 100)  // 10 ms to 110 ms: the bed starts at once
        let second = rate..<(2 * rate)  // one second: whole periods of 900, 1000 and 1100 Hz
        for channel in 0..<2 {
            // a mono bed is spread to every channel; a stereo one keeps its channels apart
            let amplitude = c.amplitudes[channel % c.amplitudes.count] * gain
            let level = audio.rms(channel, middle) * 2.squareRoot()
            #expect(
                abs(decibels(level / amplitude)) <= 0.5,
                "channel \(channel): level \(decibels(level)) dBFS, expected \(decibels(amplitude)) dBFS ± 0.5")
            let onset = audio.rms(channel, early) * 2.squareRoot()
            #expect(
                abs(decibels(onset / amplitude)) <= 0.5,
                "channel \(channel): 10–110 ms level \(decibels(onset)) dBFS, expected \(decibels(amplitude)) dBFS ± 0.5")
            let at1000 = goertzel(audio, channel: channel, frequency: 1000, range: second)
            let at900 = goertzel(audio, channel: channel, frequency: 900, range: second)
            let at1100 = goertzel(audio, channel: channel, frequency: 1100, range: second)
            #expect(at1000 > 1000 * at900, "channel \(channel): 1 kHz only \(10 * log10(at1000 / at900)) dB above 900 Hz")
            #expect(at1000 > 1000 * at1100, "channel \(channel): 1 kHz only \(10 * log10(at1000 / at1100)) dB above 1.1 kHz")
        }
    }
}
