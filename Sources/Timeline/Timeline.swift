import AudioCore
import Recipe

/// A recipe laid out in frames: sections, phases and cue events, all exact.
///
/// Built once from the recipe's decimal lengths with integer arithmetic: each
/// boundary's exact time is `intro + cycle × k + (phases before it in the cycle)`,
/// and becomes a frame through `ExactSeconds.frame(at:)` alone. Nothing
/// accumulates, so a boundary ten hours in is where the arithmetic says.
public struct Timeline: Sendable {
    public let sampleRate: Int
    /// The exact length of the file.
    public let duration: ExactSeconds
    /// `floor(duration × rate + 1/2)`.
    public let totalFrames: Int64
    /// Intro, one practice section per segment, outro; intro and outro of zero length are left out.
    public let sections: [Section]
    /// The exact start of each segment of the practice (one for a recipe without `program:`).
    public let segmentStarts: [ExactSeconds]
    /// The practice, phase by phase: they tile the practice section.
    public let phases: [PhaseSpan]
    /// Every cue to sound, in frame order.
    public let cues: [CueEvent]
    /// Whole cycles held, in every segment together.
    public let wholeCycles: Int
    /// Every voice prompt, in frame order (recipe-v1.1); empty without `voice:`.
    public let prompts: [PromptEvent]
    /// What the layout noticed and let pass: an `end` cue the recipe asks for that has no room to
    /// sound (the practice runs to the file's last frame).
    public let warnings: [Diagnostic]

    /// Lays out `recipe` at its output sample rate.
    public init(recipe: Recipe) throws(DiagnosticList) {
        let rate = recipe.output.sampleRate
        try Self.checkPhasesHoldFrames(recipe)
        let layout = try PracticeLayout(recipe: recipe)
        self.sampleRate = rate
        self.duration = layout.duration
        self.totalFrames = layout.duration.frame(at: rate)
        self.wholeCycles = layout.wholeCycles

        let practiceStart = recipe.intro
        let practiceEnd = recipe.intro + layout.practice
        var sections: [Section] = []
        let intro = Section(kind: .intro, start: .zero, end: practiceStart, rate: rate)
        if intro.endFrame > intro.startFrame { sections.append(intro) }
        for (index, segment) in layout.segments.enumerated() {
            sections.append(
                Section(
                    kind: .practice, start: practiceStart + segment.start, end: practiceStart + segment.end, rate: rate,
                    segment: index, name: segment.name, ramp: segment.ramp))
        }
        let outro = Section(kind: .outro, start: practiceEnd, end: layout.duration, rate: rate)
        if outro.endFrame > outro.startFrame { sections.append(outro) }
        self.sections = sections
        self.segmentStarts = layout.segments.map { practiceStart + $0.start }

        var phases: [PhaseSpan] = []
        phases.reserveCapacity(layout.phases.count)
        for planned in layout.phases {
            let start = practiceStart + planned.start
            let span = PhaseSpan(
                index: phases.count, segment: planned.segment, cycle: planned.cycle, kind: planned.kind, label: planned.label,
                start: start, end: start + planned.length, rate: rate)
            // a transition shorter than a frame rounds to none: it is left out, the phases still tile
            if span.endFrame == span.startFrame, planned.kind == Segment.transitionKind { continue }
            phases.append(span)
        }
        self.phases = phases

        let anchors = TrackAnchors(
            practiceStart: practiceStart, practiceEnd: practiceEnd, duration: layout.duration, rate: rate, segmentStarts: segmentStarts)
        let limits = try CueLimits(recipe: recipe, anchors: anchors)
        var cues: [CueEvent] = []
        if let first = phases.first, let last = phases.last {
            if let sound = recipe.cues["start"], limits.sounds("start", cycle: 0, frame: first.startFrame) {
                cues.append(CueEvent(name: "start", phase: first.index, frame: first.startFrame, sound: sound))
            }
            let tick = try TickPlacement(recipe: recipe, phases: phases)
            for phase in phases {
                if let sound = recipe.cues[phase.kind], limits.sounds(phase.kind, cycle: phase.cycle, frame: phase.startFrame) {
                    cues.append(CueEvent(name: phase.kind, phase: phase.index, frame: phase.startFrame, sound: sound))
                }
                tick?.append(in: phase, rate: rate, limits: limits, to: &cues)
            }
            if let sound = recipe.cues["end"], last.endFrame < totalFrames, limits.sounds("end", cycle: last.cycle, frame: last.endFrame) {
                cues.append(CueEvent(name: "end", phase: last.index, frame: last.endFrame, sound: sound))
            }
        }
        try limits.checkEverySounds(cues, recipe: recipe, phases: phases, totalFrames: totalFrames)
        self.cues = cues
        var warnings: [Diagnostic] = []
        if recipe.cues["end"] != nil, let written = recipe.locations["cues.end"], let last = phases.last, last.endFrame >= totalFrames {
            warnings.append(
                Diagnostic(
                    "cues.end: the practice runs to the file's last frame (no outro), so the end cue never sounds; "
                        + "give the recipe an outro (like 'outro: 10s') or write 'end: none'",
                    at: written
                ).asWarning())
        }
        self.warnings = warnings
        self.prompts = try PromptPlacement.place(recipe, phases: phases, anchors: anchors)
    }

