import AudioCore
import Recipe

/// The recipe's value grammar as ECMA-262 regular expressions, for the schema's `pattern`s.
///
/// Each pattern follows the parser it mirrors (`Units`, `DecodeContext`); the numbers that bound a
/// value come from `RecipeLimits` and `Units` and are turned into digit patterns by `whole(_:)` and
/// `decimal(_:fraction:)`, the limits on a length by `over(_:start:)`. ECMA-262 has no scoped `(?i)`,
/// so a word in any case is spelt `[wW][oO][rR][dD]` (`anyCase(_:)`).
enum Grammar {
    // MARK: - Numbers

    static let space = #"[ \t]*"#
    /// A plain decimal: `12`, `12.`, `12.5`, `.5`.
    static let number = #"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"#
    /// A decimal with at most 9 decimals (nanoseconds of a second).
    static let number9 = #"(?:[0-9]+(?:\.[0-9]{0,9})?|\.[0-9]{1,9})"#
    /// A decimal with at most 6 decimals (nanoseconds of a millisecond).
    static let number6 = #"(?:[0-9]+(?:\.[0-9]{0,6})?|\.[0-9]{1,6})"#

    /// The digits of a whole number within `range` (no sign, no leading zeros: callers put `0*`
    /// before it), as alternatives joined by `|`: by digit count, the counts every number of which
    /// is in written at once (`[1-9][0-9]{0,4}` for 1 to 99999, `[0-9]{1,2}` for 0 to 99), the
    /// others split digit by digit (`[12][0-9]{5}|3[0-7][0-9]{4}|38[0-3][0-9]{3}|384000`).
    static func whole(_ range: ClosedRange<Int>) -> String {
        precondition(range.lowerBound >= 0, "whole(\(range)): no sign")
        var out: [String] = []
        var fullCounts = 0  // digit counts from 1 whose every number is in the range
        let low = range.lowerBound, high = range.upperBound
        for count in String(low).count...String(high).count {
            let smallest = count == 1 ? 0 : power(count - 1), largest = power(count) - 1
            let from = max(low, smallest), to = min(high, largest)
            if out.isEmpty, fullCounts == count - 1, from <= max(smallest, 1), low <= 1, to == largest {
                fullCounts = count
                continue
            }
            out += span(digits(from, count), digits(to, count))
        }
        if fullCounts > 0 {
            let run =
                low == 0
                ? (fullCounts == 1 ? "[0-9]" : "[0-9]{1,\(fullCounts)}")
                : (fullCounts == 1 ? "[1-9]" : "[1-9][0-9]{0,\(fullCounts - 1)}")
            // 0 to 9 and then `1[0-9]` or `[1-3][0-9]`: one optional leading digit
            if run == "[0-9]", let next = out.first, next.hasSuffix("[0-9]"), next.count > 5, isDigitClass(String(next.dropLast(5))) {
                out[0] = String(next.dropLast(5)) + "?[0-9]"
            } else {
                out.insert(run, at: 0)
            }
        }
        return out.joined(separator: "|")
    }

    /// `alternatives` as one group when there are several.
    static func group(_ alternatives: String) -> String {
        alternatives.contains("|") ? "(?:\(alternatives))" : alternatives
    }

    /// A decimal numeral (leading zeros allowed) whose value is within `range`: its whole part
    /// below the top with `fraction` after it, the top with only zeros after the point, and, from
    /// 0, a fraction alone (`.5`).
    static func decimal(_ range: ClosedRange<Int>, fraction: String = #"(?:\.[0-9]*)?"#) -> String {
        let below = whole(range.lowerBound...(range.upperBound - 1))
        let alone = range.lowerBound == 0 ? #"|\.[0-9]+"# : ""
        return #"(?:0*\#(group(below))\#(fraction)|0*\#(range.upperBound)(?:\.0*)?\#(alone))"#
    }

