import AudioCore
import Recipe

/// The recipe schema's properties, one per row of the key table (`RecipeKeys`): the key's name, a
/// value schema from its `KeyType`, its description (the reference's wording, its range and its
/// default), its default and its examples. A key added to the table is in the schema without an edit here.
extension RecipeSchema {
    /// The properties of the mapping at `section` (`""` for the top level, `output`, `program[]`),
    /// placeholders left out; `only` keeps the keys named.
    static func properties(_ section: String, only names: [String]? = nil) -> SchemaJSON {
        .object(
            RecipeKeys.rows(in: section).filter { !$0.isPlaceholder && (names?.contains($0.name) ?? true) }.map { ($0.name, property($0)) })
    }

    /// The schema of one key: its value's schema, described.
    static func property(_ row: RecipeKey) -> SchemaJSON {
        var out = value(row.type, at: row.path)
        // a choice between forms gets the reference's name for them, which the validator's messages quote
        if case .array(let forms)? = out["anyOf"], out["title"] == nil, forms.contains(where: { $0["$ref"] == nil && $0["title"] == nil }) {
            out = (["title": .string(plain(row.typeText))] as SchemaJSON).merging(out)
        }
        let members: SchemaJSON = ["description": .string(describe(row))]
        // the description follows a `$ref` or a title, and comes before the value's own members
        if case .object(let valueMembers) = out {
            let head = valueMembers.prefix { ["$comment", "title", "$ref"].contains($0.0) }
            out = SchemaJSON.object(Array(head)).merging(members).merging(.object(Array(valueMembers.dropFirst(head.count))))
        }
        if let text = row.defaultValue { out["default"] = json(text) }
        if !row.examples.isEmpty { out["examples"] = .array(row.examples.map(json)) }
        return out
    }

    /// The row's reference wording as one sentence, then its range and default: `The file's sample rate
    /// (8,000 to 384,000 Hz; some formats take fewer). Default: 48000.`
    static func describe(_ row: RecipeKey) -> String {
        var text = plain(row.summary)
        text = text.prefix(1).uppercased() + text.dropFirst()
        if let range = row.range { text += " (" + plain(range) + ")" }
        text += "."
        switch row.presence {
        case .optional: break
        case .required: text += " Required."
        case .rule(let rule): text += " " + plain(rule).prefix(1).uppercased() + plain(rule).dropFirst() + "."
        }
        if let value = row.defaultValue {
            text += " Default: \(value)."
        } else if let words = row.defaultText {
            text += " Default: " + plain(words) + "."
        }
        return text
    }

