import Foundation
import Testing

/// A faded bed rendered to some format and loudness.
struct FadeCase: CustomTestStringConvertible, Sendable {
    let fileExtension: String
    let bitDepth: String
    let loudness: String
    var testDescription: String { ".\(fileExtension) \(bitDepth), loudness \(loudness)" }
}

@Suite("Bed fades")
struct FadeTests {
    static let rate = 48000
    static let duration = "8s"
    static let fadeIn = "1s"
    static let fadeOut = "1.5s"

    @Test(
        "the bed fades in from frame 0 and out to the last frame",
        arguments: [
            FadeCase(fileExtension: "wav", bitDepth: "32f", loudness: "off"),
            FadeCase(fileExtension: "flac", bitDepth: "24", loudness: "-16 LUFS"),
            FadeCase(fileExtension: "wav", bitDepth: "16", loudness: "-20 LUFS"),
        ])
    func fades(_ c: FadeCase) throws {
        let folder = try TempFolder("fades")
        let rate = Self.rate
        // a steady 500 Hz sine longer than the track: any change of level is the fade's
        let bed = Fixture.sine(frequency: 500, amplitudes: [0.3, 0.3], sampleRate: rate, frames: 9 * rate)
        try Fixture.writeSound(folder.file("assets/sine.wav"), bed, sampleRate: rate, channels: 2)
        let recipe = try folder.write(
            """
            duration: \(Self.duration)
            \(inlinePattern([TestPhase(kind: "inhale", length: "3s"), TestPhase(kind: "exhale", length: "3s")]))cues: {}
            bed:
              file: sine.wav
              fade_in: \(Self.fadeIn)
              fade_out: \(Self.fadeOut)
            output:
              sample_rate: \(rate)
              channels: 2
              bit_depth: \(c.bitDepth)
              loudness: \(c.loudness)
            """, to: "fade.yml")
        let output = folder.file("out/fade.\(c.fileExtension)")
        try renderInProcess(recipe, to: output, assets: folder.file("assets"))
        let audio = try readAudio(output)
        let total = Int(Seconds(Self.duration).frame(at: rate))
        try #require(audio.frames == total)

        for channel in 0..<audio.channels {
            #expect(audio[0, channel] == 0, "frame 0, channel \(channel): \(audio[0, channel])")
            #expect(audio[total - 1, channel] == 0, "last frame, channel \(channel): \(audio[total - 1, channel])")
        }
        let tenMs = rate / 100
        let middle = audio.rms(0, (total / 2 - rate / 4)..<(total / 2 + rate / 4))
        let head = audio.rms(0, 0..<tenMs)
        let tail = audio.rms(0, (total - tenMs)..<total)
        #expect(middle > 0.01, "the bed should sound in the middle")
        #expect(head < middle / 100, "first 10 ms at \(decibels(head / middle)) dB of the middle; a fade starts from silence")
        #expect(tail < middle / 100, "last 10 ms at \(decibels(tail / middle)) dB of the middle; a fade ends in silence")

        // the fade-in rises and the fade-out falls, 50 ms window by window (whole periods of 500 Hz)
        let window = rate / 20
        let fadeInFrames = Int(Seconds(Self.fadeIn).frame(at: rate))
        let fadeOutFrames = Int(Seconds(Self.fadeOut).frame(at: rate))
        var previous = -1.0
        for start in stride(from: 0, to: fadeInFrames - window, by: window) {
            let level = audio.rms(0, start..<(start + window))
            #expect(level >= previous, "fade-in falls at \(Double(start) / Double(rate)) s")
            previous = level
        }
        previous = .infinity
        for start in stride(from: total - fadeOutFrames, to: total - window, by: window) {
            let level = audio.rms(0, start..<(start + window))
            #expect(level <= previous, "fade-out rises at \(Double(start) / Double(rate)) s")
            previous = level
        }
        // past the fade-in the bed is at full level
        let afterFade = audio.rms(0, fadeInFrames..<(fadeInFrames + window))
        #expect(abs(decibels(afterFade / middle)) < 0.5, "level right after the fade-in: \(decibels(afterFade / middle)) dB of the middle")
    }
}
