import CadenceCues
import Recipe

/// `schema/cues.schema.json`: the cue sheet beside every track (JSON Schema, draft 2020-12).
///
/// Each object's properties are its key enum's cases (`CueSheetKeys.swift`) in the order they are
/// written, each described by an exhaustive `switch`: a key added to the cue sheet does not compile
/// until the schema describes it and says whether a reader needs it.
enum CueSheetSchema {
    /// A key's schema, with its description first, and whether a reader needs it.
    struct Property {
        let schema: SchemaJSON
        let required: Bool

        init(_ description: String, _ schema: SchemaJSON, required: Bool = true) {
            self.schema = (["description": .string(description)] as SchemaJSON).merging(schema)
            self.required = required
        }

        /// A property whose schema describes itself.
        init(_ schema: SchemaJSON, required: Bool = true) {
            self.schema = schema
            self.required = required
        }
    }

    static let frame: SchemaJSON = ["type": "integer", "minimum": 0]
    /// A well-formed BCP 47 tag in the sense of CadenceCues' `LocaleTag.isWellFormed(_:)`.
    static let localeTag = "^(?:[A-Za-z]{2,8}|[xXiI]-[A-Za-z0-9]{1,8})(?:-[A-Za-z0-9]{1,8})*$"
    static let seconds: SchemaJSON = ["type": "number", "minimum": 0]
    static let index: SchemaJSON = ["type": "integer", "minimum": 0]

    /// An object whose keys are `Key`'s cases: `required` lists those a reader needs; more keys are allowed.
    static func object<Key: CaseIterable & RawRepresentable>(_: Key.Type, _ property: (Key) -> Property) -> SchemaJSON
    where Key.RawValue == String {
        let properties = Key.allCases.map { ($0.rawValue, property($0)) }
        return [
            "type": "object",
            "additionalProperties": true,
            "required": .strings(properties.filter(\.1.required).map(\.0)),
            "properties": .object(properties.map { ($0.0, $0.1.schema) }),
        ]
    }

    static var document: SchemaJSON {
        ([
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://cadence.invalid/schema/cues.schema.json",
            "$comment": .string(SchemaFiles.generatedComment),
            "title": "Cadence cue sheet (cues-v1, cues-v1.1, cues-v1.2)",
            "description": .string(
                "The JSON beside every rendered track (out.flac → out.cues.json): its phases in frames, so a player shows "
                    + "the phase at the audio's own playback position. Frames are the truth; seconds are frame / sample_rate. "
                    + "Version 1 may gain keys: a reader ignores keys it does not know, so every object here allows more. "
                    + "Version 1.1 adds the voice prompts, segment, name and ramp to sections, and segment and length to phases. "
                    + "Version 1.2 adds session and locale, for a recipe with locales, and guide (top level and per phase), for "
                    + "a track with breath guidance."),
        ] as SchemaJSON).merging(object(CueSheet.Key.self, sheet))
    }

