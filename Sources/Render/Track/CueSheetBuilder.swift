import CadenceCues
import Recipe
import Timeline

/// The cue sheet of a rendered track, from its timeline (cues-v1).
enum CueSheetBuilder {
    /// Loudness and peak figures are written to 0.01.
    static func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

    static func build(
        recipe: Recipe, timeline: Timeline, sounds lengths: [Int64], audioFile: String, sha256: String,
        loudness: Double?, truePeak: Double?
    ) -> CueSheet {
        let rate = timeline.sampleRate
        let audio = CueSheet.Audio(
            file: audioFile, sampleRate: rate, channels: recipe.output.channels,
            frames: timeline.totalFrames, sha256: sha256,
            loudnessLUFS: loudness.map(round2), truePeakDBTP: truePeak.map(round2))
        let pattern = CueSheet.PatternInfo(
            name: recipe.pattern.name, cycle: DecimalText(recipe.pattern.cycle.description),
            phases: recipe.pattern.phases.map { CueSheet.PatternPhase(kind: $0.kind, label: $0.label, length: DecimalText($0.length.description)) })
        let sections = timeline.sections.map {
            CueSheet.Section(kind: $0.kind.rawValue, startFrame: $0.startFrame, endFrame: $0.endFrame, sampleRate: rate)
        }
        let phases = timeline.phases.map {
            CueSheet.Phase(
                index: $0.index, cycle: $0.cycle, kind: $0.kind, label: $0.label,
                startFrame: $0.startFrame, endFrame: $0.endFrame, sampleRate: rate)
        }
        let cues = zip(timeline.cues, lengths).map { cue, length in
            CueSheet.Cue(name: cue.name, phase: cue.phase, frame: cue.frame, lengthFrames: length, sampleRate: rate)
        }
        return CueSheet(
            id: recipe.id, title: recipe.title, category: recipe.category, audio: audio, pattern: pattern,
            sections: sections, phases: phases, cues: cues)
    }
}
