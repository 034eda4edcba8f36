import AudioCore

/// One key of a recipe, declared once (`RecipeKeys.all`): its path, the grammar its value is read
/// with, its default, its range, how it enters the canonical text, and its line of reference.
///
/// What is derived from these rows: the decoders' allowed keys (`RecipeKeys.children(of:)`), the key
/// tables of docs/recipes.md and `Fuzz/recipe.dict` (generated files, `GeneratedFilesTests`), the JSON
/// Schema's properties; and what is checked against them: the canonical text (every `.line` row
/// changes it, `CanonicalKeyTests`), the defaults (writing a row's `defaultValue` changes nothing).
///
/// ## Paths
/// Dotted, as messages write them, with two placeholders:
/// - `[]` for the items of a list: `program[].pattern`, `voice.prompts[].text`, `pattern.phases[].kind`
///   (a message names item 2 as `program.2.pattern`);
/// - `<word>` for a key the author names: `cues.<kind>` (a phase kind, `start`, `end`, `tick`),
///   `pattern.phases[].<kind>` (a phase's short form, `- inhale: 4s`).
/// A section (`.mapping`, `.list`) groups the rows under its path. `bed` is a mapping or a list of
/// layers; a layer holds the same keys, still written `bed.file`… here (`bed.0.file` in messages).
public struct RecipeKey: Sendable, CustomStringConvertible {
    /// `output.sample_rate`, `bed.gain`, `cues.<kind>.tone`, `voice.prompts[].text`.
    public let path: String
    /// The grammar the value is read with, bounds included.
    public let type: KeyType
    /// The default as a value one could write (`48000`, `-16 LUFS`, `0s`); nil when the key is
    /// required, has no default, or its default is not one value (then `defaultText` says it).
    public let defaultValue: String?
    /// The default in words when it is not one value: `the file name without its extension`.
    public let defaultText: String?
    /// Whether the key must be given.
    public let presence: Presence
    /// The accepted range or limit as the reference states it, built from `RecipeLimits` and `Units`.
    public let range: String?
    /// How the key enters `Recipe.canonicalText`, or why it does not.
    public let canonical: Canonical
    /// What the key is, in one line (the reference's wording).
    public let summary: String
    /// The value's form as the reference's type column says it: `duration`, `gain`, `` `cycle` / `phase` ``.
    public let typeText: String
    /// Values that are valid here (YAML text), different from each other and from the default; the
    /// first is the reference's example. Leaf rows that enter the canonical text carry at least two.
    public let examples: [String]

    public init(
        _ path: String, _ type: KeyType, default defaultValue: String? = nil, defaultText: String? = nil,
        presence: Presence = .optional, range: String? = nil, canonical: Canonical, typeText: String, examples: [String] = [],
        _ summary: String
    ) {
        self.path = path
        self.type = type
        self.defaultValue = defaultValue
        self.defaultText = defaultText
        self.presence = presence
        self.range = range
        self.canonical = canonical
        self.typeText = typeText
        self.examples = examples
        self.summary = summary
    }

    /// The last part of the path: `sample_rate` for `output.sample_rate`, `<kind>` for `cues.<kind>`.
    public var name: String {
        let tail = path.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? path
        return tail.hasSuffix("[]") ? String(tail.dropLast(2)) : tail
    }

    /// The section holding the key: `output` for `output.sample_rate`, `program[]` for `program[].cycles`,
    /// `` (the top level) for `id`.
    public var parent: String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    /// Whether the author names the key (`cues.<kind>`).
    public var isPlaceholder: Bool { name.hasPrefix("<") }

    public var description: String { path }
}