    /// The alternatives matching the `count`-digit numbers from `low` to `high` (as digit lists of one length).
    private static func span(_ low: [Int], _ high: [Int]) -> [String] {
        guard let a = low.first, let b = high.first else { return [""] }
        let count = low.count
        if low.allSatisfy({ $0 == 0 }) && high.allSatisfy({ $0 == 9 }) { return [any(count)] }
        let lowRest = Array(low.dropFirst()), highRest = Array(high.dropFirst())
        if a == b { return span(lowRest, highRest).map { "\(a)" + $0 } }
        var out: [String] = []
        var first = a, last = b
        if !lowRest.allSatisfy({ $0 == 0 }) {
            out += span(lowRest, Array(repeating: 9, count: count - 1)).map { "\(a)" + $0 }
            first = a + 1
        }
        var top: [String] = []
        if !highRest.allSatisfy({ $0 == 9 }) {
            top = span(Array(repeating: 0, count: count - 1), highRest).map { "\(b)" + $0 }
            last = b - 1
        }
        if first <= last { out.append(digitClass(first, last) + any(count - 1)) }
        return out + top
    }

    private static func any(_ count: Int) -> String { count == 0 ? "" : count == 1 ? "[0-9]" : "[0-9]{\(count)}" }

    private static func digitClass(_ a: Int, _ b: Int) -> String { a == b ? "\(a)" : b == a + 1 ? "[\(a)\(b)]" : "[\(a)-\(b)]" }

    private static func isDigitClass(_ text: String) -> Bool {
        text.count == 1 ? text.first?.isNumber == true : text.hasPrefix("[") && text.hasSuffix("]")
    }

    private static func power(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { r, _ in r * 10 } }

    private static func digits(_ value: Int, _ count: Int) -> [Int] {
        let text = String(value)
        return Array(repeating: 0, count: count - text.count) + text.compactMap(\.wholeNumberValue)
    }

    /// A word in any case: `wcag` → `[wW][cC][aA][gG]`.
    static func anyCase(_ word: String) -> String {
        word.map { $0.isLetter ? "[\($0.lowercased())\($0.uppercased())]" : String($0) }.joined()
    }

    // MARK: - Lengths (Units.duration)

    static let hours = number + space + "[hH]"
    static let minutes = number + space + "[mM]"
    static let seconds = number9 + space + "[sS]"
    static let milliseconds = number6 + space + "[mM][sS]"
    static let unitSum = #"(?=[0-9.])(?:\#(hours)\#(space))?(?:\#(minutes)\#(space))?(?:\#(seconds)\#(space))?(?:\#(milliseconds)\#(space))?"#
    static let bare = number9
    static let sixty = #"0*[0-5]?[0-9]"#
    static let clock = #"[0-9]+:(?:\#(sixty):)?(?:\#(sixty)(?:\.[0-9]{0,9})?|\.[0-9]{1,9})"#
    static let durationBody = #"(?:\#(bare)|\#(clock)|\#(unitSum))"#
    static let duration = #"^\#(space)\#(durationBody)\#(space)$"#
    static let positiveDuration = #"^(?=.*[1-9])\#(space)\#(durationBody)\#(space)$"#

    // MARK: - Levels (Units)

    /// Zero with a sign of its own: `0`, `0.0`, `.0`.
    static let zero = #"(?:0+(?:\.0*)?|\.0+)"#
    /// `-A` to `+B` for a range of whole bounds around zero, written with the sign before the magnitude.
    static func signed(_ range: ClosedRange<Double>) -> String {
        let low = Int(-range.lowerBound), high = Int(range.upperBound)
        precondition(Double(-low) == range.lowerBound && Double(high) == range.upperBound && low >= 0, "signed(\(range)): whole bounds around 0")
        return #"-\#(decimal(0...low))|\+?\#(high == 0 ? zero : decimal(0...high))"#
    }

    /// The magnitude of a range of whole negative numbers (`-70 ... -5` → 5 to 70).
    static func magnitude(_ range: ClosedRange<Double>) -> ClosedRange<Int> {
        let range = Int(-range.upperBound)...Int(-range.lowerBound)
        return range
    }

