import AudioCore
import Recipe

/// The exact times a recipe's anchored times (`practice + 5m`, `end - 10m`) stand for, and their frames.
///
/// An anchor is its section's exact start (the exact sum of the lengths before it); the
/// offset is added to that exact time, and the sum becomes a frame with the one rounding
/// of `ExactSeconds.frame(at:)`. Shared by `at:` and `until:` of prompts and `until:` of cues.
struct TrackAnchors {
    let practiceStart: ExactSeconds
    let practiceEnd: ExactSeconds
    let duration: ExactSeconds
    let rate: Int
    /// Each segment's exact start.
    let segmentStarts: [ExactSeconds]

    /// The exact time `time` names; nil for a program segment the recipe does not have.
    func time(of time: PromptTime) -> ExactSeconds? {
        let anchor: ExactSeconds
        switch time.anchor {
        case .start, .intro: anchor = .zero
        case .practice: anchor = practiceStart
        case .outro: anchor = practiceEnd
        case .end: anchor = duration
        case .segment(let number):
            guard segmentStarts.indices.contains(number - 1) else { return nil }
            anchor = segmentStarts[number - 1]
        }
        return anchor + time.offset
    }

    func frame(_ time: ExactSeconds) -> Int64 { time.frame(at: rate) }

    /// The error for `time` naming a segment the recipe does not have, at `path`.
    func missingSegment(_ time: PromptTime, path: String, recipe: Recipe) -> Diagnostic {
        let number = if case .segment(let n) = time.anchor { n } else { 0 }
        return Diagnostic(
            "\(path): segment \(number) does not exist; " + Self.segmentsHeld(segmentStarts.count, recipe: recipe),
            at: recipe.location(of: path))
    }

    /// `the recipe has 1 segment (its practice); expected 'segment 1' or 'practice'`, or the program's count.
    static func segmentsHeld(_ count: Int, recipe: Recipe) -> String {
        recipe.program == nil
            ? "the recipe has 1 segment (its practice); expected 'segment 1' or 'practice'"
            : "the program has \(count) segment\(count == 1 ? "" : "s"); expected 'segment 1'\(count > 1 ? " to 'segment \(count)'" : "")"
    }
}

/// The cues that sound for only part of the session (`until:`, `cycles:`), resolved to frames.
///
/// An onset sounds when its frame is before `until`'s frame and its cycle is chosen. `until` past
/// the file's end and cycles past the practice's are allowed (the same limit serves every length of
/// a recipe's variants); a limit under which its cue never sounds at all is an error at the limit.
struct CueLimits {
    private struct Resolved {
        let untilFrame: Int64
        let cycles: CycleSelection?
    }

    private var resolved: [String: Resolved] = [:]

    init(recipe: Recipe, anchors: TrackAnchors) throws(DiagnosticList) {
        var problems: [Diagnostic] = []
        for name in recipe.cueLimits.keys.sorted() {
            guard let limit = recipe.cueLimits[name] else { continue }
            var untilFrame = Int64.max
            if let until = limit.until {
                let path = Self.path(of: "until", cue: name, recipe: recipe)
                guard let time = anchors.time(of: until) else {
                    problems.append(anchors.missingSegment(until, path: path, recipe: recipe))
                    continue
                }
                guard time > .zero else {
                    problems.append(
                        Diagnostic(
                            "\(path): 'until' comes \(time == .zero ? "at" : "\((ExactSeconds.zero - time).durationText) before") the file's start, "
                                + "so cue '\(name)' would never sound; expected a time after its first onset, or 'none' for a silent cue",
                            at: recipe.location(of: path)))
                    continue
                }
                untilFrame = anchors.frame(time)
            }
            resolved[name] = Resolved(untilFrame: untilFrame, cycles: limit.cycles)
        }
        if !problems.isEmpty { throw DiagnosticList(problems.sorted(by: Self.lineOrder)) }
    }

    /// Whether cue `name` sounds at `frame`, in cycle `cycle` (from 0).
    func sounds(_ name: String, cycle: Int, frame: Int64) -> Bool {
        guard let limit = resolved[name] else { return true }
        return frame < limit.untilFrame && (limit.cycles?.contains(cycle + 1) ?? true)
    }

    /// Refuses a limit that silences its cue at every onset it had: `until: 20s` with a 30 s intro,
    /// `cycles: 40-50` of a 30-cycle practice.
    func checkEverySounds(_ events: [CueEvent], recipe: Recipe, phases: [PhaseSpan], totalFrames: Int64) throws(DiagnosticList) {
        guard let first = phases.first, let last = phases.last else { return }
        let sounding = Set(events.map(\.name))
        let cyclesHeld = (phases.filter { $0.kind != Segment.transitionKind }.map(\.cycle).max() ?? last.cycle) + 1
        var problems: [Diagnostic] = []
        for name in resolved.keys.sorted() where !sounding.contains(name) && recipe.cues[name] != nil {
            guard let limit = resolved[name] else { continue }
            // the onsets the cue had without its limit
            let onsets: [PhaseSpan] =
                switch name {
                case "start": [first]
                case "end": last.endFrame < totalFrames ? [last] : []
                default: phases.filter { $0.kind == name }
                }
            let chosen = onsets.filter { limit.cycles?.contains($0.cycle + 1) ?? true }
            if chosen.isEmpty, let cycles = limit.cycles, !onsets.isEmpty {
                let path = Self.path(of: "cycles", cue: name, recipe: recipe)
                let lowest = cycles.ranges.map(\.lowerBound).min() ?? 1
                problems.append(
                    Diagnostic(
                        "\(path): cue '\(name)' never sounds: the practice holds \(cyclesHeld) cycle\(cyclesHeld == 1 ? "" : "s"), "
                            + "and the first chosen is cycle \(lowest); expected cycles from 1 to \(cyclesHeld)",
                        at: recipe.location(of: path)))
            } else if let onset = chosen.first {
                let path = Self.path(of: "until", cue: name, recipe: recipe)
                let time = name == "end" ? onset.end : onset.start
                problems.append(
                    Diagnostic(
                        "\(path): cue '\(name)' never sounds: its first onset\(limit.cycles == nil ? "" : " in the chosen cycles") is at "
                            + "\(time.durationText), not before 'until'; expected a later time, or 'none' for a silent cue",
                        at: recipe.location(of: path)))
            }
        }
        if !problems.isEmpty { throw DiagnosticList(problems.sorted(by: Self.lineOrder)) }
    }

    private static func lineOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.location?.line ?? 0, a.location?.column ?? 0) < (b.location?.line ?? 0, b.location?.column ?? 0)
    }

    /// `cues.inhale.until` when the cue has its own key, else the cues-wide `cues.until`.
    private static func path(of key: String, cue name: String, recipe: Recipe) -> String {
        recipe.locations["cues.\(name).\(key)"] != nil ? "cues.\(name).\(key)" : "cues.\(key)"
    }
}
