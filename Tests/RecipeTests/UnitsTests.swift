import AudioCore
import Testing

@testable import Recipe

@Suite struct DurationTests {
    static let good: [(String, Int64)] = [
        ("90", 90_000_000_000),
        ("90s", 90_000_000_000),
        ("90 s", 90_000_000_000),
        ("800ms", 800_000_000),
        ("800 ms", 800_000_000),
        ("5m", 300_000_000_000),
        ("5m30s", 330_000_000_000),
        ("5m 30s", 330_000_000_000),
        ("1h", 3_600_000_000_000),
        ("1h2m3.5s", 3_723_500_000_000),
        ("1h 2m 3.5s", 3_723_500_000_000),
        ("2s500ms", 2_500_000_000),
        ("1.5m", 90_000_000_000),
        ("0.5h", 1_800_000_000_000),
        ("1.25ms", 1_250_000),
        ("05:00", 300_000_000_000),
        ("1:02.5", 62_500_000_000),
        ("1:02:03.5", 3_723_500_000_000),
        ("90:00", 5_400_000_000_000),
        ("0:00:00.000000001", 1),
        ("5.5", 5_500_000_000),
        ("0.000000001", 1),
        ("0.123456789s", 123_456_789),
        ("0.000001ms", 1),
        ("  12s  ", 12_000_000_000),
        ("5M30S", 330_000_000_000),
        ("0", 0),
        ("0s", 0),
        ("24h", 86_400_000_000_000),
        ("23:59:59.999999999", 86_399_999_999_999),
        (".5s", 500_000_000),
    ]

    @Test(arguments: good)
    func parsesExactly(text: String, nanoseconds: Int64) throws {
        let value = try Units.duration(text).get()
        #expect(value.nanoseconds == nanoseconds)
    }

    static let bad: [(String, String)] = [
        ("", "empty"),
        ("   ", "empty"),
        ("-5s", "negative"),
        ("-0:30", "negative"),
        ("nan", "not a number"),
        ("NaN", "not a number"),
        (".nan", "not a number"),
        ("inf", "infinite"),
        (".inf", "infinite"),
        ("5x", "unknown unit 'x'"),
        ("5 min", "unknown unit 'min'"),
        ("30s5m", "order"),
        ("5m5m", "order"),
        ("5m30", "needs a unit"),
        ("s", "expected a number"),
        ("5m s", "expected a number"),
        ("+5s", "expected a number"),
        ("1.0000000001s", "more than 9 decimals"),
        ("0.0000001ms", "more than 6 decimals"),
        ("0.0000000001", "more than 9 decimals"),
        ("1:60", "below 60"),
        ("1:00:60", "below 60"),
        ("1:75:00", "below 60"),
        ("1.5:00", "last field"),
        ("1:2:3:4", "m:ss"),
        ("1:", "digits only"),
        (":30", "digits only"),
        ("1: 30", "digits only"),
        ("24h1ns", "unknown unit"),
        ("24h0.000000001s", "over 24 h"),
        ("25h", "over 24 h"),
        ("1441m", "over 24 h"),
        ("24:00:01", "over 24 h"),
        ("86401", "over 24 h"),
        ("99999999999999999999999h", "over 24 h"),
        ("5s 5", "needs a unit"),
        (String(repeating: "1", count: 65), "too long"),
        ("1e3s", "unknown unit 'e'"),
    ]

    @Test(arguments: bad)
    func rejects(text: String, reason: String) {
        switch Units.duration(text) {
        case .success(let value): Issue.record("'\(text)' parsed as \(value)")
        case .failure(let error): #expect(error.reason.contains(reason), "'\(text)': \(error.reason)")
        }
    }
}

@Suite struct LevelTests {
    static let gains: [(String, Double)] = [
        ("-14 dB", -14), ("-14dB", -14), ("0 dB", 0), ("-14", -14), ("+6 dB", 6), ("-3.5 db", -3.5),
        ("24 DB", 24), ("-120dB", -120), ("-0", 0),
    ]

