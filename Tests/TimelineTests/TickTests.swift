import AudioCore
import Foundation
import Recipe
import Testing

@testable import Timeline

/// The tick cue (recipe-v1.1 § Ticks): inside each ticking phase at its exact start + k × `every`,
/// k = 1, 2, … while before the phase's end, each time rounded to a frame once.
@Suite struct TickTests: RecipeBodies {
    static let head = "id: t\ntitle: T\n"
    static let file = "t.yml"

    /// The reference: for each phase of the given kinds, floor((start + k·every)·rate + 1/2) with
    /// start and every as exact fractions (nanoseconds), for k ≥ 1 while start + k·every < end.
    static func expectedTicks(_ t: Timeline, every nanoseconds: Int64, kinds: Set<String>?) -> [(phase: Int, frame: Int64)] {
        var ticks: [(Int, Int64)] = []
        let rate = Int128(t.sampleRate)
        for phase in t.phases where kinds?.contains(phase.kind) ?? true {
            var k: Int128 = 1
            while Int128(phase.start.nanoseconds) + k * Int128(nanoseconds) < Int128(phase.end.nanoseconds) {
                let time = Int128(phase.start.nanoseconds) + k * Int128(nanoseconds)
                // floor(time · rate / 1e9 + 1/2) = floor((2 · time · rate + 1e9) / 2e9)
                ticks.append((phase.index, Int64((2 * time * rate + 1_000_000_000) / 2_000_000_000)))
                k += 1
            }
        }
        return ticks
    }

    static func ticks(_ t: Timeline) -> [(phase: Int, frame: Int64)] {
        t.cues.filter { $0.name == "tick" }.map { ($0.phase, $0.frame) }
    }

