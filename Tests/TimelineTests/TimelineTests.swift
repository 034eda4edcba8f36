import AudioCore
import Recipe
import TestKit
import Testing

@testable import Timeline

/// A recipe built directly, without YAML.
func recipe(
    phases: [(String, Int64)], length: Length, intro: Int64 = 0, outro: Int64 = 0, endOn: EndOn = .cycle,
    rate: Int = 48000, cues: [String: CueSound] = [:]
) -> Recipe {
    let pattern = Pattern(name: "test", phases: phases.map { Phase(kind: $0.0, length: ExactSeconds(nanoseconds: $0.1), label: $0.0) })
    return Recipe(
        file: "t.yml", id: "t", title: "T", length: length, endOn: endOn, pattern: pattern,
        intro: ExactSeconds(nanoseconds: intro), outro: ExactSeconds(nanoseconds: outro),
        cues: cues, output: OutputSettings(sampleRate: rate))
}

/// floor(n/d + 1/2) for a rational n/d (d > 0), the spec's rule, by plain integer arithmetic.
func roundHalfUp(_ n: Int128, _ d: Int128) -> Int64 {
    let twice = 2 * n + d
    let den = 2 * d
    var q = twice / den
    if twice % den != 0 && twice < 0 { q -= 1 }
    return Int64(q)
}

@Suite struct BoundaryRule {
    @Test(
        arguments: [
            (0, 48000, 0), (4_000_000_000, 48000, 192_000), (10_416, 48000, 0), (10_417, 48000, 1),
            (31_250, 16000, 1), (1, 44100, 0), (5_500_000_000, 44100, 242_550), (11_337, 44100, 0), (11_338, 44100, 1),
        ] as [(Int64, Int, Int64)])
    func frameOfTime(nanoseconds: Int64, rate: Int, expected: Int64) {
        #expect(ExactSeconds(nanoseconds: nanoseconds).frame(at: rate) == expected)
    }

    @Test func halfwayRoundsUp() {
        // at 2000 Hz a frame is 500 µs: 250 µs is exactly half a frame and rounds up
        #expect(ExactSeconds(nanoseconds: 250_000).frame(at: 2000) == 1)
        #expect(ExactSeconds(nanoseconds: 249_999).frame(at: 2000) == 0)
        #expect(ExactSeconds(nanoseconds: 750_000).frame(at: 2000) == 2)
    }

    @Test func tenHoursDoNotDrift() throws {
        // coherent breathing, 5.5 s phases, 10 hours at 44.1 kHz: the last boundary is exact
        let r = recipe(phases: [("inhale", 5_500_000_000), ("exhale", 5_500_000_000)], length: .duration(ExactSeconds(seconds: 36000)), rate: 44100)
        let t = try Timeline(recipe: r)
        // 36000 s / 11 s = 3272 whole cycles
        #expect(t.phases.count == 3272 * 2)
        let last = try #require(t.phases.last)
        #expect(last.endFrame == Int64(3272 * 11 * 44100))
        #expect(t.totalFrames == 36000 * 44100)

    }
}

@Suite struct RandomPatterns {
    /// Boundaries match exact rational arithmetic for random patterns, rates and intros; phases tile the practice.
    @Test func boundariesMatchRationalArithmetic() throws {
        var rng = SplitMix64(seed: 42)
        let rates = [8000, 11025, 22050, 44100, 48000, 88200, 96000, 192000]
        for _ in 0..<300 {
            let count = Int(rng.next() % 6) + 1
            // lengths with up to 9 decimals: e.g. 0.123456789 s … 9.9 s
            let phases = (0..<count).map { k in ("p\(k)", Int64(rng.next() % 9_900_000_000) + 1_000_000) }
            let intro = Int64(rng.next() % 20_000_000_000)
            let cycles = Int(rng.next() % 40) + 1
            let rate = rates[Int(rng.next() % UInt64(rates.count))]
            let t = try Timeline(recipe: recipe(phases: phases, length: .cycles(cycles), intro: intro, outro: 1_000_000_000, rate: rate))
            #expect(t.phases.count == cycles * count)
            var exact = Int128(intro)
            for (i, span) in t.phases.enumerated() {
                #expect(span.startFrame == roundHalfUp(exact * Int128(rate), 1_000_000_000))
                exact += Int128(phases[i % count].1)
                #expect(span.endFrame == roundHalfUp(exact * Int128(rate), 1_000_000_000))
                if i > 0 { #expect(t.phases[i - 1].endFrame == span.startFrame) }
            }
            let practice = try #require(t.section(.practice))
            #expect(practice.startFrame == t.phases.first?.startFrame)
            #expect(practice.endFrame == t.phases.last?.endFrame)
            #expect(t.totalFrames == roundHalfUp((exact + 1_000_000_000) * Int128(rate), 1_000_000_000))
        }
    }
}

@Suite struct Layout {
    let box: [(String, Int64)] = [("inhale", 4_000_000_000), ("hold", 4_000_000_000), ("exhale", 4_000_000_000), ("hold", 4_000_000_000)]

