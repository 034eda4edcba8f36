import AudioCore
import Recipe
import Testing

@testable import Timeline

/// Programs (recipe-v1.1 § Programs): segments end to end, each of its cycles or exactly its
/// duration (the time left over one `transition` phase), the top-level duration's time left over
/// to the outro; read from YAML text and laid out, checked against `ProgramReference`.
@Suite struct ProgramTests: RecipeBodies {
    static let head = "id: p\ntitle: P\n"
    static let file = "p.yml"

    static func phases(_ spec: [(String, String, Int64)]) -> [ProgramReference.Phase] {
        spec.map { ProgramReference.Phase(kind: $0.0, label: $0.1, nanoseconds: $0.2 * 1_000_000_000) }
    }

    static let coherent = [
        ProgramReference.Phase(kind: "inhale", label: "Breathe In", nanoseconds: 5_500_000_000),
        ProgramReference.Phase(kind: "exhale", label: "Breathe Out", nanoseconds: 5_500_000_000),
    ]
    static let fourSevenEight = phases([("inhale", "Breathe In", 4), ("hold", "Hold", 7), ("exhale", "Breathe Out", 8)])
    static let box = phases([("inhale", "Breathe In", 4), ("hold", "Hold", 4), ("exhale", "Breathe Out", 4), ("hold", "Hold", 4)])

    static let specProgram = """
        intro: 20s
        program:
          - { pattern: coherent, duration: 3m }
          - { pattern: 4-7-8, cycles: 4, label: Wind down }
          - { pattern: box, duration: 2m, end_on: phase }
        outro: 30s

        """

    static func specReference(duration: Int64? = nil) -> ProgramReference.Recipe {
        ProgramReference.Recipe(
            intro: 20_000_000_000, outro: 30_000_000_000, duration: duration,
            segments: [
                .init(name: "Coherent Breathing", phases: coherent, duration: 180_000_000_000),
                .init(name: "Wind down", phases: fourSevenEight, cycles: 4),
                .init(name: "Box Breathing", phases: box, duration: 120_000_000_000, endOnPhase: true),
            ])
    }

    @Test("the spec's program at 48 kHz: sections, a 4 s transition after 16 coherent cycles, box ending on whole phases")
    func specExample() throws {
        let t = try Timeline(recipe: Self.load(Self.specProgram))
        // intro 20 + 180 + 4 × 19 + 120 + outro 30 = 426 s
        #expect(t.duration == ExactSeconds(seconds: 426))
        #expect(t.totalFrames == 426 * 48000)
        #expect(t.sections.map(\.kind) == [.intro, .practice, .practice, .practice, .outro])
        #expect(t.sections.map(\.segment) == [nil, 0, 1, 2, nil])
        #expect(t.practiceSections.map(\.name) == ["Coherent Breathing", "Wind down", "Box Breathing"])
        let bounds: [Int64] = [0, 20, 200, 276, 396, 426]
        for (i, section) in t.sections.enumerated() {
            #expect(section.start == ExactSeconds(seconds: bounds[i]) && section.end == ExactSeconds(seconds: bounds[i + 1]), "\(section)")
            // floor(T × 48000 + 1/2) of whole seconds
            #expect(section.startFrame == bounds[i] * 48000 && section.endFrame == bounds[i + 1] * 48000, "\(section)")
            #expect(section.ramp == nil)
        }
        #expect(t.segmentStarts == [20, 200, 276].map { ExactSeconds(seconds: $0) })

        // segment 0: 180 s = 16 × 11 s + 4 s; the 4 s are one transition after cycle 15
        let zero = t.phases.filter { $0.segment == 0 }
        #expect(zero.count == 16 * 2 + 1)
        let transition = try #require(zero.last)
        #expect(transition.kind == "transition" && transition.label == "Transition" && transition.cycle == 16)
        #expect(transition.length == ExactSeconds(seconds: 4))
        #expect(transition.start == ExactSeconds(seconds: 196) && transition.end == ExactSeconds(seconds: 200))
        #expect(transition.startFrame == 196 * 48000 && transition.endFrame == 200 * 48000)
        #expect(zero.dropLast().map(\.cycle) == (0..<16).flatMap { [$0, $0] })
        // segment 1: 4 whole cycles, no transition
        let one = t.phases.filter { $0.segment == 1 }
        #expect(one.map(\.kind) == Array(repeating: ["inhale", "hold", "exhale"], count: 4).flatMap { $0 })
        #expect(one.map(\.cycle) == (0..<4).flatMap { [$0, $0, $0] })
        // segment 2: 120 s = 7 × 16 s + 8 s, and inhale 4 + hold 4 fill the 8 s: nothing left, no transition
        let two = t.phases.filter { $0.segment == 2 }
        #expect(two.count == 7 * 4 + 2)
        #expect(!two.contains { $0.kind == "transition" })
        #expect(two.suffix(2).map(\.kind) == ["inhale", "hold"])
        #expect(two.suffix(2).map(\.cycle) == [7, 7])
        #expect(two.first?.cycle == 0)
        #expect(two.last?.end == ExactSeconds(seconds: 396))
        #expect(t.wholeCycles == 16 + 4 + 7)

        // indices 0…n−1 across segments; phases tile the practice with no gap, in exact time and in frames
        #expect(t.phases.map(\.index) == Array(t.phases.indices))
        #expect(t.phases.first?.start == ExactSeconds(seconds: 20))
        for (a, b) in zip(t.phases, t.phases.dropFirst()) {
            #expect(a.end == b.start && a.endFrame == b.startFrame, "\(a.index) → \(b.index)")
        }
        // and everything equals the reference layout
        let reference = Self.specReference()
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        #expect(layout.spans.count == 33 + 12 + 30)
        ProgramReference.check(t, against: layout, recipe: reference, context: "spec example")
    }