    /// Reference markdown as plain text: `[Ramps](#ramps)` → `Ramps`, `` `x` `` → `'x'`.
    static func plain(_ markdown: String) -> String {
        var out = ""
        // a link alone in parentheses points into the reference: nothing to say in an editor
        var rest = Substring(markdown.replacing(/\ \(\[[^\]]*\]\(#[^)]*\)\)/, with: ""))
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix("("),
                let end = rest[close...].firstIndex(of: ")")
            else {
                out += rest[...open]
                rest = rest[rest.index(after: open)...]
                continue
            }
            out += rest[..<open] + rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        return out.replacingOccurrences(of: "`", with: "'")
    }

    /// A YAML example or default as the JSON value a validator reads (`scripts/validate-schema.py`): plain
    /// whole numbers and decimals as numbers, `true`/`false`, a flow list or mapping as JSON, other text as a string.
    static func json(_ yaml: String) -> SchemaJSON {
        var reader = FlowYAML(text: Array(yaml.unicodeScalars))
        return reader.value()
    }

    /// The schema of a value of `type` read at `path` (a mapping is the `$defs` entry for its path).
    static func value(_ type: KeyType, at path: String) -> SchemaJSON {
        let textLength = SchemaJSON.int(RecipeGrammarFacts.unitTextLength)
        switch type {
        case .id:
            return [
                "title": "an id: letters, digits, '.', '_' or '-', starting with a letter or digit, at most 100 characters",
                "anyOf": [["type": "string", "pattern": .string(Grammar.id)], ["type": "number", "minimum": 0]],
            ]
        case .text: return ["$ref": "#/$defs/text"]
        case .promptText:
            return [
                "$comment": .string(
                    "maxLength counts characters; the renderer's limit is \(RecipeLimits.maxPromptTextBytes) bytes of UTF-8 (RecipeLimits.maxPromptTextBytes)."
                ),
                "title": .string("the words the prompt says: at most \(RecipeLimits.maxPromptTextBytes) bytes on one line"),
                "type": ["string", "number", "boolean"],
                "minLength": 1,
                "maxLength": .int(RecipeLimits.maxPromptTextBytes),
                "pattern": .string(Grammar.promptText),
            ]
        case .bool: return ["type": ["boolean", "string"], "enum": [true, false, "true", "false"]]
        case .integer(let range):
            if range == Int.min...Int.max {
                return ["title": "a whole number", "anyOf": [["type": "integer"], ["type": "string", "pattern": .string(Grammar.wholeText)]]]
            }
            return [
                "title": .string("a whole number from \(range.lowerBound) to \(range.upperBound)"),
                "anyOf": [
                    ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)],
                    ["type": "string", "pattern": .string("^0*" + Grammar.group(Grammar.whole(range)) + "$")],
                ],
            ]
        case .choice(let words):
            guard words != BuiltinPatterns.names else { return ["$ref": "#/$defs/builtinPattern"] }
            // a word that is a whole number (`bit_depth: 16`) is read from a YAML number too
            return ["enum": .array(words.compactMap { Int($0) }.map(SchemaJSON.int) + words.map(SchemaJSON.string))]
        case .duration(let positive, let max):
            switch (positive, max) {
            case (false, RecipeLimits.maxDuration): return ["$ref": "#/$defs/duration"]
            case (true, RecipeLimits.maxDuration): return ["$ref": "#/$defs/positiveDuration"]
            case (true, RecipeLimits.maxCueLength): return ["$ref": "#/$defs/cueLength"]
            case (false, RecipeLimits.maxDuckRamp): return ["$ref": "#/$defs/duckRamp"]
            default:
                let seconds = max.wholeSeconds
                return [
                    "anyOf": [
                        positive
                            ? ["type": "number", "exclusiveMinimum": 0, "maximum": .int(seconds)]
                            : ["type": "number", "minimum": 0, "maximum": .int(seconds)],
                        [
                            "type": "string", "maxLength": textLength, "pattern": .string(positive ? Grammar.positiveDuration : Grammar.duration),
                            "not": ["pattern": .string(Grammar.over(seconds))],
                        ],
                    ]
                ]
            }
        case .gain: return ["$ref": "#/$defs/gain"]
        case .frequency: return ["$ref": "#/$defs/frequency"]
        case .loudness: return ["$ref": "#/$defs/loudness"]
        case .truePeak: return ["$ref": "#/$defs/truePeak"]
        case .sampleRate:
            let rates = RecipeLimits.sampleRates
            return [
                "title": .string("a sample rate from \(rates.lowerBound) to \(rates.upperBound) Hz like 48000 or 44.1 kHz"),
                "anyOf": [
                    ["type": "integer", "minimum": .int(rates.lowerBound), "maximum": .int(rates.upperBound)],
                    ["type": "string", "pattern": .string(Grammar.sampleRateText)],
                    ["type": "string", "pattern": .string(Grammar.sampleRateKHz)],
                ],
            ]
        case .bitrate:
            let bits = AudioFormat.bitrateRange
            return [
                "title": .string("a bit rate from \(bits.lowerBound / 1000)k to \(bits.upperBound / 1000)k like 128k or 96 kbps"),
                "type": "string",
                "maxLength": textLength,
                "pattern": .string(Grammar.bitrate),
            ]
        case .breathRate:
            return [
                "$comment": "The pattern holds the range and at most 6 decimals; a plain number's decimals are left to the renderer.",
                "title": .string("a breath rate from \(Grammar.bpm.lowerBound) to \(Grammar.bpm.upperBound) bpm like 4.5 bpm"),
                "anyOf": [
                    ["type": "number", "minimum": .int(Grammar.bpm.lowerBound), "maximum": .int(Grammar.bpm.upperBound)],
                    ["type": "string", "maxLength": textLength, "pattern": .string(Grammar.breathRate)],
                ],
            ]
        case .cycleCount:
            return [
                "title": "a number of cycles like '10 cycles'",
                "anyOf": [
                    ["type": "integer", "minimum": .int(RecipeLimits.cycles.lowerBound), "maximum": .int(RecipeLimits.cycles.upperBound)],
                    ["type": "string", "maxLength": textLength, "pattern": .string(Grammar.cycleCount)],
                ],
            ]
        case .cycleSelection: return ["$ref": "#/$defs/cueCycles"]
        case .promptTime: return ["$ref": "#/$defs/promptTime"]
        case .voiceLevel:
            let range = Grammar.voiceLevelRange
            return [
                "$comment": "The pattern holds the range and takes off in any case.",
                "title": .string("a loudness from \(Int(range.lowerBound)) to \(Int(range.upperBound)) LUFS like -18 LUFS, or off"),
                "anyOf": [
                    ["type": "number", "minimum": .int(Int(range.lowerBound)), "maximum": .int(Int(range.upperBound))],
                    ["type": "string", "maxLength": textLength, "pattern": .string(Grammar.voiceLevel)],
                ],
            ]
        case .duckDepth:
            let range = Grammar.duckDepthRange
            return [
                "$comment": "The pattern holds the range (+0 and -0 included) and takes wcag in any case.",
                "title": .string("a depth from \(range.lowerBound) to \(range.upperBound) dB like 12 dB, or wcag"),
                "anyOf": [
                    ["type": "number", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)],
                    ["type": "string", "maxLength": textLength, "pattern": .string(Grammar.duck)],
                ],
            ]
        case .assetPath: return ["$ref": "#/$defs/assetPath"]
        case .synth:
            return [
                "$comment": "The carrier's and beat's ranges, and binaural's two output channels, are left to the renderer.",
                "title":
                    "pink-noise, brown-noise, white-noise, drone, 'drone 110 Hz', 'binaural 200 Hz 10 Hz' or 'isochronic 200 Hz 10 Hz'",
                "anyOf": [["enum": .strings(RecipeGrammarFacts.synthNames)], ["type": "string", "pattern": .string(Grammar.synth)]],
            ]
        case .harmonics:
            let most = SchemaJSON.int(RecipeLimits.maxHarmonics)
            return [
                "title": .string(
                    "a list of up to \(RecipeLimits.maxHarmonics) amplitudes from 0 to 1 (like [0.5, 0.25]) or a number of overtones from 0 to \(RecipeLimits.maxHarmonics)"
                ),
                "anyOf": [
                    ["type": "integer", "minimum": 0, "maximum": most],
                    ["type": "string", "pattern": .string(Grammar.harmonicCountText)],
                    [
                        "type": "array",
                        "maxItems": most,
                        "items": [
                            "description": "A relative amplitude from 0 to 1.",
                            "title": "an amplitude from 0 to 1",
                            "anyOf": [
                                ["type": "number", "minimum": 0, "maximum": 1],
                                ["type": "string", "maxLength": textLength, "pattern": .string(Grammar.amplitude)],
                            ],
                        ],
                    ],
                ],
            ]
        case .draftVoice:
            return [
                "$comment": "Whether espeak-ng has the voice is left to the renderer (render --check asks it).",
                "title": "a language like en-us, en-gb, de, fr or es",
                "type": "string",
                "pattern": .string(Grammar.draftVoice),
            ]
        case .languageTag:
            return [
                "$comment": "The reader checks the tag's syntax in full (RFC 5646 langtag).",
                "title": "a BCP 47 language tag like en, de, pt-BR or zh-Hans", "type": "string",
                "pattern": .string(Grammar.languageTag),
            ]
        case .localeTexts:
            return [
                "$comment": "Each key is a locale of 'locales:' (all of them, ignoring case); the reader checks that.",
                "title": "a mapping from locale to text", "type": "object", "minProperties": 1,
                "propertyNames": ["pattern": .string(Grammar.languageTag)],
                "additionalProperties": ["type": "string", "minLength": 1],
            ]
        case .phaseKind:
            return [
                "title": "a phase kind (a lowercase word: letters, digits, '_') other than start and end", "type": "string",
                "pattern": .string(Grammar.kind),
            ]
        case .phaseKinds:
            return [
                "title": "a phase kind, or a list of them",
                "anyOf": [
                    ["type": "string", "pattern": .string(Grammar.cueName)],
                    ["type": "array", "minItems": 1, "items": ["type": "string", "pattern": .string(Grammar.cueName)]],
                ],
            ]
        case .choiceList(let names):
            return [
                "title": .string("a list from \(names.joined(separator: ", ")), like [\(names.prefix(2).joined(separator: ", "))]"),
                "anyOf": [
                    ["type": "array", "items": ["enum": .strings(names)]],
                    ["type": "string", "pattern": .string("^,*(?: *(?:" + names.joined(separator: "|") + ") *(?:,+|$))*$")],
                ],
            ]
        case .word(let word): return ["const": .string(word)]
        case .mapping: return mapping(at: path)
        case .list(let item, let count):
            var list: SchemaJSON = ["type": "array", "minItems": .int(count.lowerBound)]
            if count.upperBound < Int.max { list["maxItems"] = .int(count.upperBound) }
            list["items"] = value(item, at: path + "[]")
            return list
        case .anyOf(let types): return ["anyOf": .array(types.map { value($0, at: path) })]
        case .sameAs(let other):
            guard let row = RecipeKeys.row(other) else { return [:] }
            return value(row.type, at: other)
        }
    }

