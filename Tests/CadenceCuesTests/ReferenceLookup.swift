import CadenceCues

/// The lookup done the obvious, slow way: a linear scan over every phase, section and boundary.
/// `CueTimeline` must agree with it everywhere.
struct ReferenceLookup {
    let sheet: CueSheet
    /// Every frame where something starts or ends, unsorted, with repeats.
    let boundaries: [Int64]
    /// The phases' frames, apart, so that a scan does not copy each phase's strings.
    let starts: [Int64]
    let ends: [Int64]

    init(_ sheet: CueSheet) {
        self.sheet = sheet
        self.starts = sheet.phases.map(\.startFrame)
        self.ends = sheet.phases.map(\.endFrame)
        var boundaries = [sheet.audio.frames]
        for p in sheet.phases { boundaries += [p.startFrame, p.endFrame] }
        for s in sheet.sections where s.endFrame > s.startFrame { boundaries += [s.startFrame, s.endFrame] }
        self.boundaries = boundaries
    }

    /// What both lookups answer, side by side.
    struct Answer: Equatable, CustomStringConvertible {
        var frame: Int64
        var section: String?
        var phase: Int?
        var previousPhase: Int?
        var cycle: Int?
        var phaseProgress: Double
        var sectionProgress: Double
        var progress: Double
        var nextBoundary: Int64?
        var secondsToNext: Double?
        var nextPhase: Int?
        var nextSection: String?

        var description: String {
            "frame \(frame): \(section ?? "-") phase \(phase.map(String.init) ?? "-") (prev \(previousPhase.map(String.init) ?? "-"), "
                + "cycle \(cycle.map(String.init) ?? "-")) \(phaseProgress)/\(sectionProgress)/\(progress) "
                + "next \(nextBoundary.map(String.init) ?? "-") in \(secondsToNext.map { "\($0)" } ?? "-") s: "
                + "phase \(nextPhase.map(String.init) ?? "-"), section \(nextSection ?? "-")"
        }

        init(_ p: CuePosition) {
            frame = p.frame
            section = p.sectionKind?.rawValue
            phase = p.phaseIndex
            previousPhase = p.previousPhase?.index
            cycle = p.cycle
            phaseProgress = p.phaseProgress
            sectionProgress = p.sectionProgress
            progress = p.progress
            nextBoundary = p.nextBoundaryFrame
            secondsToNext = p.secondsToNextBoundary
            nextPhase = p.nextPhase?.index
            nextSection = p.nextSection?.kind
        }

        init() {
            frame = 0
            phaseProgress = 0
            sectionProgress = 0
            progress = 0
        }
    }

    var rate: Int { sheet.audio.sampleRate }
    var frames: Int64 { sheet.audio.frames }

    /// The nearest frame, clamped to the file.
    func frame(atTime t: Double) -> Int64 {
        guard t > 0 else { return 0 }
        let end = Double(frames) / Double(rate)
        if t >= end { return frames }
        return min(Int64((t * Double(rate)).rounded(.toNearestOrAwayFromZero)), frames)
    }

    func answer(atTime t: Double) -> Answer { answer(atFrame: frame(atTime: t)) }

    /// The answer for a frame, clamped to the file like the real lookup.
    func answer(atFrame requested: Int64) -> Answer {
        let f = min(max(requested, 0), frames)
        var a = Answer()
        a.frame = f
        var phase: CueSheet.Phase?
        starts.withUnsafeBufferPointer { starts in
            ends.withUnsafeBufferPointer { ends in
                for i in 0..<starts.count where starts[i] <= f && f < ends[i] {
                    phase = sheet.phases[i]
                    return
                }
            }
        }
        let section = sheet.sections.first { $0.startFrame <= f && f < $0.endFrame }
        a.section = section?.kind
        a.phase = phase?.index
        a.cycle = phase?.cycle
        if let phase, phase.index > 0 { a.previousPhase = phase.index - 1 }
        if let phase { a.phaseProgress = Double(f - phase.startFrame) / Double(phase.endFrame - phase.startFrame) }
        if let section { a.sectionProgress = Double(f - section.startFrame) / Double(section.endFrame - section.startFrame) }
        a.progress = frames == 0 ? 1 : Double(f) / Double(frames)
        var next = Int64.max
        boundaries.withUnsafeBufferPointer { boundaries in
            for b in boundaries where b > f && b < next { next = b }
        }
        if next < .max {
            a.nextBoundary = next
            a.secondsToNext = Double(next - f) / Double(rate)
            a.nextPhase = starts.firstIndex(of: next)
            a.nextSection = sheet.sections.first { $0.startFrame == next && $0.endFrame > next }?.kind
        }
        return a
    }
}
