import AudioCore
import Recipe
import TestKit
import Testing

@testable import Timeline

// MARK: - An independent reference for programs and ramps

/// An exact rational number over Int128, always in lowest terms with a positive denominator.
/// Overflow traps, so a case the reference cannot hold fails loudly rather than wrongly.
struct Ratio: Equatable, Comparable, CustomStringConvertible {
    let n: Int128
    let d: Int128

    init(_ n: Int128, _ d: Int128 = 1) {
        precondition(d != 0)
        let g = Ratio.gcd(n, d)
        let sign: Int128 = d < 0 ? -1 : 1
        self.n = sign * n / g
        self.d = sign * d / g
    }

    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a < 0 ? -a : a, b < 0 ? -b : b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }

    static func + (a: Ratio, b: Ratio) -> Ratio {
        let g = gcd(a.d, b.d)
        return Ratio(a.n * (b.d / g) + b.n * (a.d / g), a.d / g * b.d)
    }
    static func - (a: Ratio, b: Ratio) -> Ratio { a + Ratio(-b.n, b.d) }
    static func * (a: Ratio, b: Ratio) -> Ratio {
        let g1 = gcd(a.n, b.d), g2 = gcd(b.n, a.d)
        return Ratio((a.n / g1) * (b.n / g2), (a.d / g2) * (b.d / g1))
    }
    static func / (a: Ratio, b: Ratio) -> Ratio {
        precondition(b.n != 0)
        return a * Ratio(b.d, b.n)
    }
    static func < (a: Ratio, b: Ratio) -> Bool { (a - b).n < 0 }

    /// floor(self + 1/2): the spec's "nearest, halves up".
    var roundedHalfUp: Int128 {
        let num = 2 * n + d, den = 2 * d
        var q = num / den
        if num % den != 0 && num < 0 { q -= 1 }
        return q
    }

    var description: String { "\(n)/\(d)" }
}

/// recipe-v1's rule: a boundary at exact time T (nanoseconds) starts at frame floor(T × rate + 1/2).
func referenceFrame(_ nanoseconds: Int128, _ rate: Int) -> Int64 {
    Int64((Ratio(nanoseconds * Int128(rate), 1_000_000_000)).roundedHalfUp)
}

/// Programs and ramps laid out from the spec's words alone (recipe-v1.1 § Programs, § Ramps), in
/// nanoseconds and rationals, sharing nothing with `PracticeLayout` or `RampedLengths`.
enum ProgramReference {
    struct Phase {
        var kind: String
        var label: String
        var nanoseconds: Int64
    }

    struct Segment {
        var name: String
        var phases: [Phase]
        /// Exactly one of `cycles` and `duration`.
        var cycles: Int?
        var duration: Int64?
        var endOnPhase = false
        /// The target in millionths of a bpm and `over` as written (nil: cycles − 1).
        var rampTo: Int64?
        var rampOver: Int?

        var cycleNanoseconds: Int64 { phases.reduce(0) { $0 + $1.nanoseconds } }
    }

    struct Recipe {
        var intro: Int64 = 0
        var outro: Int64 = 0
        /// The top-level `duration`.
        var duration: Int64?
        /// false: one top-level pattern (v1: its duration is the file's, the practice's time left goes to the outro).
        var isProgram = true
        var segments: [Segment]
        var rate = 48000
    }

    struct Span: Equatable, CustomStringConvertible {
        var segment: Int
        var cycle: Int
        var kind: String
        var label: String
        var start: Int128
        var end: Int128
        var description: String { "seg \(segment) cycle \(cycle) \(kind) '\(label)' [\(start), \(end)) ns" }
    }

    struct SegmentSpan {
        var start: Int128
        var end: Int128
        var wholeCycles: Int
        /// from (millionths of a bpm, rounded half up), to, over.
        var ramp: (Int64, Int64, Int)?
    }

    struct Layout {
        var spans: [Span]
        var segments: [SegmentSpan]
        var practiceEnd: Int128
        var duration: Int128
    }

    enum Outcome {
        case laidOut(Layout)
        /// `over` is more than the whole cycles a duration segment holds: an error at `program.N.ramp.over`.
        case overTooLong(segment: Int)
        /// The program with intro and outro is longer than the top-level duration, by this much.
        case doesNotFit(by: Int128)
    }

