/// Sizes in bytes as `--bundle-budget` takes them and the summary shows them (recipe-v1.1 §
/// Catalog delivery): decimal units are powers of 1000 (`80MB` is 80,000,000 bytes), binary units
/// powers of 1024 (`80MiB` is 83,886,080), read exactly, without floating point.
public enum ByteSize {
    /// Bytes per unit, by lower-cased unit name; the empty name and `b` are bytes.
    static let units: [String: Int64] = [
        "": 1, "b": 1,
        "kb": 1000, "mb": 1_000_000, "gb": 1_000_000_000, "tb": 1_000_000_000_000,
        "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
    ]

    /// `80MB`, `80 MB`, `1.5GB`, `80MiB`, `500kB`, `80000000`: a whole number of bytes from 1 to
    /// `limit`, or why not (`a size like 80MB or 80MiB, found '80 megs'`).
    public static func parse(_ text: String, limit: Int64) -> Result<Int64, SizeError> {
        let what = "a size like 80MB or 80MiB"
        let trimmed = text.trimmingSpaces
        var digits = "", fraction = "", seenPoint = false
        var index = trimmed.startIndex
        while index < trimmed.endIndex, let c = trimmed[index].asciiValue, c == UInt8(ascii: ".") || (c >= 48 && c <= 57) {
            if c == UInt8(ascii: ".") {
                if seenPoint { break }
                seenPoint = true
            } else if seenPoint {
                fraction.append(trimmed[index])
            } else {
                digits.append(trimmed[index])
            }
            index = trimmed.index(after: index)
        }
        let unitName = String(trimmed[index...]).trimmingSpaces.lowercased()
        guard !(digits.isEmpty && fraction.isEmpty), let scale = units[unitName] else {
            return .failure(SizeError("\(what), found '\(text)'"))
        }
        // whole part × scale + fraction × scale, exactly, in 128 bits: past 30 digits a size is over any limit
        let wholeDigits = digits.drop { $0 == "0" }
        let fractionDigits = String(fraction.reversed().drop { $0 == "0" }.reversed())
        guard wholeDigits.count <= 30, fractionDigits.count <= 30 else {
            return .failure(SizeError("\(what) up to \(format(limit)), found '\(text)'"))
        }
        let whole = Int128(wholeDigits.isEmpty ? "0" : String(wholeDigits)) ?? 0
        var power: Int128 = 1
        for _ in 0..<fractionDigits.count { power *= 10 }
        let part = (Int128(fractionDigits) ?? 0) * Int128(scale)
        guard part % power == 0 else { return .failure(SizeError("\(what), a whole number of bytes, found '\(text)'")) }
        let total = whole * Int128(scale) + part / power
        guard total >= 1 else { return .failure(SizeError("\(what), above zero, found '\(text)'")) }
        guard total <= Int128(limit) else { return .failure(SizeError("\(what) up to \(format(limit)), found '\(text)'")) }
        let bytes = Int64(total)
        return .success(bytes)
    }

    /// Bytes in decimal units with one decimal: `62.4 MB`, `812.0 kB`, `1.2 GB`; under 1 kB, `512 B`.
    public static func format(_ bytes: Int64) -> String {
        let steps: [(Int64, String)] = [(1_000_000_000_000, "TB"), (1_000_000_000, "GB"), (1_000_000, "MB"), (1000, "kB")]
        for (index, (scale, name)) in steps.enumerated() where bytes >= scale {
            // tenths, rounded half up, in integers; 999,950 bytes is 1.0 MB, not 1000.0 kB
            let tenths = (bytes * 10 + scale / 2) / scale
            if tenths >= 10_000, index > 0 {
                let (up, upName) = steps[index - 1]
                let upTenths = (bytes * 10 + up / 2) / up
                return "\(upTenths / 10).\(upTenths % 10) \(upName)"
            }
            return "\(tenths / 10).\(tenths % 10) \(name)"
        }
        return "\(bytes) B"
    }

    /// Why a size could not be read.
    public struct SizeError: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

extension String {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        let kept = drop { $0 == " " || $0 == "\t" }
        return String(kept.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
