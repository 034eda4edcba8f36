import AudioCore
import Recipe

/// `schema/recipe.schema.json`: what a recipe may hold, for editors and validators (JSON Schema, draft 2020-12).
///
/// Patterns come from `Grammar` (the parser's value grammar, bounds from `RecipeLimits` and `Units`);
/// `SchemaFileTests` checks the keys against the parser and the file against this.
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
            "properties": properties,
            "allOf": .array(rules + builtinRules),
            "$defs": defs,
        ]
        return recipe
    }

    static let properties: SchemaJSON = [
        "id": [
            "title": "an id: letters, digits, '.', '_' or '-', starting with a letter or digit, at most 100 characters",
            "description": .string(
                "The track's id: its file names (<id>.flac, <id>.cues.json) and catalog key. Letters, digits, '.', "
                    + "'_' or '-', starting with a letter or digit, at most 100 characters. Default: the recipe's file " + "name without extension."),
            "anyOf": [["type": "string", "pattern": .string(Grammar.id)], ["type": "number", "minimum": 0]],
            "examples": ["box-breathing-5m"],
        ],
        "title": ref(
            "text", "Shown to the listener and in the catalog. Default: the pattern's name (Box Breathing, …).",
            ["examples": ["Box Breathing"]]),
        "category": ref(
            "text", "Free text that groups the catalog (Focus, Sleep, …); copied to the cue sheet.",
            ["examples": ["Focus"]]),
        "premium": [
            "description": "Catalog metadata passed through to the manifest: true or false (no yes/no/on/off).",
            "type": ["boolean", "string"],
            "enum": [true, false, "true", "false"],
            "default": false,
        ],
        "delivery": [
            "description": .string(
                "Catalog delivery: bundled (the default) ships the track inside the app, on-demand has the app "
                    + "fetch it when needed. catalog.json lists each track's delivery and bytes and totals the bundled "
                    + "tracks' bytes (bundle.bytes), which render --bundle-budget checks."),
            "enum": ["bundled", "on-demand"],
            "default": "bundled",
        ],
        "sort_order": [
            "title": "a whole number",
            "description": .string("Catalog metadata: a whole number that orders tracks within a category." + quoted),
            "anyOf": [["type": "integer"], ["type": "string", "pattern": .string(Grammar.wholeText)]],
            "examples": [10],
        ],
        "duration": ref(
            "positiveDuration",
            "The exact length of the file, intro and outro included. The practice holds whole cycles (or whole "
                + "phases with end_on: phase); the time left over goes to the outro. Give this or 'cycles', not both.",
            ["examples": ["5m", "90s", "05:00", "1h2m3.5s"]]),
        "variants": [
            "title": "a mapping like 'duration: [5m, 10m, 20m]'",
            "description": .string(
                "One recipe, several tracks: a track per length in 'duration' (1 to 24 lengths, each above zero and "
                    + "distinct), with the id <id>-<length> (box-5m, box-90s, box-1h30m: whole minutes in minutes), its own "
                    + "cue sheet, catalog entry and fingerprint. Instead of a top-level 'duration' or 'cycles'."),
            "type": "object",
            "additionalProperties": false,
            "required": ["duration"],
            "properties": [
                "duration": [
                    "description": "The lengths, each as a top-level 'duration' would be.",
                    "type": "array",
                    "minItems": 1,
                    "maxItems": .int(RecipeLimits.maxVariants),
                    "items": ["$ref": "#/$defs/positiveDuration"],
                    "examples": [["5m", "10m", "20m"]],
                ]
            ],
        ],
        "cycles": [
            "title": "a number of cycles from 1 to 100000",
            "description":
                (.string(
                    "Instead of 'duration': the number of whole cycles (1 to 100000); the file is intro + cycles × "
                        + "cycle + outro long, at most 24 h." + quoted)),
            "anyOf": [
                ["type": "integer", "minimum": .int(RecipeLimits.cycles.lowerBound), "maximum": .int(RecipeLimits.cycles.upperBound)],
                ["type": "string", "pattern": .string(Grammar.cyclesText)],
            ],
            "examples": [8],
        ],
        "end_on": [
            "description": .string(
                "With 'duration': end the practice on a whole cycle (never cut a breath) or on a whole phase. " + "Ignored with 'cycles'."),
            "enum": .strings(EndOn.allCases.map(\.rawValue)),
            "default": "cycle",
        ],
        "pattern": [
            "title": "a built-in pattern (box, 4-7-8, coherent, relax, pomodoro) or a mapping with 'phases'",
            "description": .string(
                "The cycle of phases: a built-in name (box, 4-7-8, coherent, relax, pomodoro) or a mapping with "
                    + "'phases' (and an optional 'name')."),
            "anyOf": [["$ref": "#/$defs/builtinPattern"], ["$ref": "#/$defs/inlinePattern"]],
        ],
        "program": [
            "title": "a list of segments like '- { pattern: box, cycles: 4 }'",
            "description": .string(
                "Instead of 'pattern' (recipe-v1.1 § Programs): 1 to 1000 segments played one after the other with no gap, "
                    + "each a pattern held for 'cycles' or for an exact 'duration' (the time left after its whole cycles or "
                    + "phases becomes one 'transition' phase). Without a top-level 'duration' the file lasts intro + every "
                    + "segment + outro; with one, the outro takes the time left over. No top-level 'cycles' or 'ramp' beside it."),
            "type": "array",
            "minItems": 1,
            "maxItems": .int(RecipeLimits.maxSegments),
            "items": ["$ref": "#/$defs/segment"],
            "examples": [[["pattern": "coherent", "duration": "3m"], ["pattern": "4-7-8", "cycles": 4, "label": "Wind down"]]],
        ],
        "ramp": [
            "$ref": "#/$defs/ramp",
            "description": .string(
                "Slows (or quickens) the breath (recipe-v1.1 § Ramps): cycle k runs at r0 + (r1 − r0) × min(k, over) / over "
                    + "breaths a minute, r0 the pattern's own rate. 'over' defaults to cycles − 1 with 'cycles', and is required "
                    + "with 'duration' or 'variants'. With 'program', give each segment its own ramp instead."),
        ],
        "intro": ref("duration", "Bed only, before the first phase.", ["default": 0, "examples": ["10s"]]),
        "outro": ref(
            "duration", "Bed only, after the last phase ('end' sounds at its first frame).",
            [
                "default": 0,
                "examples": ["15s"],
            ]),
        "bed": [
            "title": "none, a mapping with 'file:' or 'synth:', or a list of them (layers)",
            "description": .string(
                "The background under the whole track: a sound file, a synthesized noise, drone, binaural or "
                    + "isochronic tone, or none (silence, as without the key). A list of 1 to 8 such mappings is summed "
                    + "(layers, each with its own gain and fades); ducking under the voice lowers every layer."),
            "anyOf": [
                ["const": "none"],
                ["$ref": "#/$defs/bed"],
                ["type": "array", "minItems": 1, "maxItems": .int(RecipeLimits.maxBedLayers), "items": ["$ref": "#/$defs/bed"]],
            ],
        ],
        "cues": [
            "title": "none, or a mapping from phase kind to cue",
            "description": .string(
                "What sounds when a phase of each kind starts, plus 'start' and 'end'. Keys must be kinds of the "
                    + "pattern (with 'program': of any segment's pattern, or transition) or start/end. With a 'cues' key "
                    + "only the kinds listed sound; without one, inhale and exhale get soft bells and start and end a "
                    + "chime. 'none' (like {}) silences every cue."),
            "anyOf": [["const": "none"], ["$ref": "#/$defs/cues"]],
        ],
        "voice": [
            "$ref": "#/$defs/voice",
            "description": .string(
                "Spoken prompts over the track (recipe-v1.1 § Voice prompts): each placed at a time or on every "
                    + "phase of a kind, from a recorded clip or spoken by the draft voice, levelled to 'level', with the "
                    + "bed ducked under it. Cue sheets of recipes with voice are version 1.1."),
        ],
        "output": ["$ref": "#/$defs/output", "description": "Sample rate, channels, format, bit depth and loudness of the file."],
    ]

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

    // BUILTIN RULES TODO

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
        "properties": [
            "name": ref(
                "text", "Shown to the listener and written to the cue sheet. Default: Custom Pattern.",
                ["default": "Custom Pattern"]),
            "phases": [
                "description": "The phases of one cycle, in order (1 to 1000): '- inhale: 4s' or '- { kind: inhale, length: 1s, label: Top Up }'.",
                "type": "array",
                "minItems": 1,
                "maxItems": .int(RecipeLimits.maxPhasesPerPattern),
                "items": ["$ref": "#/$defs/phase"],
            ],
        ],
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
        "properties": [
            "pattern": [
                "title": "a built-in pattern (box, 4-7-8, coherent, relax, pomodoro) or a mapping with 'phases'",
                "description": "The segment's cycle of phases, as a top-level 'pattern'.",
                "anyOf": [["$ref": "#/$defs/builtinPattern"], ["$ref": "#/$defs/inlinePattern"]],
            ],
            "cycles": [
                "title": "a number of cycles from 1 to 100000",
                "description": .string("The segment lasts this many whole cycles (1 to 100000)." + quoted),
                "anyOf": [
                    ["type": "integer", "minimum": .int(RecipeLimits.cycles.lowerBound), "maximum": .int(RecipeLimits.cycles.upperBound)],
                    ["type": "string", "pattern": .string(Grammar.cyclesText)],
                ],
                "examples": [4],
            ],
            "duration": ref(
                "positiveDuration",
                "The segment lasts exactly this long: the whole cycles (or phases, with end_on: phase) that fit, and "
                    + "the time left over as one 'transition' phase (label Transition, silent unless cues names transition).",
                ["examples": ["3m"]]),
            "end_on": [
                "description": "With 'duration': hold whole cycles or whole phases. Default: the top-level 'end_on'. Ignored with 'cycles'.",
                "enum": .strings(EndOn.allCases.map(\.rawValue)),
            ],
            "ramp": ["$ref": "#/$defs/ramp", "description": "The segment's breath-rate ramp; 'over' is required with 'duration'."],
            "label": ref(
                "text", "The segment's name: its practice section's 'name' in the cue sheet. Default: the pattern's name.",
                ["examples": ["Wind down"]]),
        ],
    ]

    static let rampDef: SchemaJSON = [
        "$comment": "'over' at most a segment's cycles, and a ramp over one cycle without 'over', are left to the renderer.",
        "title": "a ramp like '{ to: 4.5 bpm, over: 10 cycles }'",
        "description": "A breath-rate ramp: the rate 'to' reach, over how many cycles.",
        "type": "object",
        "additionalProperties": false,
        "required": ["to"],
        "properties": [
            "to": [
                "$comment": "The pattern holds the range 1 to 60 and at most 6 decimals; a plain number's decimals are left to the renderer.",
                "title": "a breath rate from 1 to 60 bpm like 4.5 bpm",
                "description":
                    (.string(
                        "The rate to reach, in breaths (cycles) a minute, 1 to 60, at most 6 decimals: 4.5 bpm, 6bpm, 4.5 "
                            + "(a bare number is bpm)." + quoted)),
                "anyOf": [
                    ["type": "number", "minimum": .int(Grammar.bpm.lowerBound), "maximum": .int(Grammar.bpm.upperBound)],
                    ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.breathRate)],
                ],
                "examples": ["4.5 bpm"],
            ],
            "over": [
                "title": "a number of cycles like '10 cycles'",
                "description":
                    (.string(
                        "The cycles the rate changes over, 1 to 100000: cycle N (counted from 0) and after run at the target. "
                            + "'10 cycles', '1 cycle' or 10. Default with 'cycles': the cycles − 1; required with 'duration'." + quoted)),
                "anyOf": [
                    ["type": "integer", "minimum": .int(RecipeLimits.cycles.lowerBound), "maximum": .int(RecipeLimits.cycles.upperBound)],
                    ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.cycleCount)],
                ],
                "examples": ["10 cycles"],
            ],
        ],
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
                "additionalProperties": ["$ref": "#/$defs/positiveDuration"],
            ],
            [
                "title": "long form",
                "type": "object",
                "additionalProperties": false,
                "required": ["kind", "length"],
                "properties": [
                    "kind": [
                        "title": "a phase kind (a lowercase word: letters, digits, '_') other than start and end",
                        "description": .string(
                            "inhale, hold, exhale, rest, work, short_break, long_break or any lowercase word "
                                + "(letters, digits, '_', at most 64), except start and end."),
                        "type": "string",
                        "pattern": .string(Grammar.kind),
                        "examples": ["inhale", "hold", "exhale", "rest", "work", "short_break", "long_break"],
                    ],
                    "length": ref("positiveDuration", "How long the phase lasts.", ["examples": ["4s"]]),
                    "label": ref(
                        "text",
                        "Shown to the listener. Default by kind: Breathe In, Hold, Breathe Out, Rest, Work, Short "
                            + "Break, Long Break; another word capitalized (top_up: Top Up).",
                    ),
                ],
            ],
        ],
    ]

    static let bedDef: SchemaJSON = [
        "title": "a bed mapping with 'file:' or 'synth:'",
        "description": "A bed: exactly one of 'file' or 'synth', with optional gain and fades.",
        "type": "object",
        "additionalProperties": false,
        "oneOf": [["required": ["file"]], ["required": ["synth"]]],
        "properties": [
            "file": ref(
                "assetPath",
                "A sound file libsndfile reads (any rate and channel count), converted to the output and looped "
                    + "with a crossfade when shorter than the track.",
                ["examples": ["beds/rain.ogg"]]),
            "synth": [
                "$comment": "The carrier's and beat's ranges, and binaural's two output channels, are left to the renderer.",
                "title": "pink-noise, brown-noise, white-noise, drone, 'drone 110 Hz', 'binaural 200 Hz 10 Hz' or 'isochronic 200 Hz 10 Hz'",
                "description": .string(
                    "A synthesized bed near -18 dBFS RMS before 'gain': pink-noise, brown-noise, white-noise, drone "
                        + "(110 Hz) or 'drone 220 Hz'; 'binaural CARRIER BEAT' (left carrier − beat/2, right carrier + "
                        + "beat/2; 2 output channels), 'isochronic CARRIER BEAT' (the carrier pulsed at the beat on every "
                        + "channel). Carrier 20 to 1500 Hz, beat 0.5 to 40 Hz; phases come from the frame index (no drift)."),
                "anyOf": [
                    ["enum": .strings(RecipeGrammarFacts.synthNames)],
                    ["type": "string", "pattern": .string(Grammar.synth)],
                ],
                "examples": ["pink-noise", "drone 110 Hz", "binaural 200 Hz 10 Hz", "isochronic 432 Hz 7.83 Hz"],
            ],
            "gain": ref("gain", "Scales the bed.", ["default": "0 dB", "examples": ["-14 dB"]]),
            "fade_in": ref(
                "duration", "Raised-cosine fade in from the file's first frame.",
                [
                    "default": 0,
                    "examples": ["4s"],
                ]),
            "fade_out": ref(
                "duration", "Raised-cosine fade out to the file's last frame.",
                [
                    "default": 0,
                    "examples": ["8s"],
                ]),
            "crossfade": ref(
                "duration",
                "Loop seam crossfade when the bed file is shorter than the track (at most half the bed's length).",
                [
                    "default": "1s",
                    "examples": ["2s"],
                ]),
        ],
    ]

    static let cuesDef: SchemaJSON = [
        "title": "a mapping from phase kind to cue",
        "description": "Cue name (a kind of the pattern, start or end) → cue.",
        "type": "object",
        "propertyNames": [
            "description": "A kind of the pattern (a lowercase word), start or end.",
            "pattern": .string(Grammar.cueName),
        ],
        "properties": .object(
            kindHelp.map { ($0.kind, ref("cue", $0.help)) } + [
                ("until", ref("cueUntil", "Every cue without its own 'until:' sounds only at onsets before this time.")),
                ("cycles", ref("cueCycles", "Every cue without its own 'cycles:' sounds only in these cycles.")),
                ("tick", ref("tickCue", "Ticks inside phases, every 1 s unless 'every:' says.")),
            ]),
        "additionalProperties": ref("cue", "Cue at the start of every phase of this kind."),
    ]

    static let cueUntilDef: SchemaJSON = [
        "$comment": "A time that silences its cue at every onset is left to the renderer.",
        "title": "a time like 5m, or an anchor and offset like 'practice + 5m' or 'end - 10m'",
        "description": .string(
            "The cue sounds only at onsets before this time (an onset at it is silent): a time from the file's "
                + "start, or an anchor (intro, practice, outro, segment N, end) and an offset, as a prompt's 'at:'. "
                + "A time past the end is allowed (the same recipe serves every variant)."),
        "$ref": "#/$defs/promptTime",
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
        "properties": [
            "tone": ref("frequency", "The tone's frequency.", ["examples": ["528 Hz"]]),
            "length": ref(
                "cueLength", "How long the tone sounds, at most 60 s.",
                [
                    "default": "800ms",
                    "examples": ["800ms"],
                ]),
            "gain": ref("gain", "The tone's level.", ["default": "-18 dB", "examples": ["-18 dB"]]),
            "envelope": [
                "description": "bell: fast attack, long ring-out; soft: slow swell in and out; click: a few milliseconds.",
                "enum": .strings(Envelope.allCases.map(\.rawValue)),
                "default": "bell",
            ],
            "harmonics": [
                "title": "a list of up to 16 amplitudes from 0 to 1 (like [0.5, 0.25]) or a number of overtones from 0 to 16",
                "description": .string(
                    "Overtones (2f, 3f, …): a list of up to 16 relative amplitudes from 0 to 1, or a count N "
                        + "(0 to 16) of overtones with amplitudes 1/k. Overtones at or above Nyquist are left out."),
                "anyOf": [
                    ["type": "integer", "minimum": 0, "maximum": .int(RecipeLimits.maxHarmonics)],
                    ["type": "string", "pattern": .string(Grammar.harmonicCountText)],
                    [
                        "type": "array",
                        "maxItems": .int(RecipeLimits.maxHarmonics),
                        "items": [
                            "description": "A relative amplitude from 0 to 1.",
                            "title": "an amplitude from 0 to 1",
                            "anyOf": [
                                ["type": "number", "minimum": 0, "maximum": 1],
                                ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.amplitude)],
                            ],
                        ],
                    ],
                ],
                "default": [],
                "examples": [[0.3, 0.1], 3],
            ],
            "until": ref("cueUntil", "This cue sounds only at onsets before this time."),
            "cycles": ref("cueCycles", "This cue sounds only in these cycles."),
        ],
    ]

    static let fileCueDef: SchemaJSON = [
        "title": "a file cue",
        "description": "A sound file from the assets folder, converted like a bed but never looped, at most 60 s; played as recorded.",
        "type": "object",
        "additionalProperties": false,
        "required": ["file"],
        "properties": [
            "file": ref("assetPath", "The cue's sound file.", ["examples": ["voice/breathe-in.wav"]]),
            "gain": ref("gain", "Scales the file.", ["default": "0 dB", "examples": ["-3 dB"]]),
            "until": ref("cueUntil", "This cue sounds only at onsets before this time."),
            "cycles": ref("cueCycles", "This cue sounds only in these cycles."),
        ],
    ]

    static let outputDef: SchemaJSON = [
        "title": "a mapping of output settings",
        "type": "object",
        "additionalProperties": false,
        "properties": [
            "sample_rate": [
                "title": "a sample rate from 8000 to 384000 Hz like 48000 or 44.1 kHz",
                "description": .string(
                    "Samples per second, 8000 to 384000 (Hz): a whole number, optionally with Hz, or kHz with up to "
                        + "three decimals (44.1 kHz); units in any case." + quoted),
                "anyOf": [
                    ["type": "integer", "minimum": .int(RecipeLimits.sampleRates.lowerBound), "maximum": .int(RecipeLimits.sampleRates.upperBound)],
                    ["type": "string", "pattern": .string(Grammar.sampleRateText)],
                    ["type": "string", "pattern": .string(Grammar.sampleRateKHz)],
                ],
                "default": 48000,
                "examples": [48000, 44100],
            ],
            "channels": [
                "title": "a channel count from 1 to 8",
                "description": .string("Channel count, 1 to 8." + quoted),
                "anyOf": [
                    [
                        "type": "integer", "minimum": .int(RecipeLimits.channelCounts.lowerBound),
                        "maximum": .int(RecipeLimits.channelCounts.upperBound),
                    ], ["type": "string", "pattern": .string(Grammar.channelsText)],
                ],
                "default": 2,
            ],
            "format": [
                "description": .string(
                    "wav, flac, ogg (Vorbis), opus, mp3, caf (ALAC in CAF), m4a (AAC-LC in MP4, at 8000 to "
                        + "96000 Hz) or alac (Apple Lossless in MP4; written as .m4a). Default: from the -o extension "
                        + "(FLAC without -o; .m4a is AAC unless the recipe says alac); with -o both must agree."),
                "enum": .strings(AudioFormat.allCases.map(\.rawValue)),
            ],
            "bit_depth": [
                "description": .string(
                    "16 (TPDF-dithered), 24 or 32f (float). Ignored by lossy formats; flac, caf and alac take 16 or 24 "
                        + "only. Default 24 (16 for formats that only take 16)."),
                "type": ["integer", "string"],
                "enum": [16, 24, "16", "24", "32f"],
                "default": 24,
            ],
            "loudness": [
                "$ref": "#/$defs/loudness",
                "description": .string(
                    "Integrated loudness target (ITU-R BS.1770 / EBU R128), -70 to -5 LUFS, reached within "
                        + "±0.5 LU; or off to keep the mix as the gains make it (then clipping is an error)."),
                "default": "-16 LUFS",
                "examples": ["-16 LUFS", "off"],
            ],
            "true_peak": [
                "$ref": "#/$defs/truePeak",
                "description": "True-peak ceiling, -20 to 0 dBTP.",
                "default": "-1 dBTP",
                "examples": ["-1 dBTP"],
            ],
            "bitrate": [
                "title": "a bit rate from 32k to 320k like 128k or 96 kbps",
                "description": .string(
                    "A lossy format's bit rate (m4a, ogg, opus, mp3): 128k, 96 kbps, 128 kb/s or 128000 bps, from 32k "
                        + "to 320k. Default: m4a 128k, opus 96k, mp3 192k (or the most the format takes at the sample "
                        + "rate); ogg keeps its quality setting (VBR q 0.5) unless a bit rate is given. An error on "
                        + "lossless formats, and above what a format takes: AAC 6144 bits per channel per 1024 frames "
                        + "(264.6k mono at 44.1 kHz), Opus 6k to 256k per channel, MP3 160k below 32 kHz and 64k below "
                        + "16 kHz; libvorbis's own range at the rate (45k to 500k for 48 kHz stereo). A bare number " + "needs its unit."),
                "type": "string",
                "maxLength": .int(RecipeGrammarFacts.unitTextLength),
                "pattern": .string(Grammar.bitrate),
                "examples": ["128k", "96 kbps"],
            ],
            "sidecars": [
                "title": "a list of sidecar files from vtt, chapters, waveform, captions, like [vtt, chapters]",
                "description": .string(
                    "Extra files written beside the audio: vtt (WebVTT captions of the phases, <stem>.vtt), chapters "
                        + "(Podcasting 2.0 chapters JSON, <stem>.chapters.json), waveform (a waveform picture, <stem>.svg), "
                        + "captions (WebVTT captions of the voice prompts' text, <stem>.captions.vtt). A list like "
                        + "[vtt, chapters], or the same names as one comma-separated text. Default: none."),
                "anyOf": [
                    ["type": "array", "items": ["enum": .strings(OutputSettings.sidecarNames)]],
                    ["type": "string", "pattern": .string("^,*(?: *(?:" + OutputSettings.sidecarNames.joined(separator: "|") + ") *(?:,+|$))*$")],
                ],
                "default": [],
                "examples": [["vtt", "chapters"]],
            ],
        ],
        "allOf": .array(
            fixedRateRules + [
                [
                    "if": ["required": ["format", "sample_rate"], "properties": ["format": ["const": "ogg"]]],
                    "then": [
                        "properties": [
                            "sample_rate": [
                                "$comment": "A rate over 200 kHz written as text is left to the renderer.",
                                "description": "libvorbis encodes up to 200000 Hz.",
                                "anyOf": [["type": "integer", "maximum": .int(RecipeLimits.vorbisMaxSampleRate)], ["type": "string"]],
                            ]
                        ]
                    ],
                ],
                [
                    "if": ["required": ["format", "channels"], "properties": ["format": ["const": "alac"]]],
                    "then": [
                        "properties": [
                            "channels": [
                                "description": "Apple Lossless (alac) takes 1, 2, 4, 5 or 6 channels (RecipeLimits.alacChannelCounts).",
                                "enum": .ints(RecipeLimits.alacChannelCounts),
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
                                    "AAC (m4a) takes 1 to 6 or 8 channels: 7 have no AAC channel configuration (RecipeLimits.aacChannelCounts).",
                                "enum": .ints(RecipeLimits.aacChannelCounts),
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
        "properties": [
            "level": [
                "$comment": "The pattern holds the range -40 to -10 and takes off in any case.",
                "title": "a loudness from -40 to -10 LUFS like -18 LUFS, or off",
                "description": .string(
                    "Each prompt clip's integrated loudness (ITU-R BS.1770; a clip under 400 ms: its K-weighted "
                        + "mean square) is measured as it will be mixed and the clip gained to this, -40 to -10 LUFS; "
                        + "off: as recorded. Then 'gain' applies."),
                "anyOf": [
                    [
                        "type": "number", "minimum": .int(Int(Grammar.voiceLevelRange.lowerBound)),
                        "maximum": .int(Int(Grammar.voiceLevelRange.upperBound)),
                    ],
                    ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.voiceLevel)],
                ],
                "default": "-18 LUFS",
                "examples": ["-18 LUFS", "off"],
            ],
            "gain": ref("gain", "Then this gain on every prompt.", ["default": "0 dB", "examples": ["-3 dB"]]),
            "duck": [
                "$comment": "The pattern holds the range 0 to 40 (+0 and -0 included) and takes wcag in any case.",
                "title": "a depth from 0 to 40 dB like 12 dB, or wcag",
                "description": .string(
                    "How far the bed (every layer; never cues or other prompts) drops under each prompt, 0 to 40 dB "
                        + "(0 dB: no ducking); wcag: per prompt, so that the bed under it is at least 20 dB below the "
                        + "prompt (WCAG 2.2 G56), never less than 12 dB. The depth used is in the cue sheet (duck_db)."),
                "anyOf": [
                    ["type": "number", "minimum": .int(Grammar.duckDepthRange.lowerBound), "maximum": .int(Grammar.duckDepthRange.upperBound)],
                    ["type": "string", "maxLength": .int(RecipeGrammarFacts.unitTextLength), "pattern": .string(Grammar.duck)],
                ],
                "default": "12 dB",
                "examples": ["12 dB", "wcag", "0 dB"],
            ],
            "attack": ref(
                "duckRamp",
                "The bed ramps down (raised cosine) over this time, ending at the prompt's first frame; 0 to 5 s.",
                [
                    "default": "300ms",
                    "examples": ["300ms", "1s"],
                ]),
            "release": ref(
                "duckRamp",
                "And back up over this time, starting after the prompt's last frame; 0 to 5 s.",
                [
                    "default": "700ms",
                    "examples": ["700ms", "1.5s"],
                ]),
            "draft_voice": [
                "$comment": "Whether espeak-ng has the voice is left to the renderer (render --check asks it).",
                "title": "a language like en-us, en-gb, de, fr or es",
                "description": .string(
                    "The draft voice's language (an espeak-ng voice: en-us, en-gb, de, fr, es, …): it speaks the "
                        + "prompts that have 'text:' and no 'file:', so a script can be heard before it is recorded. "
                        + "render --no-drafts refuses a recipe that still has such a prompt."),
                "type": "string",
                "pattern": .string(Grammar.draftVoice),
                "default": "en-us",
                "examples": ["en-us", "en-gb", "de"],
            ],
            "prompts": [
                "description": .string(
                    "The prompts (1 to 1000), each placed with 'at:' or 'on:' and given a 'file:', a 'text:' or "
                        + "both. Prompts must not sound at the same time, nor start before the file or run past its end."),
                "type": "array",
                "minItems": 1,
                "maxItems": .int(RecipeLimits.maxPromptEntries),
                "items": ["$ref": "#/$defs/prompt"],
                "examples": [[["at": "3s", "file": "voice/welcome.wav", "text": "Welcome. Sit comfortably."]]],
            ],
        ],
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
        "properties": [
            "at": ref(
                "promptTime",
                "Where the prompt starts: a time from the file's start, or an anchor (intro, practice, outro, "
                    + "segment N, end) and an optional offset. Frame floor(T × sample_rate + 1/2) of the exact time T.",
                ["examples": ["3s", "practice - 2s", "end - 20s", "segment 2 + 5s"]]),
            "on": [
                "title": "a phase kind like inhale or exhale",
                "description": .string(
                    "The prompt starts at the first frame of every phase of this kind (a kind of the pattern) in " + "the chosen cycles."),
                "type": "string",
                "pattern": .string(Grammar.kind),
                "examples": ["inhale", "exhale"],
            ],
            "cycles": [
                "$comment": "A range that runs backwards (3-1) is left to the renderer.",
                "title": "a cycle number from 1, a range like 1-3, or a list like [1, 2, 10-12]",
                "description":
                    (.string(
                        "With 'on:': the cycles it sounds in, counted from 1 within each segment: 3, 1-3 or a list "
                            + "like [1, 2, 10-12]. Default: every cycle." + quoted)),
                "anyOf": [
                    ["$ref": "#/$defs/cycleRange"],
                    ["type": "array", "minItems": 1, "items": ["$ref": "#/$defs/cycleRange"]],
                ],
                "examples": ["1-3", [1, 2, "10-12"]],
            ],
            "until": ref(
                "promptTime",
                "With 'on:': only on phases that start before this time (a time or an anchor and offset, as 'at:').",
                ["examples": ["5m", "end - 10m"]]),
            "segment": [
                "title": "a segment number from 1",
                "description": .string("With 'on:': only in this program segment, counted from 1 (a recipe without a program has one)." + quoted),
                "anyOf": [
                    ["type": "integer", "minimum": 1, "maximum": .int(RecipeLimits.maxSegments)],
                    ["type": "string", "pattern": .string(Grammar.segmentText)],
                ],
                "examples": [1],
            ],
            "file": ref(
                "assetPath",
                "The recorded clip, read like a cue file (any libsndfile format, resampled, never looped), at most 60 s.",
                ["examples": ["voice/welcome.wav"]]),
            "text": [
                "$comment": "maxLength counts characters; the renderer's limit is 1024 bytes of UTF-8 (RecipeLimits.maxPromptTextBytes).",
                "title": "the words the prompt says: at most 1024 bytes on one line",
                "description": .string(
                    "What the prompt says, for the cue sheet and the captions sidecar: at most 1024 bytes of "
                        + "UTF-8, not only spaces, without line breaks, tabs or other control characters. Without "
                        + "'file:' the draft voice speaks it."),
                "type": ["string", "number", "boolean"],
                "minLength": 1,
                "maxLength": .int(RecipeLimits.maxPromptTextBytes),
                "pattern": .string(Grammar.promptText),
                "examples": ["Welcome. Sit comfortably."],
            ],
        ],
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
            "cueUntil": cueUntilDef,
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
        guard case .object(let toneKeys)? = toneCueDef["properties"] else { return [:] }
        return [
            "title": "a preset cue",
            "description": .string(
                "A preset (bell, chime, click) as a mapping, so that it can be changed (length, gain, envelope, "
                    + "harmonics replace the preset's) or limited (until, cycles)."),
            "type": "object",
            "additionalProperties": false,
            "required": ["preset"],
            "properties": .object(
                [("preset", ["description": "The preset whose tone this is.", "enum": .strings(CuePresets.names)])]
                    + toneKeys.filter { $0.0 != "tone" }),
        ]
    }

    /// The tick cue (recipe-v1.1 § Ticks): any cue mapping plus `every` and `on`.
    static var tickCueDef: SchemaJSON {
        let tickKeys: SchemaJSON = [
            "every": ref(
                "positiveDuration",
                "The time between ticks inside a phase, at least 100 ms (the renderer refuses less): ticks sound at the "
                    + "phase's start + k × every, k = 1, 2, … while before its end.",
                ["default": "1s", "examples": ["1s"]]),
            "on": [
                "title": "a phase kind, or a list of them",
                "description": "The phase kinds that tick (default: every kind); each must be a kind of the pattern.",
                "anyOf": [
                    ["type": "string", "pattern": .string(Grammar.cueName)],
                    ["type": "array", "minItems": 1, "items": ["type": "string", "pattern": .string(Grammar.cueName)]],
                ],
                "examples": [["inhale", "exhale"]],
            ],
        ]
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
