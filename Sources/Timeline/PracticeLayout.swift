import AudioCore
import Recipe

/// How much practice fits, segment by segment, phase by phase, and the resulting file length.
///
/// recipe-v1: with `cycles: N` the length is `intro + N × cycle + outro`; with `duration` the
/// practice holds whole cycles (or whole phases with `end_on: phase`) and the time left over goes
/// to the outro. recipe-v1.1 § Programs: each segment lasts its cycles or exactly its duration
/// (the time its whole cycles or phases leave becomes a `transition` phase); the file lasts intro +
/// segments + outro, or the top-level `duration`, whose time left over goes to the outro. § Ramps:
/// a ramped cycle's phases have the lengths `RampedLengths` gives.
///
/// Every phase's start is the exact sum of the lengths before it. Phases are laid out one by one,
/// at most `RecipeLimits.maxPhasesPerTrack` of them: past that, or past 24 h, the layout stops
/// with an error, so no recipe (read or built in code) can make it run long.
struct PracticeLayout {
    /// One phase, its start relative to the practice's start.
    struct Planned {
        let segment: Int
        let cycle: Int
        let kind: String
        let label: String
        let start: ExactSeconds
        let length: ExactSeconds
    }

    /// One segment: its span relative to the practice's start, the cycles it holds, its ramp.
    struct PlannedSegment {
        let name: String
        let start: ExactSeconds
        let end: ExactSeconds
        let wholeCycles: Int
        let ramp: SectionRamp?
    }

    let duration: ExactSeconds
    let practice: ExactSeconds
    let phases: [Planned]
    let segments: [PlannedSegment]
    /// Whole cycles held, in every segment together.
    var wholeCycles: Int { segments.reduce(0) { $0 + $1.wholeCycles } }