    /// One phase's length in cycle k: L × r0 / r_k, r0 = 60 / C, r_k = r0 + (r1 − r0) × min(k, N) / N,
    /// rounded to the nearest millisecond, halves up; in nanoseconds.
    static func rampedLength(_ length: Int64, cycle: Int64, to microBPM: Int64, over: Int, k: Int) -> Int64 {
        let r0 = Ratio(60) / Ratio(Int128(cycle), 1_000_000_000)
        let r1 = Ratio(Int128(microBPM), 1_000_000)
        let rk = r0 + (r1 - r0) * Ratio(Int128(min(k, over)), Int128(over))
        let seconds = Ratio(Int128(length), 1_000_000_000) * r0 / rk
        let milliseconds = (seconds * Ratio(1000)).roundedHalfUp
        return Int64(milliseconds * 1_000_000)
    }

    /// 60 / C in millionths of a bpm, rounded half up.
    static func microBPM(cycle: Int64) -> Int64 {
        Int64((Ratio(60_000_000) / Ratio(Int128(cycle), 1_000_000_000)).roundedHalfUp)
    }

    static func layout(_ recipe: Recipe) -> Outcome {
        var spans: [Span] = []
        var segments: [SegmentSpan] = []
        var time: Int128 = 0  // from the practice's start
        for (index, segment) in recipe.segments.enumerated() {
            var over: Int?
            if let _ = segment.rampTo { over = segment.rampOver ?? segment.cycles.map { $0 - 1 } }
            var cache: [Int: [Int64]] = [:]
            func lengths(_ k: Int) -> [Int64] {
                guard let to = segment.rampTo, let over else { return segment.phases.map(\.nanoseconds) }
                let m = min(k, over)
                if let hit = cache[m] { return hit }
                let made = segment.phases.map { rampedLength($0.nanoseconds, cycle: segment.cycleNanoseconds, to: to, over: over, k: m) }
                cache[m] = made
                return made
            }
            func add(_ cycle: Int, _ lengths: [Int64]) {
                for (position, length) in lengths.enumerated() {
                    let phase = segment.phases[position]
                    spans.append(Span(segment: index, cycle: cycle, kind: phase.kind, label: phase.label, start: time, end: time + Int128(length)))
                    time += Int128(length)
                }
            }
            let start = time
            var whole = 0
            if let n = segment.cycles {
                for k in 0..<n { add(k, lengths(k)) }
                whole = n
            } else if let d = segment.duration {
                let room = recipe.isProgram ? Int128(d) : Int128(d) - Int128(recipe.intro) - Int128(recipe.outro)
                let end = start + room
                while true {
                    let cycle = lengths(whole)
                    let total = cycle.reduce(Int128(0)) { $0 + Int128($1) }
                    if time + total <= end {
                        add(whole, cycle)
                        whole += 1
                        continue
                    }
                    if segment.endOnPhase {
                        // whole phases in order, up to the first that does not fit
                        var fit: [Int64] = []
                        var at = time
                        for length in cycle {
                            if at + Int128(length) > end { break }
                            fit.append(length)
                            at += Int128(length)
                        }
                        add(whole, fit)
                    }
                    break
                }
                if recipe.isProgram && time < end {
                    spans.append(Span(segment: index, cycle: whole, kind: "transition", label: "Transition", start: time, end: end))
                    time = end
                }
            }
            var ramp: (Int64, Int64, Int)?
            if let to = segment.rampTo, let over {
                if segment.duration != nil && over > whole { return .overTooLong(segment: index) }
                ramp = (microBPM(cycle: segment.cycleNanoseconds), to, over)
            }
            segments.append(SegmentSpan(start: start, end: time, wholeCycles: whole, ramp: ramp))
        }
        let intro = Int128(recipe.intro)
        let practiceEnd = intro + time
        var duration = practiceEnd + Int128(recipe.outro)
        if let total = recipe.duration.map { Int128($0) } {
            if recipe.isProgram && duration > total { return .doesNotFit(by: duration - total) }
            duration = total
        }
        // spans are relative to the practice; make them the file's
        for i in spans.indices {
            spans[i].start += intro
            spans[i].end += intro
        }
        // a transition of no frame holds nothing to hear or show (the frames still tile without it)
        spans.removeAll { $0.kind == "transition" && referenceFrame($0.start, recipe.rate) == referenceFrame($0.end, recipe.rate) }
        for i in segments.indices {
            segments[i].start += intro
            segments[i].end += intro
        }
        return .laidOut(Layout(spans: spans, segments: segments, practiceEnd: practiceEnd, duration: duration))
    }