    static let gain = #"^\#(space)(?:\#(signed(Units.gainRange)))\#(space)(?:[dD][bB])?\#(space)$"#
    static let loudness =
        #"^\#(space)(?:-\#(decimal(magnitude(Units.loudnessRange)))\#(space)(?:[lL][uU][fF][sS]|[lL][kK][fF][sS])?|[oO][fF][fF])\#(space)$"#
    /// dB and dBFS read as dBTP (with a warning).
    static let truePeak = #"^\#(space)(?:\#(signed(Units.truePeakRange)))\#(space)(?:[dD][bB](?:[tT][pP]|[fF][sS])?)?\#(space)$"#

    static let frequencyBody = #"\+?(?=[0-9.]*[1-9])\#(number)\#(space)(?:[hH][zZ]|[kK][hH][zZ])?"#
    static let frequency = #"^\#(space)\#(frequencyBody)\#(space)$"#

    static let noise = #"(?:[pP][iI][nN][kK]|[bB][rR][oO][wW][nN]|[wW][hH][iI][tT][eE])-[nN][oO][iI][sS][eE]"#
    static let drone = #"[dD][rR][oO][nN][eE](?: \#(space)\#(frequencyBody))?"#
    static let pulsed =
        #"(?:[bB][iI][nN][aA][uU][rR][aA][lL]|[iI][sS][oO][cC][hH][rR][oO][nN][iI][cC]) \#(space)\#(frequencyBody)[ \t]+\#(space)\#(frequencyBody)"#
    static let synth = #"^\#(space)(?:\#(noise)|\#(drone)|\#(pulsed))\#(space)$"#

    static let amplitude = #"^\#(space)(?:\+?(?:0*(?:0(?:\.[0-9]*)?|\.[0-9]+)|0*1(?:\.0*)?)|-(?:0+(?:\.0*)?|0*\.0+))\#(space)$"#

    // MARK: - Output (Units.sampleRate, Units.bitrate)

    /// Up to 3 decimals (a whole number of the unit's thousandths), trailing zeros aside.
    static let thousandths = #"(?:\.[0-9]{0,3}0*)?"#
    /// `AudioFormat.bitrateRange` in kbps (up to 3 decimals) or whole bits per second.
    static let bitrate: String = {
        let bits = AudioFormat.bitrateRange
        let k = (bits.lowerBound / 1000)...(bits.upperBound / 1000)
        precondition(k.lowerBound * 1000 == bits.lowerBound && k.upperBound * 1000 == bits.upperBound)
        let kbps =
            "0*(?:" + whole(k.lowerBound...(k.upperBound - 1)).split(separator: "|").map { $0 + thousandths }.joined(separator: "|")
            + #"|\#(k.upperBound)(?:\.0*)?)"#
        let bps = #"0*(?:\#(whole(bits)))(?:\.0*)?"#
        return
            #"^\#(space)(?:\#(kbps)\#(space)(?:[kK]|[kK][bB][pP][sS]|[kK][bB]/[sS]|[kK][bB][iI][tT]/[sS])|\#(bps)\#(space)(?:[bB][pP][sS]|[bB]/[sS]|[bB][iI][tT]/[sS]))\#(space)$"#
    }()

    static let sampleRateText = #"^\#(space)0*\#(group(whole(RecipeLimits.sampleRates)))(?:\#(space)[hH][zZ])?\#(space)$"#
    /// kHz with up to three decimals (a whole number of Hz).
    static let sampleRateKHz: String = {
        let rates = RecipeLimits.sampleRates
        let k = (rates.lowerBound / 1000)...(rates.upperBound / 1000)
        precondition(k.lowerBound * 1000 == rates.lowerBound && k.upperBound * 1000 == rates.upperBound)
        return
            #"^\#(space)0*(?:\#(group(whole(k.lowerBound...(k.upperBound - 1))))\#(thousandths)|\#(k.upperBound)(?:\.0*)?)\#(space)[kK][hH][zZ]\#(space)$"#
    }()
    static let channelsText = "^0*" + group(whole(RecipeLimits.channelCounts)) + "$"

