import AudioIO
import CadenceCues
import Foundation
import Testing

@Suite("Lossy outputs keep the timeline")
struct LossyTests {
    static let rate = 48000
    static let intro = "1.23456s"
    static let outro = "0.5s"
    static let phases = [TestPhase(kind: "inhale", length: "1.1s"), TestPhase(kind: "exhale", length: "0.9s")]
    static let cycles = 2

    static let recipe = """
        id: lossy
        cycles: \(cycles)
        intro: \(intro)
        outro: \(outro)
        \(inlinePattern(phases))cues:
          inhale: { tone: 1 kHz, length: 100ms, gain: -12 dB, envelope: click }
          exhale: { tone: 660 Hz, length: 100ms, gain: -12 dB, envelope: click }
        output:
          sample_rate: \(rate)
          channels: 2
          loudness: off
        """

    @Test("Ogg Vorbis decodes to the timeline's frames, cues where the cue sheet says")
    func vorbis() throws {
        try checkLossy("ogg")
    }

    // libsndfile builds without the codec cannot write it; Debian 12's can, and elsewhere the test says it is skipped and why
    @Test(
        "Opus decodes to the timeline's frames, cues where the cue sheet says",
        .enabled(if: canWrite(.opus, sampleRate: LossyTests.rate, channels: 2), "this libsndfile cannot write Opus"))
    func opus() throws {
        try checkLossy("opus")
    }

    @Test(
        "MP3 decodes to the timeline's frames, cues where the cue sheet says",
        .enabled(if: canWrite(.mp3, sampleRate: LossyTests.rate, channels: 2), "this libsndfile cannot write MP3"))
    func mp3() throws {
        try checkLossy("mp3")
    }

    private func checkLossy(_ fileExtension: String) throws {
        let folder = try TempFolder("lossy")
        let recipe = try folder.write(Self.recipe, to: "lossy.yml")
        let reference = folder.file("ref/lossy.wav")
        let output = folder.file("out/lossy.\(fileExtension)")
        try renderInProcess(recipe, to: reference)
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let lossless = try readAudio(reference)
        let decoded = try readAudio(output)

        let rate = Self.rate
        let total = (Seconds(Self.intro) + Self.phases.map { Seconds($0.length) }.reduce(.zero, +) * Self.cycles + Seconds(Self.outro))
            .frame(at: rate)
        #expect(Int64(decoded.frames) == total, "decoded \(decoded.frames) frames, the timeline has \(total)")
        #expect(decoded.sampleRate == rate)
        #expect(decoded.channels == 2)
        #expect(sheet.audio.frames == total)

        let expected = expectedPhaseFrames(intro: Seconds(Self.intro), phases: Self.phases, cycles: Self.cycles, rate: rate)
        try #require(sheet.cues.count == expected.count)
        for (cue, phase) in zip(sheet.cues, expected) {
            #expect(cue.frame == phase.start, "cue \(cue.name): frame")
            let clean = try #require(
                Self.onset(lossless, near: Int(cue.frame), length: Int(cue.lengthFrames)),
                "no cue sound near frame \(cue.frame) in the lossless render")
            // the lossless onset is the cue's frame plus the rise of its click envelope (1 ms)
            #expect(
                clean >= Int(cue.frame) && clean <= Int(cue.frame) + rate / 500,
                "lossless cue \(cue.name) at frame \(cue.frame): onset at \(clean)")
            guard let onset = Self.onset(decoded, near: Int(cue.frame), length: Int(cue.lengthFrames)) else {
                Issue.record("no cue sound near frame \(cue.frame) in the .\(fileExtension) file")
                continue
            }
            #expect(
                abs(onset - clean) <= 16,
                ".\(fileExtension) cue \(cue.name) at frame \(cue.frame): onset at \(onset), lossless at \(clean) (\(onset - clean) frames)")
        }
    }

    /// The first frame in [frame − 20 ms, frame + length) where |x| reaches a tenth of that window's peak.
    static func onset(_ audio: DecodedAudio, near frame: Int, length: Int) -> Int? {
        let window = max(0, frame - rate / 50)..<min(audio.frames, frame + length)
        let peak = audio.peak(window)
        guard peak > 1e-3 else { return nil }
        for n in window {
            for c in 0..<audio.channels where abs(audio[n, c]) >= peak / 10 { return n }
        }
        return nil
    }
}