    /// Compares a timeline with the reference layout: every phase (segment, cycle, kind, label,
    /// exact start and end, frames, index), every section (kind, segment, name, exact times,
    /// frames, ramp), the segment starts and the file's length. Records the first few differences
    /// as issues and returns how many there were.
    @discardableResult
    static func check(
        _ timeline: Timeline, against layout: Layout, recipe: Recipe, context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Int {
        var differences: [String] = []
        func differ(_ what: String) { differences.append(what) }
        let rate = recipe.rate
        if timeline.sampleRate != rate { differ("rate \(timeline.sampleRate), expected \(rate)") }
        if Int128(timeline.duration.nanoseconds) != layout.duration { differ("duration \(timeline.duration), expected \(layout.duration) ns") }
        if timeline.totalFrames != referenceFrame(layout.duration, rate) {
            differ("totalFrames \(timeline.totalFrames), expected \(referenceFrame(layout.duration, rate))")
        }
        if timeline.phases.count != layout.spans.count { differ("\(timeline.phases.count) phases, expected \(layout.spans.count)") }
        for (i, (got, want)) in zip(timeline.phases, layout.spans).enumerated() {
            let same =
                got.index == i && got.segment == want.segment && got.cycle == want.cycle && got.kind == want.kind && got.label == want.label
                && Int128(got.start.nanoseconds) == want.start && Int128(got.end.nanoseconds) == want.end
                && got.startFrame == referenceFrame(want.start, rate) && got.endFrame == referenceFrame(want.end, rate)
                && Int128(got.length.nanoseconds) == want.end - want.start
            if !same {
                differ(
                    "phase \(i): got index \(got.index) seg \(got.segment) cycle \(got.cycle) \(got.kind) '\(got.label)' "
                        + "[\(got.start.nanoseconds), \(got.end.nanoseconds)) frames [\(got.startFrame), \(got.endFrame)); "
                        + "expected \(want) frames [\(referenceFrame(want.start, rate)), \(referenceFrame(want.end, rate)))")
                if differences.count > 5 { break }
            }
        }
        // frames tile: each phase starts on the frame the one before ends
        for (a, b) in zip(timeline.phases, timeline.phases.dropFirst()) where a.endFrame != b.startFrame {
            differ("phase \(b.index) starts at frame \(b.startFrame), phase \(a.index) ends at \(a.endFrame)")
            break
        }
        // sections: intro (when it has frames), one practice per segment, outro (when it has frames)
        var want: [(SectionKind, Int?, String?, Int128, Int128, (Int64, Int64, Int)?)] = []
        let intro = Int128(recipe.intro)
        if referenceFrame(intro, rate) > 0 { want.append((.intro, nil, nil, 0, intro, nil)) }
        for (index, segment) in layout.segments.enumerated() {
            want.append((.practice, index, recipe.segments[index].name, segment.start, segment.end, segment.ramp))
        }
        if referenceFrame(layout.duration, rate) > referenceFrame(layout.practiceEnd, rate) {
            want.append((.outro, nil, nil, layout.practiceEnd, layout.duration, nil))
        }
        if timeline.sections.count != want.count {
            differ("sections \(timeline.sections.map { "\($0.kind)" }), expected \(want.map { "\($0.0)" })")
        }
        for (got, w) in zip(timeline.sections, want) {
            let rampMatches: Bool
            switch (got.ramp, w.5) {
            case (nil, nil): rampMatches = true
            case (let g?, let e?): rampMatches = g.fromMicroBPM == e.0 && g.toMicroBPM == e.1 && g.over == e.2
            default: rampMatches = false
            }
            let same =
                got.kind == w.0 && got.segment == w.1 && got.name == w.2 && Int128(got.start.nanoseconds) == w.3
                && Int128(got.end.nanoseconds) == w.4 && got.startFrame == referenceFrame(w.3, rate) && got.endFrame == referenceFrame(w.4, rate)
                && rampMatches
            if !same {
                differ(
                    "section \(got.kind) seg \(String(describing: got.segment)) '\(got.name ?? "")' [\(got.start.nanoseconds), \(got.end.nanoseconds)) "
                        + "frames [\(got.startFrame), \(got.endFrame)) ramp \(String(describing: got.ramp)); expected \(w.0) seg \(String(describing: w.1)) "
                        + "'\(w.2 ?? "")' [\(w.3), \(w.4)) frames [\(referenceFrame(w.3, rate)), \(referenceFrame(w.4, rate))) ramp \(String(describing: w.5))"
                )
            }
        }
        let starts = timeline.segmentStarts.map { Int128($0.nanoseconds) }
        if starts != layout.segments.map(\.start) { differ("segment starts \(starts), expected \(layout.segments.map(\.start))") }
        let whole = layout.segments.reduce(0) { $0 + $1.wholeCycles }
        if timeline.wholeCycles != whole { differ("whole cycles \(timeline.wholeCycles), expected \(whole)") }
        for difference in differences.prefix(8) {
            Issue.record("\(context): \(difference)", sourceLocation: sourceLocation)
        }
        return differences.count
    }
}

// MARK: - YAML for a reference recipe

/// Exact decimal seconds, as an author would write them: `12.5s`, `0.000123s`, `7s`.
func secondsText(_ nanoseconds: Int64) -> String {
    let whole = nanoseconds / 1_000_000_000
    var fraction = String(nanoseconds % 1_000_000_000)
    guard fraction != "0" else { return "\(whole)s" }
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction)s"
}