    @Test(arguments: gains)
    func gain(text: String, value: Double) throws {
        #expect(try Units.gain(text).get() == value)
    }

    static let badGains: [(String, String)] = [
        ("-121 dB", "outside"), ("25 dB", "outside"), ("-14 dBA", "unknown unit 'dba'"), ("loud", "expected a number"),
        ("", "empty"), ("nan dB", "not a number"), ("-inf dB", "infinite"), ("- 14 dB", "expected a number"),
    ]

    @Test(arguments: badGains)
    func badGain(text: String, reason: String) {
        guard case .failure(let error) = Units.gain(text) else {
            Issue.record("'\(text)' accepted")
            return
        }
        #expect(error.reason.contains(reason), "'\(text)': \(error.reason)")
    }

    static let frequencies: [(String, Double)] = [
        ("528 Hz", 528), ("528Hz", 528), ("528", 528), ("1.2 kHz", 1200), ("1.2kHz", 1200), ("2 KHZ", 2000),
        ("110 hz", 110), ("0.5 Hz", 0.5), ("22.05 kHz", 22050),
    ]

    @Test(arguments: frequencies)
    func frequency(text: String, value: Double) throws {
        #expect(try Units.frequency(text).get() == value)
    }

    static let badFrequencies: [(String, String)] = [
        ("0 Hz", "above 0"), ("-5 Hz", "above 0"), ("528 MHz", "unknown unit"), ("A4", "expected a number"),
        ("inf Hz", "infinite"), (String(repeating: "9", count: 400) + " Hz", "too long"),
    ]

    @Test(arguments: badFrequencies)
    func badFrequency(text: String, reason: String) {
        guard case .failure(let error) = Units.frequency(text) else {
            Issue.record("'\(text)' accepted")
            return
        }
        #expect(error.reason.contains(reason), "'\(text)': \(error.reason)")
    }

    static let loudnessCases: [(String, Double?)] = [
        ("-16 LUFS", -16), ("-16LUFS", -16), ("-23", -23), ("-14 lufs", -14), ("-70 LUFS", -70), ("-5 LUFS", -5),
        ("off", nil), ("OFF", nil), ("-18 LKFS", -18),
    ]

    @Test(arguments: loudnessCases)
    func loudness(text: String, value: Double?) throws {
        #expect(try Units.loudness(text).get() == value)
    }

    @Test(arguments: ["-4 LUFS", "-71 LUFS", "0", "-16 dB", "on", ""])
    func badLoudness(text: String) {
        #expect(throws: UnitError.self) { try Units.loudness(text).get() }
    }

    static let peaks: [(String, Double)] = [
        ("-1 dBTP", -1), ("-1dbtp", -1), ("-0.5", -0.5), ("0 dBTP", 0), ("-20 dBTP", -20), ("-1 DBTP", -1),
        // dB and dBFS read as dBTP, with a warning (UnitRuleTests)
        ("-1 dB", -1), ("-1.5 dBFS", -1.5), ("-2 db", -2),
    ]

    @Test(arguments: peaks)
    func truePeak(text: String, value: Double) throws {
        #expect(try Units.truePeak(text).get() == value)
    }

    @Test(arguments: ["1 dBTP", "-21 dBTP", "-1 LUFS", "peak", "-1 dBTPx"])
    func badTruePeak(text: String) {
        #expect(throws: UnitError.self) { try Units.truePeak(text).get() }
    }
}

@Suite struct SuggestionTests {
    static let cases: [(String, [String], String?)] = [
        ("durration", RecipeDecoder.topKeys, "duration"),
        ("boxx", BuiltinPatterns.names, "box"),
        ("inhle", ["inhale", "hold", "exhale", "start", "end"], "inhale"),
        ("Box", BuiltinPatterns.names, "box"),
        ("pomodro", BuiltinPatterns.names, "pomodoro"),
        ("smaple_rate", DecodeContext.outputKeys, "sample_rate"),
        ("xy", ["id"], nil),
        ("sleep", BuiltinPatterns.names, nil),
        ("completely_unrelated", RecipeDecoder.topKeys, nil),
        (String(repeating: "a", count: 1000), ["a"], nil),
    ]

