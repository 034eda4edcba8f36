import AudioCore
import Foundation
import Recipe
import Render
import Testing

/// A recipe both the schema and the parser must reject, for the same reason: the schema
/// reports it at `schemaPath` (a JSON path), the parser with a message holding `parserSays`.
struct RejectedRecipe: Sendable, CustomTestStringConvertible {
    let name: String
    let yaml: String
    let schemaPath: String
    let parserSays: String
    var testDescription: String { name }

    init(_ name: String, _ yaml: String, schema schemaPath: String, parser parserSays: String) {
        self.name = name
        self.yaml = yaml
        self.schemaPath = schemaPath
        self.parserSays = parserSays
    }
}

/// A recipe both the schema and the parser must accept.
struct AcceptedRecipe: Sendable, CustomTestStringConvertible {
    let name: String
    let yaml: String
    var testDescription: String { name }

    init(_ name: String, _ yaml: String) {
        self.name = name
        self.yaml = yaml
    }
}

/// What the parser says about a recipe's text: the recipe, or every problem it found.
func parse(_ yaml: String) -> Result<Recipe, DiagnosticList> {
    do {
        return .success(try RecipeLoader.parse(Array(yaml.utf8), file: "recipe.yml", defaultID: "recipe"))
    } catch {
        return .failure(error)
    }
}

@Suite(.enabled(if: Python.isAvailable, Python.missing))
struct RecipeSchemaTests {
    @Test func starterRecipesValidate() throws {
        let recipes = starterRecipes()
        #expect(recipes.count >= 10, "recipes/ holds \(recipes.count) recipes")
        let validation = try validate(recipes, against: recipeSchema)
        #expect(validation.status == 0, "\(validation)")
        for recipe in recipes {
            #expect(validation.isValid(recipe), "\(recipe): \(validation.lines(for: recipe))")
            // and the renderer reads each of them: the schema is no looser guide than the parser
            #expect(throws: Never.self, "\(recipe)") { _ = try TrackRenderer.load(recipePath: recipe) }
            let head = try String(contentsOfFile: recipe, encoding: .utf8).split(separator: "\n").first.map(String.init)
            #expect(head == "# yaml-language-server: $schema=../../schema/recipe.schema.json", "\(recipe)")
        }
    }

    static let base = "pattern: box\ncycles: 2\n"