/// Millionths of a bpm as text: `4.5 bpm`, `12.003 bpm`, `60 bpm`.
func bpmText(_ micro: Int64) -> String {
    let whole = micro / 1_000_000
    var fraction = String(micro % 1_000_000)
    guard fraction != "0" else { return "\(whole) bpm" }
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(whole).\(fraction) bpm"
}

extension ProgramReference.Recipe {
    /// The recipe as YAML text (a `program:` list, or a top-level pattern with its ramp).
    var yaml: String {
        var text = "id: ramp\ntitle: Ramp\nintro: \(secondsText(intro))\noutro: \(secondsText(outro))\n"
        text += "output: { sample_rate: \(rate) }\n"
        if let duration { text += "duration: \(secondsText(duration))\n" }
        func patternText(_ s: ProgramReference.Segment, _ index: Int) -> String {
            let phases = s.phases.map { "{ kind: \($0.kind), length: \(secondsText($0.nanoseconds)), label: \($0.label) }" }
            return "{ name: \(s.name), phases: [ \(phases.joined(separator: ", ")) ] }"
        }
        func rampText(_ s: ProgramReference.Segment) -> String? {
            guard let to = s.rampTo else { return nil }
            return "{ to: \(bpmText(to))" + (s.rampOver.map { ", over: \($0) cycle\($0 == 1 ? "" : "s")" } ?? "") + " }"
        }
        if isProgram {
            text += "program:\n"
            for (index, s) in segments.enumerated() {
                text += "  - pattern: \(patternText(s, index))\n"
                if let cycles = s.cycles { text += "    cycles: \(cycles)\n" }
                if let d = s.duration { text += "    duration: \(secondsText(d))\n" }
                if s.endOnPhase { text += "    end_on: phase\n" }
                if let ramp = rampText(s) { text += "    ramp: \(ramp)\n" }
            }
        } else {
            let s = segments[0]
            text += "pattern: \(patternText(s, 0))\n"
            if let cycles = s.cycles { text += "cycles: \(cycles)\n" }
            if s.endOnPhase { text += "end_on: phase\n" }
            if let ramp = rampText(s) { text += "ramp: \(ramp)\n" }
        }
        return text
    }
}

// MARK: - Tests

/// Ramps (recipe-v1.1 § Ramps): each phase of cycle k lasts L × r0 / r_k rounded to the millisecond,
/// boundaries are the exact sums, frames follow the v1 rule; checked against `ProgramReference`.
@Suite struct RampTests: RecipeBodies {
    static let head = "id: r\ntitle: R\n"
    static let file = "r.yml"

    static let coherent = [
        ProgramReference.Phase(kind: "inhale", label: "Breathe In", nanoseconds: 5_500_000_000),
        ProgramReference.Phase(kind: "exhale", label: "Breathe Out", nanoseconds: 5_500_000_000),
    ]

