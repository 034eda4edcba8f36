/// Escaping and number formatting for the preview's HTML, SVG and inline JSON.
///
/// Everything here is a pure function of its input: no locale, no Foundation
/// formatting, so the same catalog gives the same bytes on every machine.
public enum Markup {
    /// Text for HTML or XML content and attribute values (`&`, `<`, `>`, `"`, `'`).
    ///
    /// Characters that XML 1.0 forbids (C0 controls other than tab, LF and CR,
    /// U+FFFE, U+FFFF) become U+FFFD so that an SVG stays well-formed whatever a
    /// title holds, and so do DEL and the C1 controls (U+0080–U+009F), which HTML
    /// parsers report as errors; CR becomes a character reference so it survives parsing.
    public static func text(_ s: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(u)
            case _ where u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0xFFFE || u.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// A JSON string literal that is safe inside an HTML `<script>` element.
    ///
    /// Besides JSON's own escapes, `<`, `>` and `&` are written as `\u003c`,
    /// `\u003e`, `\u0026` (so neither `</script` nor `<!--` can appear), and
    /// U+2028/U+2029 as `\u2028`/`\u2029` (line terminators in older JavaScript).
    public static func scriptJSONString(_ s: String) -> String {
        var r = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": r += "\\\""
            case "\\": r += "\\\\"
            case "\n": r += "\\n"
            case "\r": r += "\\r"
            case "\t": r += "\\t"
            case "<": r += "\\u003c"
            case ">": r += "\\u003e"
            case "&": r += "\\u0026"
            case "\u{2028}": r += "\\u2028"
            case "\u{2029}": r += "\\u2029"
            case _ where u.value < 0x20 || u.value == 0x7F: r += "\\u" + hex4(u.value)
            default: r.unicodeScalars.append(u)
            }
        }
        return r + "\""
    }

    /// A relative file path as a URL path: every byte outside `A–Z a–z 0–9 - . _ ~ /`
    /// is percent-encoded (UTF-8), so names with spaces, `#`, `?` or `%` still load.
    public static func urlPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let h = String(byte, radix: 16, uppercase: true)
                out += "%" + (h.count == 1 ? "0" + h : h)
            }
        }
        return out
    }

    /// `x` rounded to `digits` decimals (half away from zero), without trailing zeros
    /// (`12.0` → `12`, `0.50` → `0.5`); non-finite values give `0`.
    public static func number(_ x: Double, digits: Int = 1) -> String {
        guard x.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        guard scaled < 9e15 else { return x < 0 ? "-" + String(Int64(abs(x).rounded())) : String(Int64(x.rounded())) }
        return tenths(Int64(scaled) * (x < 0 ? -1 : 1), digits: digits)
    }

    /// An integer count of 10^-digits units as a decimal text without trailing zeros (`123`, 1 → `12.3`).
    public static func tenths(_ units: Int64, digits: Int = 1) -> String {
        var divisor: Int64 = 1
        for _ in 0..<digits { divisor *= 10 }
        let negative = units < 0
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(divisor)
        var fraction = String(magnitude % UInt64(divisor))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = negative && magnitude != 0 ? "-" : ""
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    private static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }
}
