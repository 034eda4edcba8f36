import CadenceCues
import Foundation
import Testing

import struct TestKit.SplitMix64

/// An 8-hour sheet: 7200 phases of uneven lengths, 1,382,760,000 frames at 48 kHz.
@Suite struct LongSessionTests {
    let sheet = Synthetic.eightHours()

    @Test func theSheetIsAsLongAsIntended() throws {
        #expect(sheet.phases.count == 7200)
        #expect(sheet.audio.frames == 1_382_760_000)
        #expect(sheet.audio.duration == 28807.5)
        #expect(sheet.phases[7199].endFrame == 1_382_400_000)
        try sheet.validate()
    }

    @Test func everyBoundaryFrameAndTimeIsExact() throws {
        let timeline = try CueTimeline(sheet)
        for p in sheet.phases {
            #expect(timeline.phaseIndex(atFrame: p.startFrame) == p.index)
            #expect(timeline.phaseIndex(atFrame: p.startFrame - 1) == (p.index == 0 ? nil : p.index - 1))
            #expect(timeline.frame(atTime: p.start) == p.startFrame)
            #expect(timeline.frame(atTime: p.end) == p.endFrame)
        }
    }

    /// Thousands of random times (and frames next to every kind of boundary) against the linear reference.
    @Test func agreesWithALinearScanAtRandomTimes() throws {
        let timeline = try CueTimeline(sheet)
        let reference = ReferenceLookup(sheet)
        var random = SplitMix64(seed: 0x00C0_FFEE)
        let end = timeline.duration
        var times = (0..<4000).map { _ in Double.random(in: -5...(end + 5), using: &random) }
        // Times crowded into the last hour, where a Float or a 32-bit frame would have gone wrong long ago.
        times += (0..<1000).map { _ in Double.random(in: (end - 3600)...end, using: &random) }
        times += sheet.phases.indices.map { _ in sheet.phases.randomElement(using: &random)?.start ?? 0 }.prefix(500)
        var mismatches: [String] = []
        for t in times {
            let got = ReferenceLookup.Answer(timeline.position(atTime: t))
            let want = reference.answer(atTime: t)
            if got != want { mismatches.append("t = \(t): got \(got), want \(want)") }
        }
        var frames: [Int64] = [0, 1, timeline.frames - 1, timeline.frames]
        for s in sheet.sections { frames += [s.startFrame - 1, s.startFrame, s.endFrame - 1, s.endFrame] }
        for _ in 0..<300 {
            let p = sheet.phases.randomElement(using: &random) ?? sheet.phases[0]
            frames += [p.startFrame - 1, p.startFrame, p.startFrame + 1, p.endFrame - 1]
        }
        for f in frames {
            let got = ReferenceLookup.Answer(timeline.position(atFrame: f))
            let want = reference.answer(atFrame: f)
            if got != want { mismatches.append("frame \(f): got \(got), want \(want)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(times.count + frames.count) differ, first: \(mismatches.prefix(3))")
    }

    @Test func spotChecksDeepIntoTheSession() throws {
        let timeline = try CueTimeline(sheet)
        // Phase 7199 (rest, cycle 1799): 30 min + 1799 × 15 s + 11.734567891 s = 28796.734567891 s.
        let last = sheet.phases[7199]
        #expect(last.startFrame == 1_382_243_259)
        #expect(last.kind == "rest")
        let p = timeline.position(atTime: 28797.0)
        #expect(p.frame == 1_382_256_000)
        #expect(p.phaseIndex == 7199)
        #expect(p.cycle == 1799)
        #expect(p.framesToNextBoundary == 144_000)  // to the end of the practice, 1_382_400_000
        #expect(p.nextSection?.kind == "outro")
        #expect(p.phaseProgress == Double(1_382_256_000 - 1_382_243_259) / Double(1_382_400_000 - 1_382_243_259))
        #expect(timeline.position(atFrame: 1_382_243_258).phaseIndex == 7198)
        #expect(timeline.position(atTime: 28799.99).phaseIndex == 7199)
        #expect(timeline.position(atTime: 28800.0).sectionKind == .outro)
    }

    @Test func aLongSheetRoundTripsThroughJSON() throws {
        let text = sheet.jsonText()
        let decoded = try CueSheet.decode(from: text)
        #expect(decoded == sheet)
        #expect(decoded.jsonText() == text)
    }
}
