import AudioCore
import Recipe

/// `schema/recipe.schema.json`: what a recipe may hold, for editors and validators (JSON Schema, draft 2020-12).
///
/// The properties of every mapping are the key table's rows (`RecipeKeys`, through `properties(_:)` in
/// KeyProperties.swift); the `$defs` hold the value grammars, from `Grammar` (bounds from
/// `RecipeLimits` and `Units`), and the rules between keys. `SchemaFileTests` checks the keys against
/// the parser, `GeneratedFilesTests` the committed file against this.
enum RecipeSchema {
    static let quoted = " Quoted text is read like the same value written plain."

    /// A `$ref` to one of `$defs`, described for this place, with `extra` members after.
    static func ref(_ name: String, _ description: String, _ extra: KeyValuePairs<String, SchemaJSON> = [:]) -> SchemaJSON {
        var out: SchemaJSON = ["$ref": .string("#/$defs/\(name)"), "description": .string(description)]
        for (key, value) in extra { out[key] = value }
        return out
    }

    static var document: SchemaJSON {
        let recipe: SchemaJSON = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://cadence.invalid/schema/recipe.schema.json",
            "$comment": .string(SchemaFiles.generatedComment),
            "title": "Cadence session recipe (recipe-v1, recipe-v1.1)",
            "description": .string(
                "One recipe renders one audio track plus its cue sheet: a breathing or focus pattern over a background bed, "
                    + "with tone cues at phase boundaries. Give 'pattern' and exactly one of 'duration', 'cycles' or 'variants', or "
                    + "'program' (segments, each with its own pattern and length) and at most one of 'duration' or 'variants'. Unknown "
                    + "keys are errors. The renderer reads every value as the text written, so quoted and plain values mean the same."),
            "type": "object",
            "additionalProperties": false,
            "oneOf": [["required": ["pattern"]], ["required": ["program"]]],
            "properties": properties(""),
            "allOf": .array(rules + builtinRules),
            "$defs": defs,
        ]
        return recipe
    }

    static let rules: [SchemaJSON] = [
        [
            "if": ["required": ["pattern"]],
            "then": ["oneOf": [["required": ["duration"]], ["required": ["cycles"]], ["required": ["variants"]]]],
        ],
        [
            "$comment": "A program's length: its segments', or the top-level duration (or variants); never a top-level cycles or ramp.",
            "if": ["required": ["program"]],
            "then": [
                "title": "at most one of 'duration' and 'variants' beside 'program'",
                "properties": [
                    "cycles": [
                        "title": "no top-level 'cycles' with 'program' (give each segment its 'cycles:' or 'duration:')",
                        "description": "With 'program', each segment has its own length.",
                        "not": [:],
                    ],
                    "ramp": [
                        "title": "no top-level 'ramp' with 'program' (give a segment its 'ramp:')",
                        "description": "With 'program', each segment has its own ramp.",
                        "not": [:],
                    ],
                ],
                "not": ["required": ["duration", "variants"]],
            ],
        ],
        [
            "$comment": "Over a duration, the cycles a ramp changes over must be given ('over' defaults to cycles - 1 with 'cycles' only).",
            "if": ["required": ["ramp"], "anyOf": [["required": ["duration"]], ["required": ["variants"]]]],
            "then": ["properties": ["ramp": ["required": ["over"]]]],
        ],
    ]

    static let textDef: SchemaJSON = [
        "$comment":
            "maxLength counts characters; the renderer's limit is 256 bytes of UTF-8 (RecipeLimits.maxTextBytes), so text outside ASCII may pass here and fail there.",
        "title": "non-empty text of at most 256 bytes",
        "description": "Non-empty text (a plain number or true/false is read as its text), at most 256 bytes of UTF-8.",
        "type": ["string", "number", "boolean"],
        "minLength": 1,
        "maxLength": .int(RecipeLimits.maxTextBytes),
    ]

    static let durationDef: SchemaJSON = [
        "$comment":
            "pattern: the renderer's grammar (Units.duration). not: one field or unit that alone exceeds 24 h; a sum of units over 24 h (23h 2h) is left to the renderer.",
        "title": "a length like 10s, 1m30s or 01:30 (zero allowed)",
        "description": .string(
            "A length of time, zero allowed, at most 24 h. A bare number is seconds (90, 1.5). Units h, m, s, "
                + "ms combine in that order, each once, spaces allowed: 90s, 800ms, 5m30s, '1h 2m 3.5s'. 'a:b' is "
                + "minutes:seconds and 'a:b:c' hours:minutes:seconds, fields after the first below 60, decimals in "
                + "the last only: 05:00, 1:02:03.5. At most 9 decimals of a second (6 of a millisecond); no sign."),
        "anyOf": [
            ["type": "number", "minimum": 0, "maximum": .int(day)],
            [
                "type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.duration),
                "not": ["pattern": .string(Grammar.over(day))],
            ],
        ],
    ]

    static let positiveDurationDef: SchemaJSON = [
        "$comment": "As duration; (?=.*[1-9]) rules out zero.",
        "title": "a length above zero like 90s, 5m30s or 05:00",
        "description": .string(
            "A length of time above zero, at most 24 h. A bare number is seconds (90, 1.5). Units h, m, s, ms "
                + "combine in that order, each once, spaces allowed: 90s, 800ms, 5m30s, '1h 2m 3.5s'. 'a:b' is "
                + "minutes:seconds and 'a:b:c' hours:minutes:seconds, fields after the first below 60, decimals in "
                + "the last only: 05:00, 1:02:03.5. At most 9 decimals of a second (6 of a millisecond); no sign."),
        "anyOf": [
            ["type": "number", "exclusiveMinimum": 0, "maximum": .int(day)],
            [
                "type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.positiveDuration),
                "not": ["pattern": .string(Grammar.over(day))],
            ],
        ],
    ]

    static let cueLengthDef: SchemaJSON = [
        "$comment":
            "As positiveDuration; not: one field or unit that alone exceeds 60 s (90s, 2m, 1:30, 0.5h), or exactly 60 s and more (1m 1s). Other sums over 60 s are left to the renderer.",
        "title": "a length above zero and at most 60 s like 800ms or 1.5s",
        "description": .string(
            "A length above zero, at most 60 s, written like any duration: 800ms, 1.5s, 2, 0:01.5. "
                + "(A sum of units over 60 s, like 50s 20000ms, is caught by the renderer only.)"),
        "anyOf": [
            ["type": "number", "exclusiveMinimum": 0, "maximum": .int(cueSeconds)],
            [
                "type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.positiveDuration),
                "not": ["pattern": .string(Grammar.over(cueSeconds))],
            ],
        ],
    ]

    static let gainDef: SchemaJSON = [
        "$comment": "The pattern holds the range: -0 to -120 and +0 to +24, any decimals, leading zeros allowed.",
        "title": "a gain from -120 dB to +24 dB like -14 dB",
        "description": "A gain from -120 dB to +24 dB: -14 dB, -14dB, +3 dB, 0; a bare number is dB (unit case-insensitive).",
        "anyOf": [
            ["type": "number", "minimum": .int(Int(Units.gainRange.lowerBound)), "maximum": .int(Int(Units.gainRange.upperBound))],
            ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.gain)],
        ],
    ]

    static let frequencyDef: SchemaJSON = [
        "$comment": "(?=[0-9.]*[1-9]) rules out zero; no \"-\" sign. Below Nyquist is left to the renderer (it depends on output.sample_rate).",
        "title": "a frequency like 528 Hz or 1.2 kHz",
        "description": .string(
            "A frequency above 0 and below half the sample rate: 528 Hz, 528Hz, 1.2 kHz; a bare number is Hz " + "(unit case-insensitive)."),
        "anyOf": [
            ["type": "number", "exclusiveMinimum": 0],
            ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.frequency)],
        ],
    ]

    static let assetPathDef: SchemaJSON = [
        "title": "a path relative to the assets folder like beds/rain.ogg",
        "description": .string(
            "A path relative to the assets folder (--assets DIR, or the first 'assets' folder above the recipe), "
                + "with '/' between folders: no leading '/', no '..' segment, no backslash or control character."),
        "type": "string",
        "pattern": .string(Grammar.asset),
    ]

    static let builtinPatternDef: SchemaJSON = [
        "title": "a built-in pattern",
        "description": "A built-in pattern, by its exact name.",
        "enum": .strings(BuiltinPatterns.names),
        "enumDescriptions": .strings(BuiltinPatterns.names.map { builtinDescriptions[$0] ?? $0 }),
    ]

    static let inlinePatternDef: SchemaJSON = [
        "title": "a pattern mapping with 'phases'",
        "description": "Your own cycle: a list of phases, each a kind, a length and a label.",
        "type": "object",
        "additionalProperties": false,
        "required": ["phases"],
        "properties": properties("pattern"),
    ]

    static let segmentDef: SchemaJSON = [
        "$comment": "Whether the segment fits (at least one cycle, or one phase with end_on: phase) is left to the renderer.",
        "title": "a segment like '{ pattern: box, cycles: 4 }' or '{ pattern: coherent, duration: 3m }'",
        "description": .string(
            "One segment of a program: a 'pattern' and exactly one of 'cycles' and 'duration', optionally 'end_on', " + "'ramp' and 'label'."),
        "type": "object",
        "additionalProperties": false,
        "required": ["pattern"],
        "oneOf": [["required": ["cycles"]], ["required": ["duration"]]],
        "if": ["required": ["duration"]],
        "then": ["properties": ["ramp": ["required": ["over"]]]],
        "properties": properties("program[]"),
    ]

    static let rampDef: SchemaJSON = [
        "$comment": "'over' at most a segment's cycles, and a ramp over one cycle without 'over', are left to the renderer.",
        "title": "a ramp like '{ to: 4.5 bpm, over: 10 cycles }'",
        "description": "A breath-rate ramp: the rate 'to' reach, over how many cycles.",
        "type": "object",
        "additionalProperties": false,
        "required": ["to"],
        "properties": properties("ramp"),
    ]

    static let phaseDef: SchemaJSON = [
        "title": "a phase like '- inhale: 4s' or '- { kind: inhale, length: 4s, label: Breathe In }'",
        "description": "One phase: the short form '- inhale: 4s' (kind: length) or the long form with kind, length and label.",
        "oneOf": [
            [
                "title": "short form",
                "description": "kind: length, one key only. The label is the kind's default (inhale: Breathe In, top_up: Top Up).",
                "type": "object",
                "minProperties": 1,
                "maxProperties": 1,
                "propertyNames": [
                    "description": "The phase kind: a lowercase word (letters, digits, '_'), not start, end, kind, length or label.",
                    "pattern": .string(Grammar.shortKind),
                ],
                "additionalProperties": RecipeKeys.row("pattern.phases[].<kind>").map(property) ?? [:],
            ],
            [
                "title": "long form",
                "type": "object",
                "additionalProperties": false,
                "required": ["kind", "length"],
                "properties": properties("pattern.phases[]"),
            ],
        ],
    ]

    static let bedDef: SchemaJSON = [
        "title": "a bed mapping with 'file:' or 'synth:'",
        "description": "A bed: exactly one of 'file' or 'synth', with optional gain and fades.",
        "type": "object",
        "additionalProperties": false,
        "oneOf": [["required": ["file"]], ["required": ["synth"]]],
        "properties": properties("bed"),
    ]

    static let cuesDef: SchemaJSON = [
        "title": "a mapping from phase kind to cue",
        "description": "Cue name (a kind of the pattern, start or end) → cue.",
        "type": "object",
        "propertyNames": [
            "description": "A kind of the pattern (a lowercase word), start or end.",
            "pattern": .string(Grammar.cueName),
        ],
        "properties": SchemaJSON.object(kindHelp.map { ($0.kind, ref("cue", $0.help)) }).merging(properties("cues")).merging([
            "tick": ref("tickCue", "Ticks inside phases, every 1 s unless 'every:' says.")
        ]),
        "additionalProperties": RecipeKeys.row("cues.<kind>").map(property) ?? [:],
    ]

    static let cueCyclesDef: SchemaJSON = [
        "title": "a cycle number from 1, a range like 1-3, or a list like [1, 2, 10-12]",
        "description":
            (.string(
                "The cue sounds only in these cycles, counted from 1 (start: cycle 1; end: the last cycle). Cycles "
                    + "past the practice's are allowed, as long as one chosen cycle exists." + quoted)),
        "anyOf": [
            ["$ref": "#/$defs/cycleRange"],
            ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/cycleRange"]],
        ],
        "examples": ["1-20", [1, 2, "10-12"]],
    ]

    static let cueDef: SchemaJSON = [
        "title": "none, a preset (bell, chime, click), or a mapping with 'tone:', 'preset:' or 'file:'",
        "description": .string(
            "none; a preset: bell (528 Hz, 1.2 s, -18 dB), chime (880 Hz, 1.5 s, -20 dB), click (2 kHz, 30 ms, "
                + "-24 dB); a tone { tone, length, gain, envelope, harmonics }; a preset changed or limited { preset, "
                + "gain, … }; or a sound file { file, gain }. Each mapping may add 'until:' and 'cycles:'."),
        "anyOf": [
            ["enum": .strings(["none"] + CuePresets.names)],
            ["$ref": "#/$defs/toneCue"],
            ["$ref": "#/$defs/presetCue"],
            ["$ref": "#/$defs/fileCue"],
        ],
    ]

    static let toneCueDef: SchemaJSON = [
        "title": "a tone cue",
        "description": "A synthesized tone; starts exactly at its phase's first frame.",
        "type": "object",
        "additionalProperties": false,
        "required": ["tone"],
        "properties": properties("cues.<kind>", only: toneKeys),
    ]

    static let fileCueDef: SchemaJSON = [
        "title": "a file cue",
        "description": "A sound file from the assets folder, converted like a bed but never looped, at most 60 s; played as recorded.",
        "type": "object",
        "additionalProperties": false,
        "required": ["file"],
        "properties": properties("cues.<kind>", only: fileKeys),
    ]

    static let outputDef: SchemaJSON = [
        "title": "a mapping of output settings",
        "type": "object",
        "additionalProperties": false,
        "properties": properties("output"),
        "allOf": .array(
            fixedRateRules + [
                [
                    "if": ["required": ["format", "sample_rate"], "properties": ["format": ["const": "ogg"]]],
                    "then": [
                        "properties": [
                            "sample_rate": [
                                "$comment": "A rate over 200 kHz written as text is left to the renderer.",
                                "description": "libvorbis encodes up to 200000 Hz.",
                                "anyOf": [
                                    [
                                        "type": "integer",
                                        "maximum": .int(AudioFormat.ogg.facts.highestSampleRate ?? RecipeLimits.sampleRates.upperBound),
                                    ], ["type": "string"],
                                ],
                            ]
                        ]
                    ],
                ],
                [
                    "if": ["required": ["format", "channels"], "properties": ["format": ["const": "alac"]]],
                    "then": [
                        "properties": [
                            "channels": [
                                "description": "Apple Lossless (alac) takes 1, 2, 4, 5 or 6 channels (FormatFacts.alac, AudioCore).",
                                "enum": .ints(RecipeLimits.fixedChannelCounts(of: .alac) ?? []),
                            ]
                        ]
                    ],
                ],
                [
                    "if": ["required": ["format", "channels"], "properties": ["format": ["const": "m4a"]]],
                    "then": [
                        "properties": [
                            "channels": [
                                "description":
                                    "AAC (m4a) takes 1 to 6 or 8 channels: 7 have no AAC channel configuration (FormatFacts.m4a, AudioCore).",
                                "enum": .ints(RecipeLimits.fixedChannelCounts(of: .m4a) ?? []),
                            ]
                        ]
                    ],
                ],
                [
                    "if": ["required": ["format", "bitrate"], "properties": ["format": ["enum": .strings(losslessFormats)]]],
                    "then": ["properties": ["bitrate": ["description": "Lossless formats have no bit rate.", "not": [:]]]],
                ],
            ]),
        "if": [
            "required": ["format", "bit_depth"],
            "properties": ["format": ["enum": ["flac", "caf", "alac"]]],
        ],
        "then": [
            "properties": [
                "bit_depth": ["description": "flac, caf and alac store integer samples only: 16 or 24.", "not": ["const": "32f"]]
            ]
        ],
    ]

    static let voiceDef: SchemaJSON = [
        "title": "a mapping with 'prompts:' (and level, duck, …)",
        "description": "The voice prompts, their level, and how the bed ducks under them.",
        "type": "object",
        "additionalProperties": false,
        "required": ["prompts"],
        "properties": properties("voice"),
    ]

    static let promptDef: SchemaJSON = [
        "$comment": "Cycles that do not exist, a segment the recipe lacks, a time outside the file and overlaps are left to the renderer.",
        "title": "a prompt mapping with 'at:' or 'on:', and 'file:' or 'text:'",
        "description": .string(
            "One prompt: exactly one of 'at:' (a time) and 'on:' (a phase kind, with optional 'cycles:' and "
                + "'segment:'), and 'file:' (a recorded clip), 'text:' (its words; alone, spoken by the draft voice) " + "or both."),
        "type": "object",
        "additionalProperties": false,
        "oneOf": [["required": ["at"]], ["required": ["on"]]],
        "anyOf": [["required": ["file"]], ["required": ["text"]]],
        "dependentRequired": ["cycles": ["on"], "segment": ["on"], "until": ["on"]],
        "properties": properties("voice.prompts[]"),
    ]

    static let promptTimeDef: SchemaJSON = [
        "$comment": .string(
            "pattern: Units.promptTime's grammar, anchors in any case. not: one field or unit of the time or " + "the offset that alone exceeds 24 h."
        ),
        "title": "a time like 3s, or an anchor and offset like 'practice - 2s' or 'end - 20s'",
        "description": .string(
            "A duration from the file's start (3s, 1:30), or intro, practice, outro (that section's start), "
                + "'segment N' (program segment N's start, from 1) or end (the file's end), optionally followed by "
                + "'+ 5s' or '- 2s' (any duration up to 24 h). An anchor stands for its exact time."),
        "anyOf": [
            ["type": "number", "minimum": 0, "maximum": .int(day)],
            [
                "type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.promptTime),
                "not": ["pattern": .string(Grammar.over(day, start: #"(?:^|[+-])"#))],
            ],
        ],
    ]

    static let cycleRangeDef: SchemaJSON = [
        "title": "a cycle number from 1 or a range like 1-3",
        "description": "A cycle number (from 1, at most 100000) or an inclusive range of them like 1-3.",
        "anyOf": [
            ["type": "integer", "minimum": .int(RecipeLimits.cycles.lowerBound), "maximum": .int(RecipeLimits.cycles.upperBound)],
            ["type": "string", "pattern": .string(Grammar.cycleRange)],
        ],
    ]

    static let duckRampDef: SchemaJSON = [
        "$comment":
            "As duration; not: one field or unit that alone exceeds 5 s (6s, 0.1m, 0:06). Other sums over 5 s (3s 2500ms) are left to the renderer.",
        "title": "a length from 0 to 5 s like 300ms",
        "description": "A length of time from 0 to 5 s, written like any duration: 300ms, 0.7s, 1.5, 0:02.",
        "anyOf": [
            ["type": "number", "minimum": 0, "maximum": .int(duckRampSeconds)],
            [
                "type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.duration),
                "not": ["pattern": .string(Grammar.over(duckRampSeconds))],
            ],
        ],
    ]

    static let loudnessDef: SchemaJSON = [
        "$comment": "The pattern holds the range -5 to -70 and takes off in any case.",
        "title": "a loudness target from -70 to -5 LUFS like -16 LUFS, or off",
        "anyOf": [
            ["type": "number", "minimum": .int(Int(Units.loudnessRange.lowerBound)), "maximum": .int(Int(Units.loudnessRange.upperBound))],
            ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.loudness)],
        ],
    ]

    static let truePeakDef: SchemaJSON = [
        "$comment": "The pattern holds the range -20 to 0 (+0 and -0 included).",
        "title": "a true-peak ceiling from -20 to 0 dBTP like -1 dBTP",
        "anyOf": [
            ["type": "number", "minimum": .int(Int(Units.truePeakRange.lowerBound)), "maximum": .int(Int(Units.truePeakRange.upperBound))],
            ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.truePeak)],
        ],
    ]

    static var defs: SchemaJSON {
        [
            "text": textDef,
            "duration": durationDef,
            "positiveDuration": positiveDurationDef,
            "cueLength": cueLengthDef,
            "gain": gainDef,
            "frequency": frequencyDef,
            "assetPath": assetPathDef,
            "builtinPattern": builtinPatternDef,
            "inlinePattern": inlinePatternDef,
            "segment": segmentDef,
            "ramp": rampDef,
            "phase": phaseDef,
            "bed": bedDef,
            "cues": cuesDef,
            "cueCycles": cueCyclesDef,
            "cue": cueDef,
            "toneCue": toneCueDef,
            "fileCue": fileCueDef,
            "output": outputDef,
            "voice": voiceDef,
            "prompt": promptDef,
            "promptTime": promptTimeDef,
            "cycleRange": cycleRangeDef,
            "duckRamp": duckRampDef,
            "loudness": loudnessDef,
            "truePeak": truePeakDef,
            "presetCue": presetCueDef,
            "tickCue": tickCueDef,
        ]
    }
}

