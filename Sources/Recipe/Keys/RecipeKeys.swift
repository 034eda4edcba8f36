import AudioCore
import CadenceCues

/// Every key a recipe may hold, one row each (see `RecipeKey` for the notation). Within a section the
/// rows come in the order messages list the keys (`unknown key … (allowed: …)`).
///
/// To add a key: its row here, its field in the model, its line in the section's decoder, and its
/// canonical line (or `excluded` with the reason); docs/development.md § Adding a recipe key.
public enum RecipeKeys {
    /// The rows, depth first: a section, then its keys.
    public static let all: [RecipeKey] = top + pattern + program + ramp + bed + cues + guide + swell + voice + output

    /// The row at `path` (`output.sample_rate`, `cues.<kind>.tone`), or nil.
    public static func row(_ path: String) -> RecipeKey? { byPath[path] }

    /// The keys a section may hold, by name, in the order messages list them: `children(of: "output")`
    /// is `sample_rate`, `channels`, …; `children(of: "")` the top-level keys. Keys the author names
    /// (`<kind>`) are left out.
    public static func children(of section: String) -> [String] {
        rows(in: section).filter { !$0.isPlaceholder }.map(\.name)
    }

    /// The rows directly under `section`, placeholders included, in table order.
    public static func rows(in section: String) -> [RecipeKey] {
        all.filter { $0.parent == section && $0.path != section }
    }

