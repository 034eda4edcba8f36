import AudioCore
import CadenceCues
import Foundation
import Recipe
import TestKit
import Testing

@testable import Timeline

/// recipe-v1.2 § Breath guidance written out again, independently of `BreathEnvelope`: a walk through
/// the phases from the first, carrying the breath's level, with w(u) = sin²(πu/2) (the same raised
/// cosine as (1 − cos πu)/2, computed another way) and u as a quotient of exact rationals.
struct EnvelopeReference {
    let phases: [(start: Int64, end: Int64, guide: String)]
    let outroStart: Int64?
    let totalFrames: Int64
    let rate: Int
    let linear: Bool

    init(_ t: Timeline, kinds: [String: String] = [:], linear: Bool = false) {
        func guide(_ kind: String) -> String {
            if let written = kinds[kind] { return written }
            switch kind {
            case "inhale": return "rise"
            case "exhale", "transition": return "fall"
            default: return "hold"
            }
        }
        phases = t.phases.map { ($0.startFrame, $0.endFrame, guide($0.kind)) }
        outroStart = t.sections.first { $0.kind == .outro }?.startFrame
        totalFrames = t.totalFrames
        rate = t.sampleRate
        self.linear = linear
    }

    func w(_ u: Double) -> Double {
        if linear { return u }
        let s = sin(Double.pi * u / 2)
        return s * s
    }

    /// The level each phase starts from, walking the phases once from 0.
    var levels: [Double] {
        var out: [Double] = []
        var level = 0.0
        for p in phases {
            out.append(level)
            switch p.guide {
            case "rise": level = 1
            case "fall", "none": level = 0
            default: break
            }
        }
        out.append(level)
        return out
    }

    /// E at the frame num / den, with `levels` from `self.levels`.
    func value(_ num: Int64, over den: Int64 = 1, levels: [Double]) -> Double {
        // the last phase starting at or before the frame
        var (lo, hi) = (0, phases.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if phases[mid].start * den <= num { lo = mid + 1 } else { hi = mid }
        }
        if lo == 0 { return 0 }  // the intro
        let i = lo - 1
        let p = phases[i]
        let level = levels[i]
        if num < p.end * den {
            switch p.guide {
            case "none": return 0
            case "hold": return level
            default:
                let target: Double = p.guide == "rise" ? 1 : 0
                // u as one quotient of exact integers: a frame ten hours in loses no digits
                let u = Double(num - p.start * den) / Double((p.end - p.start) * den)
                return level + (target - level) * w(u)
            }
        }
        let last = levels[phases.count]
        guard let o = outroStart, o < totalFrames, num >= o * den else { return last }
        let fall = min(2 * Int64(rate), totalFrames - o)
        guard num < (o + fall) * den else { return 0 }
        return last * (1 - w(Double(num - o * den) / Double(fall * den)))
    }

    /// Frames worth checking: every phase boundary and the frames either side, a few inside each
    /// phase, the outro's start, its fall's end, the last frame.
    var probes: [Int64] {
        var frames: Set<Int64> = [0, totalFrames - 1, totalFrames]
        for p in phases {
            for f in [p.start - 1, p.start, p.start + 1, p.end - 1, p.end, (p.start + p.end) / 2, p.start + (p.end - p.start) / 3] {
                frames.insert(f)
            }
        }
        if let o = outroStart {
            let end = o + min(2 * Int64(rate), totalFrames - o)
            for f in [o - 1, o, o + 1, (o + end) / 2, end - 1, end, end + 1] { frames.insert(f) }
        }
        return frames.filter { $0 >= 0 && $0 < totalFrames }.sorted()
    }
}

@Suite struct BreathEnvelopeTests: RecipeBodies {
    static let head = "id: g\ntitle: G\n"
    static let file = "g.yml"