    // MARK: - Counts

    static let cyclesText = "^0*" + group(whole(RecipeLimits.cycles)) + "$"
    static let wholeText = #"^-?[0-9]+$"#
    static let harmonicCountText = "^(?:0*" + group(whole(0...RecipeLimits.maxHarmonics)) + "|-0+)$"
    /// A ramp's rate (`Units.breathRate`): at most 6 decimals (trailing zeros aside), `bpm` optional, in any case.
    static let breathRate = #"^\#(space)\+?\#(decimal(bpm, fraction: #"(?:\.[0-9]{0,6}0*)?"#))\#(space)(?:[bB][pP][mM])?\#(space)$"#
    /// `Ramp.microBPMRange` in whole breaths a minute.
    static let bpm: ClosedRange<Int> = {
        let micro = Ramp.microBPMRange
        precondition(micro.lowerBound % 1_000_000 == 0 && micro.upperBound % 1_000_000 == 0)
        return Int(micro.lowerBound / 1_000_000)...Int(micro.upperBound / 1_000_000)
    }()
    /// A ramp's `over` (`Units.cycleCount`): `cycle` or `cycles` optional, in any case.
    static let cycleCount = #"^\#(space)0*\#(group(whole(RecipeLimits.cycles)))\#(space)(?:[cC][yY][cC][lL][eE][sS]?)?\#(space)$"#
    /// A cycle number of `cycles:`, at most 6 digits.
    static let cycleNumber = #"(?=[0-9]{1,6}(?![0-9]))0*\#(group(whole(RecipeLimits.cycles)))"#
    /// `3` or `1-3`.
    static let cycleRange = #"^\#(space)\#(cycleNumber)\#(space)(?:-\#(space)\#(cycleNumber)\#(space))?$"#
    static let segmentText = "^0*" + group(whole(1...RecipeLimits.maxSegments)) + "$"

    // MARK: - Names and text

    static let id = #"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"#
    static let kind = #"^(?!(?:start|end)$)[a-z][a-z0-9_]{0,63}$"#
    static let shortKind = #"^(?!(?:start|end|kind|length|label)$)[a-z][a-z0-9_]{0,63}$"#
    static let cueName = #"^[a-z][a-z0-9_]{0,63}$"#
    static let asset = #"^(?!/)(?!(?:.*/)?\.\.(?:/|$))[^\x00-\x1f\x7f\\]+$"#
    /// A prompt's words: not only spaces, no control character (Unicode Cc) nor line or paragraph separator.
    static let promptText = #"^(?=.*[^ \t])[^\x00-\x1f\x7f-\x9f\u2028\u2029]+$"#
    /// An espeak-ng voice name: 2 to 32 letters, digits and '-', from a letter.
    static let draftVoice = #"^[A-Za-z][A-Za-z0-9-]{1,31}$"#
    /// A BCP 47 tag's shape (`LanguageTag` checks the rest): a language of 2 to 8 letters, then subtags of 1 to 8 letters and digits.
    static let languageTag = #"^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$"#

    // MARK: - Voice (Units.voiceLevel, Units.duckDepth, Units.promptTime)

    static let voiceLevel =
        #"^\#(space)(?:-\#(decimal(magnitude(voiceLevelRange)))\#(space)(?:\#(anyCase("lufs"))|\#(anyCase("lkfs")))?|\#(anyCase("off")))\#(space)$"#
    /// 0 to 40 dB (+0 and -0 included), or wcag.
    static let duck = #"^\#(space)(?:(?:\+?\#(decimal(duckDepthRange))|-\#(zero))\#(space)(?:[dD][bB])?|\#(anyCase("wcag")))\#(space)$"#
    static let segmentNumber = #"(?=[0-9]{1,6}(?![0-9]))0*[1-9][0-9]*"#
    /// intro, practice, outro, end, then `segment N`: the anchors of `Units.promptAnchors`.
    static let anchor: String = {
        let words = Units.promptAnchors.filter { !$0.hasSuffix(" N") }.map(anyCase)
        let numbered = Units.promptAnchors.filter { $0.hasSuffix(" N") }.map { anyCase(String($0.dropLast(2))) + space + segmentNumber }
        return "(?:" + (words + numbered).joined(separator: "|") + ")"
    }()
    static let promptTime = #"^\#(space)(?:\#(durationBody)|\#(anchor)\#(space)(?:[+-]\#(space)\#(durationBody))?)\#(space)$"#

