import CadenceCues
import Foundation
import Testing

/// cues-v1.2's `guide`: the sheet carries the envelope's shape and every phase's guide, and
/// `CueTimeline.guide(atFrame:)` gives E by recipe-v1.2's formula, checked here against a walk of
/// the formula written apart from `BreathEnvelope` (a linear scan over the phases).
@Suite struct GuideTests {
    /// The box fixture (intro 0…480000, eight 4 s phases inhale, hold, exhale, hold, outro from
    /// 2016000 to 2400000, 48 kHz) with guidance: every phase its kind's default guide.
    static func guidedBox(_ shape: BreathShape = .sine) throws -> CueSheet {
        var sheet = try Fixture.boxSheet()
        sheet.guide = CueSheet.Guide(shape: shape)
        for k in sheet.phases.indices { sheet.phases[k].guide = BreathGuide.defaultGuide(for: sheet.phases[k].kind) }
        return sheet
    }

    /// E at `frame` by the spec's words, in a linear scan: a phase's a is where the one before ended
    /// (0 for the first); rise → 1, fall → 0, hold keeps a, none is 0; 0 in the intro; the outro falls
    /// from E at its start to 0 over min(2 s, the outro), then 0.
    static func reference(_ sheet: CueSheet, at frame: Int64) -> Double {
        func w(_ u: Double) -> Double { sheet.guide?.shape == .linear ? u : (1 - cos(Double.pi * u)) / 2 }
        var level = 0.0
        for phase in sheet.phases {
            let a = level
            let guide = phase.guide ?? .hold
            let b: Double =
                switch guide {
                case .rise: 1
                case .fall: 0
                case .hold: a
                case .none: 0
                }
            if frame < phase.startFrame { return a }
            if frame < phase.endFrame {
                if guide == .none { return 0 }
                let u = Double(frame - phase.startFrame) / Double(phase.endFrame - phase.startFrame)
                return a + (b - a) * w(u)
            }
            level = guide == .none ? 0 : b
        }
        guard let outro = sheet.sections.first(where: { $0.kind == "outro" }), frame >= outro.startFrame else { return level }
        let length = min(2 * Int64(sheet.audio.sampleRate), sheet.audio.frames - outro.startFrame)
        guard frame < outro.startFrame + length else { return 0 }
        return level * (1 - w(Double(frame - outro.startFrame) / Double(length)))
    }

    @Test func aGuidedSheetSaysVersionOnePointTwoAndReadsBackAsWritten() throws {
        let sheet = try Self.guidedBox(.linear)
        let text = sheet.jsonText()
        #expect(text.contains(#""version": 1.2,"#))
        #expect(text.contains(#""shape": "linear""#))
        #expect(text.contains(#""label": "Breathe In", "guide": "rise","#), "\(text)")
        let read = try CueSheet.decode(from: text)
        var expected = sheet
        expected.minorVersion = 2
        #expect(read == expected)
        #expect(read.jsonText() == text)
        // without guidance, the sheet is written as before
        #expect(try Fixture.boxSheet().jsonText() == Fixture.box)
    }