extension RecipeSchema {
    /// 24 h, the longest length anywhere (`RecipeLimits.maxDuration`), in seconds.
    static let day = RecipeLimits.maxDuration.wholeSeconds
    /// The longest cue tone (`RecipeLimits.maxCueLength`), in seconds.
    static let cueSeconds = RecipeLimits.maxCueLength.wholeSeconds
    /// The longest duck ramp (`RecipeLimits.maxDuckRamp`), in seconds.
    static let duckRampSeconds = RecipeLimits.maxDuckRamp.wholeSeconds

    /// The formats without a bit rate.
    static let losslessFormats = AudioFormat.allCases.filter { RecipeLimits.bitrates(format: $0, sampleRate: 48000, channels: 2) == nil }
        .map(\.rawValue)

    /// The keys of each form of a cue mapping (the rows of `cues.<kind>`): a tone and a preset take
    /// every key but the other forms' and the tick's, a file its gain and limits; the tick cue adds its own.
    static let cueKeys = RecipeKeys.children(of: "cues.<kind>").filter { !RecipeGrammarFacts.tickKeys.contains($0) }
    static let toneKeys = cueKeys.filter { !["preset", "file"].contains($0) }
    static let presetKeys = cueKeys.filter { !["tone", "file"].contains($0) }
    static let fileKeys = ["file", "gain"] + RecipeGrammarFacts.limitKeys

