/// An exact, non-negative or negative length of time in whole nanoseconds.
///
/// Every length in a recipe is a decimal with at most nine fractional digits of
/// a second, so nanoseconds hold it exactly; sums of them stay exact. Seconds
/// become frames in one place only, `frame(at:)`, by the spec's rounding rule.
public struct ExactSeconds: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let nanosPerSecond: Int64 = 1_000_000_000

    /// The length in nanoseconds.
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Int64) { self.nanoseconds = seconds * Self.nanosPerSecond }

    public static let zero = ExactSeconds(nanoseconds: 0)

    /// The boundary rule of recipe-v1: `floor(T × rate + 1/2)`, computed exactly.
    public func frame(at sampleRate: Int) -> Int64 {
        let product = Int128(nanoseconds) * Int128(sampleRate) * 2 + Int128(Self.nanosPerSecond)
        let denominator = Int128(Self.nanosPerSecond) * 2
        // floor division for negative values too
        var q = product / denominator
        if product % denominator != 0 && product < 0 { q -= 1 }
        return Int64(q)
    }

    /// The value as a Double, for display and JSON only; never for arithmetic.
    public var seconds: Double { Double(nanoseconds) / Double(Self.nanosPerSecond) }

    public static func < (a: ExactSeconds, b: ExactSeconds) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: ExactSeconds, b: ExactSeconds) -> ExactSeconds { .init(nanoseconds: a.nanoseconds + b.nanoseconds) }
    public static func - (a: ExactSeconds, b: ExactSeconds) -> ExactSeconds { .init(nanoseconds: a.nanoseconds - b.nanoseconds) }
    public static func * (a: ExactSeconds, n: Int64) -> ExactSeconds { .init(nanoseconds: a.nanoseconds * n) }
    public static func += (a: inout ExactSeconds, b: ExactSeconds) { a.nanoseconds += b.nanoseconds }

    /// The length as an author writes it, exact and readable back by the recipe reader: `23m`,
    /// `1h30m`, `2m30s`, `90s`, `5.5s`, `300ms`, `0s` (seconds alone below 2 minutes).
    public var durationText: String {
        guard nanoseconds != 0 else { return "0s" }
        let sign = nanoseconds < 0 ? "-" : ""
        let total = nanoseconds.magnitude
        let second = UInt64(Self.nanosPerSecond)
        if total < second, total % 1_000_000 == 0 { return sign + "\(total / 1_000_000)ms" }
        if total < 120 * second { return sign + ExactSeconds(nanoseconds: Int64(total)).description + "s" }
        let hours = total / (3600 * second), minutes = total / (60 * second) % 60, rest = total % (60 * second)
        var text = sign
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 || text == sign { text += ExactSeconds(nanoseconds: Int64(rest)).description + "s" }
        return text
    }

    /// Exact decimal text: `90`, `5.5`, `0.8`.
    public var description: String {
        let whole = nanoseconds / Self.nanosPerSecond
        var frac = abs(nanoseconds % Self.nanosPerSecond)
        if frac == 0 { return "\(whole)" }
        var digits = 9
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        let fracText = String(frac)
        let sign = nanoseconds < 0 && whole == 0 ? "-" : ""
        return sign + "\(whole)." + String(repeating: "0", count: digits - fracText.count) + fracText
    }
}
