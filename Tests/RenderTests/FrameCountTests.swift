import CadenceCues
import Foundation
import Recipe
import Testing
import Timeline

/// One track length to render: a duration or a number of cycles, at a rate.
struct FrameCase: CustomTestStringConvertible, Sendable {
    enum Length: Sendable {
        case duration(String)
        case cycles(Int)
    }
    let length: Length
    let rate: Int
    let intro: String
    let outro: String
    /// A built-in pattern name with its phases as the spec's table gives them, or nil for an inline pattern.
    let builtin: String?
    let phases: [(kind: String, length: String)]
    let fileExtension: String
    let loudness: String
    /// `end_on: phase`: the practice may end after any whole phase of a last, partial cycle.
    var endOnPhase = false

    var testDescription: String {
        switch length {
        case .duration(let d): "duration \(d)\(endOnPhase ? ", end_on: phase," : "") at \(rate) Hz (.\(fileExtension))"
        case .cycles(let n): "\(n) cycle(s) of \(builtin ?? "inline") + intro \(intro) + outro \(outro) at \(rate) Hz (.\(fileExtension))"
        }
    }

    var testPhases: [TestPhase] { phases.map { TestPhase(kind: $0.kind, length: $0.length) } }

    var yaml: String {
        var text = ""
        switch length {
        case .duration(let d): text += "duration: \(d)\n"
        case .cycles(let n): text += "cycles: \(n)\n"
        }
        text += "intro: \(intro)\noutro: \(outro)\n"
        if endOnPhase { text += "end_on: phase\n" }
        text += builtin.map { "pattern: \($0)\n" } ?? inlinePattern(testPhases)
        text += "output:\n  sample_rate: \(rate)\n  channels: 2\n  loudness: \(loudness)\n"
        return text
    }

    /// Exact track length, from the recipe's decimals.
    var total: Seconds {
        let cycle = testPhases.map { Seconds($0.length) }.reduce(.zero, +)
        switch length {
        case .duration(let d): return Seconds(d)
        case .cycles(let n): return Seconds(intro) + cycle * n + Seconds(outro)
        }
    }

    /// Whole cycles the practice holds (duration: as many as fit between intro and outro).
    var practiceCycles: Int {
        let cycle = testPhases.map { Seconds($0.length) }.reduce(.zero, +)
        switch length {
        case .duration(let d):
            let room = Seconds(d) - Seconds(intro) - Seconds(outro)
            return Int(room.picoseconds / cycle.picoseconds)
        case .cycles(let n): return n
        }
    }

    /// Phases of the practice: whole cycles, then (`end_on: phase`) the phases of the next cycle that still fit.
    var practicePhases: Int {
        var count = practiceCycles * phases.count
        guard endOnPhase, case .duration(let d) = length else { return count }
        let cycle = testPhases.map { Seconds($0.length) }.reduce(.zero, +)
        var left = Seconds(d) - Seconds(intro) - Seconds(outro) - cycle * practiceCycles
        for phase in testPhases {
            guard !(left < Seconds(phase.length)) else { break }
            left = left - Seconds(phase.length)
            count += 1
        }
        return count
    }
}

let coherentPhases = [(kind: "inhale", length: "5.5"), (kind: "exhale", length: "5.5")]
let oddPhases = [(kind: "inhale", length: "1.5"), (kind: "exhale", length: "2.25")]
let relaxPhases = [(kind: "inhale", length: "4"), (kind: "hold", length: "2"), (kind: "exhale", length: "6"), (kind: "rest", length: "2")]