    /// The `$defs` entry of the mapping at `path`, or the mapping itself for one without an entry.
    static func mapping(at path: String) -> SchemaJSON {
        let defs = [
            "pattern": "inlinePattern", "program[]": "segment", "ramp": "ramp", "bed": "bed", "bed[]": "bed", "cues": "cues",
            "voice": "voice", "voice.prompts[]": "prompt", "output": "output", "pattern.phases[]": "phase", "cues.<kind>": "cue",
        ]
        if let name = defs[path] { return ["$ref": .string("#/$defs/\(name)")] }
        // a key the author names (`guide.<kind>`): any other key takes that row's value
        let named = RecipeKeys.rows(in: path).first(where: \.isPlaceholder).map(property)
        return [
            "type": "object",
            "additionalProperties": named ?? .bool(false),
            "required": .strings(RecipeKeys.rows(in: path).filter { $0.presence == .required }.map(\.name)),
            "properties": properties(path),
        ]
    }
}

/// A YAML flow value (`[a, b]`, `{ k: v }`, plain or double-quoted scalars) as JSON, for the table's examples.
struct FlowYAML {
    let text: [Unicode.Scalar]
    var index = 0

    init(text: [Unicode.Scalar]) { self.text = text }

    mutating func value() -> SchemaJSON {
        skipSpaces()
        guard index < text.count else { return .string("") }
        switch text[index] {
        case "[":
            index += 1
            var items: [SchemaJSON] = []
            while skipSpaces(), index < text.count, text[index] != "]" {
                items.append(value())
                skipSpaces()
                if index < text.count, text[index] == "," { index += 1 }
            }
            index += 1
            return .array(items)
        case "{":
            index += 1
            var members: [(String, SchemaJSON)] = []
            while skipSpaces(), index < text.count, text[index] != "}" {
                guard case .string(let key) = scalar(until: [":"], numbers: false) else { break }
                index += 1
                members.append((key, value()))
                skipSpaces()
                if index < text.count, text[index] == "," { index += 1 }
            }
            index += 1
            return .object(members)
        default:
            return scalar(until: [",", "]", "}"], numbers: true)
        }
    }