    @Test(arguments: cases)
    func closest(word: String, candidates: [String], expected: String?) {
        #expect(Suggestions.closest(to: word, in: candidates) == expected)
    }
}

@Suite struct BitrateTests {
    static let good: [(String, Int)] = [
        ("128k", 128_000), ("128K", 128_000), ("96 kbps", 96_000), ("96kbps", 96_000), ("128 kb/s", 128_000),
        ("64 kbit/s", 64_000), ("128000 bps", 128_000), ("32k", 32_000), ("320k", 320_000), ("96.5k", 96_500),
        ("112.000k", 112_000), ("0128k", 128_000), (" 160k\t", 160_000), ("32000 b/s", 32_000), ("32.001k", 32_001),
    ]

    @Test(arguments: good)
    func reads(_ text: String, _ bits: Int) throws {
        #expect(try Units.bitrate(text).get() == bits)
    }

    static let bad: [(String, String)] = [
        ("128", "did you mean '128k'?"), ("31.999k", "outside 32k … 320k"), ("321k", "outside 32k … 320k"),
        ("320001 bps", "outside 32k … 320k"), ("-128k", "negative"), ("96.0005k", "not a whole number of bits per second"),
        ("128 kpbs", "did you mean '128kbps'?"), ("128 MB", "unknown unit 'mb'"), ("", "empty"), ("k", "expected a number"),
        ("99999999999999999999999k", "outside 32k … 320k"), ("nan k", "not a number"),
    ]