    @Test func theGuideAndThePhasesGuidesComeTogether() throws {
        var missing = try Self.guidedBox()
        missing.phases[3].guide = nil
        #expect(throws: CueSheetError.self) { try missing.validate() }
        var stray = try Fixture.boxSheet()
        stray.phases[2].guide = .fall
        #expect(throws: CueSheetError.self) { try stray.validate() }
        let good = try Self.guidedBox().jsonText()
        let first = try #require(good.range(of: #""guide": "hold""#))
        let bad = good.replacingCharacters(in: first, with: #""guide": "pause""#)
        guard case .invalidValue(let path, _)? = Fixture.decodeError(bad) else {
            Issue.record("a guide of 'pause' was read")
            return
        }
        #expect(path == "phases[1].guide" || path == "phases.1.guide", "\(path)")
    }

    @Test(arguments: [BreathShape.sine, .linear])
    func theRingFollowsTheFormulaAtEveryBoundaryAndInside(_ shape: BreathShape) throws {
        let sheet = try Self.guidedBox(shape)
        let timeline = try CueTimeline(sheet)
        #expect(timeline.hasGuide)
        var frames: [Int64] = [0, 479_999, 2_399_999, 2_400_000]
        for phase in sheet.phases {
            let length = phase.endFrame - phase.startFrame
            frames += [phase.startFrame - 1, phase.startFrame, phase.startFrame + 1, phase.startFrame + length / 4, phase.startFrame + length / 2]
            frames += [phase.endFrame - 1]
        }
        for frame in frames {
            let expected = frame >= sheet.audio.frames ? 0 : Self.reference(sheet, at: frame)
            #expect(abs(timeline.guide(atFrame: frame) - expected) < 1e-12, "frame \(frame)")
        }
        // the inhale (phase 0) rises to full, the hold after it stays full, the exhale empties
        #expect(timeline.guide(atFrame: 480_000) == 0)
        #expect(abs(timeline.guide(atFrame: 576_000) - 0.5) < 1e-12)
        #expect(timeline.guide(atFrame: 700_000) == 1)
        #expect(timeline.guide(atTime: 10 + 4 + 4 + 2) > 0.49 && timeline.guide(atTime: 20) < 0.51)
        #expect(timeline.guide(atFrame: 2_100_000) == 0)
        // a sheet without guidance has none
        #expect(try CueTimeline(Fixture.boxSheet()).guide(atFrame: 576_000) == 0)
        #expect(try !CueTimeline(Fixture.boxSheet()).hasGuide)
    }

    /// An outro that starts full (the last phase an inhale) falls over 2 s, or over the whole
    /// outro when it is shorter.
    @Test(arguments: [Int64(96_000), 48_000])
    func theOutroFallsFromWhereTheBreathWas(_ outroFrames: Int64) throws {
        var sheet = try Self.guidedBox()
        // end the practice after phase 4 (an inhale), the outro then
        let end = sheet.phases[4].endFrame
        sheet.phases = Array(sheet.phases.prefix(5))
        sheet.cues = sheet.cues.filter { $0.phase < 5 && $0.frame < end + outroFrames }
        let rate = sheet.audio.sampleRate
        sheet.sections = sheet.sections.map { s in
            switch s.kind {
            case "practice": CueSheet.Section(kind: s.kind, startFrame: s.startFrame, endFrame: end, sampleRate: rate)
            case "outro": CueSheet.Section(kind: s.kind, startFrame: end, endFrame: end + outroFrames, sampleRate: rate)
            default: s
            }
        }
        sheet.audio = CueSheet.Audio(
            file: sheet.audio.file, sampleRate: rate, channels: sheet.audio.channels, frames: end + outroFrames, sha256: sheet.audio.sha256,
            loudnessLUFS: nil, truePeakDBTP: nil)
        let timeline = try CueTimeline(sheet)
        #expect(timeline.guide(atFrame: end - 1) > 0.999)
        #expect(timeline.guide(atFrame: end) == 1)
        for frame in stride(from: end, to: end + outroFrames, by: 997) {
            #expect(abs(timeline.guide(atFrame: frame) - Self.reference(sheet, at: frame)) < 1e-12, "frame \(frame)")
        }
        #expect(timeline.guide(atFrame: end + outroFrames - 1) < 0.01)
    }

    /// On the 8-hour synthetic sheet (7200 phases), random frames agree with the linear scan.
    @Test func aLongSheetAgreesWithADirectEvaluation() throws {
        var sheet = Synthetic.eightHours()
        sheet.guide = CueSheet.Guide(shape: .sine)
        for k in sheet.phases.indices { sheet.phases[k].guide = BreathGuide.defaultGuide(for: sheet.phases[k].kind) }
        let timeline = try CueTimeline(sheet)
        var generator = SplitMix(seed: 7)
        for _ in 0..<400 {
            let frame = Int64(generator.next() % UInt64(sheet.audio.frames))
            #expect(abs(timeline.guide(atFrame: frame) - Self.reference(sheet, at: frame)) < 1e-12, "frame \(frame)")
        }
    }
}

/// A small seeded generator, so the frames tried are the same every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