let frameCases: [FrameCase] = [
    // 441000.441 frames: rounds down
    FrameCase(
        length: .duration("10.00001s"), rate: 44100, intro: "0s", outro: "0s", builtin: nil, phases: oddPhases,
        fileExtension: "wav", loudness: "off"),
    // 441000.882 frames: rounds up
    FrameCase(
        length: .duration("10.00002s"), rate: 44100, intro: "0.3s", outro: "0s", builtin: nil, phases: oddPhases,
        fileExtension: "flac", loudness: "-16 LUFS"),
    // exactly 80000.5 frames: the half goes up, not to even
    FrameCase(
        length: .duration("10.0000625s"), rate: 8000, intro: "0.0000625s", outro: "0s", builtin: nil, phases: oddPhases,
        fileExtension: "wav", loudness: "off"),
    // minutes:seconds, 592592.5872 frames
    FrameCase(
        length: .duration("0:12.3456789"), rate: 48000, intro: "1.23456s", outro: "0.1s", builtin: nil, phases: oddPhases,
        fileExtension: "flac", loudness: "off"),
    // 720000.998 frames, a built-in longer than half the track
    FrameCase(
        length: .duration("15.0000104s"), rate: 96000, intro: "0.5s", outro: "0s", builtin: "relax", phases: relaxPhases,
        fileExtension: "wav", loudness: "off"),
    // cycles: intro + 1 × 11 s + outro
    FrameCase(
        length: .cycles(1), rate: 22050, intro: "0.123457s", outro: "0.5s", builtin: "coherent", phases: coherentPhases,
        fileExtension: "wav", loudness: "off"),
    FrameCase(
        length: .cycles(1), rate: 48000, intro: "1.00001s", outro: "0.25s", builtin: "coherent", phases: coherentPhases,
        fileExtension: "flac", loudness: "off"),
    FrameCase(
        length: .cycles(1), rate: 96000, intro: "0.3333333s", outro: "0.6666667s", builtin: "coherent", phases: coherentPhases,
        fileExtension: "wav", loudness: "off"),
    // end_on: phase: 2 cycles of 3.55 s, then inhale and hold of a third; the rest is outro
    FrameCase(
        length: .duration("10.00003s"), rate: 44100, intro: "0.2s", outro: "0s", builtin: nil,
        phases: [(kind: "inhale", length: "0.6"), (kind: "hold", length: "0.7"), (kind: "exhale", length: "2.25")],
        fileExtension: "wav", loudness: "off", endOnPhase: true),
    FrameCase(
        length: .cycles(3), rate: 44100, intro: "0s", outro: "0.0000113s", builtin: nil,
        phases: [(kind: "inhale", length: "1.1111111"), (kind: "hold", length: "0.7777777"), (kind: "exhale", length: "1.3333333")],
        fileExtension: "wav", loudness: "off"),
]

@Suite("Frame counts and the cue sheet's timeline")
struct FrameCountTests {
    @Test("the file holds floor(duration × rate + 1/2) frames and the cue sheet agrees", arguments: frameCases)
    func frameCount(_ c: FrameCase) throws {
        let folder = try TempFolder("frames")
        let recipe = try folder.write(c.yaml, to: "track.yml")
        let output = folder.file("out/track.\(c.fileExtension)")
        let (_, sheet) = try renderInProcess(recipe, to: output)

        let expectedFrames = c.total.frame(at: c.rate)
        let audio = try readAudio(output)
        #expect(audio.sampleRate == c.rate)
        #expect(audio.channels == 2)
        #expect(audio.headerFrames == expectedFrames, "header frames")
        #expect(Int64(audio.frames) == expectedFrames, "decoded frames")

        // the audio block
        #expect(sheet.audio.frames == expectedFrames)
        #expect(sheet.audio.sampleRate == c.rate)
        #expect(sheet.audio.channels == 2)
        #expect(sheet.audio.file == "track.\(c.fileExtension)")
        expectTime(sheet.audio.duration, frame: expectedFrames, rate: c.rate, "audio.duration")

        // sections: intro, practice, outro, from 0 to the last frame with no gap
        let introEnd = Seconds(c.intro).frame(at: c.rate)
        let expectedPhases = Array(
            expectedPhaseFrames(intro: Seconds(c.intro), phases: c.testPhases, cycles: c.practiceCycles + 1, rate: c.rate)
                .prefix(c.practicePhases))
        let practiceEnd = expectedPhases.last?.end ?? introEnd
        var expectedSections: [(String, Int64, Int64)] = []
        if introEnd > 0 { expectedSections.append(("intro", 0, introEnd)) }
        expectedSections.append(("practice", introEnd, practiceEnd))
        if expectedFrames > practiceEnd { expectedSections.append(("outro", practiceEnd, expectedFrames)) }
        #expect(sheet.sections.map(\.kind) == expectedSections.map(\.0))
        for (section, expected) in zip(sheet.sections, expectedSections) {
            #expect(section.startFrame == expected.1, "\(section.kind) start_frame")
            #expect(section.endFrame == expected.2, "\(section.kind) end_frame")
            expectTime(section.start, frame: section.startFrame, rate: c.rate, "\(section.kind).start")
            expectTime(section.end, frame: section.endFrame, rate: c.rate, "\(section.kind).end")
        }
        for (a, b) in zip(sheet.sections, sheet.sections.dropFirst()) {
            #expect(a.endFrame == b.startFrame, "\(a.kind) ends where \(b.kind) starts")
        }
        #expect(sheet.sections.first?.startFrame == 0)
        #expect(sheet.sections.last?.endFrame == expectedFrames)

        // phases: exact boundaries, tiling the practice section
        #expect(sheet.phases.count == expectedPhases.count)
        for (i, (phase, expected)) in zip(sheet.phases, expectedPhases).enumerated() {
            #expect(phase.index == i)
            #expect(phase.cycle == i / c.phases.count)
            #expect(phase.kind == expected.kind)
            #expect(phase.startFrame == expected.start, "phase \(i) start_frame")
            #expect(phase.endFrame == expected.end, "phase \(i) end_frame")
            expectTime(phase.start, frame: phase.startFrame, rate: c.rate, "phase \(i).start")
            expectTime(phase.end, frame: phase.endFrame, rate: c.rate, "phase \(i).end")
        }
        for (a, b) in zip(sheet.phases, sheet.phases.dropFirst()) {
            #expect(a.endFrame == b.startFrame, "phase \(a.index) end_frame == phase \(b.index) start_frame")
        }
        let practice = sheet.sections.first { $0.kind == "practice" }
        #expect(sheet.phases.first?.startFrame == practice?.startFrame)
        #expect(sheet.phases.last?.endFrame == practice?.endFrame)

        // the pattern block: the cycle and phase lengths as decimals
        #expect(sheet.pattern.phases.map(\.kind) == c.phases.map(\.kind))
        for (phase, expected) in zip(sheet.pattern.phases, c.testPhases) {
            #expect(phase.length.value == Seconds(expected.length).double)
        }
        #expect(sheet.pattern.cycle.value == c.testPhases.map { Seconds($0.length) }.reduce(.zero, +).double)

        // cues (the defaults: start, inhale, exhale, end) sit on their phase boundaries
        for cue in sheet.cues {
            expectTime(cue.time, frame: cue.frame, rate: c.rate, "cue \(cue.name).time")
            let phase = try #require(sheet.phases.first { $0.index == cue.phase }, "cue \(cue.name) names phase \(cue.phase)")
            if cue.name == "end" {
                #expect(cue.frame == sheet.phases.last?.endFrame)
            } else {
                #expect(cue.frame == phase.startFrame, "cue \(cue.name) at phase \(cue.phase)")
            }
        }
        #expect(sheet.cues.filter { $0.name == "start" }.count == 1)
        #expect(sheet.cues.filter { $0.name == "inhale" }.count == sheet.phases.filter { $0.kind == "inhale" }.count)
    }
}

