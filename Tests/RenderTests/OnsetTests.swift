import CadenceCues
import Foundation
import Testing

@Suite("Sample-accurate cue onsets")
struct OnsetTests {
    static let rate = 44100
    static let intro = "1.23456s"
    static let outro = "0.77777s"
    static let cycles = 2
    static let phases = [
        TestPhase(kind: "inhale", length: "1.1111111s"),
        TestPhase(kind: "hold", length: "0.7777777s"),
        TestPhase(kind: "exhale", length: "1.3333333s"),
        TestPhase(kind: "rest", length: "0.5000001s"),
    ]
    /// Cue name → its sound's length as written (presets: the spec's lengths, `click` 30 ms, `chime` 1.5 s).
    static let cueLengths = ["start": "50ms", "inhale": "300ms", "hold": "200ms", "exhale": "400ms", "rest": "30ms", "end": "1.5s"]

    static let recipe = """
        id: onsets
        cycles: \(cycles)
        intro: \(intro)
        outro: \(outro)
        \(inlinePattern(phases, name: "Odd Lengths"))cues:
          start: { tone: 1000 Hz, length: 50ms, gain: -20 dB, envelope: click }
          inhale: { tone: 528 Hz, length: 300ms, gain: -18 dB, envelope: bell }
          hold: { tone: 660 Hz, length: 200ms, gain: -18 dB, envelope: soft }
          exhale: { tone: 396 Hz, length: 400ms, gain: -18 dB, envelope: bell, harmonics: [0.5, 0.25] }
          rest: click
          end: chime
        output:
          sample_rate: \(rate)
          channels: 2
          bit_depth: 32f
          loudness: off
        """

    @Test("every cue starts on its exact frame, with digital silence before it")
    func onsets() throws {
        let folder = try TempFolder("onsets")
        let recipe = try folder.write(Self.recipe, to: "onsets.yml")
        let output = folder.file("onsets.wav")
        let (track, sheet) = try renderInProcess(recipe, to: output)
        let audio = try readAudio(output)
        let rate = Self.rate

        // the expected cues, from the recipe's decimals alone
        let phaseFrames = expectedPhaseFrames(intro: Seconds(Self.intro), phases: Self.phases, cycles: Self.cycles, rate: rate)
        let total = (Seconds(Self.intro) + Self.phases.map { Seconds($0.length) }.reduce(.zero, +) * Self.cycles + Seconds(Self.outro))
            .frame(at: rate)
        var expected: [(name: String, phase: Int, frame: Int64)] = [("start", 0, phaseFrames[0].start)]
        for (i, phase) in phaseFrames.enumerated() { expected.append((phase.kind, i, phase.start)) }
        expected.append(("end", phaseFrames.count - 1, phaseFrames[phaseFrames.count - 1].end))

        #expect(track.frames == total)
        #expect(Int64(audio.frames) == total)
        try #require(sheet.cues.count == expected.count, "cues: \(sheet.cues.map(\.name))")
        for (cue, want) in zip(sheet.cues, expected) {
            #expect(cue.name == want.name)
            #expect(cue.phase == want.phase, "cue \(cue.name)")
            #expect(cue.frame == want.frame, "cue \(cue.name) of phase \(want.phase): frame")
            expectTime(cue.time, frame: cue.frame, rate: rate, "cue \(cue.name).time")
            let length = Seconds(try #require(Self.cueLengths[cue.name])).frame(at: rate)
            #expect(cue.lengthFrames == min(length, total - cue.frame), "cue \(cue.name): length_frames")
        }

        // the audio: silence before each onset back to the previous cue's end, sound right after it
        let fewMs = rate * 5 / 1000
        let cues = sheet.cues.sorted { $0.frame < $1.frame }
        var soundingUntil: Int64 = 0
        for cue in cues {
            let onset = Int(cue.frame)
            if soundingUntil < cue.frame {
                var firstNonZero: Int?
                outer: for n in Int(soundingUntil)..<onset {
                    for c in 0..<audio.channels where audio[n, c] != 0 {
                        firstNonZero = n
                        break outer
                    }
                }
                #expect(
                    firstNonZero == nil,
                    "cue \(cue.name) at frame \(onset): sound at frame \(firstNonZero ?? -1), before its onset (silence expected from \(soundingUntil))"
                )
            }
            let peak = audio.peak(onset..<min(onset + fewMs, audio.frames))
            #expect(peak > 1e-4, "cue \(cue.name) at frame \(onset): nothing sounds in the first 5 ms (peak \(peak))")
            if soundingUntil <= cue.frame {
                // it starts on its frame: a tone rising from silence may be exactly 0 there, not one frame more
                let first = (onset..<min(onset + fewMs, audio.frames)).first { n in (0..<audio.channels).contains { audio[n, $0] != 0 } }
                #expect(
                    first != nil && first! <= onset + 1,
                    "cue \(cue.name) at frame \(onset): its first non-zero sample is at frame \(first ?? -1)")
            }
            soundingUntil = max(soundingUntil, cue.frame + cue.lengthFrames)
        }
        // after the last cue, nothing but silence to the end
        if soundingUntil < total {
            #expect(audio.peak(Int(soundingUntil)..<audio.frames) == 0, "sound after the last cue's end")
        }

        // every lone instance of a cue is the same samples at its own frame: no instance is shifted
        for name in Set(cues.map(\.name)) {
            let lone = cues.filter { cue in
                cue.name == name
                    && !cues.contains { other in
                        other.frame != cue.frame && other.frame < cue.frame + cue.lengthFrames && cue.frame < other.frame + other.lengthFrames
                    } && !cues.contains { $0.name != name && $0.frame == cue.frame }
            }
            guard let first = lone.first else { continue }
            let reference = audio.channel(0, Int(first.frame)..<Int(first.frame + first.lengthFrames))
            for other in lone.dropFirst() where other.lengthFrames == first.lengthFrames {
                let samples = audio.channel(0, Int(other.frame)..<Int(other.frame + other.lengthFrames))
                #expect(samples == reference, "cue \(name) at frame \(other.frame) differs from the one at \(first.frame)")
            }
        }

        // tones are centred: both channels identical
        var sameChannels = true
        for n in 0..<audio.frames where audio[n, 0] != audio[n, 1] { sameChannels = false; break }
        #expect(sameChannels, "a mono tone should be the same on both channels")
    }
}