    private mutating func scalar(until stops: Set<Unicode.Scalar>, numbers: Bool) -> SchemaJSON {
        if text[index] == "\"" {
            index += 1
            var out = String.UnicodeScalarView()
            while index < text.count, text[index] != "\"" {
                out.append(text[index])
                index += 1
            }
            index += 1
            return .string(String(out))
        }
        var out = String.UnicodeScalarView()
        while index < text.count, !stops.contains(text[index]) {
            out.append(text[index])
            index += 1
        }
        let word = String(out).trimmingCharacters()
        // `inhale: 4s` inside a list: a mapping of one pair
        if numbers, let colon = word.range(of: ": ") {
            var rest = FlowYAML(text: Array(word[colon.upperBound...].unicodeScalars))
            return .object([(String(word[..<colon.lowerBound]), rest.value())])
        }
        if word == "true" || word == "false" { return .bool(word == "true") }
        guard numbers, let first = word.unicodeScalars.first, first == "-" || ("0"..."9").contains(first) else { return .string(word) }
        let digits = word.drop { $0 == "-" }
        // YAML 1.2's plain numbers: no leading zero (010 is text to the renderer and the validator)
        if let number = Int(word), !(digits.count > 1 && digits.hasPrefix("0")) { return .int(number) }
        if let dot = digits.firstIndex(of: "."), dot != digits.startIndex, digits.index(after: dot) != digits.endIndex,
            digits.allSatisfy({ $0 == "." || $0.isNumber }), let number = Double(word)
        {
            return .double(number)
        }
        return .string(word)
    }

    @discardableResult
    private mutating func skipSpaces() -> Bool {
        while index < text.count, text[index] == " " { index += 1 }
        return true
    }
}

extension String {
    /// The text without spaces at either end.
    fileprivate func trimmingCharacters() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