    private static let byPath: [String: RecipeKey] = Dictionary(all.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

    // MARK: - Wording shared by rows

    /// `100000` → `100,000`: numbers as the reference writes them.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `-120...24` → `-120 to +24 dB`.
    static func signed(_ range: ClosedRange<Double>, _ unit: String, plus: Bool = false) -> String {
        func text(_ value: Double) -> String { (plus && value > 0 ? "+" : "") + DiagnosticText.number(value) }
        return "\(text(range.lowerBound)) to \(text(range.upperBound)) \(unit)"
    }

    static let oneLine = "at most \(RecipeLimits.maxTextBytes) bytes"
    static let anyLength = "at most \(RecipeLimits.maxDuration.durationText)"
    static let day = KeyType.duration(positive: false, max: RecipeLimits.maxDuration)
    static let positiveDay = KeyType.duration(positive: true, max: RecipeLimits.maxDuration)
    static let endOn = KeyType.choice(EndOn.allCases.map(\.rawValue))
    static let gainRange = signed(Units.gainRange, "dB", plus: true)
    static let cycleNumbers = "1 to \(grouped(RecipeLimits.cycles.upperBound))"

    // MARK: - Rows

    static let top: [RecipeKey] = [
        RecipeKey(
            "id", .id, defaultText: "the file name without its extension", canonical: .line("id"), typeText: "id",
            examples: ["box-breathing-5m", "evening-wind-down"],
            "the track's name in files and the catalog: letters, digits, `.`, `_`, `-`, starting with a letter or digit, at most 100 characters"
        ),
        RecipeKey(
            "locales", .list(of: .languageTag, count: 1...RecipeLimits.maxLocales), defaultText: "none: one track, in one language",
            range:
                "1 to \(RecipeLimits.maxLocales) different BCP 47 tags (compared ignoring case); at most \(RecipeLimits.maxRenditions) renditions (variants × locales)",
            canonical: .line("locales", whenGiven: true), typeText: "list of language tags", examples: ["[en, de]", "[de, en]"],
            "one rendition per locale, the first the default ([Locales](#locales-one-recipe-several-languages))"),
        RecipeKey(
            "title", .anyOf([.text, .localeTexts]),
            defaultText:
                "the pattern's name (`Box Breathing`; `Custom Pattern` for an inline pattern without `name:`; with `program`, the first segment's)",
            range: oneLine, canonical: .line("title"),
            typeText: "text, or a mapping from locale to text", examples: ["Evening Calm", "Focus Reset"], "what players show"),
        RecipeKey(
            "category", .anyOf([.text, .localeTexts]), range: oneLine, canonical: .line("category"),
            typeText: "text, or a mapping from locale to text", examples: ["Focus", "Sleep"],
            "groups the catalog and the preview page"),
        RecipeKey(
            "premium", .bool, default: "false", canonical: .line("premium"), typeText: "`true` / `false`", examples: ["true", "false"],
            "passed to `catalog.json`"),
        RecipeKey(
            "sort_order", .integer(Int.min...Int.max), canonical: .line("sort_order"), typeText: "whole number", examples: ["10", "-3"],
            "passed to `catalog.json`"),
        RecipeKey(
            "delivery", .choice(Delivery.allCases.map(\.rawValue)), default: Delivery.bundled.rawValue,
            canonical: .excluded(
                "where an app gets the file (catalog.json), not what the file holds: the same recipe renders the same bytes either way"),
            typeText: "`bundled` / `on-demand`", examples: ["on-demand", "bundled"],
            "whether an app ships the track or fetches it ([Catalog keys](#catalog-keys))"),
        RecipeKey(
            "duration", positiveDay, presence: .rule("with `pattern`, one of `duration`, `cycles`, `variants` is required; with `program`, optional"),
            range: "above 0, \(anyLength)", canonical: .line("duration"), typeText: "duration", examples: ["5m", "10m"],
            "the file's exact length"),
        RecipeKey(
            "cycles", .integer(RecipeLimits.cycles), range: cycleNumbers, canonical: .line("cycles"),
            typeText: "whole number, \(cycleNumbers)", examples: ["12", "4"],
            "the number of cycles; the file lasts intro + cycles × cycle + outro (not with `program`)"),
        RecipeKey(
            "variants", .mapping, canonical: .section, typeText: "mapping: `duration:` and a list of lengths",
            examples: ["{ duration: [5m, 10m, 20m] }"],
            "one track per length, instead of `duration` or `cycles` ([Variants](#variants-one-recipe-several-lengths))"),
        RecipeKey(
            "variants.duration", .list(of: positiveDay, count: 1...RecipeLimits.maxVariants), presence: .required,
            range: "1 to \(RecipeLimits.maxVariants) lengths, all different",
            canonical: .excluded("each variant is a recipe of its own (`Recipe.variants()`), whose `duration` line says its length"),
            typeText: "list of durations", examples: ["[5m, 10m, 20m]"], "the tracks' lengths, one track each, in the order written"),
        RecipeKey(
            "end_on", endOn, default: EndOn.cycle.rawValue, canonical: .line("end_on"), typeText: "`cycle` / `phase`",
            examples: ["phase", "cycle"],
            "with `duration`: end the practice on a whole cycle or a whole phase (a program's segments: their default)"),
        RecipeKey(
            "pattern", .anyOf([.choice(BuiltinPatterns.names), .mapping]), presence: .rule("one of `pattern`, `program` is required"),
            canonical: .line("pattern.name"), typeText: "built-in name or mapping", examples: ["coherent", "relax"],
            "the cycle of phases ([Patterns](#patterns))"),
        RecipeKey(
            "program", .list(of: .mapping, count: 1...RecipeLimits.maxSegments), range: "1 to \(grouped(RecipeLimits.maxSegments)) segments",
            canonical: .line("program.<i>", whenGiven: true), typeText: "list of 1 to \(grouped(RecipeLimits.maxSegments)) segments",
            examples: ["[ { pattern: box, cycles: 4 } ]", "[ { pattern: coherent, duration: 3m } ]"],
            "instead of `pattern`: patterns one after another ([Programs](#programs-several-segments-in-one-session))"),
        RecipeKey(
            "ramp", .mapping, canonical: .line("ramp", whenGiven: true), typeText: "mapping: `to`, `over`",
            examples: ["{ to: 4.5 bpm }", "{ to: 6 bpm }"],
            "the breath slows (or quickens) cycle by cycle ([Ramps](#ramps-slowing-the-breath)); not with `program` (a segment has its own)"),
        RecipeKey(
            "intro", day, default: "0s", range: "0 to \(RecipeLimits.maxDuration.durationText)", canonical: .line("intro"),
            typeText: "duration, may be 0", examples: ["10s", "15s"], "bed alone before the first phase"),
        RecipeKey(
            "outro", day, default: "0s", range: "0 to \(RecipeLimits.maxDuration.durationText)", canonical: .line("outro"),
            typeText: "duration, may be 0", examples: ["15s", "10s"], "bed alone after the last phase (at least this, with `duration`)"),
        RecipeKey(
            "bed", .anyOf([.word("none"), .mapping, .list(of: .mapping, count: 1...RecipeLimits.maxBedLayers)]), defaultText: "none: silence",
            canonical: .line("bed"), typeText: "mapping, list of up to \(RecipeLimits.maxBedLayers) layers, or `none`",
            examples: ["{ synth: pink-noise }", "none"], "what plays underneath ([Bed](#bed))"),
        RecipeKey(
            "cues", .anyOf([.word("none"), .mapping]),
            defaultText: "soft tones on inhale (528 Hz) and exhale (396 Hz), 1 s at -20 dB; a `chime` at start and end",
            canonical: .line("cue.<kind>"), typeText: "mapping or `none`", examples: ["{ inhale: bell }", "none"],
            "what sounds as phases start ([Cues](#cues))"),
        RecipeKey(
            "guide", .mapping, defaultText: "none: no envelope (with `swell:` or `haptics: on`, every default)",
            canonical: .line("guide", whenGiven: true), typeText: "mapping: phase kinds and `shape`",
            examples: ["{ hold: fall }", "{ shape: linear }"],
            "how each phase kind moves the breath envelope ([Breath guidance](#breath-guidance-one-envelope-three-senses))"),
        RecipeKey(
            "swell", .mapping, defaultText: "none: nothing added", canonical: .line("swell", whenGiven: true),
            typeText: "mapping: `tone` or `synth`, and `gain`", examples: ["{ tone: 174 Hz, gain: -26 dB }", "{ synth: pink-noise, gain: -30 dB }"],
            "a sound that swells with the breath envelope ([Breath guidance](#breath-guidance-one-envelope-three-senses))"),
        RecipeKey(
            "haptics", .choice(["on", "off"]), default: "off",
            canonical: .excluded(
                "files beside the track (and the cue sheet's guide), not its sound: turning haptics on keeps the noise; a catalog fingerprints the files apart (`Fingerprint.of`)"
            ), typeText: "`on` / `off`",
            examples: ["on", "off"], "`on`: write `OUT.ahap` and `OUT.haptics.json` beside the track, from the breath envelope"),
        RecipeKey("voice", .mapping, canonical: .section, typeText: "mapping", "spoken prompts ([Voice](#voice))"),
        RecipeKey(
            "output", .mapping, defaultText: "48 kHz stereo, -16 LUFS, -1 dBTP", canonical: .section, typeText: "mapping",
            "how the file is written ([Output](#output))"),
    ]

    static let pattern: [RecipeKey] = [
        RecipeKey(
            "pattern.name", .text, default: DecodeContext.defaultPatternName, range: oneLine, canonical: .line("pattern.name"),
            typeText: "text", examples: ["Physiological Sigh", "Evening Sigh"], "the pattern's name: the title's default"),
        RecipeKey(
            "pattern.phases", .list(of: .mapping, count: 1...RecipeLimits.maxPhasesPerPattern), presence: .required,
            range: "1 to \(grouped(RecipeLimits.maxPhasesPerPattern)) phases", canonical: .line("pattern.phase.<i>"),
            typeText: "list of phases", examples: ["[inhale: 4s, exhale: 6s]", "[inhale: 5s, exhale: 5s]"], "the phases of one cycle, in order"),
        RecipeKey(
            "pattern.phases[].kind", .phaseKind, presence: .required,
            range: "at most \(DecodeContext.maxKindLength) characters; not `start` or `end`",
            canonical: .line("pattern.phase.<i>"), typeText: "a lowercase word: `a`–`z` first, then letters, digits, `_`",
            examples: ["slow_exhale", "rest"], "the phase's kind: the cues and prompts name it"),
        RecipeKey(
            "pattern.phases[].length", positiveDay, presence: .required, range: "above 0, at least one frame", canonical: .line("pattern.phase.<i>"),
            typeText: "duration", examples: ["5.5s", "3s"], "how long the phase lasts"),
        RecipeKey(
            "pattern.phases[].label", .anyOf([.text, .localeTexts]),
            defaultText:
                "by kind: `inhale` Breathe In, `hold` Hold, `exhale` Breathe Out, `rest` Rest, `work` Work, `short_break` Short Break, `long_break` Long Break; any other kind capitalized word by word (`slow_exhale` → Slow Exhale)",
            range: oneLine, canonical: .line("pattern.phase.<i>"), typeText: "text, or a mapping from locale to text",
            examples: ["Top Up", "Let Go"],
            "what a player shows during the phase"),
        RecipeKey(
            "pattern.phases[].<kind>", positiveDay, range: "above 0, at least one frame", canonical: .line("pattern.phase.<i>"),
            typeText: "`- KIND: LENGTH`", examples: ["4s", "6s"], "a phase in short form: its kind as the key, its length as the value"),
    ]

    static let program: [RecipeKey] = [
        RecipeKey(
            "program[].pattern", .sameAs("pattern"), presence: .required, canonical: .line("program.<i>.pattern.name", whenGiven: true),
            typeText: "built-in name or mapping, as the top-level `pattern`", examples: ["coherent", "relax"], "the segment's pattern"),
        RecipeKey(
            "program[].cycles", .integer(RecipeLimits.cycles), presence: .rule("exactly one of `cycles`, `duration`"), range: cycleNumbers,
            canonical: .line("program.<i>", whenGiven: true), typeText: "whole number", examples: ["4", "6"], "the segment lasts N cycles"),
        RecipeKey(
            "program[].duration", positiveDay, range: "above 0, \(anyLength)", canonical: .line("program.<i>", whenGiven: true),
            typeText: "duration", examples: ["3m", "2m"], "the segment lasts exactly this; the time left over is a `transition` phase"),
        RecipeKey(
            "program[].end_on", endOn, defaultText: "the top-level `end_on`", range: "with `duration` only (a warning with `cycles`)",
            canonical: .line("program.<i>", whenGiven: true), typeText: "`cycle` / `phase`", examples: ["phase", "cycle"],
            "with `duration`: hold whole cycles or whole phases"),
        RecipeKey(
            "program[].ramp", .sameAs("ramp"), defaultText: "none", range: "[Ramps](#ramps-slowing-the-breath)",
            canonical: .line("program.<i>", whenGiven: true), typeText: "mapping: `to`, `over`",
            examples: ["{ to: 4.5 bpm, over: 10 cycles }", "{ to: 6 bpm, over: 10 cycles }"], "the segment's breath slows cycle by cycle"),
        RecipeKey(
            "program[].label", .anyOf([.text, .localeTexts]),
            defaultText: "the pattern's name (`Coherent Breathing`; `Custom Pattern` for an unnamed inline one)",
            range: "\(RecipeLimits.maxTextBytes) bytes", canonical: .line("program.<i>", whenGiven: true),
            typeText: "text, or a mapping from locale to text",
            examples: ["Wind down", "Let go"], "the practice section's `name` in the cue sheet"),
    ]

    static let ramp: [RecipeKey] = [
        RecipeKey(
            "ramp.to", .breathRate, presence: .required,
            range:
                "\(grouped(Int(Ramp.microBPMRange.lowerBound / 1_000_000))) to \(grouped(Int(Ramp.microBPMRange.upperBound / 1_000_000))) bpm, at most \(Ramp.maxBPMDecimals) decimals",
            canonical: .line("ramp", whenGiven: true), typeText: "breath rate: `4.5 bpm`, `6bpm`, `4.5` (a bare number is bpm)",
            examples: ["4.5 bpm", "6 bpm"], "the rate reached"),
        RecipeKey(
            "ramp.over", .cycleCount, defaultText: "with `cycles:`, the cycles − 1; with `duration:` (or `variants`), required",
            range: "\(cycleNumbers), at most the segment's cycles", canonical: .line("ramp", whenGiven: true),
            typeText: "cycles: `10 cycles`, `1 cycle`, `10`", examples: ["10 cycles", "5 cycles"], "the cycles the rate changes over"),
    ]

    static let bed: [RecipeKey] = [
        RecipeKey(
            "bed.file", .assetPath, presence: .rule("exactly one of `file`, `synth`"),
            range:
                "any format libsndfile reads (WAV, FLAC, Ogg Vorbis, …), any rate and channel count; at least 1 s, \(anyLength)",
            canonical: .line("bed.file"), typeText: "path in the assets folder; `{locale}` in it is each locale's tag",
            examples: ["beds/rain.ogg", "beds/ocean.ogg"],
            "a sound file, looped with a crossfade when shorter than the track"),
        RecipeKey(
            "bed.synth", .synth, defaultText: "`drone` is \(DiagnosticText.number(DecodeContext.defaultDroneHertz)) Hz",
            range:
                "drone below half the sample rate; carrier \(signed(DecodeContext.carrierRange, "Hz")), beat \(signed(DecodeContext.beatRange, "Hz"))",
            canonical: .line("bed.synth"),
            typeText: "`pink-noise`, `brown-noise`, `white-noise`, `drone`, `drone FREQUENCY`, `binaural CARRIER BEAT`, `isochronic CARRIER BEAT`",
            examples: ["drone 220 Hz", "binaural 200 Hz 10 Hz", "pink-noise"], "a synthesized bed"),
        RecipeKey(
            "bed.gain", .gain, default: "0 dB", range: gainRange, canonical: .line("bed.gain"), typeText: "gain",
            examples: ["-14 dB", "-20 dB"], "the bed's level before loudness normalization"),
        RecipeKey(
            "bed.fade_in", day, default: "0s", range: "fades together at most the track's length", canonical: .line("bed.fade_in"),
            typeText: "duration", examples: ["4s", "8s"], "from the first frame"),
        RecipeKey(
            "bed.fade_out", day, default: "0s", canonical: .line("bed.fade_out"), typeText: "duration", examples: ["8s", "4s"],
            "to the last frame"),
        RecipeKey(
            "bed.crossfade", day, default: "1s", range: "used at most half the bed's length", canonical: .line("bed.crossfade"),
            typeText: "duration", examples: ["2s", "3s"], "the loop seam's crossfade"),
    ]

    static let cues: [RecipeKey] = [
        RecipeKey(
            "cues.until", .promptTime, defaultText: "none: to the end", range: "may lie past the file's end",
            canonical: .line("cue.<kind>.limit", whenGiven: true),
            typeText:
                "a time from the file's start, or an anchor (`intro`, `practice`, `outro`, `segment N`, `end`) with an optional `+`/`-` offset, as a prompt's `at:`",
            examples: ["5m", "end - 10m"], "beside the cues: every cue without its own `until` stops here"),
        RecipeKey(
            "cues.cycles", .cycleSelection, defaultText: "every cycle", range: "\(cycleNumbers); may lie past the practice",
            canonical: .line("cue.<kind>.limit", whenGiven: true), typeText: "a cycle number, a range, or a list of them, counted from 1",
            examples: ["1-20", "[1, 2, 10-12]"], "beside the cues: every cue without its own `cycles` sounds in these cycles only"),
        RecipeKey(
            "cues.<kind>", .anyOf([.word("none"), .choice(CuePresets.names), .mapping]), canonical: .line("cue.<kind>"),
            typeText: "`none`, a preset name, or a mapping", examples: ["chime", "bell"],
            "what sounds when a phase of this kind starts (or at `start`, `end`; `tick` inside phases)"),
        RecipeKey(
            "cues.<kind>.tone", .frequency, presence: .rule("exactly one of `tone`, `preset`, `file`"), range: "above 0, below half the sample rate",
            canonical: .line("cue.<kind>"), typeText: "frequency", examples: ["528 Hz", "396 Hz"], "a synthesized tone at this frequency"),
        RecipeKey(
            "cues.<kind>.preset", .choice(CuePresets.names), canonical: .line("cue.<kind>"),
            typeText: CuePresets.names.map { "`\($0)`" }.joined(separator: ", "),
            examples: ["bell", "click"], "a preset, changed by the other keys given"),
        RecipeKey(
            "cues.<kind>.length", .duration(positive: true, max: RecipeLimits.maxCueLength),
            default: CuePresets.toneDefaultLength.durationText, defaultText: "`\(CuePresets.toneDefaultLength.durationText)` (a preset: its own)",
            range: "above 0, at most \(grouped(Int(RecipeLimits.maxCueLength.nanoseconds / ExactSeconds.nanosPerSecond))) s",
            canonical: .line("cue.<kind>"),
            typeText: "duration (tones only)", examples: ["1.5s", "1s"], "how long the tone sounds"),
        RecipeKey(
            "cues.<kind>.gain", .gain, defaultText: "tone `\(DiagnosticText.number(CuePresets.toneDefaultGainDB)) dB`; file `0 dB`; preset its own",
            range: gainRange, canonical: .line("cue.<kind>"), typeText: "gain", examples: ["-20 dB", "-6 dB"], "the cue's level"),
        RecipeKey(
            "cues.<kind>.envelope", .choice(Envelope.allCases.map(\.rawValue)), default: CuePresets.toneDefaultEnvelope.rawValue,
            canonical: .line("cue.<kind>"), typeText: Envelope.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") + " (tones only)",
            examples: ["soft", "click"], "the tone's shape: `bell` strikes and rings out, `soft` swells in and out, `click` is a short tick"),
        RecipeKey(
            "cues.<kind>.harmonics", .harmonics, defaultText: "none: a pure sine", range: "at most \(RecipeLimits.maxHarmonics)",
            canonical: .line("cue.<kind>"),
            typeText:
                "list of amplitudes 0 to 1 for the overtones 2f, 3f, …; or a count N (amplitudes 1/2, 1/3, … 1/(N+1)) (tones only)",
            examples: ["[0.5, 0.25]", "3"], "the tone's overtones"),
        RecipeKey(
            "cues.<kind>.file", .assetPath, range: "at most \(RecipeLimits.maxClipSeconds) s", canonical: .line("cue.<kind>"),
            typeText: "path in the assets folder; `{locale}` in it is each locale's tag", examples: ["cues/wood-block.wav", "cues/singing-bowl.wav"],
            "a sound from the assets folder, never looped"),
        RecipeKey(
            "cues.<kind>.until", .promptTime, defaultText: "none: to the end", range: "may lie past the file's end",
            canonical: .line("cue.<kind>.limit", whenGiven: true),
            typeText:
                "a time from the file's start, or an anchor (`intro`, `practice`, `outro`, `segment N`, `end`) with an optional `+`/`-` offset, as a prompt's `at:`",
            examples: ["practice + 5m", "end - 10m"], "onsets at or after this time are silent"),
        RecipeKey(
            "cues.<kind>.cycles", .cycleSelection, defaultText: "every cycle", range: "\(cycleNumbers); may lie past the practice",
            canonical: .line("cue.<kind>.limit", whenGiven: true), typeText: "a cycle number, a range, or a list of them, counted from 1",
            examples: ["1-20", "[1, 2, 10-12]"], "the cue sounds in these cycles only"),
        RecipeKey(
            "cues.<kind>.every", .duration(positive: true, max: RecipeLimits.maxDuration), default: Ticks.defaultEvery.durationText,
            range: "at least `\(RecipeLimits.minTickInterval.durationText)`", canonical: .line("ticks", whenGiven: true), typeText: "a duration",
            examples: ["500ms", "2s"], "the `tick` cue only: the time between ticks inside a phase"),
        RecipeKey(
            "cues.<kind>.on", .phaseKinds, defaultText: "every kind", range: "kinds of the pattern", canonical: .line("ticks", whenGiven: true),
            typeText: "a phase kind, or a list of them", examples: ["[inhale, exhale]", "hold"], "the `tick` cue only: the kinds of phases that tick"),
    ]

    static let guideChoices = BreathGuideWords.guides
    static let guide: [RecipeKey] = [
        RecipeKey(
            "guide.<kind>", .choice(guideChoices),
            defaultText: "`inhale` rise, `exhale` fall, `transition` fall, every other kind hold",
            range: "kinds of the pattern (`transition` with `program`)", canonical: .line("guide", whenGiven: true),
            typeText: guideChoices.map { "`\($0)`" }.joined(separator: ", "), examples: ["hold", "fall"],
            "how phases of this kind move the breath: toward full, toward empty, staying, or empty"),
        RecipeKey(
            "guide.shape", .choice(BreathGuideWords.shapes), default: BreathGuideWords.shapes[0], canonical: .line("guide", whenGiven: true),
            typeText: BreathGuideWords.shapes.map { "`\($0)`" }.joined(separator: ", "), examples: ["linear", "sine"],
            "how the breath moves inside a phase: a raised cosine or a straight line"),
    ]

    static let swell: [RecipeKey] = [
        RecipeKey(
            "swell.tone", .frequency, presence: .rule("exactly one of `tone`, `synth`"),
            range: "\(DiagnosticText.number(RecipeLimits.minSwellHertz)) Hz to below half the sample rate",
            canonical: .line("swell", whenGiven: true),
            typeText: "frequency", examples: ["174 Hz", "220 Hz"], "a sine at this frequency"),
        RecipeKey(
            "swell.synth", .choice(BreathGuideWords.noises), canonical: .line("swell", whenGiven: true),
            typeText: BreathGuideWords.noises.map { "`\($0)`" }.joined(separator: ", "), examples: ["white-noise", "brown-noise"],
            "a noise, at the level a `synth:` bed of that noise has at the same gain"),
        RecipeKey(
            "swell.gain", .gain, default: "0 dB", range: "\(DiagnosticText.number(Units.gainRange.lowerBound)) to 0 dB",
            canonical: .line("swell", whenGiven: true), typeText: "gain", examples: ["-26 dB", "-30 dB"],
            "the swell's level where the breath is full (E = 1), before loudness normalization"),
    ]

    static let voice: [RecipeKey] = [
        RecipeKey(
            "voice.level", .voiceLevel, default: "\(DiagnosticText.number(Voice.defaultLevel)) LUFS",
            range: signed(Units.voiceLevelRange, "LUFS"), canonical: .line("voice.level", whenGiven: true),
            typeText: "loudness, or `off` (as recorded)", examples: ["-20 LUFS", "off"], "the loudness each clip is levelled to"),
        RecipeKey(
            "voice.gain", .gain, default: "0 dB", range: gainRange, canonical: .line("voice.gain", whenGiven: true),
            typeText: "gain, after levelling", examples: ["-3 dB", "-6 dB"], "then this gain on every prompt"),
        RecipeKey(
            "voice.duck", .duckDepth, default: "\(DiagnosticText.number(Voice.defaultDuckDB)) dB",
            range: "\(signed(Units.duckDepthRange, "dB")) (`0 dB`: no ducking)", canonical: .line("voice.duck", whenGiven: true),
            typeText: "gain, or `wcag`", examples: ["10 dB", "wcag"], "how far the bed drops under a prompt"),
        RecipeKey(
            "voice.attack", .duration(positive: false, max: RecipeLimits.maxDuckRamp), default: Voice.defaultAttack.durationText,
            range: "0 to \(RecipeLimits.maxDuckRamp.durationText)", canonical: .line("voice.attack", whenGiven: true),
            typeText: "duration: the bed's ramp down before a prompt", examples: ["400ms", "1s"], "the bed's ramp down, ending at the prompt"),
        RecipeKey(
            "voice.release", .duration(positive: false, max: RecipeLimits.maxDuckRamp), default: Voice.defaultRelease.durationText,
            range: "0 to \(RecipeLimits.maxDuckRamp.durationText)", canonical: .line("voice.release", whenGiven: true),
            typeText: "duration: the ramp back up after it", examples: ["900ms", "1s"], "the bed's ramp back up after the prompt"),
        RecipeKey(
            "voice.draft_voice", .anyOf([.draftVoice, .localeTexts]), default: Voice.defaultDraftVoice,
            defaultText: "`en-us`; with `locales:`, each locale's tag where espeak-ng has it, else its primary language (`pt-BR` → `pt`)",
            range: "a voice espeak-ng has (`en-gb`, `de`, `fr`, …)",
            canonical: .line("voice.draft_voice", whenGiven: true), typeText: "espeak-ng language, or a mapping from locale to one",
            examples: ["en-gb", "de"],
            "the draft voice's language, for prompts with `text:` and no `file:`"),
        RecipeKey(
            "voice.prompts", .list(of: .mapping, count: 1...RecipeLimits.maxPromptEntries), presence: .required,
            range: "1 to \(grouped(RecipeLimits.maxPromptEntries)) entries", canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText: "list of prompts", examples: ["[ { at: 3s, text: Welcome } ]", "[ { at: 5s, text: Welcome } ]"], "the prompts, in order"),
        RecipeKey(
            "voice.prompts[].at", .promptTime, presence: .rule("one of `at`, `on`"), range: "inside the file",
            canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText:
                "a time from the file's start, or an anchor (`intro`, `practice`, `outro`, `segment 1`, `end`) with an optional `+`/`-` offset",
            examples: ["2s", "practice - 2s", "end - 20s"], "the prompt starts once, at this time"),
        RecipeKey(
            "voice.prompts[].on", .phaseKind, canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText: "a phase kind of the pattern: the prompt starts at every phase of that kind", examples: ["inhale", "exhale"],
            "the prompt starts at every phase of that kind"),
        RecipeKey(
            "voice.prompts[].cycles", .cycleSelection, defaultText: "every cycle", range: "cycles that exist",
            canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText: "(with `on`) a cycle number, a range, or a list of them, counted from 1 (within each segment)",
            examples: ["1-3", "[1, 2, 10-12]"], "an `on:` prompt sounds in these cycles only"),
        RecipeKey(
            "voice.prompts[].segment", .integer(1...RecipeLimits.maxSegments), defaultText: "every segment",
            range: "a segment of the program (`1` without one)", canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText: "(with `on`) a segment number, from 1", examples: ["2", "1"], "an `on:` prompt sounds in this segment only"),
        RecipeKey(
            "voice.prompts[].until", .promptTime, defaultText: "none: to the end", range: "may lie past the file's end",
            canonical: .line("voice.prompt.<i>.until", whenGiven: true), typeText: "(with `on`) a time, as `at`",
            examples: ["practice + 5m", "end - 10m"], "an `on:` prompt stops at phases starting at or after this time"),
        RecipeKey(
            "voice.prompts[].file", .assetPath, defaultText: "none: the draft voice speaks `text`", presence: .rule("`file`, `text` or both"),
            range: "at most \(RecipeLimits.maxClipSeconds) s", canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText: "path in the assets folder; `{locale}` in it is each locale's tag", examples: ["voice/welcome.wav", "voice/hold.wav"],
            "the recorded clip"),
        RecipeKey(
            "voice.prompts[].text", .anyOf([.promptText, .localeTexts]), range: "one line, at most \(grouped(RecipeLimits.maxPromptTextBytes)) bytes",
            canonical: .line("voice.prompt.<i>", whenGiven: true),
            typeText: "what the prompt says (cue sheet, captions); or a mapping from locale to it",
            examples: ["\"Breathe in.\"", "Welcome"], "what the prompt says (cue sheet, captions)"),
    ]

    static let output: [RecipeKey] = [
        RecipeKey(
            "output.sample_rate", .sampleRate, default: String(OutputSettings().sampleRate),
            range: "\(grouped(RecipeLimits.sampleRates.lowerBound)) to \(grouped(RecipeLimits.sampleRates.upperBound)) Hz; some formats take fewer",
            canonical: .line("output.sample_rate"), typeText: "sample rate", examples: ["44.1 kHz", "22050"], "the file's sample rate"),
        RecipeKey(
            "output.channels", .integer(RecipeLimits.channelCounts), default: String(OutputSettings().channels),
            range:
                "\(RecipeLimits.channelCounts.lowerBound) to \(RecipeLimits.channelCounts.upperBound), layouts below (`alac`: \(spoken(RecipeLimits.fixedChannelCounts(of: .alac) ?? [])); `m4a`: 1 to 6 or 8)",
            canonical: .line("output.channels"), typeText: "whole number", examples: ["1", "6"], "the file's channel count"),
        RecipeKey(
            "output.format", .choice(AudioFormat.allCases.map(\.rawValue)),
            defaultText: "from the `-o` extension; FLAC without `-o` (and in a catalog)",
            range: "see the table below", canonical: .line("output.format"),
            typeText: AudioFormat.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", "), examples: ["flac", "wav"], "the container and codec"),
        RecipeKey(
            "output.bit_depth", .choice(BitDepth.allCases.map(\.rawValue)), defaultText: "`24` where the format has one",
            range: "see the table below; ignored for lossy formats", canonical: .line("output.bit_depth"),
            typeText: "`16`, `24`, `32f` (float)", examples: ["16", "24"], "the sample format of a lossless file"),
        RecipeKey(
            "output.loudness", .loudness, default: "\(DiagnosticText.number(OutputSettings().loudness ?? 0)) LUFS",
            range: signed(Units.loudnessRange, "LUFS"), canonical: .line("output.loudness"), typeText: "loudness, or `off`",
            examples: ["-18 LUFS", "off"], "the integrated loudness target"),
        RecipeKey(
            "output.true_peak", .truePeak, default: "\(DiagnosticText.number(OutputSettings().truePeak)) dBTP",
            range: signed(Units.truePeakRange, "dBTP"), canonical: .line("output.true_peak"), typeText: "true peak",
            examples: ["-1.5 dBTP", "-2 dBTP"], "the true-peak ceiling"),
        RecipeKey(
            "output.bitrate", .bitrate,
            defaultText:
                "m4a `128k`, opus `96k`, mp3 `192k` (lowered to the most a format takes at a low rate or channel count); Ogg Vorbis quality 0.5",
            range:
                "\(AudioFormat.bitrateRange.lowerBound / 1000)k to \(AudioFormat.bitrateRange.upperBound / 1000)k, and what the format takes at that rate and channel count",
            canonical: .line("output.bitrate", whenGiven: true), typeText: "bit rate (lossy formats only)", examples: ["160k", "96k"],
            "a lossy format's bit rate"),
        RecipeKey(
            "output.sidecars", .choiceList(OutputSettings.sidecarNames), defaultText: "none",
            canonical: .excluded("files beside the track, not its sound: a catalog fingerprints them apart (`Fingerprint.of`)"),
            typeText: "list from " + OutputSettings.sidecarNames.map { "`\($0)`" }.joined(separator: ", "),
            examples: ["[vtt, chapters]", "waveform"],
            "extra files beside the track"),
    ]

    /// `[1, 2, 4]` → `1, 2 or 4`.
    static func spoken(_ numbers: [Int]) -> String {
        let words = numbers.map(String.init)
        guard words.count > 1, let last = words.last else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
