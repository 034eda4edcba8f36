import AudioCore
import Recipe

/// How much practice fits: whole cycles, extra phases, and the resulting file length.
///
/// recipe-v1: with `cycles: N` the length is `intro + N × cycle + outro`; with
/// `duration` the practice holds whole cycles (or whole phases with
/// `end_on: phase`) and the time left over goes to the outro.
///
/// A recipe read by `RecipeLoader` has passed these checks already; they are
/// repeated here for recipes built in code, so no `Recipe` can make a timeline
/// past the ceilings.
struct PracticeLayout {

    let duration: ExactSeconds
    let practice: ExactSeconds
    let wholeCycles: Int
    let phaseCount: Int

    init(recipe: Recipe) throws(DiagnosticList) {
        let pattern = recipe.pattern
        let cycle = pattern.cycle
        guard cycle > .zero, !pattern.phases.isEmpty else {
            throw DiagnosticList([Diagnostic("pattern '\(pattern.name)' has no length", at: recipe.location(of: "pattern"))])
        }
        var problems: [Diagnostic] = []
        switch recipe.length {
        case .cycles(let n):
            guard cycle.nanoseconds <= RecipeLimits.maxDuration.nanoseconds / Int64(max(n, 1)) else {
                throw DiagnosticList([
                    Diagnostic(
                        "cycles: \(n) cycles of \(cycle)s make more than 24 h; expected a track of at most 24 h",
                        at: recipe.location(of: "cycles"))
                ])
            }
            practice = cycle * Int64(n)
            duration = recipe.intro + practice + recipe.outro
            wholeCycles = n
            phaseCount = n * pattern.phases.count
            if duration > RecipeLimits.maxDuration {
                problems.append(
                    Diagnostic(
                        "cycles: \(n) cycles of \(cycle)s with intro and outro make \(duration)s; expected a track of at most 24 h",
                        at: recipe.location(of: "cycles")))
            }
        case .duration(let total):
            duration = total
            let available = total - recipe.intro - recipe.outro
            if available <= .zero {
                throw DiagnosticList([
                    Diagnostic(
                        "duration: \(total)s leaves no time for practice after intro \(recipe.intro)s and outro \(recipe.outro)s",
                        at: recipe.location(of: "duration"))
                ])
            }
            let cycles = Int(available.nanoseconds / cycle.nanoseconds)
            var held = cycle * Int64(cycles)
            var count = cycles * pattern.phases.count
            if recipe.endOn == .phase {
                let extra = Self.fittingPrefix(pattern.phases, within: available - held)
                held += pattern.phases.prefix(extra).reduce(ExactSeconds.zero) { $0 + $1.length }
                count += extra
            }
            if count == 0 {
                let unit = recipe.endOn == .cycle ? "one \(cycle)s cycle of '\(pattern.name)'" : "its first phase (\(pattern.phases[0].length)s)"
                let hint = recipe.endOn == .cycle ? " (use a longer duration, or end_on: phase)" : ""
                throw DiagnosticList([
                    Diagnostic(
                        "duration: \(total)s leaves \(available)s for practice, shorter than \(unit)\(hint)",
                        at: recipe.location(of: "duration"))
                ])
            }
            practice = held
            wholeCycles = cycles
            phaseCount = count
        }
        if phaseCount > RecipeLimits.maxPhasesPerTrack {
            let key = if case .cycles = recipe.length { "cycles" } else { "duration" }
            problems.append(
                Diagnostic(
                    "\(key): the track would hold \(phaseCount) phases; expected at most \(RecipeLimits.maxPhasesPerTrack) phases in a track",
                    at: recipe.location(of: key)))
        }
        for (index, bed) in recipe.beds.enumerated() where bed.fadeIn + bed.fadeOut > duration {
            let key = recipe.bedIsLayered ? "bed.\(index)" : "bed"
            problems.append(
                Diagnostic(
                    "\(key).fade_in (\(bed.fadeIn)s) and \(key).fade_out (\(bed.fadeOut)s) together are longer than the track (\(duration)s)",
                    at: recipe.location(of: key + ".fade_in")))
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
    }

    /// How many phases from the start of the cycle fit, whole, in `room`.
    private static func fittingPrefix(_ phases: [Phase], within room: ExactSeconds) -> Int {
        var used = ExactSeconds.zero
        var count = 0
        for phase in phases {
            guard used + phase.length <= room else { break }
            used += phase.length
            count += 1
        }
        return count
    }
}
