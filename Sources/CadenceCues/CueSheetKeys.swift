// MARK: - Keys, written once

// Every key of cues-v1, as spelt in the JSON, listed once per object in the order it is written.
// `jsonText()` (CueSheetEncoding.swift) walks `allCases` through an exhaustive `switch`, so a key
// added here does not compile until it is written; the reader (CueSheetDecoding.swift) reads each
// stored property by its key, so a property added to the model does not compile until it is read.

extension CueSheet {
    /// The keys of the document.
    public enum Key: String, CaseIterable, Sendable {
        case format, version, id, title, category, audio, pattern, sections, phases, cues
        /// cues-v1.1: the voice prompts (absent from a sheet without any).
        case voice
    }
}

extension CueSheet.Audio {
    /// The keys of `audio`.
    public enum Key: String, CaseIterable, Sendable {
        case file
        case sampleRate = "sample_rate"
        case channels, frames, duration, sha256
        case loudnessLUFS = "loudness_lufs"
        case truePeakDBTP = "true_peak_dbtp"
    }
}

extension CueSheet.PatternInfo {
    /// The keys of `pattern`.
    public enum Key: String, CaseIterable, Sendable {
        case name, cycle, phases
    }
}

extension CueSheet.PatternPhase {
    /// The keys of one of `pattern.phases`.
    public enum Key: String, CaseIterable, Sendable {
        case kind, label, length
    }
}

extension CueSheet.Section {
    /// The keys of one of `sections`.
    public enum Key: String, CaseIterable, Sendable {
        case kind
        /// cues-v1.1, practice sections only: the program segment (from 0) and its name.
        case segment, name
        case startFrame = "start_frame"
        case endFrame = "end_frame"
        case start, end
        /// cues-v1.1, ramped practice sections only.
        case ramp
    }
}

extension CueSheet.Ramp {
    /// The keys of a section's `ramp` (cues-v1.1).
    public enum Key: String, CaseIterable, Sendable {
        case fromBPM = "from_bpm"
        case toBPM = "to_bpm"
        case over
    }
}

extension CueSheet.Phase {
    /// The keys of one of `phases`.
    public enum Key: String, CaseIterable, Sendable {
        /// `segment` (cues-v1.1) comes after `index`, and the phase's own `length` after `label`.
        case index, segment, cycle, kind, label, length
        case startFrame = "start_frame"
        case endFrame = "end_frame"
        case start, end
    }
}

extension CueSheet.Cue {
    /// The keys of one of `cues`.
    public enum Key: String, CaseIterable, Sendable {
        case name, phase, frame
        case lengthFrames = "length_frames"
        case time
    }
}

extension CueSheet.VoicePrompt {
    /// The keys of one of `voice` (cues-v1.1); `phase` only for prompts placed on a phase.
    public enum Key: String, CaseIterable, Sendable {
        case index, text, file, draft, phase, frame
        case lengthFrames = "length_frames"
        case time
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
extension CueSheet.Cue.Key: JSONKey {}