    /// Refuses a phase shorter than one frame (`1 / sample_rate`): its start and end could round to the
    /// same frame, an empty phase that the cue sheet cannot hold and no player can show. A phase of at
    /// least one frame always spans one, wherever it starts: `floor(x + L·rate) ≥ floor(x) + 1` when `L·rate ≥ 1`.
    static func checkPhasesHoldFrames(_ recipe: Recipe) throws(DiagnosticList) {
        let rate = recipe.output.sampleRate
        for (index, segment) in recipe.segments.enumerated() {
            let phases = segment.pattern.phases
            let short = phases.indices.filter {
                Int128(phases[$0].length.nanoseconds) * Int128(rate) < Int128(ExactSeconds.nanosPerSecond)
            }
            guard let first = short.first else { continue }
            let phase = phases[first]
            let more = short.count > 1 ? " (and \(short.count - 1) more phase\(short.count > 2 ? "s" : ""))" : ""
            let path = recipe.segmentPath(index, "pattern.phases.\(first)")
            throw DiagnosticList([
                Diagnostic(
                    "\(path): \(phase.kind) lasts \(phase.length)s, less than one frame at \(rate) Hz\(more); "
                        + "expected a phase of at least one frame (1/\(rate) s)",
                    at: recipe.location(of: path + ".length"))
            ])
        }
    }

    /// The section of a kind, if it has any length.
    public func section(_ kind: SectionKind) -> Section? { sections.first { $0.kind == kind } }

    /// The practice sections, one per segment, in order.
    public var practiceSections: [Section] { sections.filter { $0.kind == .practice } }
}

/// intro · practice · outro.
public enum SectionKind: String, Sendable, CaseIterable {
    case intro, practice, outro
}

/// A span of the file in frames, with the exact times it came from.
public struct Section: Sendable, Equatable {
    public let kind: SectionKind
    public let start: ExactSeconds
    public let end: ExactSeconds
    public let startFrame: Int64
    public let endFrame: Int64
    /// A practice section's segment (from 0); nil for intro and outro.
    public let segment: Int?
    /// A practice section's name: the segment's `label`, or its pattern's name.
    public let name: String?
    /// A ramped segment's rates.
    public let ramp: SectionRamp?

    init(
        kind: SectionKind, start: ExactSeconds, end: ExactSeconds, rate: Int, segment: Int? = nil, name: String? = nil,
        ramp: SectionRamp? = nil
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.startFrame = start.frame(at: rate)
        self.endFrame = end.frame(at: rate)
        self.segment = segment
        self.name = name
        self.ramp = ramp
    }
}

/// One phase of the practice, placed in frames.
public struct PhaseSpan: Sendable, Equatable {
    public let index: Int
    /// The program segment it belongs to (from 0; 0 without `program:`).
    public let segment: Int
    /// Its cycle within its segment (from 0); a transition's is the whole cycles before it.
    public let cycle: Int
    public let kind: String
    public let label: String
    public let start: ExactSeconds
    public let end: ExactSeconds
    public let startFrame: Int64
    public let endFrame: Int64

    /// Its exact length (ramped phases differ from their pattern's).
    public var length: ExactSeconds { end - start }

    init(index: Int, segment: Int = 0, cycle: Int, kind: String, label: String, start: ExactSeconds, end: ExactSeconds, rate: Int) {
        self.index = index
        self.segment = segment
        self.cycle = cycle
        self.kind = kind
        self.label = label
        self.start = start
        self.end = end
        self.startFrame = start.frame(at: rate)
        self.endFrame = end.frame(at: rate)
    }
}

/// A cue to sound: which, for which phase, and its first frame.
public struct CueEvent: Sendable, Equatable {
    /// The cue's key in the recipe: a phase kind, `start` or `end`.
    public let name: String
    /// The phase it belongs to (`end`: the last phase, which it closes).
    public let phase: Int
    public let frame: Int64
    public let sound: CueSound
}
