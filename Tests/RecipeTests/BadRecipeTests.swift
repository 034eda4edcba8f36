import AudioCore
import Testing

@testable import Recipe

/// One broken recipe: its bytes, where the problem must be reported and words the message must hold.
struct BadRecipe: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var defaultID = "test"
    var line: Int
    var column: Int
    var words: [String]

    init(_ name: String, _ yaml: String, defaultID: String = "test", at line: Int, _ column: Int, _ words: String...) {
        self.name = name
        self.bytes = Array(yaml.utf8)
        self.defaultID = defaultID
        self.line = line
        self.column = column
        self.words = words
    }

    init(_ name: String, bytes: [UInt8], at line: Int, _ column: Int, _ words: String...) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.words = words
    }

    var testDescription: String { name }
}

@Suite struct BadRecipeTests {
    static let ok = "pattern: box\ncycles: 2\n"

    static let cases: [BadRecipe] = [
        // Keys
        BadRecipe(
            "unknown key, suggestion", "pattern: box\ndurration: 5m\n", at: 2, 1,
            "unknown key 'durration' (did you mean 'duration'?)"),
        BadRecipe(
            "unknown key, allowed list", ok + "zzz: 1\n", at: 3, 1,
            "unknown key 'zzz' (allowed: id, locales, title, category, premium, sort_order, delivery, duration, cycles, variants, end_on, pattern"),
        BadRecipe(
            "unknown nested key", ok + "bed: { synth: drone, gian: -3 dB }\n", at: 3, 22,
            "unknown key 'gian' in 'bed' (did you mean 'gain'?)"),
        BadRecipe(
            "unknown output key", ok + "output:\n  smaple_rate: 44100\n", at: 4, 3,
            "unknown key 'smaple_rate' in 'output' (did you mean 'sample_rate'?)"),
        BadRecipe("duplicate key", ok + "\ncycles: 3\n", at: 4, 1, "duplicate key 'cycles' (first at line 2)"),
        BadRecipe(
            "duplicate nested key", ok + "bed:\n  synth: drone\n  gain: -3 dB\n  gain: -4 dB\n", at: 6, 3,
            "duplicate key 'gain' in 'bed' (first at line 5)"),
        BadRecipe("key not a word", ok + "[a, b]: 1\n", at: 3, 1, "keys must be words", "found a list"),
        BadRecipe("value where nothing is given", "pattern: box\nduration:\n", at: 2, 10, "duration: expected", "found nothing"),

        // Values and units
        BadRecipe(
            "bad duration unit", "pattern: box\nduration: 5x\n", at: 2, 11,
            "duration: expected a length above zero", "found '5x'", "unknown unit 'x'"),
        BadRecipe("zero duration", "pattern: box\nduration: 0s\n", at: 2, 11, "duration: expected a length above zero", "found '0s'", "zero"),
        BadRecipe("negative intro", ok + "intro: -5s\n", at: 3, 8, "intro: expected a length", "found '-5s'", "negative"),
        BadRecipe("absurd outro", ok + "outro: 25h\n", at: 3, 8, "outro", "over 24 h"),
        BadRecipe("nan fade", ok + "bed: { synth: drone, fade_in: .nan }\n", at: 3, 31, "bed.fade_in", "not a number"),
        BadRecipe("sexagesimal out of range", "pattern: box\nduration: 1:75\n", at: 2, 11, "duration", "found '1:75'", "below 60"),
        BadRecipe("too precise", "pattern: box\nduration: 10.0000000001s\n", at: 2, 11, "duration", "more than 9 decimals"),
        BadRecipe(
            "gain out of range", ok + "bed: { synth: pink-noise, gain: +30 dB }\n", at: 3, 33,
            "bed.gain: expected a gain from -120 dB to +24 dB", "found '+30 dB'", "outside"),
        BadRecipe(
            "bad gain unit", ok + "bed: { synth: pink-noise, gain: -3 dBFS }\n", at: 3, 33, "bed.gain", "found '-3 dBFS'",
            "unknown unit 'dbfs' (use dB)"),
        BadRecipe(
            "tone above Nyquist", ok + "cues:\n  inhale: { tone: 30 kHz }\n", at: 4, 19,
            "cues.inhale.tone: 30 kHz is above the Nyquist frequency (24 kHz at 48000 Hz)"),
        BadRecipe(
            "Nyquist of the recipe's rate", ok + "output: { sample_rate: 22050 }\ncues: { exhale: { tone: 12 kHz } }\n",
            at: 4, 25, "cues.exhale.tone: 12 kHz is above the Nyquist frequency (11.025 kHz at 22050 Hz)"),
        BadRecipe(
            "tone at Nyquist", ok + "output: { sample_rate: 8000 }\ncues: { inhale: { tone: 4 kHz } }\n",
            at: 4, 25, "4 kHz is at the Nyquist frequency (4 kHz at 8000 Hz)"),
        BadRecipe(
            "drone above Nyquist", ok + "output: { sample_rate: 8000 }\nbed: { synth: drone 5 kHz }\n", at: 4, 15,
            "bed.synth: 5 kHz is above the Nyquist frequency"),
        BadRecipe("bad frequency", ok + "cues: { inhale: { tone: 0 Hz } }\n", at: 3, 25, "cues.inhale.tone", "found '0 Hz'", "above 0"),
        BadRecipe(
            "cue too long", ok + "cues: { inhale: { tone: 440, length: 61s } }\n", at: 3, 38,
            "cues.inhale.length", "at most 60s, like 2s or 500ms", "found '61s'", "longer than 60s"),
        BadRecipe("cue length zero", ok + "cues: { inhale: { tone: 440, length: 0ms } }\n", at: 3, 38, "cues.inhale.length", "zero"),
        BadRecipe(
            "bad envelope", ok + "cues: { inhale: { tone: 440, envelope: bel } }\n", at: 3, 40,
            "cues.inhale.envelope: expected one of bell, soft, click, found 'bel' (did you mean 'bell'?)"),
        BadRecipe(
            "too many harmonics", ok + "cues: { inhale: { tone: 440, harmonics: 17 } }\n", at: 3, 41,
            "cues.inhale.harmonics", "found '17'", "out of range"),
        BadRecipe(
            "harmonic out of range", ok + "cues: { inhale: { tone: 440, harmonics: [0.5, 1.5] } }\n", at: 3, 47,
            "cues.inhale.harmonics.1: expected an amplitude from 0 to 1, found '1.5'"),
        BadRecipe(
            "harmonics list too long",
            ok + "cues: { inhale: { tone: 440, harmonics: [" + Array(repeating: "0.1", count: 17).joined(separator: ",")
                + "] } }\n", at: 3, 41, "cues.inhale.harmonics", "17 amplitudes"),
        BadRecipe("premium yes", ok + "premium: yes\n", at: 3, 10, "premium: expected true or false, found 'yes'"),
        BadRecipe("sort_order text", ok + "sort_order: first\n", at: 3, 13, "sort_order: expected a whole number, found 'first'"),
        BadRecipe("cycles zero", "pattern: box\ncycles: 0\n", at: 2, 9, "cycles: expected a number of cycles from 1 to 100000, found '0'"),
        BadRecipe("cycles fractional", "pattern: box\ncycles: 1.5\n", at: 2, 9, "cycles: expected a number of cycles", "found '1.5'"),
        BadRecipe("cycles over 24 h", "pattern: pomodoro\ncycles: 12\n", at: 2, 9, "cycles", "within 24 h", "26 h"),
        BadRecipe(
            "duration too short", "pattern: box\nduration: 20s\nintro: 5s\n", at: 2, 11,
            "duration: expected a duration with room for one cycle (16s) after intro (5s) and outro (0s), found '20s'"),
        BadRecipe("end_on typo", ok + "end_on: phases\n", at: 3, 9, "end_on: expected one of cycle, phase, found 'phases' (did you mean 'phase'?)"),

        // Length
        BadRecipe(
            "both duration and cycles", "pattern: box\nduration: 5m\ncycles: 3\n", at: 3, 9,
            "expected either 'duration:' or 'cycles:', found both"),
        BadRecipe("neither duration nor cycles", "title: Calm\npattern: box\n", at: 1, 1, "'duration:'", "'cycles:'", "found neither"),

        // Paths
        BadRecipe(
            "bed path with ..", ok + "bed: { file: ../secret.wav }\n", at: 3, 14,
            "bed.file: path '../secret.wav' leaves the assets folder"),
        BadRecipe("inner ..", ok + "bed: { file: beds/../../x.wav }\n", at: 3, 14, "leaves the assets folder"),
        BadRecipe(
            "absolute cue path", ok + "cues:\n  end: { file: /etc/passwd }\n", at: 4, 16,
            "cues.end.file: path '/etc/passwd' leaves the assets folder"),
        BadRecipe("backslash path", ok + "bed: { file: 'beds\\rain.ogg' }\n", at: 3, 14, "bed.file", "backslash"),
        BadRecipe("control character in path", ok + "bed: { file: \"beds/\\u0007.ogg\" }\n", at: 3, 14, "bed.file", "control character"),
        BadRecipe("empty path", ok + "bed: { file: '' }\n", at: 3, 14, "bed.file", "path is empty"),
        BadRecipe("file and synth", ok + "bed: { file: a.wav, synth: drone }\n", at: 3, 21, "bed: expected either 'file:' or 'synth:', found both"),
        BadRecipe("neither file nor synth", ok + "bed: { gain: -3 dB }\n", at: 3, 6, "bed: expected 'file: <path>' or 'synth:", "found neither"),
        BadRecipe("unknown synth", ok + "bed: { synth: pink }\n", at: 3, 15, "bed.synth", "found 'pink'", "did you mean 'pink-noise'?"),
        BadRecipe(
            "tone and file", ok + "cues: { end: { tone: 440, file: a.wav } }\n", at: 3, 27, "cues.end: expected either 'tone:' or 'file:', found both"
        ),
        BadRecipe("file cue with length", ok + "cues: { end: { file: a.wav, length: 2s } }\n", at: 3, 29, "cues.end.length", "tones only"),

        // Ids
        BadRecipe("bad id", ok + "id: ../etc\n", at: 3, 5, "id: expected letters, digits", "found '../etc'"),
        BadRecipe("id with slash", ok + "id: a/b\n", at: 3, 5, "id: expected", "found 'a/b'"),
        BadRecipe("id too long", ok + "id: " + String(repeating: "a", count: 101) + "\n", at: 3, 5, "id: expected", "at most 100"),
        BadRecipe("bad file name as id", ok, defaultID: "my recipe", at: 1, 1, "the file name 'my recipe' is not a valid id", "add an 'id:'"),
        BadRecipe("dot file name as id", ok, defaultID: ".hidden", at: 1, 1, "'.hidden' is not a valid id"),

        // Patterns and cues
        BadRecipe(
            "unknown pattern", "pattern: boxx\ncycles: 1\n", at: 1, 10,
            "unknown pattern 'boxx' (known: box, 4-7-8, coherent, relax, pomodoro); did you mean 'box'?"),
        BadRecipe(
            "unknown pattern, no suggestion", "pattern: sleepy\ncycles: 1\n", at: 1, 10,
            "unknown pattern 'sleepy' (known: box, 4-7-8, coherent, relax, pomodoro)"),
        BadRecipe("missing pattern", "cycles: 1\n", at: 1, 1, "expected 'pattern:'", "or 'program:'", "found neither"),
        BadRecipe(
            "cue kind with suggestion", ok + "cues: { inhle: bell }\n", at: 3, 9,
            "cue 'inhle' matches no phase of pattern 'box' (did you mean 'inhale'?)"),
        BadRecipe(
            "cue kind without suggestion", ok + "cues: { work: bell }\n", at: 3, 9,
            "cue 'work' matches no phase of pattern 'box' (its kinds: inhale, hold, exhale; also start, end, tick)"),
        BadRecipe(
            "unknown preset", ok + "cues: { start: chimes }\n", at: 3, 16, "cues.start: expected none, a preset (bell, chime, click)",
            "found 'chimes'", "did you mean 'chime'?"),
        BadRecipe("zero phase", "cycles: 1\npattern:\n  phases:\n    - inhale: 0s\n", at: 4, 15, "pattern.phases.0.inhale", "zero"),
        BadRecipe(
            "reserved phase kind", "cycles: 1\npattern:\n  phases:\n    - start: 1s\n", at: 4, 7,
            "pattern.phases.0: expected a phase kind other than start and end", "found 'start'"),
        BadRecipe(
            "phase kind not a word", "cycles: 1\npattern:\n  phases:\n    - { kind: Breathe In, length: 4s }\n", at: 4, 15,
            "pattern.phases.0.kind: expected a phase kind", "found 'Breathe In'"),
        BadRecipe(
            "phase without length", "cycles: 1\npattern:\n  phases:\n    - { kind: inhale }\n", at: 4, 7,
            "pattern.phases.0: expected a 'length:'", "found none"),
        BadRecipe(
            "phase as text", "cycles: 1\npattern:\n  phases:\n    - inhale\n", at: 4, 7, "pattern.phases.0: expected a phase",
            "found 'inhale'"),
        BadRecipe("no phases", "cycles: 1\npattern:\n  phases: []\n", at: 3, 11, "pattern.phases: expected a list of phases", "found an empty list"),
        BadRecipe(
            "too many phases", "cycles: 1\npattern:\n  phases:\n" + String(repeating: "    - inhale: 1s\n", count: 1001), at: 4, 5,
            "pattern.phases: expected at most 1000 phases", "1001 phases"),

        // Output
        BadRecipe(
            "bit depth 32", ok + "output: { bit_depth: 32 }\n", at: 3, 22, "output.bit_depth: expected one of 16, 24, 32f, found '32'",
            "did you mean '32f'?"),
        BadRecipe(
            "flac with float", ok + "output: { format: flac, bit_depth: 32f }\n", at: 3, 36,
            "output.bit_depth: expected 16 or 24 for flac, found '32f'"),
        BadRecipe(
            "format typo", ok + "output: { format: flak }\n", at: 3, 19,
            "output.format: expected one of wav, flac, ogg, opus, mp3, caf, m4a, alac, found 'flak' (did you mean 'flac'?)"),
        BadRecipe("sample rate too low", ok + "output: { sample_rate: 7999 }\n", at: 3, 24, "output.sample_rate", "found '7999'", "out of range"),
        BadRecipe("channels", ok + "output: { channels: 9 }\n", at: 3, 21, "output.channels: expected a channel count from 1 to 8, found '9'"),
        BadRecipe("loudness", ok + "output: { loudness: -3 LUFS }\n", at: 3, 21, "output.loudness", "found '-3 LUFS'", "outside -70 … -5 LUFS"),
        BadRecipe("true peak", ok + "output: { true_peak: 1 dBTP }\n", at: 3, 22, "output.true_peak", "found '1 dBTP'", "outside -20 … 0 dBTP"),

        // YAML and limits
        BadRecipe(
            "YAML syntax", "pattern: box\ncycles: 2\nbed: file: x\n", at: 3, 10,
            "YAML syntax: mapping values are not allowed in this context"),
        BadRecipe("unclosed flow", "pattern: [box\ncycles: 2\n", at: 2, 7, "YAML syntax: did not find expected"),
        BadRecipe("tab indentation", "pattern: box\nbed:\n\tsynth: drone\n", at: 3, 1, "YAML syntax", "tabs cannot indent"),
        BadRecipe(
            "non-UTF-8 bytes", bytes: Array("pattern: box\ncycles: 2\ntitle: Caf".utf8) + [0xE9] + Array("\n".utf8), at: 3, 11,
            "not valid UTF-8", "incomplete UTF-8 octet sequence", "0xE9 at byte 33"),
        BadRecipe("UTF-16 text", bytes: [0xFF, 0xFE] + Array("p".utf8) + [0], at: 1, 1, "not valid UTF-8"),
        BadRecipe(
            "control character", bytes: Array("pattern: box\ntitle: a".utf8) + [0x07] + Array("\n".utf8), at: 2, 9,
            "control characters are not allowed", "U+0007"),
        BadRecipe("second document", ok + "---\npattern: relax\n", at: 3, 1, "a recipe is one YAML document; found a second one"),
        BadRecipe("empty input", "", at: 1, 1, "the recipe is empty"),
        BadRecipe("comments only", "# nothing yet\n", at: 1, 1, "the recipe is empty"),
        BadRecipe("empty document", "---\n", at: 2, 1, "top level: expected a mapping of recipe keys", "found nothing"),
        BadRecipe("top level a list", "- pattern: box\n", at: 1, 1, "top level: expected a mapping of recipe keys", "found a list"),
        BadRecipe("top level text", "box breathing\n", at: 1, 1, "top level: expected a mapping", "found 'box breathing'"),
        BadRecipe("undefined alias", ok + "title: *name\n", at: 3, 8, "alias '*name' has no anchor '&name' before it"),
        BadRecipe("recursive alias", ok + "bed: &a { synth: *a }\n", at: 3, 18, "alias '*a' refers to a node that contains it"),
        BadRecipe(
            "deep nesting", "pattern: box\ncycles: 2\ntitle: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
            at: 3, 71, "nesting deeper than 64 levels"),  // the root mapping is level 1
        BadRecipe(
            "deep block nesting", "pattern: box\ncycles: 2\n" + (0..<70).map { String(repeating: " ", count: $0) + "k:\n" }.joined(),
            at: 67, 65, "nesting deeper than 64 levels"),
        BadRecipe(
            "too many aliases", ok + "a: &a x\nlist: [" + Array(repeating: "*a", count: 101).joined(separator: ", ") + "]\n",
            at: 4, 8 + 100 * 4, "more than 100 aliases"),
        BadRecipe(
            "too many nodes", ok + "list: [" + Array(repeating: "x", count: 10_000).joined(separator: ",") + "]\n",
            at: 3, 8 + 9_993 * 2, "more than 10000 YAML nodes"),  // 7 nodes before the list's items
        BadRecipe("alias bomb", LimitsTests.laughs(levels: 12, use: "title: *l11\n"), at: 14, 12, "more than 100 aliases"),
        BadRecipe(
            "merge key", ok + "base: &b { gain: -3 dB }\nbed:\n  <<: *b\n  synth: drone\n", at: 5, 3,
            "merge keys ('<<') in 'bed' are not supported"),
        // libyaml puts the end of the text on the empty line after the last break: the error belongs
        // at the end of the last line with text (issue 17)
        BadRecipe(
            "unterminated quote at the end", "pattern: box\ncycles: 2\ntitle: \"Calm\n\n\n", at: 3, 13,
            "found unexpected end of stream (while scanning a quoted scalar at line 3, column 8)"),
        BadRecipe(
            "unclosed flow mapping at the end", "pattern: box\ncycles: 2\nbed: { synth: drone\n", at: 3, 20, "did not find expected ',' or '}'"),
        BadRecipe(
            "box too short for intro and outro", "pattern: box\nintro: 10s\noutro: 10s\nduration: 30s\n", at: 4, 11,
            "duration: expected a duration with room for one cycle (16s) after intro (10s) and outro (10s), found '30s'",
            "(at least 36s for a whole cycle; or set 'end_on: phase' to end on a whole phase)"),
        BadRecipe(
            "pomodoro lengths in minutes", "pattern: pomodoro\nduration: 30m\n", at: 2, 11,
            "room for one cycle (2h10m)", "(at least 2h10m for a whole cycle; or set 'end_on: phase'"),
        BadRecipe(
            "over 1 MiB", ok + "# " + String(repeating: "x", count: 1 << 20) + "\n", at: 1, 1,
            "the recipe is 1048602 bytes; expected at most 1 MiB"),
    ]