    /// What each built-in pattern is, for editors' completion lists.
    static let builtinDescriptions = [
        "box": "Box Breathing: inhale 4 s, hold 4 s, exhale 4 s, hold 4 s (16 s).",
        "4-7-8": "4-7-8 Breathing: inhale 4 s, hold 7 s, exhale 8 s (19 s).",
        "coherent": "Coherent Breathing: inhale 5.5 s, exhale 5.5 s (11 s).",
        "relax": "Relax: inhale 4 s, hold 2 s, exhale 6 s, rest 2 s (14 s).",
        "pomodoro": "Pomodoro: (work 25m, short_break 5m) x 3, work 25m, long_break 15m (2 h).",
    ]

    /// The cue names `cues:` describes: the built-in patterns' kinds, start, end, transition.
    static let kindHelp: [(kind: String, help: String)] = [
        ("inhale", "Cue at the start of every inhale phase."),
        ("hold", "Cue at the start of every hold phase."),
        ("exhale", "Cue at the start of every exhale phase."),
        ("rest", "Cue at the start of every rest phase."),
        ("work", "Cue at the start of every work phase."),
        ("short_break", "Cue at the start of every short_break phase."),
        ("long_break", "Cue at the start of every long_break phase."),
        ("start", "Cue at the first phase's first frame (sounds together with that phase's own cue)."),
        ("end", "Cue at the end of the last phase (the outro's first frame); never placed without an outro."),
        ("transition", "Cue at the start of a program segment's transition phase (the time a duration segment leaves over)."),
    ]