    static func sheet(_ key: CueSheet.Key) -> Property {
        switch key {
        case .format: Property("Always session-cues.", ["const": "session-cues"])
        case .version:
            Property(
                "The cue sheet version: 1, 1.1 for a sheet with cues-v1.1 keys (a recipe with voice, program, ramp or ticks), or 1.2 "
                    + "for one with cues-v1.2 keys (session and locale: a recipe with locales); a "
                    + "1.x minor may add keys, and readers ignore keys they do not know. Removing a key or changing its "
                    + "meaning needs version 2.",
                ["type": "number", "minimum": 1, "exclusiveMaximum": 2])
        case .id:
            Property(
                "The track's id (the recipe's): letters, digits, '.', '_' or '-', starting with a letter or digit.",
                ["type": "string", "pattern": .string(Grammar.id)])
        case .session:
            Property(
                "cues-v1.2: the recipe's id, the session this track is a rendition of; only for a recipe with locales "
                    + "(then with locale), left out otherwise.",
                ["type": "string", "pattern": .string(Grammar.id)], required: false)
        case .locale:
            Property(
                "cues-v1.2: the rendition's BCP 47 language tag as the recipe's locales writes it (en, de, pt-BR); only for a "
                    + "recipe with locales (then with session), left out otherwise. The sheet's texts are in this language.",
                ["type": "string", "pattern": .string(localeTag)], required: false)
        case .title: Property("Shown to the listener.", ["type": "string"])
        case .category: Property("The catalog group; null (or left out) when the recipe gives none.", ["type": ["string", "null"]], required: false)
        case .audio:
            Property((["description": "The audio file this sheet belongs to."] as SchemaJSON).merging(object(CueSheet.Audio.Key.self, audio)))
        case .pattern:
            Property(
                (["description": "The pattern's cycle, as the recipe gave it."] as SchemaJSON).merging(object(CueSheet.PatternInfo.Key.self, pattern))
            )
        case .guide:
            Property(
                [
                    "description": .string(
                        "cues-v1.2: the breath envelope's shape, only when the track has breath guidance (recipe-v1.2 § Breath guidance); "
                            + "every phase then has its guide, and a player computes E(frame) from them, the intro and the outro's fall."),
                    "type": "object", "required": ["shape"],
                    "properties": [
                        "shape": [
                            "description": "How E moves inside a rising or falling phase.",
                            "enum": .array(BreathShape.allCases.map { .string($0.rawValue) }),
                        ]
                    ],
                ], required: false)
        case .sections:
            Property(
                "intro, practice and outro in order; a section of zero length may be left out. cues-v1.1: a program "
                    + "has one practice section per segment (at most \(RecipeLimits.maxSegments)), in segment order.",
                [
                    "type": "array", "minItems": 1, "maxItems": .int(RecipeLimits.maxSegments + 2),
                    "items": object(CueSheet.Section.Key.self, section),
                ])
        case .phases:
            Property(
                "Every phase of the practice section in order, with no gap or overlap: each end_frame is the next start_frame.",
                ["type": "array", "minItems": 1, "items": object(CueSheet.Phase.Key.self, phase)])
        case .cues:
            Property(
                "Every cue that sounds, in time order ('start' before the first phase's own cue).",
                ["type": "array", "items": object(CueSheet.Cue.Key.self, cue)])
        case .voice:
            Property(
                "cues-v1.1: every voice prompt in frame order, not overlapping; left out when the recipe has no "
                    + "voice. The captions sidecar holds one cue per prompt with its text.",
                ["type": "array", "items": object(CueSheet.VoicePrompt.Key.self, voicePrompt)], required: false)
        }
    }