    static let voiceLevelRange = Units.voiceLevelRange
    static let duckDepthRange = Int(Units.duckDepthRange.lowerBound)...Int(Units.duckDepthRange.upperBound)

    // MARK: - Lengths over a limit

    /// Finds, anywhere in a well-formed duration, one field or unit that alone exceeds `limit`
    /// whole seconds. `start` is what comes before a bare number or a clock: the text's start,
    /// or (in a prompt time's offset) its sign.
    static func over(_ limit: Int, start: String = "^") -> String {
        let w = space
        var parts: [String] = []
        let units: [(seconds: Fraction, spelled: String, isMillisecond: Bool)] = [
            (Fraction(3600), "[hH]", false), (Fraction(60), "[mM](?![sS])", false), (Fraction(1), "[sS]", false),
            (Fraction(1, 1000), "[mM][sS]", true),
        ]
        for unit in units {
            let threshold = Fraction(limit) / unit.seconds
            let number = threshold.isWhole ? above(threshold.floor) : atLeast(threshold.floor + 1)
            parts.append(#"(?:^|[^0-9.])\#(number)\#(w)\#(unit.spelled)"#)
            if threshold < Fraction(1) {
                // a fraction of the unit above the limit: 0.1h, 0.02h, 0.0167h for 60 s
                parts.append(#"(?:^|[^0-9.])0*\.\#(fractionAbove(threshold))\#(w)\#(unit.spelled)"#)
            }
            if threshold.isWhole && threshold.floor >= 1 && !unit.isMillisecond {
                // exactly the limit in this unit, and anything more after it
                parts.append(#"(?:^|[^0-9.])0*\#(threshold.floor)(?:\.0*)?\#(w)\#(unit.spelled)(?=.*[1-9])"#)
            }
        }
        parts.append(#"\#(start)\#(w)\#(above(limit))\#(w)$"#)  // a bare number of seconds
        // m:ss and h:mm:ss, read by their leading fields
        let minutes = Fraction(limit, 60)
        if minutes.isWhole {
            parts.append(#"\#(start)\#(w)\#(above(minutes.floor)):[0-9.]+\#(w)$"#)
            parts.append(#"\#(start)\#(w)0*\#(minutes.floor):(?=[0-9.]*[1-9])[0-9.]+\#(w)$"#)
        } else if minutes < Fraction(1) {
            // under a minute: any minute is over, and so are seconds above the limit
            parts.append(#"\#(start)\#(w)\#(atLeast(1)):[0-9.]+\#(w)$"#)
            parts.append(#"\#(start)\#(w)0*:\#(above(limit))\#(w)$"#)
        }
        let hours = Fraction(limit, 3600)
        if hours.isWhole {
            parts.append(#"\#(start)\#(w)\#(above(hours.floor)):[0-9]+:"#)
            parts.append(#"\#(start)\#(w)0*\#(hours.floor):(?=[0-9]+:)(?=[0-9:.]*[1-9])"#)
        } else {
            parts.append(#"\#(start)\#(w)\#(atLeast(hours.floor + 1)):[0-9]+:"#)
            if minutes.isWhole {
                parts.append(#"\#(start)\#(w)0+:\#(above(minutes.floor)):"#)
                parts.append(#"\#(start)\#(w)0+:0*\#(minutes.floor):(?=[0-9.]*[1-9])"#)
            } else if minutes < Fraction(1) {
                parts.append(#"\#(start)\#(w)0+:\#(atLeast(1)):"#)
                parts.append(#"\#(start)\#(w)0+:0+:\#(above(limit))\#(w)$"#)
            }
        }
        return parts.joined(separator: "|")
    }

    /// Digit strings without leading zeros whose value is above the whole number `k`.
    static func greaterInteger(_ k: Int) -> String {
        let digits = Array(String(k))
        var alternatives = ["[1-9][0-9]{\(digits.count),}"]
        for (i, character) in digits.enumerated() {
            var low = (character.wholeNumberValue ?? 0) + 1
            if i == 0 && digits.count > 1 { low = max(low, 1) }
            if low > 9 { continue }
            let rest = digits.count - i - 1
            let digitClass = low < 9 ? "[\(low)-9]" : "9"
            alternatives.append(String(digits[..<i]) + digitClass + (rest > 0 ? "[0-9]{\(rest)}" : ""))
        }
        return "(?:" + alternatives.joined(separator: "|") + ")"
    }

    /// A decimal numeral (leading zeros and a fraction allowed) whose value is above the whole number `k`.
    static func above(_ k: Int) -> String {
        let nonzeroFraction = #"\.[0-9]*[1-9][0-9]*"#
        return k > 0
            ? #"(?:0*\#(greaterInteger(k))(?:\.[0-9]*)?|0*\#(k)\#(nonzeroFraction))"#
            : #"(?:0*\#(greaterInteger(0))(?:\.[0-9]*)?|0*\#(nonzeroFraction))"#
    }

    /// A decimal numeral whose value is at least the whole number `k` ≥ 1.
    static func atLeast(_ k: Int) -> String { #"(?:0*\#(greaterInteger(k - 1))(?:\.[0-9]*)?)"# }

    /// The digits after the point of a fraction whose value is above `threshold` (0 < threshold < 1).
    ///
    /// The threshold's decimal expansion must end or end in one repeated digit (1/60 = 0.01666…,
    /// 5/60 = 0.08333…, 5/3600 = 0.0013888…), which holds for every limit this schema uses.
    static func fractionAbove(_ threshold: Fraction) -> String {
        var digits: [Int] = []
        var seen: [Int: Int] = [:]
        var rest = threshold.numerator
        let denominator = threshold.denominator
        while rest != 0 && seen[rest] == nil {
            seen[rest] = digits.count
            rest *= 10
            digits.append(rest / denominator)
            rest %= denominator
        }
        let prefix: String
        var repeated: Int?
        if rest != 0, let start = seen[rest] {
            precondition(digits.count - start == 1, "\(threshold): the expansion repeats more than one digit")
            prefix = digits[..<start].map(String.init).joined()
            repeated = digits[start]
        } else {
            prefix = digits.map(String.init).joined()
        }
        var alternatives: [String] = []
        for (i, character) in prefix.enumerated() {
            let low = (character.wholeNumberValue ?? 0) + 1
            if low <= 9 { alternatives.append(String(prefix.prefix(i)) + (low < 9 ? "[\(low)-9]" : "9")) }
        }
        if let repeated {
            if repeated < 9 {
                let low = repeated + 1
                alternatives.append(prefix + "\(repeated)*" + (low < 9 ? "[\(low)-9]" : "9"))
            }
        } else {
            alternatives.append(prefix + "[0-9]*[1-9]")
        }
        return "(?:" + alternatives.joined(separator: "|") + ")[0-9]*"
    }
}

/// A non-negative fraction in lowest terms, for the limits of `Grammar.over`.
struct Fraction: Comparable, CustomStringConvertible {
    let numerator: Int
    let denominator: Int

    init(_ numerator: Int, _ denominator: Int = 1) {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = max(gcd(numerator, denominator), 1)
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    var isWhole: Bool { denominator == 1 }
    var floor: Int { numerator / denominator }
    var description: String { "\(numerator)/\(denominator)" }

    static func / (a: Fraction, b: Fraction) -> Fraction { Fraction(a.numerator * b.denominator, a.denominator * b.numerator) }
    static func < (a: Fraction, b: Fraction) -> Bool { a.numerator * b.denominator < b.numerator * a.denominator }
}