    @Test(arguments: cases)
    func reported(_ recipe: BadRecipe) {
        let found = problems(recipe.bytes, defaultID: recipe.defaultID)
        #expect(!found.isEmpty, "accepted")
        let match = found.first { diagnostic in
            diagnostic.location?.line == recipe.line && diagnostic.location?.column == recipe.column
                && recipe.words.allSatisfy { diagnostic.message.contains($0) }
        }
        #expect(match != nil, "expected \(recipe.line):\(recipe.column) with \(recipe.words), got:\n\(DiagnosticList(found))")
        #expect(found.allSatisfy { $0.location?.file == testFile && $0.kind == .data })
    }
}

/// A misspelt key is one problem, said once: no second "found none" or "found neither" for the
/// key it was taken for (issue 15: `durration` also gave an error at 1:1). A key with no near
/// miss leaves the missing key's own error in place.
@Suite struct MisspeltKeyTests {
    static let cases: [(yaml: String, only: String)] = [
        ("id: t\ndurration: 60s\npattern: box\n", "2:1: error: unknown key 'durration' (did you mean 'duration'?)"),
        ("id: t\ncylces: 4\npattern: box\n", "2:1: error: unknown key 'cylces' (did you mean 'cycles'?)"),
        ("id: t\nduration: 60s\npatern: box\n", "3:1: error: unknown key 'patern' (did you mean 'pattern'?)"),
        ("id: t\nduration: 60s\npattern:\n  phase:\n    - inhale: 1s\n", "4:3: error: unknown key 'phase' in 'pattern' (did you mean 'phases'?)"),
        (
            "id: t\nduration: 60s\npattern:\n  phases:\n    - { knid: inhale, length: 1s }\n",
            "5:9: error: unknown key 'knid' in 'pattern.phases.0' (did you mean 'kind'?)"
        ),
        ("id: t\nduration: 60s\npattern: box\nbed: { flie: x.wav }\n", "4:8: error: unknown key 'flie' in 'bed' (did you mean 'file'?)"),
        (
            "id: t\nduration: 60s\npattern: box\ncues: { inhale: { toen: 440 } }\n",
            "4:19: error: unknown key 'toen' in 'cues.inhale' (did you mean 'tone'?)"
        ),
        (
            "id: t\nduration: 60s\npattern: box\nvoice:\n  prompt:\n    - { at: 1s, text: hi }\n",
            "5:3: error: unknown key 'prompt' in 'voice' (did you mean 'prompts'?)"
        ),
        (
            "id: t\nduration: 60s\npattern: box\nvoice: { prompts: [ { at: 1s, txet: hi } ] }\n",
            "4:31: error: unknown key 'txet' in 'voice.prompts.0' (did you mean 'text'?)"
        ),
    ]

    @Test("a misspelt required key gets one error, at the key, with the key it was taken for", arguments: cases.indices)
    func oneError(_ i: Int) {
        let found = problems(Self.cases[i].yaml).map(\.description)
        #expect(found == ["recipes/test.yml:" + Self.cases[i].only], "\(found)")
    }

    @Test("a key that is no near miss of the missing one leaves the missing key's error")
    func unrelatedKeyKeepsTheMissingError() {
        let found = problems("id: t\nzzz: 60s\npattern: box\n").map(\.description)
        #expect(found.contains { $0.contains("found neither") } && found.contains { $0.contains("unknown key 'zzz'") }, "\(found)")
    }
}
