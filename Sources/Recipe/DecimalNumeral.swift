/// A decimal numeral as written (`-14`, `5.5`, `.25`): sign and digit strings, no binary floating point.
struct DecimalNumeral: Sendable, Equatable {
    var negative: Bool
    /// ASCII digits before the point (may be empty: `.5`).
    var whole: [UInt8]
    /// ASCII digits after the point (may be empty: `5` or `5.`).
    var fraction: [UInt8]

    /// Scans `[+-]?digits[.digits]` at `index`, advancing it; nil (index unchanged) when no digit is there.
    static func scan(_ bytes: [UInt8], at index: inout Int, allowSign: Bool) -> DecimalNumeral? {
        var i = index
        var negative = false
        if allowSign, i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        let wholeStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        let whole = Array(bytes[wholeStart..<i])
        var fraction: [UInt8] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            let fractionStart = i + 1
            var j = fractionStart
            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
            fraction = Array(bytes[fractionStart..<j])
            if !whole.isEmpty || !fraction.isEmpty { i = j }
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        index = i
        return DecimalNumeral(negative: negative, whole: whole, fraction: fraction)
    }

    /// True for an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The whole part's digits without leading zeros.
    var significantWhole: ArraySlice<UInt8> { whole.drop(while: { $0 == UInt8(ascii: "0") }) }

    /// Digits as an integer; the caller keeps the count small enough (≤ 36 digits fit Int128).
    static func integer(_ digits: some Collection<UInt8>) -> Int128 {
        digits.reduce(Int128(0)) { $0 * 10 + Int128($1 - UInt8(ascii: "0")) }
    }

    /// The value times 10^`exponent`, correctly rounded to the nearest Double (one decimal-to-binary step).
    func double(timesTenToThe exponent: Int = 0) -> Double? {
        let wholeText = whole.isEmpty ? "0" : String(decoding: whole, as: UTF8.self)
        let fractionText = fraction.isEmpty ? "0" : String(decoding: fraction, as: UTF8.self)
        return Double((negative ? "-" : "") + wholeText + "." + fractionText + "e" + String(exponent))
    }
}
