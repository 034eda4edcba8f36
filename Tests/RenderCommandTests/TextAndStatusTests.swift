import AudioCore
import Recipe
import Testing

@testable import RenderCommand

/// The command line's pure helpers, in process: the clocks `render` and `render --plan` print,
/// how a cue's sound is named in a plan, and how a library's message is printed.
@Suite struct ClockTextTests {
    @Test(
        "milliseconds as m:ss.fff under an hour and h:mm:ss.fff from one hour",
        arguments: [
            (Int64(0), "0:00.000"), (999, "0:00.999"), (1000, "0:01.000"), (61_001, "1:01.001"), (282_000, "4:42.000"),
            (3_599_999, "59:59.999"), (3_600_000, "1:00:00.000"), (3_723_250, "1:02:03.250"), (360_000_000, "100:00:00.000"),
        ])
    func milliseconds(_ ms: Int64, _ text: String) {
        #expect(RenderCommand.clock(milliseconds: ms) == text)
    }

    @Test(
        "seconds round to the nearest millisecond",
        arguments: [(0.0004, "0:00.000"), (0.0006, "0:00.001"), (59.9996, "1:00.000"), (3599.9996, "1:00:00.000")])
    func seconds(_ seconds: Double, _ text: String) {
        #expect(RenderCommand.clock(seconds) == text)
    }

    @Test(
        "an exact time is printed to the millisecond, halves up",
        arguments: [
            (Int64(1_499_999), "0:00.001"), (1_500_000, "0:00.002"), (2_500_000, "0:00.003"), (2_499_999, "0:00.002"),
            (3_600_000_000_000, "1:00:00.000"), (3_599_999_500_000, "1:00:00.000"),
        ])
    func exactTime(_ nanoseconds: Int64, _ text: String) {
        #expect(TrackPlanText.clock(ExactSeconds(nanoseconds: nanoseconds)) == text)
    }

    static let frameTimes: [(frame: Int64, rate: Int, text: String)] = [
        (23, 48_000, "0:00.000"), (24, 48_000, "0:00.001"), (25, 48_000, "0:00.001"), (72, 48_000, "0:00.002"),
        (22, 44_100, "0:00.000"), (23, 44_100, "0:00.001"), (48_000 * 3600, 48_000, "1:00:00.000"),
        (384_000 * 86_400 - 1, 384_000, "24:00:00.000"), (1 << 53, 48_000, "52124995:41:13.771"),
    ]

    @Test(
        "a frame's time is frame / rate to the millisecond, halves up, past 2^53 frames, where frame × 2000 overflows Int64",
        arguments: frameTimes)
    func frameTime(_ frame: Int64, _ rate: Int, _ text: String) {
        #expect(TrackPlanText.frameClock(frame, rate) == text)
    }
}

@Suite struct PlanSoundTests {
    static let ms800 = ExactSeconds(nanoseconds: 800_000_000)

    @Test(
        "a plan names a preset tone by its name, another tone by its numbers, a file by its path and gain",
        arguments: [
            (CueSound.tone(CuePresets.bell), "bell"),
            (.tone(CuePresets.click), "click"),
            (.tone(Tone(frequency: 528, length: ms800, gainDB: -18, envelope: .bell)), "tone 528 Hz, 800ms, -18 dB"),
            (.file("cues/gong.wav", gainDB: 0), "file cues/gong.wav"),
            (.file("cues/gong.wav", gainDB: -3.5), "file cues/gong.wav, -3.5 dB"),
        ])
    func sound(_ sound: CueSound, _ text: String) {
        #expect(TrackPlanText.sound(sound) == text)
    }
}

/// The libraries name settings in words; the command line prints its flags there, so that what a
/// user reads is what it was before the libraries stopped naming flags.
@Suite struct CommandTextTests {
    @Test(
        "each setting a library names is printed as the flag that gives it",
        arguments: [
            (SettingWords.assetsFolder, "", ": 'x' is not a folder", "error: --assets: 'x' is not a folder"),
            (
                .setAssetsFolder, "bed.file: no assets folder found above the recipe (", ")",
                "error: bed.file: no assets folder found above the recipe (use --assets DIR)"
            ),
            (.outputPath, "", " 'a.mp4': render cannot write a .mp4 file", "error: -o 'a.mp4': render cannot write a .mp4 file"),
            (
                .outputPath, "output.format is 'flac' but ", " names a .wav file; make them agree",
                "error: output.format is 'flac' but -o names a .wav file; make them agree"
            ),
            (
                .refusingDrafts, "voice.prompts.0: a draft prompt ('Hi', spoken by the draft voice); ", " refuses it",
                "error: voice.prompts.0: a draft prompt ('Hi', spoken by the draft voice); --no-drafts refuses it"
            ),
            (
                .draftsCanBeRefused, "voice.prompts.0: a draft: record it (", ")",
                "error: voice.prompts.0: a draft: record it (render --no-drafts refuses drafts)"
            ),
        ])
    func flags(_ words: SettingWords, _ before: String, _ after: String, _ printed: String) {
        let diagnostic = Diagnostic(before, words, after, file: nil, kind: .data)
        #expect(CommandText.text(diagnostic) == printed)
        // the library's own text names the setting, never a flag
        #expect(!diagnostic.description.contains("--") && !diagnostic.description.contains("-o "))
    }

    @Test("a recipe's text that holds a setting's words is printed as written; only the setting's own words become the flag")
    func quotedWordsStay() {
        let diagnostic = Diagnostic(
            "voice.prompts.0: a draft prompt ('a render refusing drafts', spoken by the draft voice); ", .refusingDrafts, " refuses it",
            file: nil, kind: .data)
        #expect(
            CommandText.text(diagnostic.asWarning())
                == "warning: voice.prompts.0: a draft prompt ('a render refusing drafts', spoken by the draft voice); --no-drafts refuses it")
        // a variant's name before the message, a note after it, do not move the mention
        var named = diagnostic
        named.message = "variant 'box-5m': " + named.message + "; variant 'box-10m' too"
        #expect(CommandText.text(named).hasSuffix("; --no-drafts refuses it; variant 'box-10m' too"))
    }

    @Test("every setting has a flag spelled differently from the library's words")
    func everySetting() {
        for words in SettingWords.allCases { #expect(CommandText.flag(words) != words.rawValue && CommandText.flag(words).contains("-")) }
    }
}