    @Test(
        "tick frames equal the exact reference, for intervals that do and do not divide the phases",
        arguments: [
            ("4-7-8", "1s", 1_000_000_000, 44100, "[inhale, exhale]"),
            ("box", "1s", 1_000_000_000, 48000, nil),
            ("coherent", "0.7s", 700_000_000, 44100, "exhale"),
            ("box", "1.3s", 1_300_000_000, 22050, "[hold]"),
            ("relax", "100ms", 100_000_000, 48000, nil),
        ] as [(String, String, Int64, Int, String?)])
    func exactFrames(pattern: String, every: String, nanos: Int64, rate: Int, on: String?) throws {
        let onText = on.map { ", on: \($0)" } ?? ""
        let t = try Timeline(
            recipe: Self.load(
                "pattern: \(pattern)\nduration: 3m\nintro: 7.3s\ncues:\n  tick: { tone: 2 kHz, length: 20ms, every: \(every)\(onText) }\noutput: { sample_rate: \(rate) }\n"
            ))
        let kinds: Set<String>? = on.map {
            Set($0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        let expected = Self.expectedTicks(t, every: nanos, kinds: kinds)
        let got = Self.ticks(t)
        #expect(!expected.isEmpty)
        #expect(got.count == expected.count)
        #expect(got.map(\.frame) == expected.map(\.frame))
        #expect(got.map(\.phase) == expected.map(\.phase))
        // every tick strictly inside its phase, after the phase's own first frame
        for tick in got {
            let phase = t.phases[tick.phase]
            #expect(tick.frame > phase.startFrame && tick.frame < phase.endFrame)
            #expect(kinds?.contains(phase.kind) ?? true)
        }
        // the cue list stays in frame order
        #expect(t.cues.map(\.frame) == t.cues.map(\.frame).sorted())
    }

    @Test("a phase whose length is a whole number of intervals gets no tick on its end: box 4 s, every 1 s → 3 per phase")
    func noTickOnTheBoundary() throws {
        let t = try Timeline(recipe: Self.load("pattern: box\ncycles: 2\ncues:\n  inhale: bell\n  tick: click\n"))
        let ticks = Self.ticks(t)
        #expect(ticks.count == 8 * 3)
        #expect(ticks.prefix(3).map(\.frame) == [48000, 96000, 144000])
        #expect(t.cues.filter { $0.name == "inhale" }.map(\.frame) == [0, 768000])
        // the default: every kind, every 1 s
        #expect(Set(ticks.map { t.phases[$0.phase].kind }) == ["inhale", "hold", "exhale"])
    }

    @Test("'until:' and 'cycles:' limit the ticks like any cue")
    func limited() throws {
        let t = try Timeline(recipe: Self.load("pattern: box\nduration: 2m\ncues:\n  tick: { preset: click, until: 20s, on: inhale }\n"))
        #expect(Self.ticks(t).map(\.frame) == [48000, 96000, 144000, 816000, 864000, 912000])
        let c = try Timeline(recipe: Self.load("pattern: box\nduration: 2m\ncues:\n  tick: { preset: click, cycles: 2, on: exhale }\n"))
        #expect(Self.ticks(c).map { t.phases[$0.phase].cycle } == [1, 1, 1])
    }

    @Test("a pattern that has a phase kind 'tick' keeps it as a phase cue")
    func tickAsAPhaseKind() throws {
        let body = "pattern: { name: T, phases: [ { tick: 2s }, { exhale: 2s } ] }\ncycles: 2\ncues:\n  tick: bell\n"
        let t = try Timeline(recipe: Self.load(body))
        #expect(t.cues.filter { $0.name == "tick" }.map(\.frame) == [0, 192000])
        let every = Self.failures(body.replacing("tick: bell", with: "tick: { preset: bell, every: 1s }"))
        #expect(every.first?.message.hasPrefix("cues.tick.every: applies to the 'tick' cue only") == true)
    }

    @Test("the tick keys change the canonical text only when a tick cue is given")
    func canonicalText() throws {
        let plain = try Self.load("pattern: box\ncycles: 2\ncues:\n  inhale: bell\n").canonicalText
        #expect(!plain.contains("ticks"))
        let one = try Self.load("pattern: box\ncycles: 2\ncues:\n  inhale: bell\n  tick: click\n").canonicalText
        let two = try Self.load("pattern: box\ncycles: 2\ncues:\n  inhale: bell\n  tick: { preset: click, every: 2s }\n").canonicalText
        let three = try Self.load("pattern: box\ncycles: 2\ncues:\n  inhale: bell\n  tick: { preset: click, on: hold }\n").canonicalText
        #expect(Set([plain, one, two, three]).count == 4)
    }

    @Test(
        "bad tick keys are located errors with what was expected",
        arguments: [
            ("  tick: { preset: click, every: 50ms }", 4, 33, "cues.tick.every: expected a time between ticks of at least 100ms"),
            ("  tick: { preset: click, on: [inhale, exhail] }", 4, 39, "did you mean 'exhale'?"),
            ("  tick: { preset: click, on: sigh }", 4, 30, "the pattern's kinds: inhale, hold, exhale"),
            ("  tick: { preset: click, on: [] }", 4, 30, "to tick in every phase, leave out 'on:'"),
            ("  inhale: { preset: bell, on: hold }", 4, 27, "cues.inhale.on: applies to the 'tick' cue only"),
            ("  tick: { preset: click, every: -1s }", 4, 33, "cues.tick.every"),
            ("  tick: { preset: click, evry: 1s }", 4, 26, "did you mean 'every'?"),
        ] as [(String, Int, Int, String)])
    func badKeys(cue: String, line: Int, column: Int, words: String) {
        let found = Self.failures("pattern: box\ncycles: 2\ncues:\n\(cue)\n")
        let match = found.first { $0.message.contains(words) }
        #expect(match != nil, "\(found.map(\.description))")
        #expect(match?.location?.line == line + 2, "\(found.map(\.description))")
        #expect(match?.location?.column == column, "\(found.map(\.description))")
    }

    @Test("more than 100,000 ticks in a track is refused at 'every', before placing any, with the limit")
    func tooManyTicks() {
        // 24 h of box breathing, ticking every 100 ms in every phase: 863,999 would-be ticks
        let found = Self.failures("pattern: box\nduration: 24h\ncues:\n  tick: { preset: click, every: 100ms }\n")
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("cues.tick.every: ticks every 100ms make more than 100000 ticks") == true, "\(found)")
        #expect(found.first?.location?.line == 6)
    }

    @Test("a 24-hour session of 1-second ticks is laid out (what --check does) in well under a second")
    func dayOfTicksIsFast() throws {
        let r = try Self.load("pattern: box\nduration: 24h\ncues:\n  inhale: bell\n  tick: { preset: click, every: 1s }\n")
        let clock = ContinuousClock()
        var best = Duration.seconds(60)
        var t: Timeline?
        for _ in 0..<3 {
            best = min(best, clock.measure { t = try? Timeline(recipe: r) })
            if best < .milliseconds(500) { break }
        }
        #expect(best < .seconds(1), "took \(best)")
        // 5,400 cycles of 4 phases, 3 ticks each
        #expect(t.map(Self.ticks)?.count == 5400 * 4 * 3)
    }
}
