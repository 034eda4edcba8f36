import AudioCore
import CadenceCues
import Recipe
import Testing

@testable import Timeline

/// cues-v1.2 § Haptic steps: milliseconds of frames, the steps of each moving span, their levels,
/// the transients at the cues that sound.
@Suite struct HapticStepsTests: RecipeBodies {
    static let head = "id: h\ntitle: H\n"
    static let file = "h.yml"

    @Test(
        "ms(f) = floor(f × 1000 / rate + 1/2), exactly",
        arguments: [
            (0, 48000, 0), (23, 48000, 0), (24, 48000, 1), (47, 48000, 1), (48, 48000, 1), (71, 48000, 1), (72, 48000, 2),
            (22, 44100, 0), (23, 44100, 1), (1, 2000, 1), (1, 2001, 0), (480_000, 48000, 10_000),
            // 24 h at 384 kHz, a half millisecond past a whole one: rounds up
            (33_177_600_000 + 192, 384_000, 86_400_001), (33_177_600_000 + 191, 384_000, 86_400_000),
        ] as [(Int64, Int, Int64)])
    func milliseconds(frame: Int64, rate: Int, expected: Int64) {
        #expect(HapticSteps.ms(frame, rate: rate) == expected)
        // against the rational rule
        #expect(HapticSteps.ms(frame, rate: rate) == roundHalfUp(Int128(frame) * 1000, Int128(rate)))
    }

    static let bodies = [
        "pattern: box\ncycles: 3\nintro: 10s\noutro: 18s\n",
        "pattern:\n  phases:\n    - { inhale: 4.3001s }\n    - { hold: 1.7s }\n    - { exhale: 5.5003s }\n    - { rest: 0.0123s }\n    - { sip: 0.2999s }\n"
            + "cycles: 3\nintro: 7.123s\noutro: 1.3s\noutput: { sample_rate: 44100 }\n",
        "pattern: coherent\ncycles: 20\nramp: { to: 4.5 bpm, over: 10 cycles }\noutro: 0.05s\n",
        "intro: 5s\nprogram:\n  - { pattern: box, cycles: 2 }\n  - { pattern: coherent, duration: 1m }\n  - { pattern: 4-7-8, cycles: 2 }\noutro: 3s\n",
    ]

    @Test("steps tile each moving span's milliseconds, n = ceil(len/100), the longer first; level = E at the middle", arguments: bodies)
    func steps(_ body: String) throws {
        let t = try Timeline(recipe: Self.load(body))
        let kinds: [String: BreathGuide] = ["sip": .rise, "rest": .none]
        let env = BreathEnvelope(timeline: t, guide: BreathGuideSettings(kinds: kinds))
        let ref = EnvelopeReference(t, kinds: kinds.mapValues(\.rawValue))
        let levels = ref.levels
        let h = HapticSteps(timeline: t, envelope: env)
        let rate = t.sampleRate
        #expect(h.totalMS == roundHalfUp(Int128(t.totalFrames) * 1000, Int128(rate)))
        // the moving spans, from the phases and the outro themselves
        var spans: [(Int64, Int64)] = t.phases.filter { ["inhale", "exhale", "transition", "sip"].contains($0.kind) }.map {
            ($0.startFrame, $0.endFrame)
        }
        if let outro = t.section(.outro) {
            spans.append((outro.startFrame, outro.startFrame + min(2 * Int64(rate), outro.endFrame - outro.startFrame)))
        }
        var index = 0
        for (s, e) in spans {
            let (a, b) = (HapticSteps.ms(s, rate: rate), HapticSteps.ms(e, rate: rate))
            let length = b - a
            let n = Int((length + 99) / 100)
            let mine = Array(h.steps[index..<min(index + n, h.steps.count)])
            index += n
            #expect(mine.count == n)
            #expect(mine.first?.startMS == a || n == 0)
            #expect(mine.last?.endMS == b || n == 0)
            for (x, y) in zip(mine, mine.dropFirst()) {
                #expect(x.endMS == y.startMS)
                let (lx, ly) = (x.endMS - x.startMS, y.endMS - y.startMS)
                #expect(lx == ly || lx == ly + 1, "steps of \(lx) then \(ly) ms")
            }
            #expect(mine.allSatisfy { $0.endMS - $0.startMS <= 100 && $0.endMS > $0.startMS })
            for step in mine {
                // the middle (a + b)/2 ms as a frame: (a + b) × rate / 2000
                let want = ref.value((step.startMS + step.endMS) * Int64(rate), over: 2000, levels: levels)
                #expect(abs(step.level - want) < 1e-12, "step at \(step.startMS) ms: \(step.level), expected \(want)")
            }
        }
        #expect(index == h.steps.count)
        // steps only inside moving spans: never inside a hold or a `none` phase
        for phase in t.phases where ["hold", "rest"].contains(phase.kind) {
            let (a, b) = (HapticSteps.ms(phase.startFrame, rate: rate), HapticSteps.ms(phase.endFrame, rate: rate))
            #expect(!h.steps.contains { $0.startMS >= a && $0.endMS <= b && $0.endMS > a })
        }
        // transients: every cue but ticks, at its millisecond
        #expect(h.transients.map(\.ms) == t.cues.map { HapticSteps.ms($0.frame, rate: rate) })
        #expect(h.transients.map(\.intensity) == t.cues.map { ["start", "end"].contains($0.name) ? 1.0 : 0.8 })
    }

    @Test("a 250 ms span: 3 steps of 84, 83, 83 ms; a 1 ms span: one step; a 100 ms span: one step")
    func stepLengths() {
        func lengths(_ frames: Int64) -> [Int64] {
            let env = BreathEnvelope(
                phases: [.init(startFrame: 0, endFrame: frames, guide: .rise)], outroStart: nil, totalFrames: frames, sampleRate: 48000,
                shape: .linear)
            return HapticSteps(envelope: env, cues: []).steps.map { $0.endMS - $0.startMS }
        }
        #expect(lengths(12_000) == [84, 83, 83])
        #expect(lengths(48) == [1])
        #expect(lengths(4800) == [100])
        #expect(lengths(4848) == [51, 50])
        #expect(lengths(20) == [])  // rounds to no millisecond
        // linear rise over 250 ms: E at 42, 125.5, 208.5 ms
        let env = BreathEnvelope(
            phases: [.init(startFrame: 0, endFrame: 12_000, guide: .rise)], outroStart: nil, totalFrames: 12_000, sampleRate: 48000, shape: .linear)
        let expected: [Double] = [42.0 / 250, 125.5 / 250, 208.5 / 250]
        #expect(HapticSteps(envelope: env, cues: []).steps.map(\.level) == expected)
    }

    @Test("ticks make no transient, a phase kind named like a cue does; start and end tap at 1.0")
    func transients() throws {
        let t = try Timeline(
            recipe: Self.load(
                "pattern: box\ncycles: 2\nintro: 2s\noutro: 3s\ncues: { inhale: bell, hold: click, tick: { preset: click, every: 1s }, end: chime }\n"
            ))
        let h = HapticSteps(timeline: t, envelope: BreathEnvelope(timeline: t, guide: .defaults))
        #expect(t.cues.filter { $0.name == "tick" }.count > 10)
        #expect(h.transients.map(\.cue) == ["inhale", "hold", "hold", "inhale", "hold", "hold", "end"])
        #expect(h.transients.map(\.intensity) == [0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 1.0])
        #expect(h.transients.last?.ms == 34_000)
    }
}
