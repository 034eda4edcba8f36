import AudioCore
import CadenceCues
import Recipe
import Timeline

/// The cue sheet of a rendered track, from its timeline (cues-v1).
/// `guide`: the breath envelope's guide when it is on (recipe-v1.2 § Breath guidance); nil: none.
enum CueSheetBuilder {
    /// Loudness and peak figures are written to 0.01.
    static func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

    static func build(
        recipe: Recipe, timeline: Timeline, sounds lengths: [Int64], prompts: [VoicePrompts.Placed] = [], audioFile: String,
        sha256: String, loudness: Double?, truePeak: Double?, guide: BreathGuideSettings? = nil
    ) -> CueSheet {
        // a recipe with a cues-v1.1 feature (voice, a program, a ramp, ticks) writes a cues-v1.1 sheet: its practice
        // sections and phases say their segment (0, the one segment of a recipe without a program) and each phase its own
        // length; a v1 recipe's sheet stays v1, byte for byte
        let v11 = recipe.voice != nil || recipe.program != nil || recipe.ramp != nil || recipe.ticks != nil
        let rate = timeline.sampleRate
        let audio = CueSheet.Audio(
            file: audioFile, sampleRate: rate, channels: recipe.output.channels,
            frames: timeline.totalFrames, sha256: sha256,
            loudnessLUFS: loudness.map(round2), truePeakDBTP: truePeak.map(round2))
        // a program's sheet describes its first segment's pattern here; each section names its own segment
        let pattern = CueSheet.PatternInfo(
            name: recipe.pattern.name, cycle: DecimalText(recipe.pattern.cycle.nanoseconds, decimalPlaces: 9),
            phases: recipe.pattern.phases.map {
                CueSheet.PatternPhase(kind: $0.kind, label: $0.label, length: DecimalText($0.length.nanoseconds, decimalPlaces: 9))
            })
        let sections = timeline.sections.map { section in
            let practice = v11 && section.kind == .practice
            return CueSheet.Section(
                kind: section.kind.rawValue, segment: practice ? section.segment : nil, name: practice ? section.name : nil,
                startFrame: section.startFrame, endFrame: section.endFrame, sampleRate: rate,
                ramp: section.ramp.map {
                    CueSheet.Ramp(
                        fromBPM: DecimalText($0.fromMicroBPM, decimalPlaces: 6), toBPM: DecimalText($0.toMicroBPM, decimalPlaces: 6),
                        over: $0.over)
                })
        }
        let phases = timeline.phases.map {
            CueSheet.Phase(
                index: $0.index, segment: v11 ? $0.segment : nil, cycle: $0.cycle, kind: $0.kind, label: $0.label,
                guide: guide?.guide(for: $0.kind), length: v11 ? DecimalText($0.length.nanoseconds, decimalPlaces: 9) : nil,
                startFrame: $0.startFrame, endFrame: $0.endFrame, sampleRate: rate)
        }
        let voice = recipe.voice.map { voice in
            prompts.enumerated().map { index, placed in
                let prompt = voice.prompts[placed.prompt]
                return CueSheet.VoicePrompt(
                    index: index, text: prompt.text, file: prompt.file, draft: prompt.isDraft, phase: placed.phase, frame: placed.frame,
                    lengthFrames: placed.lengthFrames, duckDB: placed.duckDB, sampleRate: rate)
            }
        }
        let cues = zip(timeline.cues, lengths).map { cue, length in
            CueSheet.Cue(name: cue.name, phase: cue.phase, frame: cue.frame, lengthFrames: length, sampleRate: rate)
        }
        // cues-v1.2: a rendition of a recipe with locales names its session and locale (a plain recipe's sheet is as before)
        var sheet = CueSheet(
            id: recipe.id, session: recipe.locale == nil ? nil : recipe.session, locale: recipe.locale, title: recipe.title,
            category: recipe.category, audio: audio, pattern: pattern,
            sections: sections, phases: phases, cues: cues, voice: voice)
        sheet.minorVersion = v11 ? 1 : 0
        // cues-v1.2 § Cue sheet: with the breath envelope on (`guide`), its shape and every phase's guide (the sheet says 1.2)
        sheet.guide = guide.map { CueSheet.Guide(shape: $0.shape) }
        return sheet
    }
}
