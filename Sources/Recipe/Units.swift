import AudioCore

/// Why a value could not be read, shown after the text that was found: `unknown unit 'x'`.
public struct UnitError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    /// A failure with a short reason: `negative`, `over 24 h`.
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Pure parsers for the recipe's value syntax (recipe-v1 "Values"); no YAML, no locations.
///
/// Each returns the value or a reason. Ranges are part of the syntax: a gain of
/// `+40 dB` is as wrong as `40 dBB`.
public enum Units {
    /// Gains are accepted from -120 dB to +24 dB.
    public static let gainRange: ClosedRange<Double> = -120...24
    /// Loudness targets are accepted from -70 LUFS to -5 LUFS.
    public static let loudnessRange: ClosedRange<Double> = -70 ... -5
    /// True-peak ceilings are accepted from -20 dBTP to 0 dBTP.
    public static let truePeakRange: ClosedRange<Double> = -20...0
    /// `voice.level` is accepted from -40 LUFS to -10 LUFS.
    public static let voiceLevelRange: ClosedRange<Double> = -40 ... -10
    /// `voice.duck` is accepted from 0 dB (no ducking) to 40 dB.
    public static let duckDepthRange: ClosedRange<Double> = 0...40

    /// Longer text is never a value.
    static let maxLength = 64

    // MARK: - Durations

    /// A length of time, exactly: `90`, `90s`, `800ms`, `5m30s`, `1h2m3.5s`, `5m 30s`, `05:00`, `1:02:03.5`.
    ///
    /// Bare numbers are seconds. Units come in the order h, m, s, ms, each at most
    /// once, with optional spaces. `a:b` is minutes:seconds, `a:b:c`
    /// hours:minutes:seconds; fields after the first are below 60; only the last
    /// field may have decimals. The value must be a whole number of nanoseconds
    /// (at most 9 decimals of a second), not negative and at most 24 h. Zero is
    /// accepted here; the recipe rejects it where a length is required.
    /// Whether `text` is a number with no unit (`4000`, `1.5`): a length read as seconds.
    public static func isBareNumber(_ text: String) -> Bool {
        let trimmed = text.filter { $0 != " " && $0 != "\t" }
        return !trimmed.isEmpty && trimmed.allSatisfy { "0123456789.+-".contains($0) }
    }