    static let s = 1_000_000_000 as Int64
    static let box = [("inhale", 4 * s), ("hold", 4 * s), ("exhale", 4 * s), ("hold", 4 * s)]

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let phases: [(String, Int64)]
        let cycles: Int
        let intro: Int64
        let outro: Int64
        let rate: Int
        let kinds: [String: BreathGuide]
        let shape: BreathShape
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "box, sine, defaults", phases: box, cycles: 3, intro: 10 * s, outro: 30 * s, rate: 48000, kinds: [:], shape: .sine),
        Case(name: "box, linear, defaults", phases: box, cycles: 3, intro: 10 * s, outro: 30 * s, rate: 48000, kinds: [:], shape: .linear),
        // every guide value, on kinds whose defaults differ
        Case(
            name: "every guide on every kind, 44.1 kHz, odd lengths",
            phases: [("inhale", 4_300_000_001), ("hold", 1_700_000_000), ("exhale", 5_500_000_003), ("rest", 2_100_000_000), ("sip", 900_000_007)],
            cycles: 3, intro: 7_123_456_789, outro: 1_300_000_000, rate: 44100,
            kinds: ["inhale": .fall, "hold": .rise, "exhale": .none, "rest": .hold, "sip": .rise], shape: .sine),
        Case(
            name: "none then hold, linear, outro of 1.5 s (shorter than the fall)",
            phases: [("inhale", 3 * s), ("exhale", 2 * s), ("hold", 1 * s)], cycles: 4, intro: 0, outro: 1_500_000_000, rate: 16000,
            kinds: ["exhale": .none], shape: .linear),
        Case(
            name: "no intro, no outro", phases: [("inhale", 5_500_000_000), ("exhale", 5_500_000_000)], cycles: 5, intro: 0, outro: 0, rate: 44100,
            kinds: [:], shape: .sine),
        Case(
            name: "outro of exactly 2 s, a hold at full", phases: [("inhale", 2 * s), ("hold", 3 * s)], cycles: 2, intro: 1 * s, outro: 2 * s,
            rate: 8000, kinds: [:], shape: .sine),
        Case(
            name: "a one-frame outro", phases: [("inhale", 2 * s), ("hold", 3 * s)], cycles: 2, intro: 1 * s, outro: s / 8000, rate: 8000, kinds: [:],
            shape: .sine),
    ]

    static func check(_ t: Timeline, _ env: BreathEnvelope, _ ref: EnvelopeReference) {
        let levels = ref.levels
        for f in ref.probes {
            let (got, want) = (env.value(atFrame: f), ref.value(f, levels: levels))
            #expect(abs(got - want) < 1e-12, "frame \(f): E \(got), expected \(want)")
            #expect(got >= 0 && got <= 1)
            // half frames and thirds, as the haptic steps ask
            for (num, den) in [(2 * f + 1, Int64(2)), (3 * f + 2, Int64(3))] where num < t.totalFrames * den {
                let (g, w) = (env.value(atFrame: num, over: den), ref.value(num, over: den, levels: levels))
                #expect(abs(g - w) < 1e-12, "frame \(num)/\(den): E \(g), expected \(w)")
                #expect(abs(env.value(atFractionalFrame: Double(num) / Double(den)) - w) < 1e-9)
            }
        }
    }

    @Test("E against the spec's formula at every boundary and inside every phase", arguments: cases)
    func againstReference(_ c: Case) throws {
        let t = try Timeline(
            recipe: recipe(phases: c.phases, length: .cycles(c.cycles), intro: c.intro, outro: c.outro, rate: c.rate))
        let env = BreathEnvelope(timeline: t, guide: BreathGuideSettings(kinds: c.kinds, shape: c.shape))
        let ref = EnvelopeReference(t, kinds: c.kinds.mapValues(\.rawValue), linear: c.shape == .linear)
        Self.check(t, env, ref)
        // the pieces tile the file
        #expect(env.pieces.first?.start == 0 && env.pieces.last?.end == t.totalFrames)
        for (p, q) in zip(env.pieces, env.pieces.dropFirst()) { #expect(p.end == q.start && p.end > p.start) }
        // the block fill, in odd blocks across every boundary, equals E frame by frame
        var filled: [Float] = []
        var buffer = [Float](repeating: -1, count: 4099)
        var frame: Int64 = 0
        while frame < t.totalFrames {
            let n = Int(min(Int64(buffer.count), t.totalFrames - frame))
            env.fill(&buffer, from: frame, count: n)
            filled.append(contentsOf: buffer[0..<n])
            frame += Int64(n)
        }
        var worst = 0.0
        let levels = ref.levels
        for f in stride(from: 0, to: Int(t.totalFrames), by: 1) { worst = max(worst, abs(Double(filled[f]) - ref.value(Int64(f), levels: levels))) }
        #expect(worst < 1e-6, "fill differs from E by \(worst)")
    }

    @Test("box breathing: 0 in the intro, full on the hold after the inhale, empty after the exhale, the outro's 2 s fall")
    func boxValues() throws {
        let t = try Timeline(recipe: recipe(phases: Self.box, length: .cycles(2), intro: 10 * Self.s, outro: 30 * Self.s))
        let env = BreathEnvelope(timeline: t, guide: .defaults)
        let r = 48000 as Int64
        #expect(env.value(atFrame: 0) == 0 && env.value(atFrame: 10 * r - 1) == 0)
        #expect(env.value(atFrame: 10 * r) == 0)
        #expect(abs(env.value(atFrame: 12 * r) - 0.5) < 1e-15)  // the inhale's middle
        #expect(env.value(atFrame: 14 * r) == 1 && env.value(atFrame: 18 * r - 1) == 1)  // the hold after it
        #expect(abs(env.value(atFrame: 20 * r) - 0.5) < 1e-15)
        #expect(env.value(atFrame: 22 * r) == 0 && env.value(atFrame: 26 * r - 1) == 0)
        // the second cycle's last hold is empty, so the outro falls from 0 over 2 s: a moving span where E stays 0
        let o = 10 * r + 32 * r
        #expect(t.section(.outro)?.startFrame == o)
        #expect(env.movingSpans.last == BreathEnvelope.Piece(start: o, end: o + 2 * r, a: 0, b: 0, moving: true))
        #expect(env.value(atFrame: o + r) == 0 && env.value(atFrame: t.totalFrames - 1) == 0)
        // moving spans: 2 inhales, 2 exhales, the outro's fall
        #expect(env.movingSpans.count == 5)
    }

    @Test("the outro falls from where the last phase left the breath, over the whole outro when it is shorter than 2 s")
    func outroFall() throws {
        let r = 48000 as Int64
        // ends on the inhale's hold (full): the outro of 1.5 s falls from 1 to 0 over all of it
        let t = try Timeline(recipe: recipe(phases: [("inhale", 4 * Self.s), ("hold", 2 * Self.s)], length: .cycles(1), outro: 1_500_000_000))
        let env = BreathEnvelope(timeline: t, guide: .defaults)
        let o = 6 * r
        #expect(env.movingSpans.last == BreathEnvelope.Piece(start: o, end: o + 72000, a: 1, b: 0, moving: true))
        #expect(env.value(atFrame: o) == 1)
        #expect(abs(env.value(atFrame: o + 36000) - 0.5) < 1e-15)
        #expect(env.value(atFrame: t.totalFrames - 1) > 0)  // still falling at the last frame
        // a 10 s outro: 2 s of fall, then 0
        let long = try Timeline(recipe: recipe(phases: [("inhale", 4 * Self.s), ("hold", 2 * Self.s)], length: .cycles(1), outro: 10 * Self.s))
        let e2 = BreathEnvelope(timeline: long, guide: BreathGuideSettings(shape: .linear))
        #expect(abs(e2.value(atFrame: o + r) - 0.5) < 1e-15)
        #expect(e2.value(atFrame: o + 2 * r - 1) > 0 && e2.value(atFrame: o + 2 * r) == 0 && e2.value(atFrame: long.totalFrames - 1) == 0)
    }

    @Test("a program's transition falls by default, and from where the segment before left the breath")
    func programTransition() throws {
        let t = try Timeline(
            recipe: Self.load(
                """
                intro: 5s
                program:
                  - { pattern: box, cycles: 2 }
                  - { pattern: coherent, duration: 1m }
                  - { pattern: 4-7-8, cycles: 2 }
                outro: 3s

                """))
        let transition = try #require(t.phases.first { $0.kind == Segment.transitionKind })
        let env = BreathEnvelope(timeline: t, guide: .defaults)
        #expect(env.movingSpans.contains { $0.start == transition.startFrame && $0.end == transition.endFrame })
        Self.check(t, env, EnvelopeReference(t))
        // coherent breathing ends on an exhale, so the transition falls from 0; with `exhale: hold` it falls from 1
        #expect(t.phases[transition.index - 1].kind == "exhale")
        let risen = BreathEnvelope(timeline: t, guide: BreathGuideSettings(kinds: ["exhale": .hold]))
        #expect(env.value(atFrame: transition.startFrame) == 0)
        #expect(risen.value(atFrame: transition.startFrame) == 1)
        let middle = (transition.startFrame + transition.endFrame) / 2
        #expect(risen.value(atFrame: middle) > 0.4 && risen.value(atFrame: middle) < 0.6)
        Self.check(t, risen, EnvelopeReference(t, kinds: ["exhale": "hold"]))
        Self.check(
            t, BreathEnvelope(timeline: t, guide: BreathGuideSettings(kinds: ["transition": .rise], shape: .linear)),
            EnvelopeReference(t, kinds: ["transition": "rise"], linear: true))
    }

    @Test("a ramped segment's phases of changing lengths")
    func ramped() throws {
        let t = try Timeline(
            recipe: Self.load(
                """
                pattern: coherent
                cycles: 20
                ramp: { to: 4.5 bpm, over: 10 cycles }
                intro: 3s
                outro: 10s

                """))
        Self.check(t, BreathEnvelope(timeline: t, guide: .defaults), EnvelopeReference(t))
    }

    @Test("defaults: inhale rises, exhale and transition fall, other kinds hold; `guide:` overrides")
    func defaults() {
        #expect(BreathGuide.defaultGuide(for: "inhale") == .rise)
        #expect(BreathGuide.defaultGuide(for: "exhale") == .fall)
        #expect(BreathGuide.defaultGuide(for: "transition") == .fall)
        for kind in ["hold", "rest", "work", "break", "sip", "Inhale"] { #expect(BreathGuide.defaultGuide(for: kind) == .hold) }
        #expect(BreathGuideSettings(kinds: ["inhale": .none]).guide(for: "inhale") == .none)
        #expect(BreathGuideSettings.defaults.shape == .sine)
        #expect(abs(BreathShape.sine.weight(0.5) - 0.5) < 1e-15 && BreathShape.sine.weight(1) == 1 && BreathShape.sine.weight(0) == 0)
        #expect(abs(BreathShape.sine.weight(0.25) - (2 - 2.0.squareRoot()) / 4) < 1e-15)
        #expect(BreathShape.linear.weight(0.25) == 0.25)
    }

    @Test("E ten hours in: the same value a phase has in the first cycle (nothing accumulates)")
    func tenHours() throws {
        let t = try Timeline(
            recipe: recipe(
                phases: [("inhale", 5_500_000_000), ("exhale", 5_500_000_000)], length: .duration(ExactSeconds(seconds: 36000)), rate: 44100))
        let env = BreathEnvelope(timeline: t, guide: .defaults)
        let first = t.phases[0]
        let late = t.phases[t.phases.count - 2]
        #expect(late.kind == "inhale")
        for k: Int64 in [0, 1, 12345, 121_275, 242_549] {
            #expect(env.value(atFrame: late.startFrame + k) == env.value(atFrame: first.startFrame + k))
        }
        Self.check(t, env, EnvelopeReference(t))
    }
}