    static func audio(_ key: CueSheet.Audio.Key) -> Property {
        switch key {
        case .file: Property("The audio file's name as written, without a folder.", ["type": "string", "minLength": 1, "pattern": #"^[^/\\]+$"#])
        case .sampleRate:
            Property(
                "Frames per second (Hz).",
                [
                    "type": "integer", "minimum": .int(RecipeLimits.sampleRates.lowerBound), "maximum": .int(RecipeLimits.sampleRates.upperBound),
                ])
        case .channels:
            Property(
                "Channel count.",
                [
                    "type": "integer", "minimum": .int(RecipeLimits.channelCounts.lowerBound),
                    "maximum": .int(RecipeLimits.channelCounts.upperBound),
                ])
        case .frames: Property("The file's exact length in frames.", ["type": "integer", "minimum": 1])
        case .duration: Property("frames / sample_rate, in seconds.", ["type": "number", "exclusiveMinimum": 0])
        case .sha256:
            Property(
                "SHA-256 of the audio file's bytes, 64 lower-case hex digits: tells that the sheet belongs to that file.",
                ["type": "string", "pattern": "^[0-9a-f]{64}$"])
        case .loudnessLUFS:
            Property(
                "The file's integrated loudness (ITU-R BS.1770), to 0.01 LU; null (or left out) when it cannot be measured (silence).",
                ["type": ["number", "null"]], required: false)
        case .truePeakDBTP:
            Property(
                "The file's true peak in dBTP, to 0.01 dB; null (or left out) when it cannot be measured (silence).",
                ["type": ["number", "null"]], required: false)
        }
    }

    static func pattern(_ key: CueSheet.PatternInfo.Key) -> Property {
        switch key {
        case .name: Property("The pattern's display name (Box Breathing, Custom Pattern, …).", ["type": "string"])
        case .cycle: Property("One cycle's exact length in seconds.", ["type": "number", "exclusiveMinimum": 0])
        case .phases:
            Property(
                "The phases of one cycle, in order.",
                ["type": "array", "minItems": 1, "items": object(CueSheet.PatternPhase.Key.self, patternPhase)])
        }
    }

    static func patternPhase(_ key: CueSheet.PatternPhase.Key) -> Property {
        switch key {
        case .kind: Property("The phase kind (inhale, hold, exhale, rest, work, …).", ["type": "string", "pattern": .string(Grammar.kind)])
        case .label: Property("Shown to the listener (Breathe In, …).", ["type": "string"])
        case .length: Property("The phase's exact length in seconds.", ["type": "number", "exclusiveMinimum": 0])
        }
    }

    static func section(_ key: CueSheet.Section.Key) -> Property {
        switch key {
        case .kind: Property("Which section.", ["enum": ["intro", "practice", "outro"]])
        case .segment:
            Property(
                "cues-v1.1, practice sections: the program segment, from 0 (0 for a recipe without a program).", index, required: false)
        case .name:
            Property("cues-v1.1, practice sections: the segment's name (its label, or the pattern's name).", ["type": "string"], required: false)
        case .startFrame: Property("First frame of the section.", frame)
        case .endFrame: Property("The frame after the section's last one.", frame)
        case .start: Property("start_frame / sample_rate, in seconds.", seconds)
        case .end: Property("end_frame / sample_rate, in seconds.", seconds)
        case .ramp:
            Property(
                "cues-v1.1, ramped practice sections only: cycle k (from 0 in the segment) runs at from_bpm + "
                    + "(to_bpm − from_bpm) × min(k, over) / over breaths a minute.",
                object(CueSheet.Ramp.Key.self, ramp), required: false)
        }
    }

    static func ramp(_ key: CueSheet.Ramp.Key) -> Property {
        switch key {
        case .fromBPM: Property("The pattern's own rate, 60 / its cycle in seconds, to 6 decimals.", ["type": "number", "exclusiveMinimum": 0])
        case .toBPM:
            Property(
                "The rate the recipe ramps to, as written.",
                ["type": "number", "minimum": .int(Grammar.bpm.lowerBound), "maximum": .int(Grammar.bpm.upperBound)])
        case .over: Property("The cycles the rate changes over.", ["type": "integer", "minimum": 1])
        }
    }

    static func phase(_ key: CueSheet.Phase.Key) -> Property {
        switch key {
        case .index: Property("Position in this list, from 0.", index)
        case .segment: Property("cues-v1.1: the program segment the phase belongs to, from 0.", index, required: false)
        case .cycle: Property("Which cycle the phase belongs to, from 0.", index)
        case .kind: Property("The phase kind.", ["type": "string", "pattern": .string(Grammar.kind)])
        case .label: Property("Shown to the listener.", ["type": "string"])
        case .guide:
            Property(
                "cues-v1.2: how the phase moves the breath envelope; given exactly when the sheet has a top-level guide.",
                ["enum": .array(BreathGuide.allCases.map { .string($0.rawValue) })], required: false)
        case .length:
            Property(
                "cues-v1.1: the phase's own exact length in seconds (with a ramp it differs from pattern.phases).",
                ["type": "number", "exclusiveMinimum": 0], required: false)
        case .startFrame: Property("First frame of the phase.", frame)
        case .endFrame: Property("The frame after the phase's last one.", frame)
        case .start: Property("start_frame / sample_rate, in seconds.", seconds)
        case .end: Property("end_frame / sample_rate, in seconds.", seconds)
        }
    }

    static func cue(_ key: CueSheet.Cue.Key) -> Property {
        switch key {
        case .name: Property("The cue: a phase kind, start, end or tick.", ["type": "string", "pattern": .string(Grammar.cueName)])
        case .phase: Property("Index of the phase it starts (end: the last phase, which it closes).", index)
        case .frame: Property("The frame it starts at.", frame)
        case .lengthFrames: Property("How many frames it sounds (cut at the end of the file).", frame)
        case .time: Property("frame / sample_rate, in seconds.", seconds)
        }
    }

    static func voicePrompt(_ key: CueSheet.VoicePrompt.Key) -> Property {
        switch key {
        case .index: Property("Position in this list, from 0 (frame order).", index)
        case .text: Property("What the prompt says; null for a clip given without words.", ["type": ["string", "null"]], required: false)
        case .file:
            Property(
                "The clip's path in the assets folder; null for a draft (spoken by the draft voice).", ["type": ["string", "null"]], required: false)
        case .draft:
            Property("true: spoken by the draft voice (no recorded clip yet); render --no-drafts refuses such a recipe.", ["type": "boolean"])
        case .phase: Property("Index of the phase it is placed on; only for prompts placed with 'on:'.", index, required: false)
        case .frame: Property("Its first frame.", frame)
        case .lengthFrames: Property("How many frames it sounds (the caption ends at frame + length_frames).", ["type": "integer", "minimum": 1])
        case .time: Property("frame / sample_rate, in seconds.", seconds)
        case .duckDB: Property("How far the bed is lowered under it, in dB (0: not at all).", ["type": "number", "minimum": 0])
        }
    }
}
