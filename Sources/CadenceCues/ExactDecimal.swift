/// A JSON number's exact value, `±digits × 10^exponent`, read from its text without going through `Double`.
///
/// This is what lets integers written as `480000`, `480000.0` or `4.8e5` all read as
/// the same `Int64`, rejects `480000.5` as an integer instead of rounding it, and keeps
/// a pattern length like `5.5` or `0.000000001` as the exact decimal it was.
struct ExactDecimal: Equatable {
    var negative: Bool
    /// Significant digits (ASCII), without leading or trailing zeros; empty for zero.
    var digits: [UInt8]
    var exponent: Int

    /// Exponents beyond this are refused: no cue sheet number comes near, and the text stays small.
    static let exponentLimit = 10_000

    /// `units × 10^−places`, exactly.
    init(units: Int64, places: UInt8) {
        var digits = Array(String(units.magnitude).utf8)
        var exponent = -Int(places)
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        self.negative = units < 0
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// Reads a number in JSON syntax; nil if it is not one or its exponent is beyond `exponentLimit`.
    init?(_ text: String) {
        var negative = false
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var exponentText = ""
        var part = 0  // 0: integer part, 1: fraction, 2: exponent
        for b in text.utf8 {
            switch (part, b) {
            case (0, UInt8(ascii: "-")) where mantissa.isEmpty && !negative: negative = true
            case (0...1, UInt8(ascii: "0")...UInt8(ascii: "9")):
                mantissa.append(b)
                if part == 1 { fractionDigits += 1 }
            case (0, UInt8(ascii: ".")): part = 1
            case (0...1, UInt8(ascii: "e")), (0...1, UInt8(ascii: "E")): part = 2
            case (2, _): exponentText.unicodeScalars.append(Unicode.Scalar(b))
            default: return nil
            }
        }
        guard !mantissa.isEmpty else { return nil }
        var exponent = 0
        if part == 2 {
            guard let e = Int(exponentText.hasPrefix("+") ? String(exponentText.dropFirst()) : exponentText),
                abs(e) <= Self.exponentLimit
            else { return nil }
            exponent = e
        }
        exponent -= fractionDigits
        let leadingZeros = mantissa.prefix { $0 == UInt8(ascii: "0") }.count
        mantissa.removeFirst(leadingZeros)
        while let last = mantissa.last, last == UInt8(ascii: "0") {
            mantissa.removeLast()
            exponent += 1
        }
        if mantissa.isEmpty { exponent = 0 }
        self.negative = negative
        self.digits = mantissa
        self.exponent = exponent
    }

    var isZero: Bool { digits.isEmpty }

    /// The value if it is a whole number that fits in `Int64`.
    var int64: Int64? {
        if isZero { return 0 }
        guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for d in digits + [UInt8](repeating: UInt8(ascii: "0"), count: exponent) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The whole part, rounded toward zero (`1.9` → 1, `-0.5` → 0), if it fits in `Int64`.
    var wholePart: Int64? {
        let kept = digits.count + exponent
        if kept <= 0 { return 0 }
        var whole = self
        if exponent < 0 {
            whole.digits = Array(digits.prefix(kept))
            whole.exponent = 0
        }
        return whole.int64
    }

    /// The shortest plain decimal text of the value: `16`, `5.5`, `-0.001`, `0` (never an exponent).
    var plainText: String {
        if isZero { return "0" }
        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if exponent >= 0 {
            out += digits
            out += [UInt8](repeating: UInt8(ascii: "0"), count: exponent)
        } else {
            let point = digits.count + exponent
            if point > 0 {
                out += digits[..<point]
                out.append(UInt8(ascii: "."))
                out += digits[point...]
            } else {
                out += Array("0.".utf8)
                out += [UInt8](repeating: UInt8(ascii: "0"), count: -point)
                out += digits
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
