// MARK: - Keys, written once

// Every key of cues-v1, as spelt in the JSON, listed once per object in the order it is written.
// `jsonText()` (CueSheetEncoding.swift) walks `allCases` through an exhaustive `switch`, so a key
// added here does not compile until it is written; the reader (CueSheetDecoding.swift) reads each
// stored property by its key, so a property added to the model does not compile until it is read.

extension CueSheet {
    /// The keys of the document.
    public enum Key: String, CaseIterable, Sendable {
        /// `format`: always `session-cues`.
        case format
        /// `version`: `1`, `1.1` for a sheet with cues-v1.1 keys, `1.2` for one with cues-v1.2 keys.
        case version
        /// `id`: the track's id.
        case id
        /// cues-v1.2: the recipe's id, the track's session (only for a recipe with `locales:`).
        case session
        /// cues-v1.2: the track's locale tag (only for a recipe with `locales:`).
        case locale
        /// `title`: the track's title.
        case title
        /// `category`: the track's category, or `null`.
        case category
        /// `audio`: the audio file (`CueSheet.Audio.Key`).
        case audio
        /// `pattern`: the breathing pattern (`CueSheet.PatternInfo.Key`).
        case pattern
        /// cues-v1.2: the breath envelope's shape (`CueSheet.Guide.Key`), only when the envelope is on;
        /// every phase then carries its `guide`.
        case guide
        /// `sections`: the intro, practice and outro (`CueSheet.Section.Key`).
        case sections
        /// `phases`: every phase played (`CueSheet.Phase.Key`).
        case phases
        /// `cues`: the sounds placed on phases (`CueSheet.Cue.Key`).
        case cues
        /// cues-v1.1: the voice prompts (absent from a sheet without any).
        case voice
    }
}

extension CueSheet.Guide {
    /// The keys of `guide`.
    public enum Key: String, CaseIterable, Sendable {
        /// `shape`: `sine` or `linear`.
        case shape
    }
}

extension CueSheet.Audio {
    /// The keys of `audio`.
    public enum Key: String, CaseIterable, Sendable {
        /// `file`: the audio file's name.
        case file
        /// `sample_rate`: frames per second.
        case sampleRate = "sample_rate"
        /// `channels`: the file's channels.
        case channels
        /// `frames`: the file's length in frames.
        case frames
        /// `duration`: the file's length in seconds.
        case duration
        /// `sha256`: the hash of the file's bytes.
        case sha256
        /// `loudness_lufs`: the integrated loudness, or `null`.
        case loudnessLUFS = "loudness_lufs"
        /// `true_peak_dbtp`: the true peak, or `null`.
        case truePeakDBTP = "true_peak_dbtp"
    }
}

extension CueSheet.PatternInfo {
    /// The keys of `pattern`.
    public enum Key: String, CaseIterable, Sendable {
        /// `name`: the pattern's name.
        case name
        /// `cycle`: one cycle's length in seconds.
        case cycle
        /// `phases`: the pattern's phases (`CueSheet.PatternPhase.Key`).
        case phases
    }
}

extension CueSheet.PatternPhase {
    /// The keys of one of `pattern.phases`.
    public enum Key: String, CaseIterable, Sendable {
        /// `kind`: what the breath does.
        case kind
        /// `label`: the words to show.
        case label
        /// `length`: the phase's length in seconds.
        case length
    }
}

extension CueSheet.Section {
    /// The keys of one of `sections`.
    public enum Key: String, CaseIterable, Sendable {
        /// `kind`: `intro`, `practice` or `outro`.
        case kind
        /// cues-v1.1, practice sections only: the program segment, from 0.
        case segment
        /// cues-v1.1, practice sections only: the segment's name.
        case name
        /// `start_frame`: the section's first frame.
        case startFrame = "start_frame"
        /// `end_frame`: the frame after its last.
        case endFrame = "end_frame"
        /// `start`: `start_frame` in seconds.
        case start
        /// `end`: `end_frame` in seconds.
        case end
        /// cues-v1.1, ramped practice sections only (`CueSheet.Ramp.Key`).
        case ramp
    }
}

extension CueSheet.Ramp {
    /// The keys of a section's `ramp` (cues-v1.1).
    public enum Key: String, CaseIterable, Sendable {
        /// `from_bpm`: the rate the ramp starts from, in breaths a minute.
        case fromBPM = "from_bpm"
        /// `to_bpm`: the rate it reaches, in breaths a minute.
        case toBPM = "to_bpm"
        /// `over`: the cycles it takes.
        case over
    }
}

extension CueSheet.Phase {
    /// The keys of one of `phases`.
    public enum Key: String, CaseIterable, Sendable {
        /// `index`: the phase's position in `phases`.
        case index
        /// cues-v1.1: the program segment, written after `index`.
        case segment
        /// `cycle`: the breath cycle, from 0.
        case cycle
        /// `kind`: what the breath does.
        case kind
        /// `label`: the words to show.
        case label
        /// cues-v1.2: how the phase moves the breath (`rise`, `fall`, `hold`, `none`), only when the
        /// sheet has a top-level `guide`.
        case guide
        /// cues-v1.1: the phase's own length in seconds, written after `label`.
        case length
        /// `start_frame`: the phase's first frame.
        case startFrame = "start_frame"
        /// `end_frame`: the frame after its last.
        case endFrame = "end_frame"
        /// `start`: `start_frame` in seconds.
        case start
        /// `end`: `end_frame` in seconds.
        case end
    }
}

extension CueSheet.Cue {
    /// The keys of one of `cues`.
    public enum Key: String, CaseIterable, Sendable {
        /// `name`: the cue's name.
        case name
        /// `phase`: the index of the phase it is placed on.
        case phase
        /// `frame`: the frame it starts at.
        case frame
        /// `length_frames`: how many frames it sounds.
        case lengthFrames = "length_frames"
        /// `time`: `frame` in seconds.
        case time
    }
}

extension CueSheet.VoicePrompt {
    /// The keys of one of `voice` (cues-v1.1); `phase` only for prompts placed on a phase.
    public enum Key: String, CaseIterable, Sendable {
        /// `index`: the prompt's position in `voice`.
        case index
        /// `text`: what it says, or `null`.
        case text
        /// `file`: the clip's path in the assets folder, or `null` for a draft.
        case file
        /// `draft`: whether the draft voice speaks it.
        case draft
        /// `phase`: the phase it is placed on, only for prompts placed with `on:`.
        case phase
        /// `frame`: its first frame.
        case frame
        /// `length_frames`: how many frames it sounds.
        case lengthFrames = "length_frames"
        /// `time`: `frame` in seconds.
        case time
        /// `duck_db`: how far the bed is lowered under it, in dB.
        case duckDB = "duck_db"
    }
}

extension CueSheet.Key: JSONKey {}
extension CueSheet.VoicePrompt.Key: JSONKey {}
extension CueSheet.Audio.Key: JSONKey {}
extension CueSheet.PatternInfo.Key: JSONKey {}
extension CueSheet.PatternPhase.Key: JSONKey {}
extension CueSheet.Section.Key: JSONKey {}
extension CueSheet.Ramp.Key: JSONKey {}
extension CueSheet.Phase.Key: JSONKey {}
extension CueSheet.Guide.Key: JSONKey {}
extension CueSheet.Cue.Key: JSONKey {}