    /// For each built-in pattern: the cue names `cues:` takes, and the kinds a prompt's `on:` takes.
    static var builtinRules: [SchemaJSON] {
        BuiltinPatterns.names.map { name in
            var kinds: [String] = []
            for phase in BuiltinPatterns.named(name)?.phases ?? [] where !kinds.contains(phase.kind) { kinds.append(phase.kind) }
            let cueNames = kinds + RecipeGrammarFacts.boundaryCues + RecipeGrammarFacts.limitKeys + [RecipeGrammarFacts.tickCue]
            return [
                "if": ["required": ["pattern"], "properties": ["pattern": ["const": .string(name)]]],
                "then": [
                    "properties": [
                        "cues": [
                            "propertyNames": [
                                "description": .string(
                                    "Cue names for pattern '\(name)': its kinds, start, end and tick (and until, cycles: limits for every cue)."),
                                "enum": .strings(cueNames),
                            ]
                        ],
                        "voice": [
                            "properties": [
                                "prompts": [
                                    "items": [
                                        "properties": ["on": ["description": .string("A phase kind of pattern '\(name)'."), "enum": .strings(kinds)]]
                                    ]
                                ]
                            ]
                        ],
                    ]
                ],
            ]
        }
    }

    /// For each format that takes only some sample rates: `sample_rate` is one of them, as a number,
    /// `N Hz` or `N kHz` (units in any case).
    static var fixedRateRules: [SchemaJSON] {
        let w = Grammar.space
        return [(AudioFormat.m4a, "AAC (m4a)"), (.opus, "Opus"), (.mp3, "MP3")].compactMap { format, name in
            guard let rates = RecipeLimits.fixedSampleRates(of: format) else { return nil }
            let hz = rates.map(String.init).joined(separator: "|")
            let khz = rates.map(kHzText).joined(separator: "|")
            return [
                "if": ["required": ["format", "sample_rate"], "properties": ["format": ["const": .string(format.rawValue)]]],
                "then": [
                    "properties": [
                        "sample_rate": [
                            "description": .string("\(name) is written only at " + rates.map(String.init).joined(separator: ", ") + " Hz."),
                            "anyOf": [
                                ["enum": .ints(rates)],
                                ["type": "string", "pattern": .string(#"^\#(w)0*(?:\#(hz))(?:\#(w)[hH][zZ])?\#(w)$"#)],
                                ["type": "string", "pattern": .string(#"^\#(w)0*(?:\#(khz))\#(w)[kK][hH][zZ]\#(w)$"#)],
                            ],
                        ]
                    ]
                ],
            ]
        }
    }

    /// 44100 → `44\.10*` (kHz with optional trailing zeros), 48000 → `48(?:\.0*)?`.
    static func kHzText(_ rate: Int) -> String {
        let whole = rate / 1000, part = rate % 1000
        guard part != 0 else { return #"\#(whole)(?:\.0*)?"# }
        var digits = String(part)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return #"\#(whole)\.\#(digits)0*"#
    }

    /// A preset as a mapping: the tone cue's keys but `tone`, which the preset gives.
    static var presetCueDef: SchemaJSON {
        [
            "title": "a preset cue",
            "description": .string(
                "A preset (bell, chime, click) as a mapping, so that it can be changed (length, gain, envelope, "
                    + "harmonics replace the preset's) or limited (until, cycles)."),
            "type": "object",
            "additionalProperties": false,
            "required": ["preset"],
            "properties": properties("cues.<kind>", only: presetKeys),
        ]
    }

    /// The tick cue (recipe-v1.1 § Ticks): any cue mapping plus `every` and `on`.
    static var tickCueDef: SchemaJSON {
        let tickKeys = properties("cues.<kind>", only: RecipeGrammarFacts.tickKeys)
        let mappings = [toneCueDef, presetCueDef, fileCueDef].map { cue in
            var tick = cue
            tick["properties"] = cue["properties"]?.merging(tickKeys)
            return tick
        }
        return [
            "title": "none, a preset (bell, chime, click), or a mapping with 'tone:', 'preset:' or 'file:', and 'every:' and 'on:'",
            "description": .string(
                "The cue that sounds inside phases (recipe-v1.1 § Ticks), listed in the cue sheet as cues named 'tick'. "
                    + "(A pattern with a phase kind 'tick' uses this name for that phase's cue instead.)"),
            "anyOf": .array([["enum": .strings(["none"] + CuePresets.names)]] + mappings),
        ]
    }
}

extension ExactSeconds {
    /// The length in whole seconds, for a limit that is one.
    var wholeSeconds: Int {
        precondition(nanoseconds % ExactSeconds.nanosPerSecond == 0, "\(self) is not whole seconds")
        return Int(nanoseconds / ExactSeconds.nanosPerSecond)
    }
}