    static let rejected: [RejectedRecipe] = [
        RejectedRecipe("unknown key", base + "zzz: 1\n", schema: "$", parser: "unknown key 'zzz'"),
        RejectedRecipe("misspelt key", "pattern: box\ndurration: 5m\n", schema: "$", parser: "unknown key 'durration' (did you mean 'duration'?)"),
        RejectedRecipe(
            "misspelt nested key", base + "bed: { synth: pink-noise, gian: -3 dB }\n", schema: "$.bed", parser: "unknown key 'gian' in 'bed'"),
        RejectedRecipe("wrong type", base + "title: [Box, Breathing]\n", schema: "$.title", parser: "title: expected text"),
        RejectedRecipe("bad duration unit", "pattern: box\nduration: 5x\n", schema: "$.duration", parser: "unknown unit 'x'"),
        RejectedRecipe("sexagesimal seconds over 59", base + "intro: 1:75\n", schema: "$.intro", parser: "below 60"),
        RejectedRecipe("negative intro", base + "intro: -5s\n", schema: "$.intro", parser: "negative"),
        RejectedRecipe("duration over 24 h", "pattern: box\nduration: 25h\n", schema: "$.duration", parser: "over 24 h"),
        RejectedRecipe("both duration and cycles", "pattern: box\nduration: 5m\ncycles: 3\n", schema: "$", parser: "found both"),
        RejectedRecipe("neither duration nor cycles", "pattern: box\n", schema: "$", parser: "found neither"),
        RejectedRecipe(
            "bad bit depth", base + "output: { bit_depth: 20 }\n", schema: "$.output.bit_depth",
            parser: "output.bit_depth: expected one of 16, 24, 32f"),
        RejectedRecipe(
            "float bit depth in flac", base + "output: { format: flac, bit_depth: 32f }\n", schema: "$.output.bit_depth",
            parser: "expected 16 or 24 for flac"),
        RejectedRecipe(
            "unknown format", base + "output: { format: aiff }\n", schema: "$.output.format", parser: "output.format: expected one of wav"),
        RejectedRecipe(
            "float sample rate", base + "output: { sample_rate: 48000.0 }\n", schema: "$.output.sample_rate", parser: "output.sample_rate"),
        RejectedRecipe(
            "bad envelope", base + "cues: { inhale: { tone: 528 Hz, envelope: ping } }\n", schema: "$.cues.inhale.envelope",
            parser: "cues.inhale.envelope"),
        RejectedRecipe(
            "gain text garbage", base + "bed: { synth: pink-noise, gain: -14 dBFS }\n", schema: "$.bed.gain", parser: "unknown unit 'dbfs'"),
        RejectedRecipe("gain out of range", base + "bed: { synth: pink-noise, gain: +30 dB }\n", schema: "$.bed.gain", parser: "outside -120"),
        RejectedRecipe("loudness out of range", base + "output: { loudness: -3 LUFS }\n", schema: "$.output.loudness", parser: "outside -70"),
        RejectedRecipe("yes is not a boolean", base + "premium: yes\n", schema: "$.premium", parser: "premium: expected true or false"),
        RejectedRecipe("unknown built-in pattern", "pattern: boxx\ncycles: 2\n", schema: "$.pattern", parser: "unknown pattern 'boxx'"),
        RejectedRecipe(
            "cue for a kind the pattern lacks", "pattern: coherent\ncycles: 2\ncues: { hold: bell }\n", schema: "$.cues",
            parser: "cue 'hold' matches no phase"),
        RejectedRecipe(
            "unknown cue preset", base + "cues: { inhale: gong }\n", schema: "$.cues.inhale", parser: "cues.inhale: expected none, a preset"),
        RejectedRecipe(
            "tone and file in one cue", base + "cues: { inhale: { tone: 528 Hz, file: cues/x.wav } }\n", schema: "$.cues.inhale", parser: "found both"
        ),
        RejectedRecipe(
            "envelope on a file cue", base + "cues: { inhale: { file: cues/x.wav, envelope: soft } }\n", schema: "$.cues.inhale",
            parser: "applies to tones only"),
        RejectedRecipe(
            "cue tone over 60 s", base + "cues: { inhale: { tone: 528 Hz, length: 90s } }\n", schema: "$.cues.inhale.length",
            parser: "longer than 60s"),
        RejectedRecipe("file and synth bed", base + "bed: { file: beds/rain.ogg, synth: pink-noise }\n", schema: "$.bed", parser: "found both"),
        RejectedRecipe(
            "asset path leaves the folder", base + "bed: { file: ../rain.ogg }\n", schema: "$.bed.file", parser: "leaves the assets folder"),
        RejectedRecipe(
            "reserved phase kind", "cycles: 2\npattern:\n  phases:\n    - start: 4s\n", schema: "$.pattern.phases[0]",
            parser: "other than start and end"),
        RejectedRecipe(
            "phase without a length", "cycles: 2\npattern:\n  phases:\n    - { kind: inhale, label: In }\n", schema: "$.pattern.phases[0]",
            parser: "expected a 'length:'"),
        RejectedRecipe(
            "bit rate on a lossless format", base + "output: { format: flac, bitrate: 128k }\n", schema: "$.output.bitrate",
            parser: "flac is lossless and has no bit rate"),
        RejectedRecipe("bit rate without a unit", base + "output: { format: m4a, bitrate: 128 }\n", schema: "$.output.bitrate", parser: "did you mean '128k'?"),
        RejectedRecipe("bit rate over 320k", base + "output: { format: mp3, bitrate: 321k }\n", schema: "$.output.bitrate", parser: "outside 32k … 320k"),
        RejectedRecipe("bit rate under 32k", base + "output: { format: ogg, bitrate: 31999 bps }\n", schema: "$.output.bitrate", parser: "outside 32k … 320k"),
        RejectedRecipe("delivery misspelt", base + "delivery: on_demand\n", schema: "$.delivery", parser: "did you mean 'on-demand'?"),
        RejectedRecipe("cycles not whole", "pattern: box\ncycles: 2.5\n", schema: "$.cycles", parser: "cycles: expected a number of cycles"),
    ]

