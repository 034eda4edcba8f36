import AudioCore
import Recipe

/// A voice prompt placed in frames: which prompt of the recipe, where it starts, and on which phase.
public struct PromptEvent: Sendable, Equatable {
    /// Its index in `recipe.voice.prompts`.
    public let prompt: Int
    /// The phase it is placed on (`on:` prompts), nil for `at:` prompts.
    public let phase: Int?
    /// Its first frame: `floor(T × rate + 1/2)` for an `at:` time T, the phase's first frame for `on:`.
    public let frame: Int64
}

/// Where each prompt of a recipe starts (recipe-v1.1 § Voice prompts), exactly.
///
/// An anchor stands for its section's exact start time (the exact sum of the lengths
/// before it), and the offset is added to that time before the one rounding to a frame.
/// Errors located at the prompt: a time before the file or at or past its end, an `on:`
/// kind the practice lacks, cycles or segments that do not exist, too many prompts.
enum PromptPlacement {
    static func place(_ recipe: Recipe, phases: [PhaseSpan], anchors: TrackAnchors) throws(DiagnosticList) -> [PromptEvent] {
        guard let voice = recipe.voice else { return [] }
        let duration = anchors.duration
        let rate = recipe.output.sampleRate
        var events: [PromptEvent] = []
        var problems: [Diagnostic] = []
        for (index, prompt) in voice.prompts.enumerated() {
            let path = "voice.prompts.\(index)"
            switch prompt.placement {
            case .at(let time):
                guard let start = anchors.time(of: time) else {
                    problems.append(anchors.missingSegment(time, path: path + ".at", recipe: recipe))
                    continue
                }
                if start < .zero {
                    problems.append(
                        Diagnostic(
                            "\(path).at: the prompt would start \(ExactSeconds.zero - start)s before the file's start; "
                                + "expected a time from 0 to the file's end (\(duration)s)",
                            at: recipe.location(of: path + ".at")))
                    continue
                }
                let frame = start.frame(at: rate)
                if frame >= duration.frame(at: rate) {
                    let past = start - duration
                    problems.append(
                        Diagnostic(
                            "\(path).at: the prompt would start "
                                + (past == .zero ? "at the file's end" : "\(past)s after the file's end") + " (\(duration)s); "
                                + "expected a time before the end, like 'end - 20s'",
                            at: recipe.location(of: path + ".at")))
                    continue
                }
                events.append(PromptEvent(prompt: index, phase: nil, frame: frame))
            case .on(let kind, let cycles, let segment):
                if let segment, !anchors.segmentStarts.indices.contains(segment - 1) {
                    problems.append(
                        Diagnostic(
                            "\(path).segment: segment \(segment) does not exist; "
                                + TrackAnchors.segmentsHeld(anchors.segmentStarts.count, recipe: recipe),
                            at: recipe.location(of: path + ".segment")))
                    continue
                }
                let inSegment = segment.map { s in phases.filter { $0.segment == s - 1 } } ?? phases
                // a transition's cycle counts the whole cycles before it: it is no cycle held, unless asked for
                let counted = kind == Segment.transitionKind ? inSegment : inSegment.filter { $0.kind != Segment.transitionKind }
                let cyclesHeld = (counted.map(\.cycle).max() ?? -1) + 1
                if let cycles, cycles.highest > cyclesHeld {
                    problems.append(
                        Diagnostic(
                            "\(path).cycles: cycle \(cycles.highest) does not exist; the practice holds \(cyclesHeld) "
                                + "cycle\(cyclesHeld == 1 ? "" : "s") (counted from 1)",
                            at: recipe.location(of: path + ".cycles")))
                    continue
                }
                var untilFrame = Int64.max
                if let until = prompt.until {
                    guard let time = anchors.time(of: until) else {
                        problems.append(anchors.missingSegment(until, path: path + ".until", recipe: recipe))
                        continue
                    }
                    untilFrame = anchors.frame(time)
                }
                let before = events.count
                for phase in inSegment
                where phase.kind == kind && (cycles?.contains(phase.cycle + 1) ?? true) && phase.startFrame < untilFrame {
                    events.append(PromptEvent(prompt: index, phase: phase.index, frame: phase.startFrame))
                    if events.count > RecipeLimits.maxPromptsPerTrack { break }
                }
                if events.count == before {
                    // the kind is the pattern's (the decoder checked it): the chosen cycles hold none of it
                    let limited = prompt.until != nil
                    let message =
                        limited && cycles == nil
                        ? "\(path).until: no phase of kind \(DiagnosticText.quoted(kind)) starts before it; expected a later time"
                        : "\(path).on: no phase of kind \(DiagnosticText.quoted(kind)) falls in the chosen cycles"
                            + (limited ? " before its 'until:'" : "") + " (with end_on: phase the last cycle may stop before it)"
                    problems.append(Diagnostic(message, at: recipe.location(of: path + (limited ? ".until" : ".on"))))
                }
            }
            if events.count > RecipeLimits.maxPromptsPerTrack {
                problems.append(
                    Diagnostic(
                        "\(path): expected at most \(RecipeLimits.maxPromptsPerTrack) prompts placed in one track, found more "
                            + "(an 'on:' prompt sounds once per phase it lands on; choose fewer 'cycles:')",
                        at: recipe.location(of: path)))
                break
            }
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
        // frame order; prompts at the same frame keep the recipe's order (overlaps are refused once lengths are known)
        return events.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }
}