    @Test("a segment's exact start is the previous one's exact end, not its rounded frame", arguments: [8000, 22050, 44100, 96000])
    func exactSegmentStarts(rate: Int) throws {
        // odd lengths whose frames round: each segment starts at the exact sum of everything before
        let body = """
            intro: 1.0000317s
            program:
              - pattern: { name: Odd, phases: [ { kind: inhale, length: 1.2345671s, label: In }, { kind: exhale, length: 2.0000049s, label: Out } ] }
                duration: 17.777777s
              - { pattern: coherent, cycles: 3 }
              - pattern: { name: Odd, phases: [ { kind: inhale, length: 1.2345671s, label: In }, { kind: exhale, length: 2.0000049s, label: Out } ] }
                duration: 11.5s
                end_on: phase
            outro: 0.3333333s
            output: { sample_rate: \(rate) }

            """
        let t = try Timeline(recipe: Self.load(body))
        let odd = [
            ProgramReference.Phase(kind: "inhale", label: "In", nanoseconds: 1_234_567_100),
            ProgramReference.Phase(kind: "exhale", label: "Out", nanoseconds: 2_000_004_900),
        ]
        let reference = ProgramReference.Recipe(
            intro: 1_000_031_700, outro: 333_333_300,
            segments: [
                .init(name: "Odd", phases: odd, duration: 17_777_777_000),
                .init(name: "Coherent Breathing", phases: Self.coherent, cycles: 3),
                .init(name: "Odd", phases: odd, duration: 11_500_000_000, endOnPhase: true),
            ], rate: rate)
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        ProgramReference.check(t, against: layout, recipe: reference, context: "odd lengths at \(rate)")
        // segment 1 starts 1.0000317 + 17.777777 s in, exactly
        #expect(t.segmentStarts[1] == ExactSeconds(nanoseconds: 1_000_031_700 + 17_777_777_000))
        #expect(t.segmentStarts[2] == ExactSeconds(nanoseconds: 1_000_031_700 + 17_777_777_000 + 33_000_000_000))
        // both duration segments end in a transition: 17.777777 − 5 × 3.234572 s; 11.5 − 3 × 3.234572 − 1.2345671 s (end_on: phase: 3 whole cycles and an inhale)
        let transitions = t.phases.filter { $0.kind == "transition" }
        #expect(
            transitions.map(\.length) == [
                ExactSeconds(nanoseconds: 17_777_777_000 - 5 * 3_234_572_000),
                ExactSeconds(nanoseconds: 11_500_000_000 - 3 * 3_234_572_000 - 1_234_567_100),
            ])
        #expect(transitions.map(\.segment) == [0, 2])
        #expect(transitions.map(\.cycle) == [5, 3])
    }

    @Test("a top-level duration fixes the file: the outro gets the time left over (its own length the least)")
    func topLevelDuration() throws {
        let t = try Timeline(recipe: Self.load(Self.specProgram + "duration: 8m\n"))
        #expect(t.duration == ExactSeconds(seconds: 480))
        #expect(t.totalFrames == 480 * 48000)
        let outro = try #require(t.section(.outro))
        #expect(outro.start == ExactSeconds(seconds: 396) && outro.end == ExactSeconds(seconds: 480))
        #expect(outro.startFrame == 396 * 48000 && outro.endFrame == 480 * 48000)
        let reference = Self.specReference(duration: 480_000_000_000)
        guard case .laidOut(let layout) = ProgramReference.layout(reference) else { Issue.record("reference refused"); return }
        ProgramReference.check(t, against: layout, recipe: reference, context: "spec example, duration 8m")
        // exactly long enough: the outro keeps its 30 s
        let exact = try Timeline(recipe: Self.load(Self.specProgram + "duration: 426s\n"))
        #expect(exact.section(.outro)?.start == ExactSeconds(seconds: 396))
        #expect(exact.totalFrames == 426 * 48000)
    }

    @Test(
        "a program longer than the top-level duration is an error at 'duration' saying by how much",
        arguments: [("421s", "5s"), ("7m", "6s"), ("425.75s", "250ms")])
    func doesNotFit(duration: String, over: String) {
        let body = Self.specProgram + "duration: \(duration)\n"
        let found = Self.failures(body)
        // at the value, like every error about a value
        let at = Self.position(of: "duration: \(duration)", in: body)
        #expect(found.count == 1, "\(found)")
        let first = found.first
        #expect(first?.message.hasPrefix("duration:") == true, "\(found)")
        #expect(first?.message.contains("\(over) more") == true, "\(found)")
        #expect(first?.location == AudioCore.SourceLocation(file: "p.yml", line: at.line, column: at.column + "duration: ".count), "\(found)")
    }

    /// A recipe body, the text the error points at (its occurrence), and words the message holds.
    static let badPrograms: [(String, String, Int, [String])] = [
        // program and pattern together: at 'program'
        ("pattern: box\nprogram:\n  - { pattern: coherent, cycles: 2 }\n", "program:", 1, ["found both", "pattern"]),
        // both cycles and duration: at the cycles
        ("program:\n  - { pattern: box, cycles: 4, duration: 2m }\n", "4, duration", 1, ["cycles", "duration", "found both"]),
        // neither: at the segment
        (
            "program:\n  - { pattern: box, cycles: 2 }\n  - { pattern: box, label: Calm }\n", "{ pattern: box, label", 1,
            ["program.1", "found neither"]
        ),
        // top-level cycles with a program: at 'cycles'
        ("cycles: 4\nprogram:\n  - { pattern: box, cycles: 2 }\n", "cycles: 4", 1, ["cycles", "program"]),
        // too short for one cycle: at the segment's duration, suggesting end_on: phase
        ("program:\n  - { pattern: coherent, cycles: 1 }\n  - { pattern: box, duration: 10s }\n", "10s", 1, ["program.1.duration", "end_on: phase"]),
        // a ramp with duration and no over: at the ramp
        ("program:\n  - { pattern: coherent, duration: 3m, ramp: { to: 4.5 bpm } }\n", "{ to:", 1, ["program.0.ramp", "over"]),
        // over beyond a cycles segment's count: at 'over'
        (
            "program:\n  - { pattern: coherent, cycles: 10, ramp: { to: 4.5 bpm, over: 11 cycles } }\n", "11 cycles", 1,
            ["program.0.ramp.over", "10 cycles"]
        ),
        // rates outside 1–60 bpm: at 'to'
        ("program:\n  - { pattern: coherent, cycles: 10, ramp: { to: 0.5 bpm, over: 5 cycles } }\n", "0.5 bpm", 1, ["program.0.ramp.to", "60 bpm"]),
        ("program:\n  - { pattern: coherent, cycles: 10, ramp: { to: 61 bpm, over: 5 cycles } }\n", "61 bpm", 1, ["program.0.ramp.to", "60 bpm"]),
        ("pattern: coherent\ncycles: 10\nramp: { to: 0.999 bpm }\n", "0.999 bpm", 1, ["ramp.to", "60 bpm"]),
        ("pattern: coherent\ncycles: 10\nramp: { to: 60.001 bpm }\n", "60.001 bpm", 1, ["ramp.to", "60 bpm"]),
        // an unknown key in a segment: at the key, with a suggestion
        ("program:\n  - { pattern: box, cycles: 4, lable: Calm }\n", "lable", 1, ["unknown key 'lable'", "did you mean 'label'?"]),
        ("program:\n  - pattern: box\n    cycles: 4\n    rmap: { to: 4 bpm }\n", "rmap", 1, ["unknown key 'rmap'", "did you mean 'ramp'?"]),
        // a top-level ramp beside a program: at 'ramp'
        ("program:\n  - { pattern: coherent, cycles: 4 }\nramp: { to: 4.5 bpm }\n", "ramp:", 1, ["ramp", "program segment"]),
    ]

    @Test("program and ramp mistakes are errors at their file:line:col, with what was expected", arguments: badPrograms.indices)
    func badProgram(_ i: Int) {
        let (body, needle, occurrence, words) = Self.badPrograms[i]
        let found = Self.failures(body)
        let at = Self.position(of: needle, in: body, occurrence: occurrence)
        let match = found.first { d in words.allSatisfy { d.message.contains($0) } }
        #expect(match != nil, "\(found.map(\.description))")
        #expect(
            match?.location == AudioCore.SourceLocation(file: "p.yml", line: at.line, column: at.column),
            "\(found.map(\.description)); expected \(at)")
        #expect(match?.isWarning == false)
    }

    @Test("rates of exactly 1 and 60 bpm are accepted")
    func rateBounds() throws {
        for to in ["1 bpm", "60 bpm", "1.000 bpm", "59.999 bpm"] {
            let t = try Timeline(recipe: Self.load("pattern: coherent\ncycles: 3\nramp: { to: \(to) }\n"))
            #expect(t.section(.practice)?.ramp?.toMicroBPM == Int64((Double(to.split(separator: " ")[0])! * 1_000_000).rounded()))
        }
    }

    @Test("'transition' may be named in cues: its cue sounds on the transition's first frame; unnamed, it is silent")
    func transitionCue() throws {
        let body = "program:\n  - { pattern: box, duration: 1m }\n  - { pattern: coherent, cycles: 2 }\ncues:\n  inhale: bell\n  transition: chime\n"
        let t = try Timeline(recipe: Self.load(body))
        // 60 s of box: 3 whole cycles (48 s), then a 12 s transition, phase 12
        let transition = try #require(t.phases.first { $0.kind == "transition" })
        #expect(transition.index == 12 && transition.startFrame == 48 * 48000 && transition.endFrame == 60 * 48000)
        #expect(t.cues.filter { $0.name == "transition" }.map(\.frame) == [48 * 48000])
        #expect(t.cues.filter { $0.name == "transition" }.map(\.phase) == [12])
        // inhale cues in both segments: box at 0, 16, 32 s; coherent at 60, 71 s
        #expect(t.cues.filter { $0.name == "inhale" }.map(\.frame) == [0, 16, 32, 60, 71].map { Int64($0) * 48000 })
        // without naming it (the defaults), the transition sounds nothing
        let silent = try Timeline(recipe: Self.load("program:\n  - { pattern: box, duration: 1m }\n  - { pattern: coherent, cycles: 2 }\n"))
        #expect(silent.phases.contains { $0.kind == "transition" })
        #expect(!silent.cues.contains { silent.phases[$0.phase].kind == "transition" && $0.name != "end" })
    }

    @Test("cue kinds are checked against every segment: a kind of segment 2 only is fine, a kind of none is an error at its key")
    func cueKindsAcrossSegments() throws {
        let ok = try Timeline(
            recipe: Self.load("program:\n  - { pattern: coherent, cycles: 2 }\n  - { pattern: box, cycles: 1 }\ncues:\n  hold: bell\n"))
        #expect(ok.cues.map(\.frame) == [26, 34].map { Int64($0) * 48000 })
        let body = "program:\n  - { pattern: coherent, cycles: 2 }\n  - { pattern: box, cycles: 1 }\ncues:\n  hold: bell\n  rest: bell\n"
        let found = Self.failures(body)
        let at = Self.position(of: "rest:", in: body)
        let match = found.first { $0.message.contains("rest") }
        #expect(match != nil, "\(found)")
        #expect(match?.location == AudioCore.SourceLocation(file: "p.yml", line: at.line, column: at.column), "\(found)")
        // a voice prompt on a kind no segment has is refused the same way
        let voice = "program:\n  - { pattern: coherent, cycles: 2 }\nvoice:\n  prompts:\n    - { on: hold, text: Hold }\n"
        let refused = Self.failures(voice)
        #expect(refused.contains { $0.message.contains("hold") && $0.location?.line == Self.position(of: "hold,", in: voice).line }, "\(refused)")
    }

    static let guided = """
        intro: 7.0000113s
        program:
          - { pattern: coherent, cycles: 3 }
          - { pattern: 4-7-8, duration: 41.5s }
          - { pattern: box, cycles: 2 }
        outro: 9s
        output: { sample_rate: 44100 }

        """

    @Test("'at: segment N + offset' is segment N's exact start plus the offset, rounded once; 'on:' with 'segment:' counts cycles in it")
    func promptsOnSegments() throws {
        let body =
            Self.guided + """
                voice:
                  prompts:
                    - { at: segment 2 + 5s, text: Slower now }
                    - { at: segment 3, text: Box }
                    - { at: segment 3 - 1.5s, text: Almost }
                    - { on: inhale, segment: 2, cycles: 2, text: In }

                """
        let t = try Timeline(recipe: Self.load(body))
        let intro: Int128 = 7_000_011_300
        // segment 2 starts after 3 coherent cycles (33 s); segment 3 after 41.5 s more
        let two = intro + 33_000_000_000, three = two + 41_500_000_000
        #expect(t.segmentStarts.map { Int128($0.nanoseconds) } == [intro, two, three])
        let frames = Dictionary(uniqueKeysWithValues: t.prompts.map { ($0.prompt, $0.frame) })
        #expect(frames[0] == referenceFrame(two + 5_000_000_000, 44100))
        #expect(frames[1] == referenceFrame(three, 44100))
        #expect(frames[2] == referenceFrame(three - 1_500_000_000, 44100))
        // cycle 2 of segment 2 (counted from 1): its second inhale, 19 s after the segment's start
        let placed = try #require(t.prompts.first { $0.prompt == 3 })
        let phase = t.phases[try #require(placed.phase)]
        #expect(phase.segment == 1 && phase.cycle == 1 && phase.kind == "inhale")
        #expect(placed.frame == referenceFrame(two + 19_000_000_000, 44100))
        // frame order
        #expect(t.prompts.map(\.frame) == t.prompts.map(\.frame).sorted())
    }

    @Test("'segment 4' in a program of 3 segments is an error at the prompt's 'at'")
    func promptOnMissingSegment() {
        let body = Self.guided + "voice:\n  prompts:\n    - { at: 3s, text: Welcome }\n    - { at: segment 4 + 1s, text: Nope }\n"
        let found = Self.failures(body)
        let at = Self.position(of: "segment 4", in: body)
        let match = found.first { $0.message.contains("segment 4") }
        #expect(match?.message.hasPrefix("voice.prompts.1.at") == true, "\(found)")
        #expect(match?.message.contains("3 segments") == true, "\(found)")
        #expect(match?.location == AudioCore.SourceLocation(file: "p.yml", line: at.line, column: at.column), "\(found)")
        // and 'segment: 4' on an 'on:' prompt likewise, at its 'segment'
        let on = Self.guided + "voice:\n  prompts:\n    - { on: inhale, segment: 4, text: In }\n"
        let refused = Self.failures(on)
        let segmentAt = Self.position(of: "4, text", in: on)
        let onMatch = refused.first { $0.message.contains("segment 4") }
        #expect(onMatch?.location == AudioCore.SourceLocation(file: "p.yml", line: segmentAt.line, column: segmentAt.column), "\(refused)")
    }
}