    @Test func durationHoldsWholeCyclesAndLeftoverGoesToOutro() throws {
        // 5 min, intro 10 s, outro 15 s: 275 s → 17 cycles (272 s), outro 18 s
        let t = try Timeline(
            recipe: recipe(
                phases: box, length: .duration(ExactSeconds(seconds: 300)),
                intro: 10_000_000_000, outro: 15_000_000_000))
        #expect(t.phases.count == 17 * 4)
        #expect(t.totalFrames == 300 * 48000)
        #expect(t.sections.map(\.kind) == [.intro, .practice, .outro])
        #expect(try #require(t.section(.practice)).endFrame == Int64(282 * 48000))
        #expect(try #require(t.section(.outro)).startFrame == Int64(282 * 48000))
    }

    @Test func endOnPhaseAddsWholePhases() throws {
        // 30 s of box: one cycle (16 s) + inhale, hold, exhale (12 s) = 28 s; 2 s outro
        let t = try Timeline(recipe: recipe(phases: box, length: .duration(ExactSeconds(seconds: 30)), endOn: .phase))
        #expect(t.phases.map(\.kind) == ["inhale", "hold", "exhale", "hold", "inhale", "hold", "exhale"])
        #expect(t.phases.last?.cycle == 1)
        #expect(try #require(t.section(.outro)).startFrame == Int64(28 * 48000))
        let cycleOnly = try Timeline(recipe: recipe(phases: box, length: .duration(ExactSeconds(seconds: 30))))
        #expect(cycleOnly.phases.count == 4)
    }

    @Test func zeroLengthSectionsAreLeftOut() throws {
        let t = try Timeline(recipe: recipe(phases: box, length: .cycles(2)))
        #expect(t.sections.map(\.kind) == [.practice])
        #expect(t.totalFrames == 32 * 48000)
    }

    @Test func tooShortForOneCycleIsAnError() {
        #expect(throws: DiagnosticList.self) {
            try Timeline(recipe: recipe(phases: box, length: .duration(ExactSeconds(seconds: 10))))
        }
        #expect(throws: DiagnosticList.self) {
            try Timeline(recipe: recipe(phases: box, length: .duration(ExactSeconds(seconds: 20)), intro: 15_000_000_000, outro: 5_000_000_000))
        }
    }

    @Test func cuesStartOnTheirPhaseFrames() throws {
        let bell = CueSound.tone(Tone(frequency: 528, length: ExactSeconds(nanoseconds: 800_000_000), gainDB: -18, envelope: .bell))
        let t = try Timeline(
            recipe: recipe(
                phases: box, length: .cycles(3), intro: 2_500_000_000, outro: 4_000_000_000,
                rate: 44100, cues: ["inhale": bell, "start": bell, "end": bell]))
        #expect(t.cues.map(\.name) == ["start", "inhale", "inhale", "inhale", "end"])
        #expect(t.cues[0].frame == t.phases[0].startFrame)
        #expect(t.cues[1].frame == t.phases[0].startFrame)
        #expect(t.cues[2].frame == t.phases[4].startFrame)
        #expect(t.cues[4].frame == t.phases.last?.endFrame)
        #expect(t.cues[0].frame == 110_250)  // 2.5 s × 44100
    }

    @Test func endCueNeedsAnOutro() throws {
        let bell = CueSound.tone(Tone(frequency: 528, length: ExactSeconds(nanoseconds: 800_000_000), gainDB: -18, envelope: .bell))
        let t = try Timeline(recipe: recipe(phases: box, length: .cycles(1), cues: ["end": bell]))
        #expect(t.cues.isEmpty)
    }
}