    @Test("coherent ramped to 4.5 bpm over 10 of 20 cycles: cycle 0 at 5.5 s, cycles 10 on at 6.667 s, the section's rates")
    func coherentOverTen() throws {
        let t = try Timeline(recipe: Self.load("pattern: coherent\ncycles: 20\nramp: { to: 4.5 bpm, over: 10 cycles }\n"))
        #expect(t.phases.count == 40)
        // cycle 0 runs at the pattern's own rate
        #expect(t.phases.prefix(2).map(\.length) == [ExactSeconds(nanoseconds: 5_500_000_000), ExactSeconds(nanoseconds: 5_500_000_000)])
        // 5.5 × (60 / 11) / 4.5 = 6.6666… → 6.667 s from cycle 10 on
        for phase in t.phases where phase.cycle >= 10 {
            #expect(phase.length == ExactSeconds(nanoseconds: 6_667_000_000), "cycle \(phase.cycle)")
        }
        // in between, strictly longer each cycle, below the target's length
        let inhales = t.phases.filter { $0.kind == "inhale" }.map(\.length.nanoseconds)
        for k in 1...10 { #expect(inhales[k] > inhales[k - 1], "cycle \(k)") }
        // cycle 5: r5 = 60/11 + (4.5 − 60/11)/2 = 4.97727… bpm; 5.5 × (60/11) / r5 = 6.0274 → 6.027 s
        #expect(inhales[5] == 6_027_000_000)
        let practice = try #require(t.section(.practice))
        #expect(practice.segment == 0)
        #expect(practice.ramp == SectionRamp(fromMicroBPM: 5_454_545, toMicroBPM: 4_500_000, over: 10))
        let reference = ProgramReference.Recipe(
            isProgram: false,
            segments: [.init(name: "Coherent Breathing", phases: Self.coherent, cycles: 20, rampTo: 4_500_000, rampOver: 10)])
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        ProgramReference.check(t, against: layout, recipe: reference, context: "coherent over 10")
        // the exact end is the sum of the rounded lengths: 2 × (5.5 + Σ cycles 1…9 + 10 × 6.667)
        #expect(t.duration.nanoseconds == 2 * inhales.reduce(0, +))
    }

    @Test("without 'over', a segment of cycles ramps over cycles − 1: the last cycle is at the target, the one before is not")
    func defaultOver() throws {
        let t = try Timeline(recipe: Self.load("pattern: coherent\ncycles: 20\nramp: { to: 4.5 bpm }\n"))
        #expect(t.section(.practice)?.ramp?.over == 19)
        let inhales = t.phases.filter { $0.kind == "inhale" }.map(\.length.nanoseconds)
        #expect(inhales[19] == 6_667_000_000)
        #expect(inhales[18] < 6_667_000_000)
        #expect(inhales[10] < 6_667_000_000)
        let reference = ProgramReference.Recipe(
            isProgram: false, segments: [.init(name: "Coherent Breathing", phases: Self.coherent, cycles: 20, rampTo: 4_500_000)])
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        ProgramReference.check(t, against: layout, recipe: reference, context: "default over")
        // the same in a program segment
        let p = try Timeline(recipe: Self.load("program:\n  - { pattern: coherent, cycles: 20, ramp: { to: 4.5 bpm } }\n"))
        #expect(p.practiceSections.first?.ramp?.over == 19)
        #expect(p.phases.map(\.length) == t.phases.map(\.length))
    }

    @Test("each ramped length is rounded to the millisecond with halves up, once, from the exact rational")
    func halvesRoundUp() throws {
        // C = 2.0005 + 1.9995 = 4 s (15 bpm); to 7.5 bpm over 1 cycle: cycle 1 doubles every length exactly.
        // Cycle 0: 2.0005 → 2.001, 1.9995 → 2.000 (halves up); cycle 1 on: 4.001, 3.999 (exact, no rounding)
        let t = try Timeline(
            recipe: Self.load(
                "pattern: { name: H, phases: [ { kind: inhale, length: 2.0005s }, { kind: exhale, length: 1.9995s } ] }\ncycles: 3\nramp: { to: 7.5 bpm, over: 1 cycle }\n"
            ))
        #expect(t.phases.map(\.length.nanoseconds) == [2_001_000_000, 2_000_000_000, 4_001_000_000, 3_999_000_000, 4_001_000_000, 3_999_000_000])
        #expect(t.section(.practice)?.ramp == SectionRamp(fromMicroBPM: 15_000_000, toMicroBPM: 7_500_000, over: 1))
        // from_bpm is 60 / C rounded to 6 decimals, halves up: C = 7 s → 8.571428|57… → 8.571429
        #expect(ProgramReference.microBPM(cycle: 7_000_000_000) == 8_571_429)
        let seven = try Timeline(
            recipe: Self.load(
                "pattern: { name: S, phases: [ { kind: inhale, length: 3s }, { kind: exhale, length: 4s } ] }\ncycles: 2\nramp: { to: 6 bpm }\n"))
        #expect(seven.section(.practice)?.ramp?.fromMicroBPM == 8_571_429)
        // C = 6.4 s: 9.375 exactly
        let exact = try Timeline(
            recipe: Self.load(
                "pattern: { name: S, phases: [ { kind: inhale, length: 3.2s }, { kind: exhale, length: 3.2s } ] }\ncycles: 2\nramp: { to: 6 bpm }\n"))
        #expect(exact.section(.practice)?.ramp?.fromMicroBPM == 9_375_000)
    }

    @Test("a top-level ramp with a duration: whole ramped cycles fit, no transition, the outro gets the time left over")
    func topLevelRampWithDuration() throws {
        let body = "pattern: coherent\nduration: 10m\nintro: 10s\noutro: 5s\nramp: { to: 4.5 bpm, over: 10 cycles }\noutput: { sample_rate: 44100 }\n"
        let t = try Timeline(recipe: Self.load(body))
        #expect(!t.phases.contains { $0.kind == "transition" })
        let reference = ProgramReference.Recipe(
            intro: 10_000_000_000, outro: 5_000_000_000, duration: 600_000_000_000, isProgram: false,
            segments: [.init(name: "Coherent Breathing", phases: Self.coherent, duration: 600_000_000_000, rampTo: 4_500_000, rampOver: 10)],
            rate: 44100)
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        ProgramReference.check(t, against: layout, recipe: reference, context: "top-level ramp, duration")
        #expect(t.totalFrames == 600 * 44100)
        // the outro is at least its 5 s and shorter than one more target-rate cycle after that
        let outro = try #require(t.section(.outro))
        #expect(outro.end - outro.start >= ExactSeconds(seconds: 5))
        #expect(outro.end - outro.start < ExactSeconds(nanoseconds: 5_000_000_000 + 2 * 6_667_000_000))
        // with a duration, 'over' is required
        let missing = Self.failures("pattern: coherent\nduration: 10m\nramp: { to: 4.5 bpm }\n")
        let at = Self.position(of: "{ to", in: "pattern: coherent\nduration: 10m\nramp: { to: 4.5 bpm }\n")
        let match = missing.first { $0.message.contains("over") }
        #expect(match?.location?.line == at.line && match?.location?.column == at.column, "\(missing)")
    }

    @Test(
        "a ramp that makes a phase round to 0 ms is refused at the ramp's 'to'",
        arguments: [
            "pattern: { name: Fast, phases: [ { kind: inhale, length: 20s }, { kind: exhale, length: 1ms } ] }\ncycles: 3\nramp: { to: 60 bpm }\n",
            "program:\n  - { pattern: box, cycles: 2 }\n  - pattern: { name: Fast, phases: [ { kind: inhale, length: 20s }, { kind: exhale, length: 1ms } ] }\n    cycles: 3\n    ramp: { to: 60 bpm, over: 2 cycles }\n",
        ])
    func roundsToNothing(body: String) {
        // r0 = 60 / 20.001 ≈ 3 bpm; cycle 1 at ≈ 31.5 bpm makes the 1 ms exhale ≈ 0.095 ms → 0 ms
        #expect(ProgramReference.rampedLength(1_000_000, cycle: 20_001_000_000, to: 60_000_000, over: 2, k: 1) == 0)
        let found = Self.failures(body)
        let at = Self.position(of: "60 bpm", in: body)
        #expect(found.count == 1, "\(found)")
        let first = found.first
        #expect(first?.message.contains("ramp.to") == true, "\(found)")
        #expect(first?.message.contains("0 ms") == true, "\(found)")
        #expect(first?.location?.file == "r.yml")
        #expect(first?.location?.line == at.line && first?.location?.column == at.column, "\(found), expected \(at)")
    }

    @Test("a duration segment whose whole cycles are fewer than 'over' is refused at 'over'")
    func overPastTheWholeCycles() {
        // box slowed toward 3 bpm: 60 s holds at most 3 cycles, never 10
        let body = "program:\n  - { pattern: box, cycles: 1 }\n  - { pattern: box, duration: 1m, ramp: { to: 3 bpm, over: 10 cycles } }\n"
        let found = Self.failures(body)
        let at = Self.position(of: "10 cycles", in: body)
        let match = found.first { $0.message.contains("program.1.ramp.over") }
        #expect(match != nil, "\(found)")
        #expect(match?.location?.line == at.line && match?.location?.column == at.column, "\(found)")
    }

    @Test("ten hours of ramped program at 96 kHz: the last boundaries are where the exact sums put them")
    func tenHours() throws {
        let body = """
            intro: 12.3456789s
            program:
              - { pattern: coherent, duration: 5h, ramp: { to: 4.5 bpm, over: 600 cycles } }
              - { pattern: 4-7-8, cycles: 300, ramp: { to: 2.125 bpm } }
              - { pattern: box, duration: 2h30m, end_on: phase, ramp: { to: 6.789 bpm, over: 12 cycles } }
            outro: 7.654321s
            duration: 10h
            output: { sample_rate: 96000 }

            """
        let t = try Timeline(recipe: Self.load(body))
        let fourSevenEight: [(String, String, Int64)] = [("inhale", "Breathe In", 4), ("hold", "Hold", 7), ("exhale", "Breathe Out", 8)]
        let box: [(String, String, Int64)] = [("inhale", "Breathe In", 4), ("hold", "Hold", 4), ("exhale", "Breathe Out", 4), ("hold", "Hold", 4)]
        func phases(_ spec: [(String, String, Int64)]) -> [ProgramReference.Phase] {
            spec.map { ProgramReference.Phase(kind: $0.0, label: $0.1, nanoseconds: $0.2 * 1_000_000_000) }
        }
        let reference = ProgramReference.Recipe(
            intro: 12_345_678_900, outro: 7_654_321_000, duration: 36_000_000_000_000,
            segments: [
                .init(name: "Coherent Breathing", phases: Self.coherent, duration: 18_000_000_000_000, rampTo: 4_500_000, rampOver: 600),
                .init(name: "4-7-8 Breathing", phases: phases(fourSevenEight), cycles: 300, rampTo: 2_125_000),
                .init(name: "Box Breathing", phases: phases(box), duration: 9_000_000_000_000, endOnPhase: true, rampTo: 6_789_000, rampOver: 12),
            ], rate: 96000)
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        ProgramReference.check(t, against: layout, recipe: reference, context: "ten hours")
        #expect(t.totalFrames == 36_000 * 96000)
        #expect(t.practiceSections.map { $0.ramp?.over } == [600, 299, 12])
        // 5 h + 300 cycles of 4-7-8 slowed from 60/19 to 2.125 bpm (19 s → 28.2 s, about 2 h) + 2.5 h: the outro takes the rest
        #expect(try #require(t.section(.outro)).start < ExactSeconds(seconds: 36_000))
    }

    // MARK: The property test

    static let rates = [8000, 22050, 44100, 48000, 96000]
    static let kinds = [("inhale", "Breathe In"), ("hold", "Hold"), ("exhale", "Breathe Out"), ("rest", "Rest")]

    /// A random reference recipe: 1–3 segments (or one top-level pattern), each a pattern of 1–6 phases
    /// of 0.5–20 s (in ms, or µs), a ramp to 1–60 bpm with up to 3 decimals over 1…cycles, of
    /// `cycles:` or `duration:` (with `over`), most tracks under half an hour, some up to 10 hours.
    static func randomRecipe(_ rng: inout SplitMix64) -> ProgramReference.Recipe {
        func below(_ n: UInt64) -> UInt64 { rng.next() % n }
        let isProgram = below(5) != 0
        let segmentCount = isProgram ? Int(below(3)) + 1 : 1
        let long = below(8) == 0
        // the practice's time budget, in ns: most under 30 min, some up to 10 h
        let budget: Int64 = long ? Int64(below(36_000 - 3_600) + 3_600) * 1_000_000_000 : Int64(below(1_800 - 20) + 20) * 1_000_000_000
        let share = budget / Int64(segmentCount)
        var segments: [ProgramReference.Segment] = []
        for s in 0..<segmentCount {
            let count = Int(below(6)) + 1
            let fine = below(4) == 0
            let phases = (0..<count).map { p -> ProgramReference.Phase in
                let (kind, _) = kinds[Int(below(UInt64(kinds.count)))]
                // 0.5 s … 20 s, in whole ms or (sometimes) whole µs
                let nanos: Int64 = fine ? Int64(below(19_500_001) + 500_000) * 1000 : Int64(below(19_501) + 500) * 1_000_000
                return ProgramReference.Phase(kind: kind, label: "S\(s)P\(p)", nanoseconds: nanos)
            }
            var segment = ProgramReference.Segment(name: "Seg\(s)", phases: phases)
            let c = segment.cycleNanoseconds
            let ramped = below(6) != 0
            var to: Int64 = 0
            if ramped {
                to = Int64(below(59_001) + 1_000) * 1000  // 1.000 … 60.000 bpm
                segment.rampTo = to
            }
            // the longest a ramped cycle can be: C × max(1, r0 / r1), plus the roundings
            let r0Micro = Int128(60_000_000_000_000_000) / Int128(c)
            let stretch = ramped ? max(Int128(1_000_000), r0Micro * 1_000_000 / Int128(to) + 1) : 1_000_000
            let longest = Int128(c) * stretch / 1_000_000 + Int128(count) * 1_000_000
            // at most ~6000 phases a segment (20,000 in a long track) keeps the whole suite fast in a debug build
            let cap = long ? 20_000 : 6000
            let fitting = max(1, Int(Int128(share) / longest))
            let cycles = min(fitting, cap / count + 1)
            let useDuration = isProgram ? below(2) == 0 : below(3) == 0
            if useDuration {
                // the shortest a cycle can be (a ramp that speeds up): bounds the phases a duration holds
                let shortest = max(
                    Int128(1_000_000), Int128(c) * 1_000_000 / max(1_000_000, Int128(to) * 1_000_000 / max(r0Micro, 1)) - Int128(count) * 1_000_000)
                let byPhases = Int128(cap / count) * shortest
                // at least one unramped cycle (cycle 0 is at the pattern's own rate), up to the share
                let room = max(Int128(c) + 1_000_000, min(Int128(cycles) * longest, byPhases))
                var d = Int64(Int128(c) + Int128(below(UInt64(room - Int128(c)))))
                if below(3) != 0 { d = d / 1_000_000 * 1_000_000 + 1_000_000 }  // mostly whole ms
                segment.endOnPhase = below(2) == 0
                // with no program this is the practice's room; the file's duration adds intro and outro below
                segment.duration = d
                if ramped {
                    let held = max(1, Int(Int128(d) / longest))
                    segment.rampOver = Int(below(UInt64(min(held + 1, 2000)))) + 1
                }
            } else {
                segment.cycles = max(cycles, ramped ? 2 : 1)
                if ramped && below(3) != 0 { segment.rampOver = Int(below(UInt64(segment.cycles!))) + 1 }
            }
            segments.append(segment)
        }
        var recipe = ProgramReference.Recipe(segments: segments)
        recipe.isProgram = isProgram
        recipe.rate = rates[Int(below(UInt64(rates.count)))]
        recipe.intro = below(3) == 0 ? 0 : Int64(below(30_000_000_000))
        recipe.outro = below(3) == 0 ? 0 : Int64(below(30_000_000_000))
        if !isProgram, let d = recipe.segments[0].duration {
            // v1: the file's duration; the practice fills what intro and outro leave
            let total = d + recipe.intro + recipe.outro
            recipe.segments[0].duration = total
            recipe.duration = total
        }
        return recipe
    }

    @Test("ramped programs and patterns match the rational reference: every phase, section, frame and section ramp (300 cases)")
    func randomRamps() throws {
        var rng = SplitMix64(seed: 0x5EED_0016)
        var laidOut = 0, refusedOver = 0, phases = 0, withDuration = 0, longest = ExactSeconds.zero
        var rates: Set<Int> = [], shapes: Set<String> = []
        for case_ in 0..<300 {
            var reference = Self.randomRecipe(&rng)
            // some programs get a top-level duration: the outro takes what is left
            if reference.isProgram, rng.next() % 3 == 0, case .laidOut(let first) = ProgramReference.layout(reference) {
                reference.duration = Int64(first.duration) + Int64(rng.next() % 40_000_000_000)
                withDuration += 1
            }
            let yaml = reference.yaml
            let context = "case \(case_):\n\(yaml)"
            let recipe: Recipe
            do {
                recipe = try RecipeLoader.parse(Array(yaml.utf8), file: "ramp.yml", defaultID: "ramp")
            } catch {
                Issue.record("\(context)\nrefused by the reader: \(error)")
                continue
            }
            switch ProgramReference.layout(reference) {
            case .laidOut(let layout):
                do {
                    let t = try Timeline(recipe: recipe)
                    if ProgramReference.check(t, against: layout, recipe: reference, context: context) > 0 { return }
                    laidOut += 1
                    phases += t.phases.count
                    longest = max(longest, t.duration)
                    rates.insert(t.sampleRate)
                    for s in reference.segments {
                        shapes.insert(
                            (s.cycles != nil ? "cycles" : "duration") + (s.rampTo != nil ? "+ramp" : "") + (reference.isProgram ? "" : " top-level"))
                    }
                } catch {
                    Issue.record("\(context)\nrefused: \(error)")
                    return
                }
            case .overTooLong(let segment):
                do {
                    let t = try Timeline(recipe: recipe)
                    Issue.record("\(context)\nexpected 'over' refused in segment \(segment), laid out \(t.phases.count) phases")
                    return
                } catch {
                    let key = reference.isProgram ? "program.\(segment).ramp.over" : "ramp.over"
                    #expect(error.diagnostics.contains { $0.message.hasPrefix(key) }, "\(context)\n\(error)")
                    refusedOver += 1
                }
            case .doesNotFit:
                Issue.record("\(context)\nthe generator made a program that does not fit")
            }
        }
        // the generator reached what it is meant to cover
        #expect(laidOut >= 250, "\(laidOut) laid out, \(refusedOver) refused")
        #expect(withDuration >= 20)
        #expect(phases > 100_000)
        #expect(longest > ExactSeconds(seconds: 4 * 3600), "longest track \(longest)")
        #expect(rates == Set(Self.rates))
        #expect(shapes.count == 8, "\(shapes)")
    }
}