@Suite("Boundaries never drift")
struct DriftTests {
    /// 20 000 cycles of 3.3333334 s: 18.5 hours, 40 000 boundaries, laid out (not rendered).
    @Test("every boundary of an 18-hour timeline is floor(T × rate + 1/2) of its exact time", arguments: [44100, 48000])
    func longTimeline(_ rate: Int) throws {
        let phases = [TestPhase(kind: "inhale", length: "1.1111111s"), TestPhase(kind: "exhale", length: "2.2222223s")]
        let intro = "0.0000001s", outro = "7.77777s", cycles = 20_000
        let yaml =
            "cycles: \(cycles)\nintro: \(intro)\noutro: \(outro)\n" + inlinePattern(phases)
            + "output:\n  sample_rate: \(rate)\n"
        let recipe = try RecipeLoader.parse(Array(yaml.utf8), file: "long.yml", defaultID: "long")
        let timeline = try Timeline(recipe: recipe)
        let expected = expectedPhaseFrames(intro: Seconds(intro), phases: phases, cycles: cycles, rate: rate)
        let total = (Seconds(intro) + (Seconds("1.1111111") + Seconds("2.2222223")) * cycles + Seconds(outro)).frame(at: rate)
        #expect(timeline.totalFrames == total)
        try #require(timeline.phases.count == expected.count)
        var wrong: [Int] = []
        for (phase, want) in zip(timeline.phases, expected) where phase.startFrame != want.start || phase.endFrame != want.end {
            wrong.append(phase.index)
        }
        #expect(wrong.isEmpty, "\(wrong.count) phases off their exact frames, first: \(wrong.prefix(5))")
        #expect(timeline.cues.filter { $0.name == "inhale" }.map(\.frame) == expected.filter { $0.kind == "inhale" }.map(\.start))
    }
}

/// A time in the cue sheet is frame / rate, written precisely enough to give the frame back.
func expectTime(_ time: Double, frame: Int64, rate: Int, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(
        Int64((time * Double(rate)).rounded()) == frame, "\(what): \(time) s does not give frame \(frame) back",
        sourceLocation: sourceLocation)
    #expect(
        abs(time - Double(frame) / Double(rate)) <= 1e-9 * max(1, time), "\(what): \(time) ≠ \(frame)/\(rate)",
        sourceLocation: sourceLocation)
}
