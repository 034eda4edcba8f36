import AudioCore
import Testing

@testable import Recipe

@Suite struct LimitsTests {
    /// The classic "billion laughs": nine levels of ten aliases, 10^8 leaves if expanded.
    static func laughs(levels: Int, use: String) -> String {
        var yaml = "pattern: box\ncycles: 2\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1..<levels {
            yaml += "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        return yaml + use
    }

    /// The best of three runs: a pause of a busy machine (the suites run side by side on 2
    /// cores) can spoil one measurement, but a real cost (quadratic work) comes back every time.
    func timed(_ body: () -> [Diagnostic]) -> (Duration, [Diagnostic]) {
        let clock = ContinuousClock()
        var result: [Diagnostic] = []
        var best = Duration.seconds(Int64.max)
        for _ in 0..<3 {
            best = min(best, clock.measure { result = body() })
            if best < .milliseconds(250) { break }
        }
        return (best, result)
    }

    @Test func billionLaughsIsSharedNotExpanded() {
        // 9 levels use 80 aliases, within the limit: the document parses, and the decoder
        // reports the shared list once instead of walking 10^8 leaves.
        let yaml = Self.laughs(levels: 9, use: "title: *l8\n")
        let (elapsed, found) = timed { problems(yaml) }
        #expect(elapsed < .milliseconds(500))
        let messages = found.map(\.description)
        #expect(
            messages.contains(
                "recipes/test.yml:3:1: error: unknown key 'l0' (allowed: id, locales, title, category, premium, sort_order, delivery, duration, cycles, variants, end_on, pattern, program, ramp, intro, outro, bed, cues, guide, swell, haptics, voice, output)"
            ))
        #expect(messages.contains("recipes/test.yml:12:8: error: title: expected text, found a list"))
        #expect(found.count == 10)  // l0 … l8 unknown, title wrong
    }

    @Test func billionLaughsInsidePhases() {
        let yaml = Self.laughs(levels: 9, use: "").replacing("pattern: box\n", with: "") + "pattern: { phases: *l8 }\n"
        let (elapsed, found) = timed { problems(yaml) }
        #expect(elapsed < .milliseconds(500))
        #expect(found.contains { $0.message.hasPrefix("pattern.phases.0: expected a phase like") && $0.message.hasSuffix("found a list") })
        #expect(found.count <= 20)
    }

    @Test func billionLaughsOverTheAliasLimit() {
        let yaml = Self.laughs(levels: 12, use: "title: *l11\n")
        let (elapsed, found) = timed { problems(yaml) }
        #expect(elapsed < .milliseconds(500))
        #expect(found.count == 1)
        #expect(found.first?.message == "more than 100 aliases (*name); a recipe needs far fewer")
        #expect(found.first?.location?.line == 14)
    }

    @Test func deepNestingStopsEarly() {
        let yaml = "title: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let (elapsed, found) = timed { problems(yaml) }
        #expect(elapsed < .milliseconds(500))
        #expect(found.map(\.description) == ["recipes/test.yml:1:71: error: nesting deeper than 64 levels"])

        let mappings = String(repeating: "{a: ", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(problems(mappings).map(\.message) == ["nesting deeper than 64 levels"])
    }

    static let openers: [(String, String)] = [
        ("[", "flow lists"), ("{a: ", "flow mappings"), ("- ", "block lists"), ("? ", "complex keys"), ("&a [", "anchored lists"),
    ]

    @Test(arguments: openers)
    func aFullMebibyteOfOpenersAnswersFast(opener: String, name: String) {
        let count = ((1 << 20) - 16) / opener.utf8.count
        let yaml = "title: " + String(repeating: opener, count: count)
        let (elapsed, found) = timed { problems(yaml) }
        // a guard against quadratic work (which takes minutes on 1 MiB), not a speed test: under
        // AddressSanitizer on a shared 2-core machine the linear work took 1.07 s and failed CI at 1 s
        #expect(elapsed < .seconds(10), "\(name)")
        #expect(found.count == 1, "\(name)")
    }

    @Test func nestingAtTheLimitIsRead() {
        // Root mapping + 63 lists = 64 levels: parses, then fails only on meaning.
        let yaml = "pattern: box\ncycles: 2\ntitle: " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        #expect(problems(yaml).map(\.message) == ["title: expected text, found a list"])
    }

    @Test func sizeLimit() {
        let base = "pattern: box\ncycles: 2\n#"
        let exact = base + String(repeating: "x", count: (1 << 20) - base.utf8.count)
        #expect(exact.utf8.count == 1 << 20)
        #expect(problems(exact).isEmpty)
        let over = exact + "x"
        #expect(
            problems(over).map(\.description) == ["recipes/test.yml:1:1: error: the recipe is 1048577 bytes; expected at most 1 MiB (1048576 bytes)"])
    }

    @Test func diagnosticsAreCapped() {
        let keys = (0..<4000).map { "k\($0): 1\n" }.joined()
        let (elapsed, found) = timed { problems("pattern: box\ncycles: 2\n" + keys) }
        #expect(elapsed < .seconds(2))
        #expect(found.count == RecipeLimits.maxDiagnostics + 1)
        #expect(found.last?.message == "too many problems; stopped after 100")
    }

    /// `RecipeLimits.maxPromptEntries`: 1,000 prompts are read; one more is refused at the list, with its count.
    @Test func promptEntriesAreCapped() {
        let head = "pattern: box\ncycles: 2\nvoice:\n  prompts:\n"
        let prompt = "    - { at: 1s, text: Hi }\n"
        #expect(RecipeLimits.maxPromptEntries == 1000)
        let atLimit = head + String(repeating: prompt, count: RecipeLimits.maxPromptEntries)
        #expect(problems(atLimit).isEmpty)
        #expect((try? RecipeLoader.parse(Array(atLimit.utf8), file: testFile, defaultID: "test"))?.voice?.prompts.count == 1000)

        let over = head + String(repeating: prompt, count: RecipeLimits.maxPromptEntries + 1)
        let (elapsed, found) = timed { problems(over) }
        #expect(elapsed < .seconds(1))
        #expect(
            found.map(\.description) == ["recipes/test.yml:5:5: error: voice.prompts: expected at most 1000 prompts, found a list (1001 prompts)"])
    }

    /// `RecipeLimits.maxPromptTextBytes`: a prompt's text counts its UTF-8 bytes; 1,024 are read, 1,025 refused at the text.
    @Test func promptTextIsCapped() {
        let head = "pattern: box\ncycles: 2\nvoice:\n  prompts:\n    - at: 3s\n      text: "
        #expect(RecipeLimits.maxPromptTextBytes == 1024)
        let ascii = String(repeating: "a", count: RecipeLimits.maxPromptTextBytes)
        let twoByte = String(repeating: "é", count: RecipeLimits.maxPromptTextBytes / 2)
        #expect(twoByte.utf8.count == 1024)
        for text in [ascii, twoByte] {
            #expect(problems(head + text + "\n").isEmpty, "\(text.utf8.count) bytes")
            let read = try? RecipeLoader.parse(Array((head + text + "\n").utf8), file: testFile, defaultID: "test")
            #expect(read?.voice?.prompts.first?.text == text)
        }

        let overASCII = problems(head + ascii + "b\n")
        #expect(
            overASCII.map(\.description) == [
                "recipes/test.yml:6:13: error: voice.prompts.0.text: expected a text of at most 1024 bytes, found '"
                    + String(repeating: "a", count: 60) + "…' (1025 bytes)"
            ])
        // 513 two-byte characters: 1,026 bytes, though only 513 characters
        let overTwoByte = problems(head + twoByte + "é\n")
        #expect(
            overTwoByte.map(\.description) == [
                "recipes/test.yml:6:13: error: voice.prompts.0.text: expected a text of at most 1024 bytes, found '"
                    + String(repeating: "é", count: 60) + "…' (1026 bytes)"
            ])
    }

    @Test func manyAliasesToABigMappingStayCheap() {
        // A mapping of 1,000 unknown keys, reached through 100 aliases: reported once per key.
        let keys = (0..<1000).map { "k\($0): 1" }.joined(separator: ", ")
        let yaml =
            "pattern: box\ncycles: 2\nx: &m { \(keys) }\ncues:\n" + (0..<99).map { _ in "" }.joined()
            + "  inhale: { tone: 440, length: *m }\n"
        let (elapsed, found) = timed { problems(yaml) }
        #expect(elapsed < .seconds(1))
        #expect(!found.isEmpty)
    }
}

