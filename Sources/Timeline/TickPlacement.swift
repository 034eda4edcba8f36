import AudioCore
import Recipe

/// Where the tick cue sounds (recipe-v1.1 § Ticks): at each ticking phase's exact start + k × `every`,
/// k = 1, 2, … while that time is before the phase's end (the phase's own cue marks k = 0). Each
/// time becomes a frame by the one rounding; a tick whose frame would be the next phase's first is
/// left out, so every tick lies inside its phase.
struct TickPlacement {
    let sound: CueSound
    let every: ExactSeconds
    let kinds: Set<String>?

    /// Nil without a tick cue. Refuses, before placing any, a track that would hold more than
    /// `RecipeLimits.maxTicksPerTrack` ticks (counted per phase, by division).
    init?(recipe: Recipe, phases: [PhaseSpan]) throws(DiagnosticList) {
        guard let sound = recipe.cues["tick"], let ticks = recipe.ticks else { return nil }
        self.sound = sound
        self.every = ticks.every
        self.kinds = ticks.kinds.map(Set.init)
        var count: Int64 = 0
        for phase in phases where kinds?.contains(phase.kind) ?? true {
            // k × every < length: k up to ⌈length / every⌉ − 1
            count += (phase.end - phase.start).nanoseconds.advanced(by: -1) / every.nanoseconds
            if count > Int64(RecipeLimits.maxTicksPerTrack) { break }
        }
        guard count <= Int64(RecipeLimits.maxTicksPerTrack) else {
            let key = recipe.locations["cues.tick.every"] != nil ? "cues.tick.every" : "cues.tick"
            throw DiagnosticList([
                Diagnostic(
                    "\(key): ticks every \(every.durationText) make more than \(RecipeLimits.maxTicksPerTrack) ticks in this track; "
                        + "expected at most \(RecipeLimits.maxTicksPerTrack) (tick less often, or in fewer kinds with 'on:')",
                    at: recipe.location(of: key))
            ])
        }
    }

    /// Appends `phase`'s ticks, in frame order, that `limits` let sound.
    func append(in phase: PhaseSpan, rate: Int, limits: CueLimits, to events: inout [CueEvent]) {
        guard kinds?.contains(phase.kind) ?? true else { return }
        var time = phase.start + every
        while time < phase.end {
            let frame = time.frame(at: rate)
            if frame >= phase.endFrame { break }
            if limits.sounds("tick", cycle: phase.cycle, frame: frame) {
                events.append(CueEvent(name: "tick", phase: phase.index, frame: frame, sound: sound))
            }
            time += every
        }
    }
}
