/// What a cue sheet says about one playback position: section, phase, progress, and what comes next.
///
/// Made by `CueTimeline.position(atTime:)` or `position(atFrame:)`. Every answer is about
/// `frame`, the position rounded to a frame and clamped into `0...frames`, so the answers
/// agree with each other and with the sheet's own frames.
public struct CuePosition: Sendable, Equatable {
    /// The frame looked up, clamped into `0...audio.frames`.
    public var frame: Int64
    /// `frame / sample_rate`, in seconds.
    public var time: Double

    /// The section holding `frame`, or nil at the end of the file (and in a gap between sections).
    public var section: CueSheet.Section?
    /// `section`'s kind, or nil when there is no section.
    public var sectionKind: CueSheet.SectionKind?
    /// The phase holding `frame`, or nil outside the practice (in the intro, the outro, at the end).
    /// A boundary frame belongs to the phase that starts there.
    public var phase: CueSheet.Phase?
    /// The phase before `phase` (what a `hold` holds: the breath of an inhale, or an exhale's emptiness);
    /// nil in the first phase and outside phases.
    public var previousPhase: CueSheet.Phase?

    /// How far into `phase`, from 0 at its first frame towards 1 (reached only at its end, which is the
    /// next phase's 0); 0 when there is no phase.
    public var phaseProgress: Double
    /// How far into `section`, 0 towards 1; 0 when there is no section.
    public var sectionProgress: Double
    /// How far into the file, 0 at the start, 1 at the end.
    public var progress: Double

    /// The next frame where the phase or section changes (the current phase's end, the current
    /// section's end, or the next section's start); nil at the end of the file.
    public var nextBoundaryFrame: Int64?
    /// `nextBoundaryFrame - frame`.
    public var framesToNextBoundary: Int64?
    /// `framesToNextBoundary / sample_rate`, in seconds: for a countdown.
    public var secondsToNextBoundary: Double?
    /// The phase starting at `nextBoundaryFrame`: the next phase, phase 0 from the intro, nil from
    /// the last phase or the outro.
    public var nextPhase: CueSheet.Phase?
    /// The section starting at `nextBoundaryFrame`, if a section starts there (the outro after the last phase).
    public var nextSection: CueSheet.Section?

    /// The phase's index in `phases`, or nil outside phases.
    public var phaseIndex: Int? { phase?.index }
    /// The phase's cycle (0 for the first cycle), or nil outside phases.
    public var cycle: Int? { phase?.cycle }
    /// The program segment holding the position (cues-v1.1, from 0), or nil outside the practice (in the
    /// intro, the outro, at the end). A sheet without segments (v1) has one, segment 0.
    public var segment: Int? { section?.kind == CueSheet.SectionKind.practice.rawValue ? section?.segment ?? 0 : nil }
    /// The segment's name (a program segment's `label`, or its pattern's name), nil outside the practice
    /// and in a v1 sheet.
    public var segmentName: String? { segment == nil ? nil : section?.name }
    /// The segment's breath-rate ramp, when it has one.
    public var ramp: CueSheet.Ramp? { segment == nil ? nil : section?.ramp }
    /// Whether the position is at (or was clamped to) the end of the file, where no section is.
    public var isAtEnd: Bool { nextBoundaryFrame == nil }
}