/// The value grammars a recipe key is read with (`DecodeContext` and `Units`), with their bounds.
// Only `list` is `indirect`: LeakSanitizer reports the payload boxes of an all-`indirect` enum kept
// in static lets (the key table's rows) as leaked, failing every sanitized render (seen with Swift 6.3.1).
public enum KeyType: Sendable, Equatable {
    /// An id: letters, digits, `.`, `_`, `-`, starting with a letter or digit, at most 100 characters (`Recipe.isValidID`).
    case id
    /// One line of text, at most `RecipeLimits.maxTextBytes` bytes.
    case text
    /// A prompt's words: one line without control characters, at most `RecipeLimits.maxPromptTextBytes` bytes.
    case promptText
    /// `true` or `false`.
    case bool
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// One of these words.
    case choice([String])
    /// A length (`Units.duration`): above zero when `positive`, at most `max`.
    case duration(positive: Bool, max: ExactSeconds)
    /// A gain in dB within `Units.gainRange`.
    case gain
    /// A frequency in Hz, above 0 and below half the output's sample rate.
    case frequency
    /// An integrated loudness target in LUFS within `Units.loudnessRange`, or `off`.
    case loudness
    /// A true-peak ceiling in dBTP within `Units.truePeakRange`.
    case truePeak
    /// A sample rate in Hz within `RecipeLimits.sampleRates`.
    case sampleRate
    /// A bit rate within `AudioFormat.bitrateRange` (`128k`).
    case bitrate
    /// A breath rate in bpm within `Ramp.microBPMRange` (`4.5 bpm`).
    case breathRate
    /// A number of cycles within `RecipeLimits.cycles` (`10 cycles`).
    case cycleCount
    /// A cycle number, a range, or a list of them, counted from 1 (`1-3`, `[1, 2, 10-12]`).
    case cycleSelection
    /// A time from the file's start, or an anchor (`Units.promptAnchors`) with an offset (`end - 20s`).
    case promptTime
    /// A voice loudness in LUFS within `Units.voiceLevelRange`, or `off`.
    case voiceLevel
    /// A ducking depth in dB within `Units.duckDepthRange`, or `wcag`.
    case duckDepth
    /// A path relative to the assets folder that never leaves it (`AssetPath`).
    case assetPath
    /// A synthesized bed: a noise, `drone [FREQUENCY]`, `binaural CARRIER BEAT`, `isochronic CARRIER BEAT`.
    case synth
    /// Overtone amplitudes 0 to 1 (a list) or a count, at most `RecipeLimits.maxHarmonics`.
    case harmonics
    /// An espeak-ng voice name: a letter, then letters, digits and `-`, 2 to 32 characters.
    case draftVoice
    /// A BCP 47 language tag (`LanguageTag`): `en`, `pt-BR`, `zh-Hans`.
    case languageTag
    /// A mapping from each locale of `locales:` (its tag, in any case) to a text (recipe-v1.2 § Locales);
    /// the text is read as the key's other form says (`anyOf` beside it).
    case localeTexts
    /// A phase kind: a lowercase word, at most 64 characters, not `start` or `end`.
    case phaseKind
    /// A phase kind of the pattern, or a list of them.
    case phaseKinds
    /// Words from these, as a list or in one line separated by commas (`[vtt, chapters]`, `vtt, chapters`).
    case choiceList([String])
    /// A literal word (`none`).
    case word(String)
    /// A mapping whose keys are the rows under this one.
    case mapping
    /// A list of `count` items of `item`; items that are mappings hold the rows under `path[]`.
    indirect case list(of: KeyType, count: ClosedRange<Int>)
    /// Any one of these forms.
    case anyOf([KeyType])
    /// The same value as the row at this path (`program[].pattern` is a `pattern`).
    case sameAs(String)
}

/// Whether a key must be given.
public enum Presence: Sendable, Equatable {
    case optional
    case required
    /// Required together with others, under a rule the reference states: `one of at, on`.
    case rule(String)
}

/// How a key enters `Recipe.canonicalText` (the recipe's meaning: it seeds the noise, dither and Ogg
/// serials and fingerprints catalog tracks).
public enum Canonical: Sendable, Equatable {
    /// In the line of this key (`output.sample_rate`, `cue.<kind>`, `voice.prompt.<i>`), alone or as one
    /// field of it. `whenGiven`: the line is written only when the key (or its section) is given, so
    /// the seeds of recipes without it stayed as they were.
    case line(String, whenGiven: Bool = false)
    /// Through the rows under it (a section), which say how they enter.
    case section
    /// Not in the canonical text, and why.
    case excluded(String)
}