@Suite struct MessageFormatTests {
    @Test func severalErrorsAtOnce() {
        let yaml = """
            id: a/b
            pattern: boxx
            durration: 5m
            bed: { file: ../x.wav, gain: 40 dB }
            output: { bit_depth: 32 }
            cues: { inhale: { tone: 30 kHz } }

            """
        let found = problems(yaml).map(\.description)
        // `durration` is taken for `duration`: no second, spurious "found neither" at 1:1 (issue 15)
        #expect(
            found == [
                "recipes/test.yml:1:5: error: id: expected letters, digits, '.', '_' or '-', starting with a letter or digit, at most 100 characters, found 'a/b'",
                "recipes/test.yml:2:10: error: unknown pattern 'boxx' (known: box, 4-7-8, coherent, relax, pomodoro); did you mean 'box'?",
                "recipes/test.yml:3:1: error: unknown key 'durration' (did you mean 'duration'?)",
                "recipes/test.yml:4:14: error: bed.file: path '../x.wav' leaves the assets folder ('..'); expected a path relative to the assets folder",
                "recipes/test.yml:4:30: error: bed.gain: expected a gain from -120 dB to +24 dB like -14 dB, found '40 dB' (outside -120 … +24 dB)",
                "recipes/test.yml:5:22: error: output.bit_depth: expected one of 16, 24, 32f, found '32' (32-bit output is float: did you mean '32f'?)",
                "recipes/test.yml:6:25: error: cues.inhale.tone: 30 kHz is above the Nyquist frequency (24 kHz at 48000 Hz); expected a lower frequency",
            ])
    }

    @Test func lengthChecksRunBesideOtherProblems() {
        let found = problems("pattern: pomodoro\ncycles: 12\ntitle: [x]\n").map(\.description)
        #expect(
            found == [
                "recipes/test.yml:2:9: error: cycles: expected a number of cycles that keeps the track within 24 h, found '12' (intro + 12 × 7800s + outro is 26 h)",
                "recipes/test.yml:3:8: error: title: expected text, found a list",
            ])
    }

    @Test func yamlErrorFormat() {
        let found = problems("pattern: box\ncycles: 2\nbed: file: x\n").map(\.description)
        #expect(found == ["recipes/test.yml:3:10: error: YAML syntax: mapping values are not allowed in this context"])
    }

    @Test func nonUTF8Format() {
        let found = problems(Array("title: ".utf8) + [0xFF, 0x41]).map(\.description)
        #expect(found == ["recipes/test.yml:1:8: error: not valid UTF-8 YAML text: invalid leading UTF-8 octet (0xFF at byte 7)"])
    }

    @Test func duplicateAndUnknownPointAtTheKey() {
        let found = problems("pattern: box\ncycles: 2\nbed:\n  synth: drone\n  synth: pink-noise\n  volume: 3\n").map(\.description)
        #expect(
            found == [
                "recipes/test.yml:5:3: error: duplicate key 'synth' in 'bed' (first at line 4)",
                "recipes/test.yml:6:3: error: unknown key 'volume' in 'bed' (allowed: file, synth, gain, fade_in, fade_out, crossfade)",
            ])
    }

    @Test func cueAgainstInlinePattern() {
        let found = problems("cycles: 1\npattern:\n  name: Sigh\n  phases: [ inhale: 2s, exhale: 6s ]\ncues: { exhail: bell }\n")
        #expect(found.map(\.message) == ["cue 'exhail' matches no phase of pattern 'Sigh' (did you mean 'exhale'?)"])
    }

    @Test func longAuthorTextIsClipped() {
        let found = problems(
            "pattern: box\ncycles: 2\ntitle: [x]\ncategory: \"" + String(repeating: "é", count: 120) + "\\n\"\npremium: \"a\\u0001b\"\n")
        #expect(
            found.map(\.message) == [
                "title: expected text, found a list",
                "premium: expected true or false, found 'a\\u{1}b'",
            ])
        let long = problems("pattern: box\ncycles: 2\nend_on: " + String(repeating: "z", count: 100) + "\n")
        #expect(long.first?.message == "end_on: expected one of cycle, phase, found '" + String(repeating: "z", count: 60) + "…'")
    }
}

@Suite struct EncodingTests {
    @Test func offsetsCountTheByteOrderMark() {
        let found = problems([0xEF, 0xBB, 0xBF] + Array("title: ".utf8) + [0xC3, 0x28])
        #expect(
            found.map(\.description) == ["recipes/test.yml:1:9: error: not valid UTF-8 YAML text: invalid trailing UTF-8 octet (0x28 at byte 11)"])
    }

    @Test func utf16IsRejected() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("pattern: box\n".utf8).flatMap { [$0, 0] }
        #expect(problems(utf16).first?.message.hasPrefix("not valid UTF-8 YAML text") == true)
    }
}
