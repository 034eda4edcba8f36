import CadenceCues
import Testing

/// Lookups in the box fixture: intro 0…480000, eight 4 s phases (192000 frames) from 480000 to 2016000,
/// outro to 2400000, at 48 kHz.
@Suite struct CueTimelineTests {
    let box: CueTimeline
    let odd: CueTimeline

    init() throws {
        box = try CueTimeline(Fixture.boxSheet())
        odd = try CueTimeline(CueSheet.decode(from: Fixture.odd))
    }

    @Test func aBoundaryFrameBelongsToThePhaseThatStartsThere() {
        let starts: [Int64] = [480_000, 672_000, 864_000, 1_056_000, 1_248_000, 1_440_000, 1_632_000, 1_824_000]
        for (i, b) in starts.enumerated() {
            #expect(box.position(atFrame: b).phaseIndex == i)
            #expect(box.position(atFrame: b - 1).phaseIndex == (i == 0 ? nil : i - 1))
            #expect(box.phaseIndex(atFrame: b) == i)
        }
        #expect(box.position(atFrame: 479_999).sectionKind == .intro)
        #expect(box.position(atFrame: 480_000).sectionKind == .practice)
        #expect(box.position(atFrame: 2_015_999).phaseIndex == 7)
        #expect(box.position(atFrame: 2_015_999).sectionKind == .practice)
        #expect(box.position(atFrame: 2_016_000).phaseIndex == nil)
        #expect(box.position(atFrame: 2_016_000).sectionKind == .outro)
    }

    /// Every time the sheet writes maps back to its exact frame, and so to its own phase and section.
    @Test func timesWrittenInTheSheetMapToTheirFrames() {
        for timeline in [box, odd] {
            let phases = timeline.sheet.phases
            for p in phases {
                let atStart = timeline.position(atTime: p.start)
                #expect(atStart.frame == p.startFrame)
                #expect(atStart.phaseIndex == p.index)
                #expect(atStart.phaseProgress == 0)
                let atEnd = timeline.position(atTime: p.end)
                #expect(atEnd.frame == p.endFrame)
                #expect(atEnd.phaseIndex == (p.index + 1 < phases.count ? p.index + 1 : nil))
            }
            for s in timeline.sheet.sections {
                #expect(timeline.position(atTime: s.start).sectionKind?.rawValue == s.kind)
                #expect(timeline.frame(atTime: s.end) == s.endFrame)
            }
            for c in timeline.sheet.cues {
                #expect(timeline.frame(atTime: c.time) == c.frame)
            }
            #expect(timeline.frame(atTime: timeline.sheet.audio.duration) == timeline.frames)
        }
    }

    /// `floor(t × rate + 1/2)`: the nearest frame, not the one before (truncating would be a frame early).
    @Test func timesRoundToTheNearestFrame() {
        #expect(box.frame(atTime: (672_000 - 0.4) / 48000) == 672_000)
        #expect(box.position(atTime: (672_000 - 0.4) / 48000).phaseIndex == 1)
        #expect(box.frame(atTime: (672_000 - 0.6) / 48000) == 671_999)
        #expect(box.position(atTime: (672_000 - 0.6) / 48000).phaseIndex == 0)
        #expect(odd.frame(atTime: (199_974 - 0.4) / 44100) == 199_974)
        #expect(odd.position(atTime: (199_974 - 0.4) / 44100).phase?.kind == "slow_exhale")
        #expect(odd.frame(atTime: (199_974 - 0.6) / 44100) == 199_973)
        #expect(odd.position(atTime: (199_974 - 0.6) / 44100).phase?.kind == "inhale")
    }

    @Test func progressRunsFromZeroTowardsOne() {
        let start = box.position(atTime: 10.0)
        #expect(start.phaseProgress == 0)
        #expect(start.sectionProgress == 0)
        let middle = box.position(atTime: 12.0)
        #expect(middle.frame == 576_000)
        #expect(middle.phaseProgress == 0.5)
        #expect(middle.sectionProgress == 0.0625)
        #expect(middle.progress == 0.24)
        let last = box.position(atFrame: 671_999)
        #expect(last.phaseProgress == 191_999.0 / 192_000.0)
        #expect(box.position(atTime: 13.999).phaseProgress == 191_952.0 / 192_000.0)
        #expect(box.position(atTime: 46.0).sectionProgress == 0.5)
        #expect(box.position(atTime: 25.0).progress == 0.5)
    }

