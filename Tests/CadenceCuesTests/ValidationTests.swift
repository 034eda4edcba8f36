import CadenceCues
import Testing

/// A broken sheet: the box fixture with one edit made in the model (so seconds stay consistent with
/// frames), written with `jsonText()` and decoded again, and the error that must come out.
struct BrokenSheet: Sendable, CustomTestStringConvertible {
    let name: String
    let edit: @Sendable (inout CueSheet) -> Void
    let error: CueSheetError
    let message: String

    var testDescription: String { name }
}

extension CueSheet.Phase {
    /// The phase with other frames (and the seconds that go with them at 48 kHz).
    func moved(start: Int64? = nil, end: Int64? = nil) -> CueSheet.Phase {
        CueSheet.Phase(
            index: index, cycle: cycle, kind: kind, label: label, startFrame: start ?? startFrame, endFrame: end ?? endFrame,
            sampleRate: 48000)
    }
}

extension CueSheet.Section {
    func moved(start: Int64? = nil, end: Int64? = nil, kind: String? = nil) -> CueSheet.Section {
        CueSheet.Section(kind: kind ?? self.kind, startFrame: start ?? startFrame, endFrame: end ?? endFrame, sampleRate: 48000)
    }
}

@Suite struct ValidationTests {
    static let broken: [BrokenSheet] = [
        BrokenSheet(
            name: "gap", edit: { $0.phases[4] = $0.phases[4].moved(end: 1_439_990) },
            error: .gap(after: .phase(4), before: .phase(5), frames: 1_439_990..<1_440_000),
            message: "gap between phases 4 and 5 (frames 1439990…1440000)"),
        BrokenSheet(
            name: "overlap", edit: { $0.phases[5] = $0.phases[5].moved(start: 1_439_000) },
            error: .overlap(.phase(4), .phase(5), frames: 1000),
            message: "phases 4 and 5 overlap by 1000 frames"),
        BrokenSheet(
            name: "overlap by one frame", edit: { $0.phases[2] = $0.phases[2].moved(end: 1_056_001) },
            error: .overlap(.phase(2), .phase(3), frames: 1),
            message: "phases 2 and 3 overlap by 1 frame"),
        BrokenSheet(
            name: "unsorted", edit: { $0.phases.swapAt(4, 5) },
            error: .unsorted(.phase(4), .phase(5)),
            message: "phases 4 and 5 are out of order: phase 5 starts before phase 4"),
        BrokenSheet(
            name: "wrong index", edit: { $0.phases[3].index = 7 },
            error: .invalidValue(path: "phases[3].index", reason: "is 7, but the phase is number 3 in phases"),
            message: "phases[3].index: is 7, but the phase is number 3 in phases"),
        BrokenSheet(
            name: "empty phase", edit: { $0.phases[7] = $0.phases[7].moved(end: 1_824_000) },
            error: .invalidValue(path: "phases[7]", reason: "end_frame 1824000 is not after start_frame 1824000"),
            message: "phases[7]: end_frame 1824000 is not after start_frame 1824000"),
        BrokenSheet(
            name: "decreasing cycle", edit: { $0.phases[4].cycle = 2 },
            error: .invalidValue(path: "phases[5].cycle", reason: "is 1, less than phase 4's 2"),
            message: "phases[5].cycle: is 1, less than phase 4's 2"),
        BrokenSheet(
            name: "phase before the practice", edit: { $0.phases[0] = $0.phases[0].moved(start: 470_000) },
            error: .outOfRange(path: "phases[0]", reason: "starts at frame 470000, before the practice section (frames 480000…2016000)"),
            message: "phases[0]: starts at frame 470000, before the practice section (frames 480000…2016000)"),
        BrokenSheet(
            name: "phase after the practice", edit: { $0.phases[7] = $0.phases[7].moved(end: 2_016_480) },
            error: .outOfRange(path: "phases[7]", reason: "ends at frame 2016480, after the practice section (frames 480000…2016000)"),
            message: "phases[7]: ends at frame 2016480, after the practice section (frames 480000…2016000)"),
        BrokenSheet(
            name: "gap at the practice start", edit: { $0.phases[0] = $0.phases[0].moved(start: 480_010) },
            error: .gap(after: nil, before: .phase(0), frames: 480_000..<480_010),
            message: "gap between the start of the practice section and phase 0 (frames 480000…480010)"),
        BrokenSheet(
            name: "gap at the practice end", edit: { $0.phases[7] = $0.phases[7].moved(end: 2_015_000) },
            error: .gap(after: .phase(7), before: nil, frames: 2_015_000..<2_016_000),
            message: "gap between phase 7 and the end of the practice section (frames 2015000…2016000)"),
        BrokenSheet(
            name: "practice without phases",
            edit: {
                $0.phases = []; $0.cues = []
            },
            error: .gap(after: nil, before: nil, frames: 480_000..<2_016_000),
            message: "the practice section (frames 480000…2016000) has no phases"),
        BrokenSheet(
            name: "phases without practice", edit: { $0.sections.remove(at: 1) },
            error: .invalidValue(path: "sections", reason: "there are 8 phases but no practice section"),
            message: "sections: there are 8 phases but no practice section"),
        BrokenSheet(
            name: "cue after the end",
            edit: { $0.cues[5] = CueSheet.Cue(name: "end", phase: 7, frame: 2_400_000, lengthFrames: 72000, sampleRate: 48000) },
            error: .outOfRange(path: "cues[5].frame", reason: "frame 2400000 is outside the file (frames 0…2400000)"),
            message: "cues[5].frame: frame 2400000 is outside the file (frames 0…2400000)"),
        BrokenSheet(
            name: "cue before the start",
            edit: { $0.cues[0] = CueSheet.Cue(name: "start", phase: 0, frame: -1, lengthFrames: 72000, sampleRate: 48000) },
            error: .outOfRange(path: "cues[0].frame", reason: "frame -1 is outside the file (frames 0…2400000)"),
            message: "cues[0].frame: frame -1 is outside the file (frames 0…2400000)"),
        BrokenSheet(
            name: "cue of no phase", edit: { $0.cues[2].phase = 8 },
            error: .outOfRange(path: "cues[2].phase", reason: "is 8, not a phase index (0…7)"),
            message: "cues[2].phase: is 8, not a phase index (0…7)"),
        BrokenSheet(
            name: "sections overlap", edit: { $0.sections[0] = $0.sections[0].moved(end: 480_100) },
            error: .overlap(.section("intro"), .section("practice"), frames: 100),
            message: "sections intro and practice overlap by 100 frames"),
        BrokenSheet(
            name: "sections unsorted", edit: { $0.sections.swapAt(0, 1) },
            error: .unsorted(.section("practice"), .section("intro")),
            message: "sections practice and intro are out of order: section intro starts before section practice"),
        BrokenSheet(
            name: "section after the end", edit: { $0.sections[2] = $0.sections[2].moved(end: 2_400_001) },
            error: .outOfRange(path: "sections[2]", reason: "frames 2016000…2400001 are outside the file (frames 0…2400000)"),
            message: "sections[2]: frames 2016000…2400001 are outside the file (frames 0…2400000)"),
        BrokenSheet(
            name: "unknown section kind", edit: { $0.sections[0] = $0.sections[0].moved(kind: "warmup") },
            error: .invalidValue(path: "sections[0].kind", reason: #"unknown section kind "warmup" (known: intro, practice, outro)"#),
            message: #"sections[0].kind: unknown section kind "warmup" (known: intro, practice, outro)"#),
        BrokenSheet(
            name: "two outros", edit: { $0.sections.append($0.sections[2].moved(start: 2_400_000)) },
            error: .invalidValue(path: "sections[3].kind", reason: "a second outro section (the first is sections[2])"),
            message: "sections[3].kind: a second outro section (the first is sections[2])"),
        BrokenSheet(
            name: "zero sample rate", edit: { $0.audio.sampleRate = 0 },
            error: .invalidValue(path: "audio.sample_rate", reason: "must be greater than 0, found 0"),
            message: "audio.sample_rate: must be greater than 0, found 0"),
        BrokenSheet(
            name: "negative frames", edit: { $0.audio.frames = -1 },
            error: .invalidValue(path: "audio.frames", reason: "must not be negative, found -1"),
            message: "audio.frames: must not be negative, found -1"),
        BrokenSheet(
            name: "duration of other frames", edit: { $0.audio.frames = 2_399_999 },
            error: .timeMismatch(path: "audio.duration", time: 50.0, frame: 2_400_000, expectedFrame: 2_399_999),
            message: "audio.duration: 50.0 s is frame 2400000, but the sheet says frame 2399999"),
        BrokenSheet(
            name: "start of another frame", edit: { $0.phases[2].start = 18.5 },
            error: .timeMismatch(path: "phases[2].start", time: 18.5, frame: 888_000, expectedFrame: 864_000),
            message: "phases[2].start: 18.5 s is frame 888000, but the sheet says frame 864000"),
        BrokenSheet(
            name: "time a frame off", edit: { $0.cues[3].time = 1_248_001.0 / 48000 },
            error: .timeMismatch(path: "cues[3].time", time: 1_248_001.0 / 48000, frame: 1_248_001, expectedFrame: 1_248_000),
            message: "cues[3].time: 26.000020833333334 s is frame 1248001, but the sheet says frame 1248000"),
    ]

    @Test(arguments: broken)
    func decodingReportsTheFirstProblem(_ case_: BrokenSheet) throws {
        var sheet = try Fixture.boxSheet()
        case_.edit(&sheet)
        let error = Fixture.decodeError(sheet.jsonText())
        #expect(error == case_.error)
        #expect(error?.description == case_.message)
    }

    @Test(arguments: broken)
    func validateAndTheTimelineReportTheSame(_ case_: BrokenSheet) throws {
        var sheet = try Fixture.boxSheet()
        case_.edit(&sheet)
        #expect(throws: case_.error) { try sheet.validate() }
        #expect(throws: case_.error) { try CueTimeline(sheet) }
    }

    /// JSON holds no NaN or infinity, so a sheet built in memory with one is refused (it could not be written back).
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteLoudnessAndPeakAreRefused(_ value: Double) throws {
        var sheet = try Fixture.boxSheet()
        sheet.audio.loudnessLUFS = value
        #expect(throws: CueSheetError.self) { try sheet.validate() }
        #expect(throws: CueSheetError.self) { try CueTimeline(sheet) }
        sheet = try Fixture.boxSheet()
        sheet.audio.truePeakDBTP = value
        #expect(throws: CueSheetError.self) { try sheet.validate() }
        sheet.audio.truePeakDBTP = nil
        try sheet.validate()
    }

    /// A program's sheet (cues-v1.1): several practice sections, segments counting up from 0, each phase
    /// inside its segment's section, cycles counting again in each segment.
    @Test func aProgramsSectionsAreValid() throws {
        var sheet = try Fixture.boxSheet()
        guard let index = sheet.sections.firstIndex(where: { $0.kind == "practice" }) else { Issue.record("no practice"); return }
        let practice = sheet.sections[index]
        let middle = sheet.phases[sheet.phases.count / 2].startFrame
        let first = CueSheet.Section(kind: "practice", segment: 0, name: "A", startFrame: practice.startFrame, endFrame: middle, sampleRate: 48000)
        let second = CueSheet.Section(kind: "practice", segment: 1, name: "B", startFrame: middle, endFrame: practice.endFrame, sampleRate: 48000)
        sheet.sections.replaceSubrange(index...index, with: [first, second])
        var cycle = 0
        for i in sheet.phases.indices {
            let segment = sheet.phases[i].startFrame < middle ? 0 : 1
            if i > 0, segment != sheet.phases[i - 1].segment { cycle = 0 }
            sheet.phases[i].segment = segment
            sheet.phases[i].cycle = segment == 0 ? sheet.phases[i].cycle : cycle
            if i + 1 < sheet.phases.count, sheet.phases[i + 1].kind == sheet.phases[0].kind, segment == 1 { cycle += 1 }
        }
        try sheet.validate()
        // a phase naming the wrong segment, and a second segment 0, are refused
        var wrong = sheet
        wrong.phases[0].segment = 1
        #expect(throws: CueSheetError.self) { try wrong.validate() }
        var repeated = sheet
        repeated.sections[index + 1].segment = 0
        #expect(throws: CueSheetError.self) { try repeated.validate() }
    }

    @Test func aRenderedSheetIsValid() throws {
        try Fixture.boxSheet().validate()
        try CueSheet.decode(from: Fixture.odd).validate()
    }

    /// Sections of zero length may be left out; gaps between sections are not the phases' business.
    @Test func sectionsMayBeLeftOutOrEmpty() throws {
        var sheet = try Fixture.boxSheet()
        sheet.sections.remove(at: 0)
        try sheet.validate()
        sheet.sections.insert(CueSheet.Section(kind: "intro", startFrame: 0, endFrame: 0, sampleRate: 48000), at: 0)
        try sheet.validate()
        sheet.sections.removeLast()
        try sheet.validate()
    }
}
