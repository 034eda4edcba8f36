import AudioCore
import Testing

@testable import Recipe

/// `voice:` read from YAML (recipe-v1.1 § Voice prompts): values, defaults, and located errors.
@Suite struct VoiceDecoderTests {
    static func parse(_ voice: String) throws(DiagnosticList) -> Recipe {
        let text = "id: v\nduration: 2m\npattern: box\nvoice:\n" + voice
        return try RecipeLoader.parse(Array(text.utf8), file: "v.yml", defaultID: "v")
    }

    /// `at:` texts and what they mean, exactly.
    static let times: [(String, PromptTime.Anchor, Int64)] = [
        ("3s", .start, 3_000_000_000),
        ("1:30", .start, 90_000_000_000),
        ("practice - 2s", .practice, -2_000_000_000),
        ("practice-2s", .practice, -2_000_000_000),
        ("PRACTICE + 1.5s", .practice, 1_500_000_000),
        ("intro", .intro, 0),
        ("outro + 250ms", .outro, 250_000_000),
        ("segment 2 + 5s", .segment(2), 5_000_000_000),
        ("segment 1", .segment(1), 0),
        ("end - 20s", .end, -20_000_000_000),
        ("  end -  0.000000001s ", .end, -1),
    ]

    @Test("prompt times read as an anchor and an exact signed offset", arguments: times.indices)
    func promptTimes(_ i: Int) {
        let (text, anchor, nanoseconds) = Self.times[i]
        #expect(Units.promptTime(text) == .success(PromptTime(anchor: anchor, offset: ExactSeconds(nanoseconds: nanoseconds))), "\(text)")
    }

    /// Texts that are no prompt time, and words of the reason.
    static let badTimes: [(String, String)] = [
        ("practise - 2s", "did you mean 'practice'?"),
        ("start + 2s", "unknown anchor 'start'"),
        ("segment 0", "its number from 1"),
        ("segment", "its number from 1"),
        ("practice 2s", "expected '+' or '-'"),
        ("practice -", "expected a time after '-'"),
        ("practice - -2s", "one sign only"),
        ("-3s", "negative"),
        ("end - 25h", "over 24 h"),
    ]

    @Test("a bad prompt time gets a reason that says what to write", arguments: badTimes.indices)
    func badPromptTimes(_ i: Int) {
        let (text, words) = Self.badTimes[i]
        guard case .failure(let error) = Units.promptTime(text) else {
            Issue.record("\(text) was read")
            return
        }
        #expect(error.reason.contains(words), "\(text): \(error.reason)")
    }

    @Test("every voice key is read, and the defaults are the spec's example values")
    func keysAndDefaults() throws {
        let r = try Self.parse(
            """
              level: -20 LUFS
              gain: -3 dB
              duck: wcag
              attack: 250ms
              release: 1s
              draft_voice: en-GB
              prompts:
                - { at: practice - 2s, file: voice/begin.wav, text: "Let's begin." }
                - { on: exhale, cycles: [1, 3-4], segment: 1, text: Breathe out }
            """)
        let voice = try #require(r.voice)
        #expect(voice.level == -20 && voice.gainDB == -3 && voice.duck == .wcag)
        #expect(voice.attack == ExactSeconds(nanoseconds: 250_000_000) && voice.release == ExactSeconds(seconds: 1))
        #expect(voice.draftVoice == "en-gb")
        #expect(
            voice.prompts[0]
                == Prompt(
                    placement: .at(PromptTime(anchor: .practice, offset: ExactSeconds(seconds: -2))), file: "voice/begin.wav", text: "Let's begin."))
        #expect(voice.prompts[1].placement == .on(kind: "exhale", cycles: CycleSelection(ranges: [1...1, 3...4]), segment: 1))
        #expect(voice.prompts[1].isDraft)

        let plain = try #require(try Self.parse("  prompts:\n    - { at: 1s, file: a.wav }\n").voice)
        #expect(plain.level == -18 && plain.gainDB == 0 && plain.duck == .depth(12))
        #expect(plain.attack == ExactSeconds(nanoseconds: 300_000_000) && plain.release == ExactSeconds(nanoseconds: 700_000_000))
        #expect(plain.draftVoice == "en-us")
        #expect(try Self.parse("  level: off\n  prompts:\n    - { at: 1s, file: a.wav }\n").voice?.level == nil)
    }

    /// A voice mapping, the line:column of the error, and words of it.
    static let refused: [(String, String, [String])] = [
        ("  prompts:\n    - { at: 1s, on: inhale, file: a.wav }\n", "6:17", ["voice.prompts.0", "or 'on:' (a phase kind), found both"]),
        ("  prompts:\n    - { at: 1s }\n", "6:7", ["voice.prompts.0", "'file:'", "'text:'", "found neither"]),
        ("  prompts:\n    - { file: a.wav }\n", "6:7", ["'at:' (a time) or 'on:' (a phase kind), found neither"]),
        ("  prompts:\n    - { on: exhail, file: a.wav }\n", "6:13", ["voice.prompts.0.on", "did you mean 'exhale'?"]),
        ("  prompts:\n    - { on: inhale, cycles: 3-1, file: a.wav }\n", "6:29", ["voice.prompts.0.cycles", "a range like 1-3"]),
        ("  prompts:\n    - { at: 2s, cycles: 2, file: a.wav }\n", "6:17", ["voice.prompts.0.cycles", "'on:' prompts only"]),
        ("  prompts:\n    - { at: practise - 2s, file: a.wav }\n", "6:13", ["voice.prompts.0.at", "did you mean 'practice'?"]),
        ("  level: -50 LUFS\n  prompts:\n    - { at: 1s, file: a.wav }\n", "5:10", ["voice.level", "outside -40 … -10 LUFS"]),
        ("  duck: 45 dB\n  prompts:\n    - { at: 1s, file: a.wav }\n", "5:9", ["voice.duck", "outside 0 … 40 dB"]),
        ("  attack: 6s\n  prompts:\n    - { at: 1s, file: a.wav }\n", "5:11", ["voice.attack", "longer than 5s"]),
        ("  prompts:\n    - { at: 1s, text: \"one\\ttwo\" }\n", "6:23", ["voice.prompts.0.text", "U+0009"]),
        ("  prompts: []\n", "5:12", ["voice.prompts", "a list of prompts"]),
        ("  promts:\n    - { at: 1s, file: a.wav }\n", "5:3", ["unknown key 'promts'", "did you mean 'prompts'?"]),
        ("  prompts:\n    - { at: 1s, file: ../x.wav }\n", "6:23", ["voice.prompts.0.file", "leaves the assets folder"]),
        ("  draft_voice: en us\n  prompts:\n    - { at: 1s, text: hi }\n", "5:16", ["voice.draft_voice", "a language like en-us"]),
    ]

    @Test("a bad voice mapping is refused at the key with what was expected", arguments: refused.indices)
    func refusals(_ i: Int) {
        let (voice, at, words) = Self.refused[i]
        do {
            _ = try Self.parse(voice)
            Issue.record("read: \(voice)")
        } catch {
            let found = error.diagnostics.first { d in d.location.map { "\($0.line):\($0.column)" } == at }
            let all = error.diagnostics.map(\.description).joined(separator: "\n")
            #expect(found != nil, "no error at \(at): \(all)")
            if let found { for word in words { #expect(found.message.contains(word), "\(found.message) lacks \(word)") } }
        }
    }
}
