import AudioCore
import Recipe
import Testing

@testable import Timeline

/// Where voice prompts start (recipe-v1.1 § Voice prompts): anchors are exact times, offsets
/// are added before the one rounding, `on:` prompts sit on their phases' first frames.
@Suite struct PromptPlacementTests {
    /// A recipe with odd lengths: intro 2.0000113 s, inhale 1.1111111 s + exhale 1.3333333 s, 4 cycles, outro 0.7777777 s.
    static func guided(_ prompts: [Prompt], rate: Int = 44100, cycles: Int = 4) -> Recipe {
        var r = recipe(
            phases: [("inhale", 1_111_111_100), ("exhale", 1_333_333_300)], length: .cycles(cycles), intro: 2_000_011_300,
            outro: 777_777_700, rate: rate)
        r.voice = Voice(prompts: prompts)
        return r
    }

    static func at(_ anchor: PromptTime.Anchor, _ offsetNanoseconds: Int64) -> Prompt {
        Prompt(placement: .at(PromptTime(anchor: anchor, offset: ExactSeconds(nanoseconds: offsetNanoseconds))), file: "v.wav", text: "x")
    }

    static let introNs: Int128 = 2_000_011_300
    static let cycleNs: Int128 = 1_111_111_100 + 1_333_333_300
    static let outroNs: Int128 = 777_777_700

    /// Each anchor and offset, with the exact time in nanoseconds the spec gives it.
    static let anchors: [(PromptTime.Anchor, Int64, Int128)] = [
        (.start, 3_000_000_000, 3_000_000_000),
        (.intro, 1_234_567_891, 1_234_567_891),
        (.practice, -500_000_000, introNs - 500_000_000),
        (.practice, 0, introNs),
        (.segment(1), 2_000_000_000, introNs + 2_000_000_000),
        (.outro, 100_000_000, introNs + 4 * cycleNs + 100_000_000),
        (.end, -700_000_001, introNs + 4 * cycleNs + outroNs - 700_000_001),
    ]

    @Test("an anchor is its section's exact time and the offset is added before rounding", arguments: anchors.indices)
    func anchorTimes(_ i: Int) throws {
        let (anchor, offset, exact) = Self.anchors[i]
        for rate in [44100, 48000, 8000] {
            let timeline = try Timeline(recipe: Self.guided([Self.at(anchor, offset)], rate: rate))
            let frame = try #require(timeline.prompts.first).frame
            #expect(frame == roundHalfUp(exact * Int128(rate), 1_000_000_000), "\(anchor) \(offset) ns at \(rate) Hz")
        }
    }

    @Test("on: prompts start on the first frame of each phase of the kind in the chosen cycles, in frame order")
    func onPhases() throws {
        let prompts = [
            Prompt(placement: .on(kind: "exhale", cycles: CycleSelection(ranges: [1...1, 3...4]), segment: nil), file: "o.wav", text: "out"),
            Prompt(placement: .on(kind: "inhale", cycles: nil, segment: 1), file: "i.wav", text: "in"),
            Self.at(.start, 100_000_000),
        ]
        let timeline = try Timeline(recipe: Self.guided(prompts))
        let inhales = timeline.phases.filter { $0.kind == "inhale" }
        let exhales = timeline.phases.filter { $0.kind == "exhale" && [0, 2, 3].contains($0.cycle) }
        var expected = inhales.map { (1, $0.index as Int?, $0.startFrame) } + exhales.map { (0, $0.index as Int?, $0.startFrame) }
        expected.append((2, nil, ExactSeconds(nanoseconds: 100_000_000).frame(at: 44100)))
        expected.sort { $0.2 < $1.2 }
        #expect(timeline.prompts.map(\.prompt) == expected.map(\.0))
        #expect(timeline.prompts.map(\.phase) == expected.map(\.1))
        #expect(timeline.prompts.map(\.frame) == expected.map(\.2))
    }

    /// A placement the timeline refuses, the key it is reported at, and words of the message.
    static let refused: [(Prompt, String, String)] = [
        (at(.intro, -1_000_000_000), "voice.prompts.0.at", "1s before the file's start"),
        (at(.end, 0), "voice.prompts.0.at", "at the file's end"),
        (at(.end, 2_500_000_000), "voice.prompts.0.at", "2.5s after the file's end"),
        (at(.segment(2), 0), "voice.prompts.0.at", "segment 2 does not exist"),
        (
            Prompt(placement: .on(kind: "inhale", cycles: CycleSelection(ranges: [2...5]), segment: nil), file: "a", text: nil),
            "voice.prompts.0.cycles", "cycle 5 does not exist; the practice holds 4 cycles"
        ),
        (Prompt(placement: .on(kind: "inhale", cycles: nil, segment: 3), file: "a", text: nil), "voice.prompts.0.segment", "segment 3"),
    ]

    @Test(
        "a prompt before the file, at or after its end, or on cycles and segments that do not exist is refused at its key",
        arguments: refused.indices)
    func refusals(_ i: Int) {
        let (prompt, key, words) = Self.refused[i]
        var r = Self.guided([prompt])
        r.locations = [key: SourceLocation(file: "t.yml", line: 9, column: 7)]
        do {
            let timeline = try Timeline(recipe: r)
            Issue.record("placed at \(timeline.prompts)")
        } catch {
            let message = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(message.contains(key) && message.contains(words), "\(message)")
            #expect(error.diagnostics.first?.location?.line == 9, "\(message)")
        }
    }

    @Test("more prompts than the limit are refused, not placed")
    func tooMany() {
        // an inhale prompt on every cycle of 10,001 cycles
        let r = Self.guided([Prompt(placement: .on(kind: "inhale", cycles: nil, segment: nil), file: "a", text: nil)], cycles: 10_001)
        #expect(throws: DiagnosticList.self) { try Timeline(recipe: r) }
        let ok = Self.guided([Prompt(placement: .on(kind: "inhale", cycles: nil, segment: nil), file: "a", text: nil)], cycles: 10_000)
        #expect((try? Timeline(recipe: ok))?.prompts.count == RecipeLimits.maxPromptsPerTrack)
    }
}
