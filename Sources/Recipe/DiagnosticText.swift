/// Helpers that turn values and author text into short, safe diagnostic text.
///
/// Visible to the package's other targets (`package`): the catalog's manifest messages quote text the same way.
package enum DiagnosticText {
    /// The most characters of author text a message repeats.
    package static let maxShown = 60

    /// Author text made printable and short: control characters escaped, long text cut with `…`.
    package static func clip(_ text: String) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= maxShown {
                out += "…"
                break
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out
    }

    /// A whole message made printable on one line: control characters escaped as `clip` escapes them, nothing cut.
    package static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 control characters and DEL.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
    }

    /// Author text in single quotes, clipped: `'5x'`.
    package static func quoted(_ text: String) -> String { "'" + clip(text) + "'" }

    /// A number without a needless `.0`: `528`, `5.5`, `-14`.
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A signed gain, as authors write it: `+24 dB`, `-120 dB`.
    static func decibels(_ value: Double, unit: String = "dB") -> String {
        (value > 0 ? "+" : "") + number(value) + " " + unit
    }

    /// A frequency in Hz below 1 kHz, in kHz from there: `528 Hz`, `24 kHz`, `22.05 kHz`.
    static func hertz(_ value: Double) -> String {
        if value >= 1000 { return number(value / 1000) + " kHz" }
        return number(value) + " Hz"
    }

    /// A list of words for a message: `a, b, c`.
    static func list(_ words: [String]) -> String { words.joined(separator: ", ") }
}