    @Test(arguments: bad)
    func refuses(_ text: String, _ reason: String) {
        switch Units.bitrate(text) {
        case .success(let bits): Issue.record("accepted \(text.debugDescription) as \(bits)")
        case .failure(let error): #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    /// What each lossy format takes at a rate and channel count (recipe-v1.1 § Output, and the codecs' own limits).
    @Test func formatLimits() {
        #expect(RecipeLimits.bitrateProblem(320_000, format: .m4a, sampleRate: 48000, channels: 2) == nil)
        #expect(RecipeLimits.bitrateProblem(288_000, format: .m4a, sampleRate: 48000, channels: 1) == nil)
        #expect(RecipeLimits.bitrateProblem(289_000, format: .m4a, sampleRate: 48000, channels: 1)?.contains("takes 32k to 288k") == true)
        #expect(RecipeLimits.bitrateProblem(64_000, format: .m4a, sampleRate: 8000, channels: 1)?.contains("takes 32k to 48k") == true)
        #expect(RecipeLimits.bitrateProblem(256_000, format: .opus, sampleRate: 48000, channels: 1) == nil)
        #expect(RecipeLimits.bitrateProblem(257_000, format: .opus, sampleRate: 48000, channels: 1)?.contains("6k to 256k per channel") == true)
        #expect(RecipeLimits.bitrateProblem(40_000, format: .opus, sampleRate: 48000, channels: 8)?.contains("takes 48k to 320k") == true)
        #expect(RecipeLimits.bitrateProblem(160_000, format: .mp3, sampleRate: 22050, channels: 2) == nil)
        #expect(RecipeLimits.bitrateProblem(192_000, format: .mp3, sampleRate: 22050, channels: 2)?.contains("up to 160k") == true)
        #expect(RecipeLimits.bitrateProblem(96_000, format: .mp3, sampleRate: 11025, channels: 2)?.contains("up to 64k") == true)
        for lossless in [AudioFormat.wav, .flac, .caf, .alac] {
            #expect(RecipeLimits.bitrateProblem(128_000, format: lossless, sampleRate: 48000, channels: 2)?.contains("lossless") == true)
        }
    }

    /// The spec's defaults, and the most a format takes where the default is more.
    @Test func defaults() {
        #expect(RecipeLimits.defaultBitrate(format: .m4a, sampleRate: 48000, channels: 2) == 128_000)
        #expect(RecipeLimits.defaultBitrate(format: .opus, sampleRate: 48000, channels: 2) == 96_000)
        #expect(RecipeLimits.defaultBitrate(format: .mp3, sampleRate: 44100, channels: 2) == 192_000)
        #expect(RecipeLimits.defaultBitrate(format: .mp3, sampleRate: 22050, channels: 2) == 160_000)
        #expect(RecipeLimits.defaultBitrate(format: .m4a, sampleRate: 8000, channels: 1) == 48_000)
        #expect(RecipeLimits.defaultBitrate(format: .ogg, sampleRate: 48000, channels: 2) == nil)
        #expect(RecipeLimits.defaultBitrate(format: .flac, sampleRate: 48000, channels: 2) == nil)
    }
}

/// The one rule for units (issue 15): a unit is ASCII and read in any case (`Hz`, `hz`, `KHZ`,
/// `dB`, `DB`, `LUFS`, `lufs`), with or without a space before it; a sample rate takes `Hz` or
/// `kHz` or none; a true peak in `dB` or `dBFS` is read as dBTP with a warning. A letter that
/// only looks like one (U+212A KELVIN SIGN for K) is not a unit.
@Suite struct UnitRuleTests {
    static let sampleRates: [(String, Int)] = [
        ("48000", 48000), ("48000 Hz", 48000), ("48000hz", 48000), ("44100Hz", 44100), ("44.1 kHz", 44100), ("44.1kHz", 44100),
        ("44.1 KHZ", 44100), ("96 khz", 96000), ("8 kHz", 8000), ("384 kHz", 384_000), ("22.05 kHz", 22050), (" 48 kHz ", 48000),
    ]

    @Test("a sample rate reads with Hz, kHz or no unit, in any case", arguments: sampleRates)
    func sampleRate(text: String, rate: Int) throws {
        #expect(try Units.sampleRate(text).get() == rate)
    }

    static let badSampleRates: [(String, String)] = [
        ("44.1", "a rate in Hz is a whole number"), ("48000.0", "write 48000, or use kHz"), ("48000.0 Hz", "whole number"),
        ("44.1005 kHz", "not a whole number of Hz"), ("7999", "out of range"),
        ("385 kHz", "out of range"), ("48 MHz", "unknown unit 'MHz' (use Hz or kHz)"), ("-48000", "expected a number of Hz"),
        ("48 k", "unknown unit 'k'"), ("", "empty"), ("1.2 \u{212A}Hz", "unknown unit"),
    ]

    @Test("a sample rate that is not a whole number of Hz in range is refused with a reason", arguments: badSampleRates)
    func badSampleRate(text: String, reason: String) {
        #expect(throws: UnitError.self) { try Units.sampleRate(text).get() }
        if case .failure(let error) = Units.sampleRate(text) { #expect(error.reason.contains(reason), "'\(text)': \(error.reason)") }
    }

    /// Every unit reader, each with its units written three ways: as documented, lower and upper case.
    static let anyCase: [(name: String, read: @Sendable (String) -> Double?, text: String)] = [
        ("frequency", { try? Units.frequency($0).get() }, "1.2 kHz"),
        ("gain", { try? Units.gain($0).get() }, "-14 dB"),
        ("loudness", { (try? Units.loudness($0).get()) ?? nil }, "-16 LUFS"),
        ("true peak", { try? Units.truePeak($0).get() }, "-1 dBTP"),
        ("sample rate", { (try? Units.sampleRate($0).get()).map(Double.init) }, "44.1 kHz"),
        ("bit rate", { (try? Units.bitrate($0).get()).map(Double.init) }, "128 kbps"),
        ("duration", { (try? Units.duration($0).get()).map { Double($0.nanoseconds) } }, "1m 30s"),
        ("voice level", { (try? Units.voiceLevel($0).get()) ?? nil }, "-18 LUFS"),
    ]

    @Test("every unit reads the same in any case", arguments: anyCase.indices)
    func caseDoesNotMatter(_ i: Int) throws {
        let (name, read, text) = Self.anyCase[i]
        let value = try #require(read(text), "\(name): \(text)")
        #expect(read(text.lowercased()) == value, "\(name): \(text.lowercased())")
        #expect(read(text.uppercased()) == value, "\(name): \(text.uppercased())")
        #expect(read(text.replacingOccurrences(of: " ", with: "")) == value, "\(name): without the space")
    }

    @Test("a Kelvin sign is not a k: '1.2 \u{212A}Hz' is no kHz, and the error names the character", arguments: ["1.2 \u{212A}Hz", "1.2\u{212A}HZ"])
    func kelvinSignIsNoUnit(text: String) {
        for read in [{ try Units.frequency($0).get() }, { Double(try Units.sampleRate($0).get()) }] as [(String) throws -> Double] {
            #expect(throws: UnitError.self) { try read(text) }
            #expect(reason { _ = try read(text) }?.contains("its '\u{212A}' is U+212A KELVIN SIGN, not ASCII)") == true, "\(text)")
        }
    }

    /// Characters pasted from a document that look like a unit's letters or space, and the note each unit reader gives.
    static let lookalikes: [(text: String, read: @Sendable (String) throws -> Void, note: String)] = [
        ("528\u{00A0}Hz", { _ = try Units.frequency($0).get() }, "(use Hz or kHz; it holds U+00A0 NO-BREAK SPACE, not ASCII)"),
        ("-14 d\u{0392}", { _ = try Units.gain($0).get() }, "(use dB; its '\u{0392}' is U+0392 GREEK CAPITAL LETTER BETA, not ASCII)"),
        ("128 \u{1D0B}bps", { _ = try Units.bitrate($0).get() }, "its '\u{1D0B}' is U+1D0B LATIN LETTER SMALL CAPITAL K, not ASCII)"),
        ("6 bp\u{043C}", { _ = try Units.breathRate($0).get() }, "its '\u{043C}' is U+043C CYRILLIC SMALL LETTER EM, not ASCII)"),
        ("48 \u{212A}Hz", { _ = try Units.sampleRate($0).get() }, "(use Hz or kHz; its '\u{212A}' is U+212A KELVIN SIGN, not ASCII)"),
        ("5\u{00A0}m", { _ = try Units.duration($0).get() }, "'5' needs a unit (h, m, s or ms; it holds U+00A0 NO-BREAK SPACE, not ASCII)"),
        ("4 \u{0455}", { _ = try Units.duration($0).get() }, "(h, m, s or ms; its '\u{0455}' is U+0455 CYRILLIC SMALL LETTER DZE, not ASCII)"),
    ]

    @Test("a unit with a character that only looks like ASCII is refused, naming the code point", arguments: lookalikes.indices)
    func lookalikeNamed(_ i: Int) {
        let c = Self.lookalikes[i]
        let why = reason { try c.read(c.text) }
        #expect(why?.contains(c.note) == true, "'\(c.text)': \(why ?? "read")")
    }

    @Test("an ASCII unit that is unknown carries no such note", arguments: ["528 hertz", "-14 dBA", "128 MB", "6 bpn"])
    func noLookalikeNote(text: String) {
        let why = [
            reason { _ = try Units.frequency(text).get() }, reason { _ = try Units.gain(text).get() },
            reason { _ = try Units.bitrate(text).get() }, reason { _ = try Units.breathRate(text).get() },
        ]
        #expect(why.allSatisfy { $0 != nil && !$0!.contains("not ASCII") }, "\(why)")
    }

    /// The reason of the UnitError `body` throws; nil when it throws none.
    private func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as UnitError { return error.reason } catch { return "\(error)" }
    }

    @Test("a true peak in dB or dBFS carries a note that it is read as dBTP; dBTP and a bare number do not")
    func truePeakNote() {
        #expect(Units.truePeakUnitNote("-1 dB")?.contains("'dB' read as dBTP") == true)
        #expect(Units.truePeakUnitNote("-1 dBFS")?.contains("'dBFS' read as dBTP") == true)
        #expect(Units.truePeakUnitNote("-1 dBTP") == nil)
        #expect(Units.truePeakUnitNote("-1") == nil)
    }
}