    @Test func timeToTheNextBoundary() {
        let inPhase = box.position(atTime: 12.0)
        #expect(inPhase.nextBoundaryFrame == 672_000)
        #expect(inPhase.framesToNextBoundary == 96000)
        #expect(inPhase.secondsToNextBoundary == 2.0)
        #expect(inPhase.nextPhase?.index == 1)
        #expect(inPhase.nextPhase?.label == "Hold")
        #expect(inPhase.nextSection == nil)

        let inIntro = box.position(atTime: 2.5)
        #expect(inIntro.secondsToNextBoundary == 7.5)
        #expect(inIntro.nextBoundaryFrame == 480_000)
        #expect(inIntro.nextPhase?.index == 0)
        #expect(inIntro.nextSection?.kind == "practice")

        let inLastPhase = box.position(atTime: 41.0)
        #expect(inLastPhase.secondsToNextBoundary == 1.0)
        #expect(inLastPhase.nextPhase == nil)
        #expect(inLastPhase.nextSection?.kind == "outro")

        let inOutro = box.position(atTime: 45.0)
        #expect(inOutro.secondsToNextBoundary == 5.0)
        #expect(inOutro.nextBoundaryFrame == 2_400_000)
        #expect(inOutro.nextPhase == nil)
        #expect(inOutro.nextSection == nil)

        let oneFrameBefore = box.position(atFrame: 1_823_999)
        #expect(oneFrameBefore.framesToNextBoundary == 1)
        #expect(oneFrameBefore.secondsToNextBoundary == 1.0 / 48000)
    }

    @Test func phaseCycleAndNeighbours() {
        let p = box.position(atTime: 31.0)
        #expect(p.phaseIndex == 5)
        #expect(p.cycle == 1)
        #expect(p.phase?.kind == "hold")
        #expect(p.phase?.label == "Hold")
        #expect(p.previousPhase?.kind == "inhale")
        #expect(p.previousPhase?.index == 4)
        #expect(p.nextPhase?.kind == "exhale")
        #expect(box.position(atTime: 10.0).previousPhase == nil)
        #expect(box.position(atTime: 26.0).cycle == 1)
        #expect(box.position(atTime: 25.9999).cycle == 0)
    }

    @Test func introAndOutroHaveNoPhase() {
        let intro = box.position(atTime: 0)
        #expect(intro.sectionKind == .intro)
        #expect(intro.section?.endFrame == 480_000)
        #expect(intro.phase == nil)
        #expect(intro.phaseIndex == nil)
        #expect(intro.cycle == nil)
        #expect(intro.phaseProgress == 0)
        #expect(intro.progress == 0)
        #expect(!intro.isAtEnd)
        let outro = box.position(atTime: 46.0)
        #expect(outro.sectionKind == .outro)
        #expect(outro.phase == nil)
        #expect(outro.previousPhase == nil)
    }

    @Test(arguments: [-3.0, -0.0, -.infinity, .nan, -1e300])
    func timesBeforeTheStartAreFrameZero(_ t: Double) {
        #expect(box.frame(atTime: t) == 0)
        #expect(box.position(atTime: t) == box.position(atFrame: 0))
        #expect(box.position(atTime: t).sectionKind == .intro)
    }

    @Test(arguments: [50.0, 50.1, 49.99999, 1e12, .infinity, .greatestFiniteMagnitude])
    func timesAtOrAfterTheEndAreTheEnd(_ t: Double) {
        let end = box.position(atTime: t)
        #expect(end.frame == 2_400_000)
        #expect(end.time == 50.0)
        #expect(end.isAtEnd)
        #expect(end.section == nil)
        #expect(end.phase == nil)
        #expect(end.progress == 1)
        #expect(end.nextBoundaryFrame == nil)
        #expect(end.secondsToNextBoundary == nil)
        #expect(end.nextPhase == nil)
    }

    @Test func framesAreClampedToo() {
        #expect(box.position(atFrame: -5).frame == 0)
        #expect(box.position(atFrame: .min).frame == 0)
        #expect(box.position(atFrame: .max).frame == 2_400_000)
        #expect(box.position(atFrame: 2_400_001).isAtEnd)
        let lastFrame = box.position(atTime: 49.99998)
        #expect(lastFrame.frame == 2_399_999)
        #expect(!lastFrame.isAtEnd)
        #expect(lastFrame.sectionKind == .outro)
        #expect(lastFrame.framesToNextBoundary == 1)
    }

    @Test func withoutIntroOrOutroThePhasesRunFromStartToEnd() throws {
        let sheet = Synthetic.sheet(rate: 44100, intro: 0, outro: 0, pattern: Synthetic.unevenPattern, phaseCount: 6)
        #expect(sheet.sections.map(\.kind) == ["practice"])
        let timeline = try CueTimeline(sheet)
        #expect(timeline.position(atTime: 0).phaseIndex == 0)
        #expect(timeline.position(atTime: -1).phaseIndex == 0)
        let last = timeline.position(atFrame: timeline.frames - 1)
        #expect(last.phaseIndex == 5)
        #expect(last.nextBoundaryFrame == timeline.frames)
        #expect(last.nextPhase == nil)
        #expect(last.nextSection == nil)
        #expect(timeline.position(atFrame: timeline.frames).isAtEnd)
        #expect(timeline.position(atFrame: timeline.frames).phase == nil)
    }

    @Test(arguments: [0, 1, 479_999, 480_000, 576_000, 1_056_000, 2_015_999, 2_016_000, 2_399_999, 2_400_000])
    func agreesWithTheReferenceAtChosenFrames(_ frame: Int64) {
        let reference = ReferenceLookup(box.sheet)
        #expect(ReferenceLookup.Answer(box.position(atFrame: frame)) == reference.answer(atFrame: frame))
    }
}