    public static func duration(_ text: String) -> Result<ExactSeconds, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        if bytes.first == UInt8(ascii: "-") { return .failure(UnitError("negative")) }
        let nanos: Result<Int128, UnitError> = bytes.contains(UInt8(ascii: ":")) ? clock(bytes) : unitSum(bytes)
        return nanos.flatMap { value in
            guard value <= Int128(RecipeLimits.maxDuration.nanoseconds) else { return .failure(UnitError("over 24 h")) }
            return .success(ExactSeconds(nanoseconds: Int64(value)))
        }
    }

    /// Nanoseconds per duration unit, in the order they must appear.
    private static let durationUnits: [(name: String, nanos: Int128, maxDecimals: Int)] = [
        ("h", 3_600_000_000_000, 18), ("m", 60_000_000_000, 18), ("s", 1_000_000_000, 9), ("ms", 1_000_000, 6),
    ]

    /// Units as people spell them out (`5 mins`, `4 sec`), for a "did you mean '5m'?" hint.
    private static let spelledOutUnits: [String: String] = [
        "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "sec": "s", "secs": "s", "second": "s", "seconds": "s",
        "msec": "ms", "msecs": "ms", "millisecond": "ms", "milliseconds": "ms",
    ]

    /// `5m30s`, `1h 2m 3.5s`, `90`: a sum of numbers with units.
    private static func unitSum(_ bytes: [UInt8]) -> Result<Int128, UnitError> {
        var index = 0
        var total: Int128 = 0
        var lastUnit = -1
        var components = 0
        while index < bytes.count {
            skipSpaces(bytes, &index)
            let numberStart = index
            guard let numeral = DecimalNumeral.scan(bytes, at: &index, allowSign: false) else {
                return .failure(UnitError("expected a number at '\(rest(bytes, from: index))'"))
            }
            let numberText = String(decoding: bytes[numberStart..<index], as: UTF8.self)
            skipSpaces(bytes, &index)
            let unitStart = index
            while index < bytes.count, isLetter(bytes[index]) { index += 1 }
            let unitName = lowerASCII(bytes[unitStart..<index])
            let unit: Int
            if unitName.isEmpty {
                guard components == 0, index == bytes.count else {
                    // (a no-break space or a lookalike letter where the unit starts is named)
                    let note = index < bytes.count && bytes[index] >= 0x80 ? lookalikeNote(rest(bytes, from: index)) : ""
                    return .failure(UnitError("'\(numberText)' needs a unit (h, m, s or ms\(note))"))
                }
                unit = 2  // a bare number is seconds
            } else if let found = durationUnits.firstIndex(where: { $0.name == unitName }) {
                unit = found
            } else {
                let hint = spelledOutUnits[unitName].map { "; did you mean '\(numberText)\($0)'?" } ?? ""
                return .failure(UnitError("unknown unit '\(DiagnosticText.clip(unitName))' (use h, m, s or ms\(hint))"))
            }
            guard unit > lastUnit else { return .failure(UnitError("units must come in the order h, m, s, ms, each once")) }
            lastUnit = unit
            components += 1
            switch nanos(
                numeral, durationUnits[unit].nanos, maxDecimals: durationUnits[unit].maxDecimals,
                unitName: durationUnits[unit].name)
            {
            case .success(let value): total += value
            case .failure(let error): return .failure(error)
            }
            if total > Int128(RecipeLimits.maxDuration.nanoseconds) { return .failure(UnitError("over 24 h")) }
        }
        return .success(total)
    }

    /// `05:00` (minutes:seconds) or `1:02:03.5` (hours:minutes:seconds).
    private static func clock(_ bytes: [UInt8]) -> Result<Int128, UnitError> {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map(Array.init)
        guard fields.count == 2 || fields.count == 3 else {
            return .failure(UnitError("use m:ss or h:mm:ss"))
        }
        let units = Array(durationUnits[(3 - fields.count)...2])
        var total: Int128 = 0
        for (position, field) in fields.enumerated() {
            var index = 0
            guard let numeral = DecimalNumeral.scan(field, at: &index, allowSign: false), index == field.count else {
                return .failure(UnitError("use m:ss or h:mm:ss with digits only"))
            }
            let isLast = position == fields.count - 1
            if !isLast, !numeral.fraction.isEmpty || field.contains(UInt8(ascii: ".")) {
                return .failure(UnitError("decimals are allowed in the last field only"))
            }
            if position > 0, numeral.significantWhole.count > 2 || DecimalNumeral.integer(numeral.significantWhole) >= 60 {
                return .failure(UnitError("minutes and seconds must be below 60"))
            }
            switch nanos(numeral, units[position].nanos, maxDecimals: units[position].maxDecimals, unitName: units[position].name) {
            case .success(let value): total += value
            case .failure(let error): return .failure(error)
            }
            if total > Int128(RecipeLimits.maxDuration.nanoseconds) { return .failure(UnitError("over 24 h")) }
        }
        return .success(total)
    }

    /// One numeral times a unit, in exact nanoseconds.
    private static func nanos(_ numeral: DecimalNumeral, _ unit: Int128, maxDecimals: Int, unitName: String) -> Result<Int128, UnitError> {
        let whole = numeral.significantWhole
        guard whole.count <= 12 else { return .failure(UnitError("over 24 h")) }
        guard numeral.fraction.count <= maxDecimals else {
            return .failure(
                UnitError(
                    unitName == "h" || unitName == "m"
                        ? "finer than a nanosecond" : "more than \(maxDecimals) decimals of a\(unitName == "ms" ? " millisecond" : " second")"))
        }
        var scale: Int128 = 1
        for _ in numeral.fraction { scale *= 10 }
        let fractionPart = DecimalNumeral.integer(numeral.fraction) * unit
        guard fractionPart % scale == 0 else { return .failure(UnitError("finer than a nanosecond")) }
        return .success(DecimalNumeral.integer(whole) * unit + fractionPart / scale)
    }

    // MARK: - Prompt times

    /// The anchor words of a prompt's `at:`, as messages list them.
    public static let promptAnchors = ["intro", "practice", "outro", "segment N", "end"]

    /// A prompt's `at:` (recipe-v1.1 § Voice prompts), exactly: a time from the file's start
    /// (`3s`, `1:30`), or an anchor (`intro`, `practice`, `outro`, `segment N`, `end`) with an
    /// optional offset (`practice - 2s`, `end - 20s`, `segment 2 + 5s`). Anchor words are
    /// case-insensitive; N counts from 1.
    public static func promptTime(_ text: String) -> Result<PromptTime, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        guard let first = bytes.first, isLetter(first) else {
            if bytes.first == UInt8(ascii: "-") {
                return .failure(UnitError("negative; a time before an anchor is written 'practice - 2s'"))
            }
            return duration(text).map { PromptTime(anchor: .start, offset: $0) }
        }
        var index = 0
        while index < bytes.count, isLetter(bytes[index]) { index += 1 }
        let word = lowerASCII(bytes[..<index])
        let anchor: PromptTime.Anchor
        switch word {
        case "intro": anchor = .intro
        case "practice": anchor = .practice
        case "outro": anchor = .outro
        case "end": anchor = .end
        case "segment":
            skipSpaces(bytes, &index)
            let digits = index
            while index < bytes.count, DecimalNumeral.isDigit(bytes[index]) { index += 1 }
            guard index > digits, index - digits <= 6, let number = Int(String(decoding: bytes[digits..<index], as: UTF8.self)), number >= 1
            else { return .failure(UnitError("'segment' needs its number from 1, like 'segment 2'")) }
            anchor = .segment(number)
        default:
            let words = ["intro", "practice", "outro", "segment", "end"]
            let hint = Suggestions.closest(to: word, in: words).map { "; did you mean '\($0)'?" } ?? ""
            return .failure(
                UnitError(
                    "unknown anchor '\(DiagnosticText.clip(word))' (use \(promptAnchors.joined(separator: ", ")), or a time from the file's start\(hint))"
                ))
        }
        skipSpaces(bytes, &index)
        guard index < bytes.count else { return .success(PromptTime(anchor: anchor, offset: .zero)) }
        let sign = bytes[index]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            return .failure(UnitError("expected '+' or '-' and a time after '\(word)', like '\(word) + 5s'"))
        }
        let rest = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        guard !trimmed(rest).isEmpty else { return .failure(UnitError("expected a time after '\(Character(Unicode.Scalar(sign)))'")) }
        if trimmed(rest).first == UInt8(ascii: "-") || trimmed(rest).first == UInt8(ascii: "+") {
            return .failure(UnitError("one sign only, like '\(word) - 2s'"))
        }
        return duration(rest).map { PromptTime(anchor: anchor, offset: sign == UInt8(ascii: "-") ? .zero - $0 : $0) }
    }

    // MARK: - Levels and frequencies

    /// A gain in dB: `-14 dB`, `-14dB`, `0 dB`, or a bare number; from -120 to +24 dB.
    public static func gain(_ text: String) -> Result<Double, UnitError> {
        quantity(text, units: [("db", 0)], unitHelp: "dB").flatMap { value in
            gainRange.contains(value) ? .success(value) : .failure(UnitError("outside -120 … +24 dB"))
        }
    }

    /// A frequency in Hz: `528 Hz`, `528Hz`, `1.2 kHz`, or a bare number of Hz; above 0.
    public static func frequency(_ text: String) -> Result<Double, UnitError> {
        quantity(text, units: [("hz", 0), ("khz", 3)], unitHelp: "Hz or kHz").flatMap { value in
            value > 0 ? .success(value) : .failure(UnitError("must be above 0 Hz"))
        }
    }

    /// An integrated loudness target in LUFS: `-16 LUFS` or a bare number, from -70 to -5; `off` is nil.
    public static func loudness(_ text: String) -> Result<Double?, UnitError> {
        loudness(text, within: loudnessRange)
    }

    /// `voice.level`: the loudness every prompt clip is gained to, from -40 to -10 LUFS; `off` is nil.
    public static func voiceLevel(_ text: String) -> Result<Double?, UnitError> {
        loudness(text, within: voiceLevelRange)
    }

    /// A loudness in LUFS (or LKFS) inside `range`, or `off` (nil); the error quotes that range.
    private static func loudness(_ text: String, within range: ClosedRange<Double>) -> Result<Double?, UnitError> {
        if lowerASCII(trimmed(text)) == "off" { return .success(nil) }
        return quantity(text, units: [("lufs", 0), ("lkfs", 0)], unitHelp: "LUFS").flatMap { value in
            range.contains(value)
                ? .success(value)
                : .failure(UnitError("outside \(Int(range.lowerBound)) … \(Int(range.upperBound)) LUFS"))
        }
    }

    /// `voice.duck`: how far the bed drops under a prompt, from 0 to 40 dB, or `wcag`.
    public static func duckDepth(_ text: String) -> Result<Voice.Duck, UnitError> {
        if lowerASCII(trimmed(text)) == "wcag" { return .success(.wcag) }
        return quantity(text, units: [("db", 0)], unitHelp: "dB").flatMap { value in
            duckDepthRange.contains(value)
                ? .success(.depth(value))
                : .failure(UnitError("outside \(Int(duckDepthRange.lowerBound)) … \(Int(duckDepthRange.upperBound)) dB"))
        }
    }

    /// A true-peak ceiling in dBTP: `-1 dBTP` or a bare number, from -20 to 0. `dB` and `dBFS` are
    /// read as dBTP too (the ceiling is on the true peak either way); `truePeakUnitNote` says so.
    public static func truePeak(_ text: String) -> Result<Double, UnitError> {
        quantity(text, units: [("dbtp", 0), ("db", 0), ("dbfs", 0)], unitHelp: "dBTP").flatMap { value in
            truePeakRange.contains(value) ? .success(value) : .failure(UnitError("outside -20 … 0 dBTP"))
        }
    }

    /// The note for a true peak written in `dB` or `dBFS`, read as dBTP; nil for `dBTP` or a bare number.
    public static func truePeakUnitNote(_ text: String) -> String? {
        let bytes = trimmed(text)
        guard let end = bytes.lastIndex(where: { !isLetter($0) }) else { return nil }
        let unit = lowerASCII(bytes[(end + 1)...])
        guard unit == "db" || unit == "dbfs" else { return nil }
        let written = String(decoding: bytes[(end + 1)...], as: UTF8.self)
        return "'\(written)' read as dBTP: the ceiling is on the true peak (the inter-sample peak, ITU-R BS.1770); write dBTP to say so"
    }

    /// A sample rate in Hz: `48000`, `48000 Hz`, `44.1 kHz`, `44.1kHz`, `96 khz` (units in any case),
    /// a whole number of Hz from 8,000 to 384,000.
    public static func sampleRate(_ text: String) -> Result<Int, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        var index = 0
        guard let numeral = DecimalNumeral.scan(bytes, at: &index, allowSign: false) else {
            return .failure(UnitError("expected a number of Hz"))
        }
        let number = String(decoding: bytes[..<index], as: UTF8.self)
        skipSpaces(bytes, &index)
        let unit = lowerASCII(bytes[index...])
        let exponent: Int
        switch unit {
        case "", "hz": exponent = 0
        case "khz": exponent = 3
        default:
            let written = String(decoding: bytes[index...], as: UTF8.self)
            return .failure(UnitError("unknown unit '\(DiagnosticText.clip(written))' (use Hz or kHz\(lookalikeNote(written)))"))
        }
        if exponent == 0, number.contains(".") {
            return .failure(UnitError("a rate in Hz is a whole number (write \(number.split(separator: ".").first ?? "48000"), or use kHz)"))
        }
        guard let value = numeral.double(timesTenToThe: exponent), value.isFinite, value == value.rounded(), value < 1e9 else {
            return .failure(UnitError(unit == "khz" ? "not a whole number of Hz (\(number) kHz)" : "not a whole number of Hz"))
        }
        let rate = Int(value)
        guard RecipeLimits.sampleRates.contains(rate) else { return .failure(UnitError("out of range")) }
        return .success(rate)
    }

    /// `outside 32k … 320k`: `AudioFormat.bitrateRange`, the bit rates any lossy format may be asked for.
    static let bitrateOutside = "outside \(AudioFormat.bitrateRange.lowerBound / 1000)k … \(AudioFormat.bitrateRange.upperBound / 1000)k"

    /// A lossy encoder's bit rate in bits per second: `128k`, `96 kbps`, `128 kb/s`, `128000 bps`,
    /// `96.5k`; from 32k to 320k. A bare number is refused with the `k` it likely lacks: `128`
    /// could mean 128 bits or 128k.
    public static func bitrate(_ text: String) -> Result<Int, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        var index = 0
        guard let numeral = DecimalNumeral.scan(bytes, at: &index, allowSign: true) else {
            return .failure(UnitError("expected a number"))
        }
        let number = String(decoding: bytes[..<index], as: UTF8.self)
        skipSpaces(bytes, &index)
        let unitName = lowerASCII(bytes[index...])
        let units = ["k": 3, "kbps": 3, "kb/s": 3, "kbit/s": 3, "bps": 0, "b/s": 0, "bit/s": 0]
        guard !unitName.isEmpty else { return .failure(UnitError("needs a unit: did you mean '\(number)k'?")) }
        guard let exponent = units[unitName] else {
            let near = Suggestions.closest(to: unitName, in: ["k", "kbps"]).map { "did you mean '\(number)\($0)'? " } ?? ""
            return .failure(UnitError("unknown unit '\(DiagnosticText.clip(unitName))' (\(near)use k or kbps, like 128k\(lookalikeNote(unitName)))"))
        }
        guard !numeral.negative else { return .failure(UnitError("negative")) }
        // exact: whole bits per second, no floating point
        let fraction = numeral.fraction.reversed().drop(while: { $0 == UInt8(ascii: "0") }).reversed()
        guard fraction.count <= exponent, numeral.significantWhole.count <= 9 else {
            return .failure(UnitError(fraction.count > exponent ? "not a whole number of bits per second" : bitrateOutside))
        }
        let padded = Array(numeral.significantWhole) + Array(fraction) + Array(repeating: UInt8(ascii: "0"), count: exponent - fraction.count)
        let value = Int(DecimalNumeral.integer(padded))
        guard AudioFormat.bitrateRange.contains(value) else { return .failure(UnitError(bitrateOutside)) }
        return .success(value)
    }

    // MARK: - Ramps

    /// A breath rate in millionths of a breath a minute, exact: `4.5 bpm`, `6bpm`, `4.5` (a bare
    /// number is bpm); from 1 to 60 bpm, at most 6 decimals (recipe-v1.1 § Ramps).
    public static func breathRate(_ text: String) -> Result<Int64, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        var index = 0
        guard let numeral = DecimalNumeral.scan(bytes, at: &index, allowSign: true) else {
            return .failure(UnitError("expected a number"))
        }
        let number = String(decoding: bytes[..<index], as: UTF8.self)
        skipSpaces(bytes, &index)
        let unitName = lowerASCII(bytes[index...])
        if !unitName.isEmpty, unitName != "bpm" {
            let near = Suggestions.closest(to: unitName, in: ["bpm"]).map { _ in "did you mean '\(number) bpm'? " } ?? ""
            return .failure(UnitError("unknown unit '\(DiagnosticText.clip(unitName))' (\(near)use bpm, breaths a minute\(lookalikeNote(unitName)))"))
        }
        guard !numeral.negative else { return .failure(UnitError("negative")) }
        let fraction = Array(numeral.fraction.reversed().drop(while: { $0 == UInt8(ascii: "0") }).reversed())
        guard fraction.count <= Ramp.maxBPMDecimals else { return .failure(UnitError("more than \(Ramp.maxBPMDecimals) decimals")) }
        guard numeral.significantWhole.count <= 3 else { return .failure(UnitError("outside 1 … 60 bpm")) }
        let padded = Array(numeral.significantWhole) + fraction + Array(repeating: UInt8(ascii: "0"), count: Ramp.maxBPMDecimals - fraction.count)
        let value = Int64(DecimalNumeral.integer(padded))
        guard Ramp.microBPMRange.contains(value) else { return .failure(UnitError("outside 1 … 60 bpm")) }
        return .success(value)
    }

    /// A number of cycles: `10 cycles`, `1 cycle`, `10`; from 1 to the most cycles a track holds.
    public static func cycleCount(_ text: String) -> Result<Int, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        var index = 0
        while index < bytes.count, DecimalNumeral.isDigit(bytes[index]) { index += 1 }
        guard index > 0 else { return .failure(UnitError("expected a whole number of cycles")) }
        let digits = bytes[..<index].drop(while: { $0 == UInt8(ascii: "0") })
        skipSpaces(bytes, &index)
        let unitName = lowerASCII(bytes[index...])
        guard unitName.isEmpty || unitName == "cycles" || unitName == "cycle" else {
            if unitName.hasPrefix(".") { return .failure(UnitError("not a whole number")) }
            let hint = Suggestions.closest(to: unitName, in: ["cycles"]).map { _ in " (did you mean 'cycles'?)" } ?? ""
            return .failure(UnitError("unknown unit '\(DiagnosticText.clip(unitName))'\(hint); a ramp is counted in cycles"))
        }
        guard digits.count <= 6, let value = Int(String(decoding: digits, as: UTF8.self)), RecipeLimits.cycles.contains(value) else {
            return .failure(UnitError("outside 1 … \(RecipeLimits.cycles.upperBound) cycles"))
        }
        return .success(value)
    }

    /// A signed decimal with an optional unit (case-insensitive) that scales it by a power of ten.
    private static func quantity(_ text: String, units: [(name: String, exponent: Int)], unitHelp: String) -> Result<Double, UnitError> {
        let bytes = trimmed(text)
        if let problem = commonProblem(bytes) { return .failure(problem) }
        var index = 0
        guard let numeral = DecimalNumeral.scan(bytes, at: &index, allowSign: true) else {
            return .failure(UnitError("expected a number"))
        }
        skipSpaces(bytes, &index)
        let unitName = lowerASCII(bytes[index...])
        var exponent = 0
        if !unitName.isEmpty {
            guard let unit = units.first(where: { $0.name == unitName }) else {
                return .failure(UnitError("unknown unit '\(DiagnosticText.clip(unitName))' (use \(unitHelp)\(lookalikeNote(unitName)))"))
            }
            exponent = unit.exponent
        }
        guard let value = numeral.double(timesTenToThe: exponent), value.isFinite else {
            return .failure(UnitError("too large"))
        }
        return .success(value == 0 ? 0 : value)  // no -0
    }

    // MARK: - Text helpers

    /// Problems every value shares: empty, too long, NaN, infinity.
    private static func commonProblem(_ bytes: [UInt8]) -> UnitError? {
        if bytes.isEmpty { return UnitError("empty") }
        if bytes.count > maxLength { return UnitError("too long") }
        let lower = lowerASCII(bytes)
        if lower.contains("nan") { return UnitError("not a number") }
        if lower.contains("inf") { return UnitError("infinite") }
        return nil
    }

    /// Units are ASCII: for a unit holding a character that only looks like a letter (`1.2 KHz`
    /// with U+212A KELVIN SIGN, pasted from a document), the note that names it:
    /// `; its 'K' is U+212A KELVIN SIGN, not ASCII` (or `; it holds U+00A0 NO-BREAK SPACE, not ASCII`
    /// for one that shows nothing); empty for an ASCII unit.
    static func lookalikeNote(_ unit: String) -> String {
        guard let scalar = unit.unicodeScalars.first(where: { !$0.isASCII }) else { return "" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let name = scalar.properties.name.map { " " + $0 } ?? ""
        let invisible = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
        return (invisible ? "; it holds " : "; its '\(Character(scalar))' is ") + code + name + ", not ASCII"
    }

    /// The text with ASCII letters in lower case and every other character as it is: units are
    /// ASCII, so `1.2 KHz` written with U+212A KELVIN SIGN is no `kHz` (String.lowercased() makes it `k`).
    static func lowerASCII(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The text's bytes without leading and trailing spaces and tabs.
    private static func trimmed(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return Array(bytes[first...last])
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func skipSpaces(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    }

    private static func rest(_ bytes: [UInt8], from index: Int) -> String {
        DiagnosticText.clip(String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self))
    }
}
