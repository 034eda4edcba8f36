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
        // whole part × scale + fraction × scale, exactly: the fraction must end in whole bytes
        let wholeDigits = digits.drop { $0 == "0" }
        let fractionDigits = String(fraction.reversed().drop { $0 == "0" }.reversed())
        guard wholeDigits.count <= 15, fractionDigits.count <= 12, let whole = Int64(wholeDigits.isEmpty ? "0" : String(wholeDigits)) else {
            return .failure(SizeError("\(what) up to \(format(limit)), found '\(text)'"))
        }
        var power: Int64 = 1
        for _ in 0..<fractionDigits.count { power *= 10 }
        let part = (Int64(fractionDigits) ?? 0).multipliedReportingOverflow(by: scale)
        let product = whole.multipliedReportingOverflow(by: scale)
        guard !part.overflow, !product.overflow else { return .failure(SizeError("\(what) up to \(format(limit)), found '\(text)'")) }
        guard part.partialValue % power == 0 else { return .failure(SizeError("\(what), a whole number of bytes, found '\(text)'")) }
        let bytes = product.partialValue + part.partialValue / power
        guard bytes >= 1 else { return .failure(SizeError("\(what), above zero, found '\(text)'")) }
        guard bytes <= limit else { return .failure(SizeError("\(what) up to \(format(limit)), found '\(text)'")) }
        return .success(bytes)
    }

    /// Bytes in decimal units with one decimal: `62.4 MB`, `812.0 kB`, `1.2 GB`; under 1 kB, `512 B`.
    public static func format(_ bytes: Int64) -> String {
        let steps: [(Int64, String)] = [(1_000_000_000_000, "TB"), (1_000_000_000, "GB"), (1_000_000, "MB"), (1000, "kB")]
        for (scale, name) in steps where bytes >= scale {
            // tenths, rounded half up, in integers
            let tenths = (bytes * 10 + scale / 2) / scale
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
