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
    /// Words the schema's message at `schemaPath` must hold, when they matter.
    let schemaSays: String?
    var testDescription: String { name }

    init(_ name: String, _ yaml: String, schema schemaPath: String, says schemaSays: String? = nil, parser parserSays: String) {
        self.name = name
        self.yaml = yaml
        self.schemaPath = schemaPath
        self.schemaSays = schemaSays
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
            #expect(throws: Never.self, "\(recipe)") { _ = try RecipeLoader.load(path: recipe) }
            let head = try String(contentsOfFile: recipe, encoding: .utf8).split(separator: "\n").first.map(String.init)
            #expect(head == "# yaml-language-server: $schema=../../schema/recipe.schema.json", "\(recipe)")
        }
    }

    static let base = "pattern: box\ncycles: 2\n"
    /// The prompts of a `voice:` mapping written in block style, for rows about its other keys.
    static let prompt = "  prompts:\n    - { at: 3s, text: Welcome }\n"

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
        RejectedRecipe(
            "bit rate without a unit", base + "output: { format: m4a, bitrate: 128 }\n", schema: "$.output.bitrate", parser: "did you mean '128k'?"),
        RejectedRecipe(
            "bit rate over 320k", base + "output: { format: mp3, bitrate: 321k }\n", schema: "$.output.bitrate", parser: "outside 32k … 320k"),
        RejectedRecipe(
            "bit rate under 32k", base + "output: { format: ogg, bitrate: 31999 bps }\n", schema: "$.output.bitrate", parser: "outside 32k … 320k"),
        RejectedRecipe("delivery misspelt", base + "delivery: on_demand\n", schema: "$.delivery", parser: "did you mean 'on-demand'?"),
        RejectedRecipe("cycles not whole", "pattern: box\ncycles: 2.5\n", schema: "$.cycles", parser: "cycles: expected a number of cycles"),
        // voice (recipe-v1.1 § Voice prompts)
        RejectedRecipe("voice without prompts", base + "voice: { duck: 12 dB }\n", schema: "$.voice", parser: "voice: expected 'prompts:'"),
        RejectedRecipe("voice is text", base + "voice: welcome.wav\n", schema: "$.voice", parser: "voice: expected a mapping with 'prompts:'"),
        RejectedRecipe(
            "misspelt voice key", base + "voice:\n  relase: 700ms\n" + prompt, schema: "$.voice",
            parser: "unknown key 'relase' in 'voice' (did you mean 'release'?)"),
        RejectedRecipe(
            "no prompts", base + "voice: { prompts: [] }\n", schema: "$.voice.prompts", parser: "voice.prompts: expected a list of prompts"),
        RejectedRecipe(
            "prompts as a mapping", base + "voice: { prompts: { at: 3s, text: Hi } }\n", schema: "$.voice.prompts",
            parser: "voice.prompts: expected a list of prompts, like '- { at: 3s, file: voice/welcome.wav, text: Welcome }', found a mapping"),
        RejectedRecipe(
            "prompt as text", base + "voice: { prompts: [welcome.wav] }\n", schema: "$.voice.prompts[0]",
            parser: "voice.prompts.0: expected a mapping with 'at:' or 'on:', and 'file:' or 'text:', found 'welcome.wav'"),
        RejectedRecipe(
            "prompt at and on", base + "voice: { prompts: [ { at: 3s, on: inhale, text: Hi } ] }\n", schema: "$.voice.prompts[0]",
            parser: "voice.prompts.0: expected either 'at:' (a time) or 'on:' (a phase kind), found both"),
        RejectedRecipe(
            "prompt neither at nor on", base + "voice: { prompts: [ { text: Hi } ] }\n", schema: "$.voice.prompts[0]",
            parser: "voice.prompts.0: expected 'at:' (a time) or 'on:' (a phase kind), found neither"),
        RejectedRecipe(
            "prompt neither file nor text", base + "voice: { prompts: [ { at: 3s } ] }\n", schema: "$.voice.prompts[0]",
            says: "expected 'file' or 'text', or both, found neither",
            parser: "voice.prompts.0: expected 'file:' (a recorded clip), 'text:' (spoken by the draft voice), or both, found neither"),
        RejectedRecipe(
            "cycles on an at prompt", base + "voice: { prompts: [ { at: 3s, cycles: 1-3, text: Hi } ] }\n", schema: "$.voice.prompts[0]",
            parser: "voice.prompts.0.cycles: applies to 'on:' prompts only"),
        RejectedRecipe(
            "segment on an at prompt", base + "voice: { prompts: [ { at: 3s, segment: 1, text: Hi } ] }\n", schema: "$.voice.prompts[0]",
            parser: "voice.prompts.0.segment: applies to 'on:' prompts only"),
        RejectedRecipe(
            "misspelt prompt key", base + "voice: { prompts: [ { at: 3s, txet: Hi } ] }\n", schema: "$.voice.prompts[0]",
            parser: "unknown key 'txet' in 'voice.prompts.0' (did you mean 'text'?)"),
        RejectedRecipe(
            "on a kind the built-in lacks", "pattern: coherent\ncycles: 2\nvoice: { prompts: [ { on: hold, text: Hold } ] }\n",
            schema: "$.voice.prompts[0].on", parser: "voice.prompts.0.on: expected a phase kind of the pattern, found 'hold'"),
        RejectedRecipe(
            "on a misspelt kind", base + "voice: { prompts: [ { on: exhail, text: Out } ] }\n", schema: "$.voice.prompts[0].on",
            parser: "found 'exhail' (did you mean 'exhale'?)"),
        RejectedRecipe(
            "on a kind that is no word", base + "voice: { prompts: [ { on: Breathe In, text: In } ] }\n", schema: "$.voice.prompts[0].on",
            parser: "voice.prompts.0.on: expected a phase kind of the pattern, found 'Breathe In'"),
        RejectedRecipe(
            "voice level out of range", base + "voice:\n  level: -5 LUFS\n" + prompt, schema: "$.voice.level",
            parser: "voice.level: expected a loudness from -40 to -10 LUFS like -18 LUFS, or off, found '-5 LUFS' (outside -40 … -10 LUFS)"),
        RejectedRecipe(
            "voice level in dB", base + "voice:\n  level: -18 dB\n" + prompt, schema: "$.voice.level", parser: "unknown unit 'db' (use LUFS)"),
        RejectedRecipe(
            "voice gain out of range", base + "voice:\n  gain: +30 dB\n" + prompt, schema: "$.voice.gain",
            parser: "voice.gain: expected a gain from -120 dB to +24 dB like -14 dB, found '+30 dB'"),
        RejectedRecipe(
            "duck deeper than 40 dB", base + "voice:\n  duck: 41 dB\n" + prompt, schema: "$.voice.duck", parser: "(outside 0 … 40 dB)"),
        RejectedRecipe("duck negative", base + "voice:\n  duck: -3 dB\n" + prompt, schema: "$.voice.duck", parser: "(outside 0 … 40 dB)"),
        RejectedRecipe(
            "duck misspelt wcag", base + "voice:\n  duck: wcga\n" + prompt, schema: "$.voice.duck",
            parser: "voice.duck: expected a depth from 0 to 40 dB like 12 dB, or wcag, found 'wcga'"),
        RejectedRecipe(
            "attack over 5 s", base + "voice:\n  attack: 6s\n" + prompt, schema: "$.voice.attack",
            parser: "voice.attack: expected a length from 0 to 5s like 300ms or 1.5s, found '6s' (longer than 5s)"),
        RejectedRecipe(
            "attack of a tenth of a minute", base + "voice:\n  attack: 0.1m\n" + prompt, schema: "$.voice.attack", parser: "(longer than 5s)"),
        RejectedRecipe(
            "release as a clock over 5 s", base + "voice:\n  release: 0:06\n" + prompt, schema: "$.voice.release", parser: "(longer than 5s)"),
        RejectedRecipe("release negative", base + "voice:\n  release: -700ms\n" + prompt, schema: "$.voice.release", parser: "(negative)"),
        RejectedRecipe(
            "draft voice not a word", base + "voice:\n  draft_voice: English (US)\n" + prompt, schema: "$.voice.draft_voice",
            parser: "voice.draft_voice: expected a language like en-us, en-gb, de, fr or es, found 'English (US)'"),
        RejectedRecipe(
            "prompt time negative", base + "voice: { prompts: [ { at: -3s, text: Hi } ] }\n", schema: "$.voice.prompts[0].at",
            parser: "(negative; a time before an anchor is written 'practice - 2s')"),
        RejectedRecipe(
            "anchor misspelt", base + "voice: { prompts: [ { at: practise - 2s, text: Hi } ] }\n", schema: "$.voice.prompts[0].at",
            parser: "unknown anchor 'practise'"),
        RejectedRecipe(
            "anchor and offset without a sign", base + "voice: { prompts: [ { at: end 20s, text: Hi } ] }\n", schema: "$.voice.prompts[0].at",
            parser: "expected '+' or '-' and a time after 'end', like 'end + 5s'"),
        RejectedRecipe(
            "offset with two signs", base + "voice: { prompts: [ { at: end - -2s, text: Hi } ] }\n", schema: "$.voice.prompts[0].at",
            parser: "one sign only, like 'end - 2s'"),
        RejectedRecipe(
            "offset over 24 h", base + "voice: { prompts: [ { at: end - 25h, text: Hi } ] }\n", schema: "$.voice.prompts[0].at",
            parser: "(over 24 h)"),
        RejectedRecipe(
            "segment anchor 0", base + "voice: { prompts: [ { at: segment 0, text: Hi } ] }\n", schema: "$.voice.prompts[0].at",
            parser: "'segment' needs its number from 1, like 'segment 2'"),
        RejectedRecipe(
            "cycle 0", base + "voice: { prompts: [ { on: inhale, cycles: 0, text: In } ] }\n", schema: "$.voice.prompts[0].cycles",
            parser: "voice.prompts.0.cycles: expected a cycle number from 1, a range like 1-3, or a list like [1, 2, 10-12], found '0'"),
        RejectedRecipe(
            "cycles as an empty list", base + "voice: { prompts: [ { on: inhale, cycles: [], text: In } ] }\n",
            schema: "$.voice.prompts[0].cycles", parser: "voice.prompts.0.cycles: expected a cycle number from 1"),
        RejectedRecipe(
            "cycle range in a list, open", base + "voice: { prompts: [ { on: inhale, cycles: [1, 3-], text: In } ] }\n",
            schema: "$.voice.prompts[0].cycles", parser: "voice.prompts.0.cycles.1: expected a cycle number from 1"),
        RejectedRecipe(
            "segment 0", base + "voice: { prompts: [ { on: inhale, segment: 0, text: In } ] }\n", schema: "$.voice.prompts[0].segment",
            parser: "voice.prompts.0.segment: expected a segment number from 1, found '0' (out of range)"),
        RejectedRecipe(
            "prompt file leaves the assets folder", base + "voice: { prompts: [ { at: 3s, file: ../voice/hi.wav } ] }\n",
            schema: "$.voice.prompts[0].file", parser: "voice.prompts.0.file: path '../voice/hi.wav' leaves the assets folder ('..')"),
        RejectedRecipe(
            "prompt text with a tab", base + "voice: { prompts: [ { at: 3s, text: \"In.\\tOut.\" } ] }\n", schema: "$.voice.prompts[0].text",
            parser: "voice.prompts.0.text: expected a text without control characters, found U+0009"),
        RejectedRecipe(
            "prompt text of spaces", base + "voice: { prompts: [ { at: 3s, text: '   ' } ] }\n", schema: "$.voice.prompts[0].text",
            parser: "voice.prompts.0.text: expected the words the prompt says"),
        RejectedRecipe(
            "prompt text over 1024 bytes", base + "voice: { prompts: [ { at: 3s, text: " + String(repeating: "a", count: 1025) + " } ] }\n",
            schema: "$.voice.prompts[0].text", parser: "voice.prompts.0.text: expected a text of at most 1024 bytes"),
        RejectedRecipe(
            "sidecar misspelt captions", base + "output: { sidecars: [vtt, caption] }\n", schema: "$.output.sidecars[1]",
            parser: "output.sidecars: expected one of vtt, chapters, waveform, captions, found 'caption' (did you mean 'captions'?)"),
        // issue 15: variants, cue limits, prompt until, format and sample rate
        RejectedRecipe(
            "variants with a duration too", "pattern: box\nduration: 5m\nvariants: { duration: [5m, 10m] }\n", schema: "$",
            parser: "duration: expected the track's lengths in 'variants.duration' only"),
        RejectedRecipe(
            "variants of no length", "pattern: box\nvariants: { duration: [] }\n", schema: "$.variants.duration",
            parser: "variants.duration: expected a list of lengths like [5m, 10m, 20m], found an empty list"),
        RejectedRecipe(
            "variants misspelt", "pattern: box\nvariants: { durations: [5m] }\n", schema: "$.variants",
            parser: "unknown key 'durations' in 'variants' (did you mean 'duration'?)"),
        RejectedRecipe(
            "variant of zero length", "pattern: box\nvariants: { duration: [5m, 0s] }\n", schema: "$.variants.duration[1]",
            parser: "variants.duration.1: expected a length above zero"),
        RejectedRecipe(
            "cue until not a time", base + "cues: { inhale: { preset: bell, until: soon } }\n", schema: "$.cues.inhale",
            parser: "cues.inhale.until: expected a time like 5m"),
        RejectedRecipe(
            "cue cycles of zero", base + "cues: { inhale: { tone: 440 Hz, cycles: 0 } }\n", schema: "$.cues.inhale.cycles",
            parser: "cycles are counted from 1"),
        RejectedRecipe(
            "cues-wide until not a time", base + "cues: { until: later, inhale: bell }\n", schema: "$.cues.until",
            parser: "cues.until: expected a time like 5m"),
        RejectedRecipe(
            "prompt until with at", base + "voice: { prompts: [ { at: 3s, until: 1m, text: Hi } ] }\n", schema: "$.voice.prompts[0]",
            parser: "voice.prompts.0.until: applies to 'on:' prompts only"),
        RejectedRecipe(
            "opus at 44.1 kHz", base + "output: { format: opus, sample_rate: 44100 }\n", schema: "$.output.sample_rate",
            parser: "output.sample_rate"),
        RejectedRecipe(
            "mp3 at 96 kHz written in kHz", base + "output: { format: mp3, sample_rate: 96 kHz }\n", schema: "$.output.sample_rate",
            parser: "output.sample_rate"),
        RejectedRecipe(
            "alac with 7 channels", base + "output: { format: alac, channels: 7 }\n", schema: "$.output.channels",
            parser: "output.channels: Apple Lossless (format alac) cannot be written with 7 channels"),
        RejectedRecipe(
            "m4a at 7350 Hz", base + "output: { format: m4a, sample_rate: 7350 }\n", schema: "$.output.sample_rate",
            parser: "output.sample_rate"),
        RejectedRecipe(
            "ogg over 200 kHz", base + "output: { format: ogg, sample_rate: 384000 }\n", schema: "$.output.sample_rate",
            parser: "libvorbis goes up to 200000 Hz"),
        // issue 16: synth beds and layers
        RejectedRecipe(
            "binaural with one value", base + "bed: { synth: binaural 200 Hz }\n", schema: "$.bed.synth",
            parser: "it needs a carrier and a beat"),
        RejectedRecipe(
            "bed layers empty", base + "bed: []\n", schema: "$.bed", parser: "bed: expected a list of bed layers"),
        RejectedRecipe(
            "bed layer without a source", base + "bed: [ { synth: pink-noise }, { gain: -6 dB } ]\n", schema: "$.bed[1]",
            parser: "bed.1: expected 'file: <path>' or 'synth:"),
        // issue 16: programs and ramps (recipe-v1.1 § Programs, § Ramps)
        RejectedRecipe(
            "program and pattern", "pattern: box\nprogram: [ { pattern: box, cycles: 2 } ]\n", schema: "$",
            says: "expected either 'pattern' or 'program', found both", parser: "program: expected either 'pattern:' (one pattern) or 'program:'"),
        RejectedRecipe(
            "neither pattern nor program", "duration: 5m\n", schema: "$", says: "expected either 'pattern' or 'program', found neither",
            parser: "expected 'pattern:' (a built-in like box, or a mapping with 'phases') or 'program:' (a list of segments), found neither"),
        RejectedRecipe("program empty", "program: []\n", schema: "$.program", parser: "program: expected a list of segments"),
        RejectedRecipe(
            "program as a mapping", "program: { pattern: box, cycles: 2 }\n", schema: "$.program",
            parser: "program: expected a list of segments like '- { pattern: box, cycles: 4 }', found a mapping"),
        RejectedRecipe(
            "segment with both lengths", "program: [ { pattern: box, cycles: 2, duration: 1m } ]\n", schema: "$.program[0]",
            says: "found both", parser: "program.0.cycles: expected either 'cycles:' or 'duration:' in a segment, found both"),
        RejectedRecipe(
            "segment with no length", "program: [ { pattern: box, label: Box } ]\n", schema: "$.program[0]", says: "found neither",
            parser: "program.0: expected 'cycles:' (like 'cycles: 4') or 'duration:' (like 'duration: 3m') in the segment, found neither"),
        RejectedRecipe(
            "segment without a pattern", "program: [ { cycles: 2 } ]\n", schema: "$.program[0]", parser: "program.0: expected 'pattern:'"),
        RejectedRecipe(
            "segment key misspelt", "program: [ { pattern: box, cycles: 2, lable: Box } ]\n", schema: "$.program[0]",
            says: "unknown key 'lable' (did you mean 'label'?)", parser: "unknown key 'lable' in 'program.0' (did you mean 'label'?)"),
        RejectedRecipe(
            "segment of an unknown pattern", "program: [ { pattern: boxx, cycles: 2 } ]\n", schema: "$.program[0].pattern",
            parser: "unknown pattern 'boxx'"),
        RejectedRecipe(
            "segment end_on misspelt", "program: [ { pattern: box, duration: 1m, end_on: phases } ]\n", schema: "$.program[0].end_on",
            parser: "program.0.end_on: expected one of cycle, phase"),
        RejectedRecipe(
            "program with top-level cycles", "program: [ { pattern: box, cycles: 2 } ]\ncycles: 3\n", schema: "$.cycles",
            parser: "cycles: expected no top-level 'cycles:' with 'program:'"),
        RejectedRecipe(
            "program with top-level ramp", "program: [ { pattern: box, cycles: 2 } ]\nramp: { to: 4 bpm }\n", schema: "$.ramp",
            says: "expected no top-level 'ramp' with 'program'", parser: "found one at the top level beside 'program:'"),
        RejectedRecipe(
            "program with duration and variants", "program: [ { pattern: box, cycles: 2 } ]\nduration: 5m\nvariants: { duration: [5m] }\n",
            schema: "$", parser: "duration: expected the track's lengths in 'variants.duration' only"),
        RejectedRecipe(
            "ramp as text", base + "ramp: 4.5 bpm\n", schema: "$.ramp", parser: "ramp: expected a ramp like '{ to: 4.5 bpm, over: 10 cycles }'"),
        RejectedRecipe("ramp without to", base + "ramp: { over: 1 }\n", schema: "$.ramp", parser: "ramp: expected 'to:'"),
        RejectedRecipe(
            "ramp key misspelt", base + "ramp: { to: 5 bpm, ovr: 1 }\n", schema: "$.ramp", says: "did you mean 'over'?",
            parser: "unknown key 'ovr' in 'ramp' (did you mean 'over'?)"),
        RejectedRecipe("ramp to 61 bpm", base + "ramp: { to: 61 bpm }\n", schema: "$.ramp.to", parser: "(outside 1 … 60 bpm)"),
        RejectedRecipe("ramp unit misspelt", base + "ramp: { to: 5 bmp }\n", schema: "$.ramp.to", parser: "did you mean '5 bpm'?"),
        RejectedRecipe(
            "ramp over in minutes", base + "ramp: { to: 5 bpm, over: 2m }\n", schema: "$.ramp.over", parser: "a ramp is counted in cycles"),
        RejectedRecipe(
            "ramp over a duration without over", "pattern: box\nduration: 5m\nramp: { to: 5 bpm }\n", schema: "$.ramp",
            says: "'over' is a required property",
            parser: "ramp: expected 'over:' (the cycles the rate changes over, like 'over: 10 cycles') with 'duration:'"),
        RejectedRecipe(
            "ramp over variants without over", "pattern: box\nvariants: { duration: [5m, 10m] }\nramp: { to: 5 bpm }\n", schema: "$.ramp",
            parser: "ramp: expected 'over:'"),
        RejectedRecipe(
            "segment ramp over a duration without over", "program: [ { pattern: coherent, duration: 3m, ramp: { to: 4.5 bpm } } ]\n",
            schema: "$.program[0].ramp", says: "'over' is a required property", parser: "program.0.ramp: expected 'over:'"),
    ]

    /// The schema's verdicts on every row of `rejected`, from one run of the script.
    static let rejectedBatch = Result { try BatchValidation(rejected.map { ($0.name, $0.yaml) }, suffix: ".yml", against: recipeSchema) }

    @Test(arguments: rejected)
    func bothReject(_ recipe: RejectedRecipe) throws {
        let schema = try Self.rejectedBatch.get()
        let lines = schema.lines(recipe.name)
        #expect(schema.validation.status == 1, "\(schema.validation)")
        #expect(lines.contains { $0.hasPrefix(recipe.schemaPath + ": ") }, "schema said \(lines), expected a problem at \(recipe.schemaPath)")
        if let words = recipe.schemaSays {
            #expect(lines.contains { $0.hasPrefix(recipe.schemaPath + ": ") && $0.contains(words) }, "schema said \(lines)")
        }
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
        // voice (recipe-v1.1 § Voice prompts): the spec's own example
        AcceptedRecipe(
            "voice: the spec's example, every key",
            """
            pattern: box
            cycles: 4
            intro: 20s
            outro: 30s
            voice:
              level: -18 LUFS
              gain: 0 dB
              duck: 12 dB
              attack: 300ms
              release: 700ms
              draft_voice: en-us
              prompts:
                - { at: 3s, file: voice/welcome.wav, text: "Welcome. Sit comfortably." }
                - { at: practice - 2s, file: voice/begin.wav, text: "Let's begin." }
                - { on: inhale, cycles: 1-3, file: voice/breathe-in.wav, text: "Breathe in" }
                - { on: exhale, cycles: 1-3, file: voice/breathe-out.wav, text: "Breathe out" }
                - { at: end - 20s, text: "Slowly open your eyes." }
            output: { sidecars: [vtt, captions] }

            """),
        AcceptedRecipe(
            "voice: off, wcag, no ramps",
            base + "voice:\n  level: off\n  duck: wcag\n  attack: 0\n  release: 0s\n" + prompt),
        AcceptedRecipe(
            "voice: bare numbers at the limits",
            base + "voice:\n  level: -40\n  gain: -3\n  duck: 40\n  attack: 5\n  release: 0:05\n" + prompt),
        AcceptedRecipe(
            "voice: quoted values",
            base + "voice:\n  level: '-10 LUFS'\n  duck: \"0 dB\"\n  attack: '1.5s'\n  draft_voice: 'DE'\n" + prompt),
        AcceptedRecipe(
            "prompt times: every anchor",
            """
            pattern: box
            cycles: 2
            voice:
              prompts:
                - { at: 3, text: A }
                - { at: "1:30", text: B }
                - { at: intro, text: C }
                - { at: intro + 5s, text: D }
                - { at: Practice-2s, text: E }
                - { at: outro - 1s, text: F }
                - { at: segment 1 + 2.5s, text: G }
                - { at: segment1, text: H }
                - { at: end - 0.5s, text: I }
                - { at: END - 1m 30s, text: J }

            """),
        AcceptedRecipe(
            "prompts on phases: every form of cycles",
            """
            pattern: box
            cycles: 12
            voice:
              prompts:
                - { on: inhale, text: In }
                - { on: exhale, cycles: 3, text: Out }
                - { on: hold, cycles: 1-3, segment: 1, file: voice/hold.wav }
                - { on: inhale, cycles: [1, 2, 10-12], file: voice/breathe-in.wav, text: In }
                - { on: exhale, cycles: ["4", 5 - 6], text: Out }

            """),
        AcceptedRecipe(
            "prompt on a kind of an inline pattern",
            "cycles: 2\npattern: { phases: [ { top_up: 1s }, { slow_exhale: 3s } ] }\nvoice: { prompts: [ { on: top_up, text: Top up } ] }\n"),
        AcceptedRecipe(
            "prompt text: numbers, booleans, any script",
            base + "voice: { prompts: [ { at: 1s, text: 42 }, { at: 2s, text: true }, { at: 3s, text: 'Atme ein — 吸气 🙂' } ] }\n"),
        AcceptedRecipe("sidecars with captions", base + "output: { sidecars: 'captions, vtt' }\n"),
        AcceptedRecipe(
            "metadata",
            "id: box-5m\ntitle: Box\ncategory: Focus\npremium: false\nsort_order: 10\npattern: box\nduration: 5m\nend_on: cycle\nintro: 10s\noutro: 15s\n"
        ),
        AcceptedRecipe("variants", "pattern: box\nvariants: { duration: [5m, 10m, '1h30m', 90] }\n"),
        AcceptedRecipe(
            "cue limits",
            base + "cues: { until: 'end - 10s', cycles: 1-2, inhale: { preset: bell, gain: -24 dB }, exhale: { tone: 396 Hz, until: 20s }, "
                + "start: { file: a.wav, cycles: [1] } }\n"),
        AcceptedRecipe("prompt until", base + "voice: { prompts: [ { on: inhale, until: 'practice + 10s', text: In } ] }\n"),
        AcceptedRecipe("opus at 48 kHz, m4a at 44.1 kHz", base + "output: { format: opus, sample_rate: 48 kHz }\n"),
        AcceptedRecipe("m4a at 44.1 kHz", base + "output: { format: m4a, sample_rate: '44.1kHz' }\n"),
        AcceptedRecipe(
            "program: the spec's example",
            """
            intro: 20s
            program:
              - { pattern: coherent, duration: 3m }
              - { pattern: 4-7-8, cycles: 4, label: Wind down }
              - { pattern: box, duration: 2m, end_on: phase }
            outro: 30s

            """),
        AcceptedRecipe(
            "program: every segment key, inline patterns, ramps, a fixed duration, transition and tick cues",
            """
            duration: 20m
            end_on: phase
            program:
              - pattern: coherent
                duration: 5m
                end_on: cycle
                ramp: { to: 4.5 bpm, over: 10 cycles }
                label: Slow down
              - { pattern: { name: Sigh, phases: [ { inhale: 2s }, { top_up: 1s }, { exhale: 4s } ] }, cycles: "6" }
              - { pattern: box, cycles: 10, ramp: { to: '3.75' } }
              - { pattern: relax, cycles: 2, ramp: { to: 6bpm, over: 1 cycle } }
            cues: { inhale: bell, top_up: click, transition: chime, tick: { preset: click, every: 1s, on: [hold] } }

            """),
        AcceptedRecipe("program: variants", "program: [ { pattern: box, cycles: 2 } ]\nvariants: { duration: [5m, 10m] }\n"),
        AcceptedRecipe("ramp: the spec's example", "pattern: coherent\ncycles: 20\nramp: { to: 4.5 bpm, over: 10 cycles }\n"),
        AcceptedRecipe("ramp: over by default with cycles", base + "ramp: { to: 60 }\n"),
        AcceptedRecipe("ramp: over a duration", "pattern: box\nduration: 10m\nramp: { to: 1 bpm, over: 5 }\n"),
        AcceptedRecipe(
            "synth beds and layers",
            base + "bed: [ { synth: binaural 200 Hz 10 Hz, gain: -6 dB }, { synth: 'isochronic 0.2kHz 7.83Hz' }, { file: beds/rain.ogg } ]\n"),
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

    @Test func schemaReadsSidecars() throws {
        let folder = try TempFolder()
        let good = try folder.write(Self.base + "output: { sidecars: [vtt, chapters, waveform, captions] }\n", to: "good.yml")
        let bad = try folder.write(Self.base + "output: { sidecars: [vtt, srt] }\n", to: "bad.yml")
        let validation = try validate([good, bad], against: recipeSchema)
        #expect(validation.isValid(good), "\(validation)")
        #expect(validation.lines(for: bad).contains { $0.hasPrefix("$.output.sidecars") }, "\(validation)")
    }

    static let sidecarValues: [(value: String, valid: Bool)] = [
        ("[vtt, chapters]", true), ("[waveform]", true), ("[]", true), ("'vtt, chapters'", true),
        ("[captions]", true), ("[vtt, captions, waveform]", true), ("'captions,chapters'", true), ("',captions,'", true),
        ("[srt]", false), ("[VTT]", false), ("5", false), ("'vtt chapters'", false), ("[caption]", false), ("'Captions'", false),
        ("'vtt captions'", false),
    ]
    static let sidecarBatch = Result {
        try BatchValidation(sidecarValues.map { ($0.value, base + "output: { sidecars: \($0.value) }\n") }, suffix: ".yml", against: recipeSchema)
    }

    @Test(arguments: sidecarValues.map(\.value))
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

    /// Values of the voice keys at the edges of their ranges and grammars: the schema and the
    /// parser must both take or both refuse each (`key` is where in a recipe it goes).
    static let voiceValues: [(key: String, value: String, valid: Bool)] = [
        ("level", "-10", true), ("level", "-40 LUFS", true), ("level", "-39.99 lkfs", true), ("level", "OFF", true),
        ("level", "-18LUFS", true), ("level", "'-18 LUFS '", true), ("level", "-9.99", false), ("level", "-40.01 LUFS", false),
        ("level", "-3 LUFS", false), ("level", "18", false), ("level", "+18", false), ("level", "-18 LU", false),
        ("duck", "0", true), ("duck", "40 dB", true), ("duck", "40.0", true), ("duck", "-0", true), ("duck", "+12 dB", true),
        ("duck", ".5", true), ("duck", "WCAG", true), ("duck", "12dB", true), ("duck", "40.01", false), ("duck", "-0.5", false),
        ("duck", "12 dBFS", false), ("duck", "off", false), ("duck", "1e1", false),
        ("attack", "5s", true), ("attack", "5000ms", true), ("attack", "0.08m", true), ("attack", "0:05", true), ("attack", "0:00:05", true),
        ("attack", "0.0013888h", true), ("attack", "0m 5s", true), ("attack", "5.000000001", false), ("attack", "5001ms", false),
        ("attack", "0.0834m", false), ("attack", "0.0013889h", false), ("attack", "0:05.5", false), ("attack", "0:00:06", false),
        ("attack", "1m", false), ("attack", "5s 1ms", false), ("attack", "-0", false), ("attack", "5x", false),
        ("at", "0", true), ("at", "24h", true), ("at", "'1:02:03.5'", true), ("at", "end - 24h", true), ("at", "segment 000001", true),
        ("at", "\"end\\t-\\t2s\"", true), ("at", "\"end - 2m 30s\"", true), ("at", "25h", false), ("at", "end - 86401", false),
        ("at", "end - 1441:00", false), ("at", "segment 0000001", false), ("at", "segment", false), ("at", "segment x", false),
        ("at", "start + 3s", false), ("at", "endx", false), ("at", "end +", false), ("at", "practice - 1:75", false), ("at", "+3s", false),
        ("at", "intro + inf", false),
        ("cycles", "100000", true), ("cycles", "000001", true), ("cycles", "1-100000", true), ("cycles", "'1 - 3'", true),
        ("cycles", "[1, '2-4']", true), ("cycles", "100001", false), ("cycles", "0000001", false), ("cycles", "1-2-3", false),
        ("cycles", "-3", false), ("cycles", "1.5", false), ("cycles", "[[1]]", false), ("cycles", "[0]", false), ("cycles", "'1,3'", false),
        ("segment", "1000", true), ("segment", "'0001000'", true), ("segment", "1001", false), ("segment", "-1", false),
        ("segment", "+1", false), ("segment", "1.5", false),
        ("text", "\"\(String(repeating: "x", count: 1024))\"", true), ("text", "'\u{A0}'", true), ("text", "'a\u{200B}b'", true),
        ("text", "\"\(String(repeating: "x", count: 1025))\"", false), ("text", "\"a\\u0085b\"", false), ("text", "\"a\\u2028b\"", false),
        ("text", "\"a\\x7Fb\"", false), ("text", "\"a\\nb\"", false), ("text", "''", false),
        ("draft_voice", "en", true), ("draft_voice", "EN-GB", true), ("draft_voice", "zh-yue", true),
        ("draft_voice", String(repeating: "x", count: 32), true), ("draft_voice", String(repeating: "x", count: 33), false),
        ("draft_voice", "e", false), ("draft_voice", "en_us", false), ("draft_voice", "1en", false), ("draft_voice", "-en", false),
    ]

    /// Values of a ramp's keys at the edges of their ranges and grammars (Units.breathRate, Units.cycleCount).
    static let rampValues: [(key: String, value: String, valid: Bool)] = [
        ("to", "1", true), ("to", "60", true), ("to", "60 bpm", true), ("to", "60.000000", true), ("to", "4.5", true), ("to", "4.5bpm", true),
        ("to", "'4.5 BPM'", true), ("to", "+6", true), ("to", "0001.5", true), ("to", "5.454545", true), ("to", "'5.4545450000 bpm'", true),
        ("to", "\"\\t4.5 bpm \"", true), ("to", "1.", true), ("to", "'59.999999 Bpm'", true),
        ("to", "0.999999", false), ("to", "60.000001", false), ("to", "61", false), ("to", "0", false), ("to", "-5", false), ("to", "-0", false),
        ("to", "'5.4545454'", false), ("to", ".5", false), ("to", "4.5 bmp", false), ("to", "4.5 b/m", false), ("to", "bpm", false),
        ("to", "1e1", false), ("to", "inf", false), ("to", "'4.5 bpm bpm'", false), ("to", "[4.5]", false),
        ("over", "1", true), ("over", "100000", true), ("over", "10 cycles", true), ("over", "1 cycle", true), ("over", "'10cycles'", true),
        ("over", "'3 Cycles'", true), ("over", "000010", true), ("over", "'10 cycle'", true), ("over", "\"\\t7 CYCLES\"", true),
        ("over", "0", false), ("over", "100001", false), ("over", "-1", false), ("over", "1.5", false), ("over", "10.0", false),
        ("over", "10 cycels", false), ("over", "10 times", false), ("over", "+3", false), ("over", "2m", false), ("over", "cycles", false),
        ("over", "'0 cycles'", false),
    ]

    /// A recipe whose ramp has `value` at `key` (a day long, so that 'over' is required and has room).
    static func rampRecipe(_ key: String, _ value: String) -> String {
        "pattern: box\nduration: 24h\nramp:\n" + (key == "to" ? "  to: \(value)\n  over: 10\n" : "  to: 5 bpm\n  over: \(value)\n")
    }

    static func rampRow(_ index: Int) -> String { "\(rampValues[index].key): \(rampValues[index].value)#\(index)" }

    static let rampBatch = Result {
        try BatchValidation(
            rampValues.indices.map { (rampRow($0), rampRecipe(rampValues[$0].key, rampValues[$0].value)) }, suffix: ".yml", against: recipeSchema)
    }

    @Test(arguments: rampValues.indices)
    func rampValuesAgree(_ index: Int) throws {
        let row = Self.rampValues[index]
        let schema = try Self.rampBatch.get()
        let lines = schema.lines(Self.rampRow(index))
        #expect((lines == ["ok"]) == row.valid, "\(row.key): \(row.value): schema said \(lines)")
        switch parse(Self.rampRecipe(row.key, row.value)) {
        case .success: #expect(row.valid, "the parser accepted \(row.key): \(row.value)")
        case .failure(let problems):
            #expect(!row.valid, "the parser rejected \(row.key): \(row.value): \(problems)")
            #expect(problems.diagnostics.allSatisfy { $0.message.hasPrefix("ramp.\(row.key)") }, "\(problems)")
        }
    }

    /// A recipe with `value` at `key`: a key of `voice:`, or of its one prompt.
    static func voiceRecipe(_ key: String, _ value: String) -> String {
        let long = "pattern: box\nduration: 24h\nintro: 10s\noutro: 10s\nvoice:\n"
        switch key {
        case "at": return long + "  prompts:\n    - at: \(value)\n      text: Hi\n"
        case "cycles", "segment": return long + "  prompts:\n    - on: inhale\n      \(key): \(value)\n      text: In\n"
        case "text": return long + "  prompts:\n    - at: 3s\n      text: \(value)\n"
        default: return long + "  \(key): \(value)\n  prompts:\n    - { at: 3s, text: Hi }\n"
        }
    }

    static func voiceRow(_ index: Int) -> String { "\(voiceValues[index].key): \(voiceValues[index].value.prefix(40))#\(index)" }

    static let voiceBatch = Result {
        try BatchValidation(
            voiceValues.indices.map { (voiceRow($0), voiceRecipe(voiceValues[$0].key, voiceValues[$0].value)) }, suffix: ".yml", against: recipeSchema
        )
    }

    @Test(arguments: voiceValues.indices)
    func voiceValuesAgree(_ index: Int) throws {
        let row = Self.voiceValues[index]
        let schema = try Self.voiceBatch.get()
        let lines = schema.lines(Self.voiceRow(index))
        #expect((lines == ["ok"]) == row.valid, "\(row.key): \(row.value): schema said \(lines)")
        let path = ["at", "cycles", "segment", "text"].contains(row.key) ? "voice.prompts.0.\(row.key)" : "voice.\(row.key)"
        switch parse(Self.voiceRecipe(row.key, row.value)) {
        case .success: #expect(row.valid, "the parser accepted \(row.key): \(row.value)")
        case .failure(let problems):
            #expect(!row.valid, "the parser rejected \(row.key): \(row.value): \(problems)")
            // refused for this value, not for something else in the recipe
            #expect(problems.diagnostics.allSatisfy { $0.message.hasPrefix(path) }, "\(problems)")
        }
    }
}
