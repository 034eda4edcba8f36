import Foundation
import TestKit
import Testing

/// Ticks in a rendered track (recipe-v1.1 § Ticks): each tick's sound starts at its frame, with
/// exact silence everywhere else, and the cue sheet lists every tick with its phase.
@Suite struct TickRenderTests {
    @Test("tones-only float WAV: sound exactly on the tick frames the cue sheet lists, silence elsewhere")
    func ticksInTheAudio() throws {
        let folder = try TempFolder("ticks")
        let rate = 44100
        // 4-7-8 (4 + 7 + 8 s), 2 cycles after a 1.25 s intro; ticks every 0.75 s in inhale and exhale only
        let recipe = try folder.write(
            """
            id: ticks
            cycles: 2
            intro: 1.25s
            pattern: 4-7-8
            cues:
              tick: { tone: 2 kHz, length: 20ms, gain: -12 dB, envelope: click, every: 0.75s, on: [inhale, exhale] }
            output: { sample_rate: \(rate), channels: 1, bit_depth: 32f, loudness: off, true_peak: 0 dBTP }
            """, to: "recipes/ticks.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let audio = try readAudio(folder.file("out.wav"))
        #expect(audio.frames == Int((1.25 + 2 * 19) * Double(rate)))

        // the reference: phase start + k × 0.75 s (k ≥ 1, before the phase's end), in exact milliseconds
        var expected: [Int64] = []
        var startMs: Int64 = 1250
        for _ in 0..<2 {
            for (kind, lengthMs) in [("inhale", Int64(4000)), ("hold", 7000), ("exhale", 8000)] {
                if kind != "hold" {
                    var t = startMs + 750
                    while t < startMs + lengthMs {
                        expected.append((2 * t * Int64(rate) + 1000) / 2000)
                        t += 750
                    }
                }
                startMs += lengthMs
            }
        }
        let ticks = sheet.cues.filter { $0.name == "tick" }
        #expect(ticks.map(\.frame) == expected)
        #expect(ticks.count == 2 * (5 + 10))
        #expect(ticks.allSatisfy { ["inhale", "exhale"].contains(sheet.phases[$0.phase].kind) })
        #expect(ticks.allSatisfy { sheet.phases[$0.phase].startFrame < $0.frame && $0.frame < sheet.phases[$0.phase].endFrame })
        let length = try #require(ticks.first?.lengthFrames)
        #expect(length == 882)  // 20 ms at 44.1 kHz

        // every sample outside [frame, frame + length) of some tick is exactly 0; each tick sounds
        var inside = [Bool](repeating: false, count: audio.frames)
        for frame in expected { for f in Int(frame)..<min(audio.frames, Int(frame + length)) { inside[f] = true } }
        var stray = 0
        for f in 0..<audio.frames where !inside[f] && audio[f, 0] != 0 { stray += 1 }
        #expect(stray == 0, "\(stray) nonzero samples outside the ticks")
        for frame in expected {
            #expect(audio.rms(0, Int(frame)..<Int(frame + length)) > 0.01, "no tick at \(frame)")
        }
    }
}