    /// The schema's verdicts on every row of `rejected`, from one run of the script.
    static let rejectedBatch = Result { try BatchValidation(rejected.map { ($0.name, $0.yaml) }, suffix: ".yml", against: recipeSchema) }

    @Test(arguments: rejected)
    func bothReject(_ recipe: RejectedRecipe) throws {
        let schema = try Self.rejectedBatch.get()
        let lines = schema.lines(recipe.name)
        #expect(schema.validation.status == 1, "\(schema.validation)")
        #expect(lines.contains { $0.hasPrefix(recipe.schemaPath + ": ") }, "schema said \(lines), expected a problem at \(recipe.schemaPath)")
        switch parse(recipe.yaml) {
        case .success: Issue.record("the parser accepted it")
        case .failure(let problems): #expect(problems.description.contains(recipe.parserSays), "parser said: \(problems)")
        }
    }

    static let accepted: [AcceptedRecipe] = [
        // every form of duration, as the spec lists them (a 100 ms pattern fits them all)
        AcceptedRecipe("duration: bare seconds", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 90\n"),
        AcceptedRecipe("duration: seconds", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 90s\n"),
        AcceptedRecipe("duration: milliseconds", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 800ms\n"),
        AcceptedRecipe("duration: minutes and seconds", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 5m30s\n"),
        AcceptedRecipe("duration: h m s with decimals", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 1h2m3.5s\n"),
        AcceptedRecipe("duration: units with spaces", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 5m 30s\n"),
        AcceptedRecipe("duration: mm:ss", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 05:00\n"),
        AcceptedRecipe("duration: h:mm:ss.s", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 1:02:03.5\n"),
        AcceptedRecipe("duration: quoted", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: \"90\"\n"),
        AcceptedRecipe("duration: decimal seconds", "pattern: { phases: [ { inhale: 100ms } ] }\nduration: 12.5\nintro: 0\nend_on: phase\n"),
        // cue forms
        AcceptedRecipe(
            "cue forms",
            base + """
                cues:
                  inhale: { tone: 528 Hz, length: 800ms, gain: -18 dB, envelope: bell, harmonics: [0.3, 0.12] }
                  exhale: { tone: 1.2 kHz, harmonics: 3 }
                  hold: none
                  start: chime
                  end: { file: cues/singing-bowl.wav, gain: -6dB }

                """),
        AcceptedRecipe("cues: none", base + "cues: none\n"),
        AcceptedRecipe("cues: {}", base + "cues: {}\n"),
        AcceptedRecipe(
            "cue names of an inline pattern",
            "cycles: 1\npattern: { phases: [ { top_up: 1s }, { kind: slow_exhale, length: 2s, label: Out } ] }\ncues: { top_up: click, slow_exhale: bell }\n"
        ),
        // beds, output, metadata
        AcceptedRecipe("file bed", base + "bed: { file: beds/rain.ogg, gain: -14 dB, fade_in: 4s, fade_out: 8s, crossfade: 2s }\n"),
        AcceptedRecipe("drone bed", base + "bed: { synth: drone 220 Hz, gain: -20 }\n"),
        AcceptedRecipe("no bed", base + "bed: none\n"),
        AcceptedRecipe(
            "loudness off", base + "output: { loudness: off, true_peak: 0 dBTP, sample_rate: 44100, channels: 1, format: wav, bit_depth: 32f }\n"),
        AcceptedRecipe("delivery on demand", base + "delivery: on-demand\n"),
        AcceptedRecipe("delivery bundled", base + "delivery: bundled\n"),
        AcceptedRecipe("bit rate in k", base + "output: { format: m4a, bitrate: 128k }\n"),
        AcceptedRecipe("bit rate in kbps", base + "output: { format: opus, bitrate: 96 kbps }\n"),
        AcceptedRecipe("bit rate in kb/s with decimals", base + "output: { format: ogg, bitrate: 112.5 kb/s }\n"),
        AcceptedRecipe("bit rate in bps, at the limits", base + "output: { format: mp3, bitrate: 320000 bps }\n"),
        AcceptedRecipe("bit rate at its floor", base + "output: { bitrate: 32K }\n"),
        AcceptedRecipe(
            "quoted numbers and booleans", base + "premium: \"true\"\nsort_order: \"-3\"\noutput: { sample_rate: '8000', bit_depth: '16' }\n"),
        AcceptedRecipe(
            "metadata",
            "id: box-5m\ntitle: Box\ncategory: Focus\npremium: false\nsort_order: 10\npattern: box\nduration: 5m\nend_on: cycle\nintro: 10s\noutro: 15s\n"
        ),
    ]

    /// The schema's verdicts on every row of `accepted`, from one run of the script.
    static let acceptedBatch = Result { try BatchValidation(accepted.map { ($0.name, $0.yaml) }, suffix: ".yml", against: recipeSchema) }

    @Test(arguments: accepted)
    func bothAccept(_ recipe: AcceptedRecipe) throws {
        let schema = try Self.acceptedBatch.get()
        let lines = schema.lines(recipe.name)
        #expect(lines == ["ok"], "schema said \(lines)")
        if case .failure(let problems) = parse(recipe.yaml) { Issue.record("the parser rejected it: \(problems)") }
    }

    /// `output.sidecars` is in the schema ahead of the parser; once the parser reads it, they must agree.
    static let parserReadsSidecars: Bool = {
        (try? RecipeLoader.parse(Array((base + "output: { sidecars: [vtt] }\n").utf8), file: "probe.yml", defaultID: "probe")) != nil
    }()

    @Test func schemaReadsSidecars() throws {
        let folder = try TempFolder()
        let good = try folder.write(Self.base + "output: { sidecars: [vtt, chapters, waveform] }\n", to: "good.yml")
        let bad = try folder.write(Self.base + "output: { sidecars: [vtt, srt] }\n", to: "bad.yml")
        let validation = try validate([good, bad], against: recipeSchema)
        #expect(validation.isValid(good), "\(validation)")
        #expect(validation.lines(for: bad).contains { $0.hasPrefix("$.output.sidecars") }, "\(validation)")
    }

    static let sidecarValues: [(value: String, valid: Bool)] = [
        ("[vtt, chapters]", true), ("[waveform]", true), ("[]", true), ("'vtt, chapters'", true),
        ("[srt]", false), ("[VTT]", false), ("5", false), ("'vtt chapters'", false),
    ]
    static let sidecarBatch = Result {
        try BatchValidation(sidecarValues.map { ($0.value, base + "output: { sidecars: \($0.value) }\n") }, suffix: ".yml", against: recipeSchema)
    }

    @Test(.enabled(if: RecipeSchemaTests.parserReadsSidecars, "the parser does not read output.sidecars yet"), arguments: sidecarValues.map(\.value))
    func sidecarsAgree(_ value: String) throws {
        let valid = try #require(Self.sidecarValues.first { $0.value == value }).valid
        let schema = try Self.sidecarBatch.get()
        let lines = schema.lines(value)
        #expect((lines == ["ok"]) == valid, "schema said \(lines)")
        switch parse(Self.base + "output: { sidecars: \(value) }\n") {
        case .success: #expect(valid, "the parser accepted sidecars: \(value)")
        case .failure(let problems): #expect(!valid, "the parser rejected sidecars: \(value): \(problems)")
        }
    }
}