    init(recipe: Recipe) throws(DiagnosticList) {
        var builder = Builder(recipe: recipe)
        let segments = recipe.segments
        for (index, segment) in segments.enumerated() {
            try builder.lay(segment, index: index)
        }
        let practice = builder.time
        var problems: [Diagnostic] = []
        let fixed = recipe.intro + recipe.outro
        switch recipe.length {
        case .duration(let total) where recipe.program != nil:
            duration = total
            if fixed + practice > total {
                let over = fixed + practice - total
                throw DiagnosticList([
                    Diagnostic(
                        "duration: the program does not fit: intro \(recipe.intro.durationText) + \(segments.count) segment\(segments.count == 1 ? "" : "s") "
                            + "\(practice.durationText) + outro \(recipe.outro.durationText) make \((fixed + practice).durationText), "
                            + "\(over.durationText) more than the duration (\(total.durationText)); expected a longer duration, or shorter segments",
                        at: recipe.location(of: "duration"))
                ])
            }
        case .duration(let total):
            duration = total
        case .cycles, .program:
            duration = recipe.intro + practice + recipe.outro
            if duration > RecipeLimits.maxDuration {
                let key = recipe.program == nil ? "cycles" : "program"
                problems.append(
                    Diagnostic(
                        "\(key): the practice (\(practice.durationText)) with intro and outro makes \(duration.durationText); expected a track of at most 24 h",
                        at: recipe.location(of: key)))
            }
        }
        self.practice = practice
        self.phases = builder.phases
        self.segments = builder.segments
        for (index, bed) in recipe.beds.enumerated() where bed.fadeIn + bed.fadeOut > duration {
            let key = recipe.bedIsLayered ? "bed.\(index)" : "bed"
            problems.append(
                Diagnostic(
                    "\(key).fade_in (\(bed.fadeIn)s) and \(key).fade_out (\(bed.fadeOut)s) together are longer than the track (\(duration)s)",
                    at: recipe.location(of: key + ".fade_in")))
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
    }

    /// Lays segments end to end, phase by phase, within the track's ceilings.
    private struct Builder {
        let recipe: Recipe
        var time = ExactSeconds.zero
        var phases: [Planned] = []
        var segments: [PlannedSegment] = []
        var labelBytes = 0

        init(recipe: Recipe) { self.recipe = recipe }

        mutating func lay(_ segment: Segment, index: Int) throws(DiagnosticList) {
            let pattern = segment.pattern
            let recipe = self.recipe
            let path = { (key: String) in recipe.segmentPath(index, key) }
            guard pattern.cycle > .zero, !pattern.phases.isEmpty else {
                throw DiagnosticList([
                    Diagnostic("\(path("pattern")): pattern '\(pattern.name)' has no length", at: recipe.location(of: path("pattern")))
                ])
            }
            var ramped: RampedLengths?
            var sectionRamp: SectionRamp?
            if let ramp = segment.ramp {
                let over: Int
                switch (ramp.over, segment.length) {
                case (let n?, _): over = n
                case (nil, .cycles(let n)) where n >= 2: over = n - 1
                default:
                    throw DiagnosticList([
                        Diagnostic("\(path("ramp")): expected 'over:' (the cycles the rate changes over)", at: recipe.location(of: path("ramp")))
                    ])
                }
                ramped = RampedLengths(pattern: pattern, ramp: ramp, over: over)
                sectionRamp = SectionRamp(fromMicroBPM: RampedLengths.microBPM(ofCycle: pattern.cycle), toMicroBPM: ramp.toMicroBPM, over: over)
            }
            func lengths(_ k: Int) -> [ExactSeconds] { ramped?.lengths(ofCycle: k) ?? pattern.phases.map(\.length) }

            let start = time
            var cycles = 0
            switch segment.length {
            case .cycles(let n):
                for k in 0..<n {
                    try append(lengths(k), of: pattern, segment: index, cycle: k, path: path)
                    cycles += 1
                }
            case .duration(let total):
                // a v1 recipe's `duration` is the file's: its practice fills what intro and outro leave
                let isImplicit = recipe.program == nil
                let room = isImplicit ? total - recipe.intro - recipe.outro : total
                let key = isImplicit ? "duration" : path("duration")
                if room <= .zero {
                    throw DiagnosticList([
                        Diagnostic(
                            "duration: \(total)s leaves no time for practice after intro \(recipe.intro)s and outro \(recipe.outro)s",
                            at: recipe.location(of: key))
                    ])
                }
                let end = start + room
                while true {
                    let cycle = lengths(cycles)
                    let cycleLength = cycle.reduce(ExactSeconds.zero, +)
                    guard time + cycleLength <= end else {
                        if segment.endOn == .phase {
                            var fitting: [ExactSeconds] = []
                            var at = time
                            for length in cycle {
                                guard at + length <= end else { break }
                                at += length
                                fitting.append(length)
                            }
                            try append(fitting, of: pattern, segment: index, cycle: cycles, path: path)
                        }
                        break
                    }
                    try append(cycle, of: pattern, segment: index, cycle: cycles, path: path)
                    cycles += 1
                }
                if phases.last?.segment != index || phases.isEmpty {
                    let first = lengths(0)
                    let unit =
                        segment.endOn == .cycle
                        ? "one \(first.reduce(ExactSeconds.zero, +).durationText) cycle of '\(pattern.name)'"
                        : "its first phase (\(first[0].durationText))"
                    let hint = segment.endOn == .cycle ? " (use a longer duration, or end_on: phase)" : ""
                    let what = isImplicit ? "leaves \(room.durationText) for practice, shorter" : "is shorter"
                    throw DiagnosticList([
                        Diagnostic("\(key): \(total.durationText) \(what) than \(unit)\(hint)", at: recipe.location(of: key))
                    ])
                }
                if !isImplicit, time < end {
                    // the time the whole cycles (or phases) leave: one transition phase at the segment's end
                    try check(label: Segment.transitionLabel, path: path)
                    phases.append(
                        Planned(
                            segment: index, cycle: cycles, kind: Segment.transitionKind, label: Segment.transitionLabel, start: time,
                            length: end - time))
                    time = end
                }
            case .program:
                break
            }
            if let sectionRamp, sectionRamp.over > cycles, segment.ramp?.over != nil {
                let key = path("ramp.over")
                throw DiagnosticList([
                    Diagnostic(
                        "\(key): expected at most the segment's \(cycles) whole cycle\(cycles == 1 ? "" : "s"), found \(sectionRamp.over) cycles "
                            + "(the ramp would not reach \(Ramp.text(microBPM: sectionRamp.toMicroBPM)) bpm before the segment ends)",
                        at: recipe.location(of: key))
                ])
            }
            segments.append(PlannedSegment(name: segment.name, start: start, end: time, wholeCycles: cycles, ramp: sectionRamp))
        }

        /// Appends one cycle's phases (or its first `lengths.count`), refusing phases of no
        /// millisecond (a ramp's), and tracks past the phase, text or 24 h ceilings.
        private mutating func append(
            _ lengths: [ExactSeconds], of pattern: Pattern, segment: Int, cycle: Int, path: (String) -> String
        ) throws(DiagnosticList) {
            for (position, length) in lengths.enumerated() {
                let phase = pattern.phases[position]
                if length <= .zero {
                    let key = path("ramp.to")
                    throw DiagnosticList([
                        Diagnostic(
                            "\(key): the ramp makes \(phase.kind) of cycle \(cycle) shorter than one frame (\(phase.length.durationText) rounds to 0 ms); "
                                + "expected a slower target rate, or longer phases",
                            at: recipe.location(of: key))
                    ])
                }
                try check(label: phase.label, path: path)
                phases.append(Planned(segment: segment, cycle: cycle, kind: phase.kind, label: phase.label, start: time, length: length))
                time += length
                if recipe.intro + time > RecipeLimits.maxDuration {
                    let key = recipe.program == nil ? Self.lengthKey(recipe) : path(segmentKey)
                    throw DiagnosticList([
                        Diagnostic(
                            "\(key): the practice runs past 24 h by segment \(segment + 1)'s cycle \(cycle + 1); expected a track of at most 24 h",
                            at: recipe.location(of: key))
                    ])
                }
            }
        }

        /// The key a segment's length was written at: `cycles` or `duration`.
        private var segmentKey: String {
            guard let segment = recipe.program?[segments.count] else { return "cycles" }
            if case .duration = segment.length { return "duration" }
            return "cycles"
        }

        /// Counts a phase against the per-track phase and label ceilings.
        private mutating func check(label: String, path: (String) -> String) throws(DiagnosticList) {
            labelBytes += label.utf8.count
            let key = recipe.program == nil ? Self.lengthKey(recipe) : "program"
            if phases.count >= RecipeLimits.maxPhasesPerTrack {
                throw DiagnosticList([
                    Diagnostic(
                        "\(key): the track would hold more than \(RecipeLimits.maxPhasesPerTrack) phases; expected at most \(RecipeLimits.maxPhasesPerTrack) phases in a track",
                        at: recipe.location(of: key))
                ])
            }
            if labelBytes > RecipeLimits.maxTrackTextBytes {
                throw DiagnosticList([
                    Diagnostic(
                        "\(key): expected a track whose phase labels hold at most \(RecipeLimits.maxTrackTextBytes / (1 << 20)) MiB of text in all; "
                            + "each is written into the cue sheet, captions and markers; shorten the labels or the track",
                        at: recipe.location(of: key))
                ])
            }
        }

        private static func lengthKey(_ recipe: Recipe) -> String {
            if case .cycles = recipe.length { return "cycles" }
            return "duration"
        }
    }
}

/// A ramped segment's rates (the cue sheet's `"ramp": { "from_bpm", "to_bpm", "over" }`).
public struct SectionRamp: Sendable, Equatable {
    /// r0, the pattern's own rate, in millionths of a bpm (rounded half up).
    public let fromMicroBPM: Int64
    /// r1, in millionths of a bpm, exact as written.
    public let toMicroBPM: Int64
    /// N, in cycles.
    public let over: Int
}
