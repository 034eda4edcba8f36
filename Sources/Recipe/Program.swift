import AudioCore

/// One segment of `program:` (recipe-v1.1 § Programs): a pattern held for a number of cycles or for
/// an exact duration, optionally ramped.
public struct Segment: Sendable, Equatable {
    public var pattern: Pattern
    /// `cycles: N`, or `duration: D` (the time left after the whole cycles or phases becomes a
    /// `transition` phase). Never `.program`.
    public var length: Length
    /// With `duration:`, whether the segment holds whole cycles (default) or whole phases.
    public var endOn: EndOn
    public var ramp: Ramp?
    /// `label:`, or the pattern's name: the practice section's `name` in the cue sheet. With
    /// `label` per locale, the default locale's.
    public var name: String
    /// `label` per locale (keys: the tags as written in `locales:`) when given as a mapping; empty: one name.
    public var localizedName: [String: String] = [:]

    public init(pattern: Pattern, length: Length, endOn: EndOn = .cycle, ramp: Ramp? = nil, name: String? = nil) {
        self.pattern = pattern
        self.length = length
        self.endOn = endOn
        self.ramp = ramp
        self.name = name ?? pattern.name
    }

    /// The kind and label of the phase that holds a duration segment's time left over.
    public static let transitionKind = "transition"
    public static let transitionLabel = "Transition"
}

/// `ramp: { to: 4.5 bpm, over: 10 cycles }` (recipe-v1.1 § Ramps): cycle k runs at
/// r_k = r0 + (r1 − r0) × min(k, N) / N breaths a minute, r0 the pattern's own rate.
public struct Ramp: Sendable, Equatable {
    /// r1 in millionths of a breath a minute (`4.5 bpm` is 4,500,000): exact, from the text as written.
    public var toMicroBPM: Int64
    /// N, in cycles; nil: the segment's cycles − 1 (a segment with `cycles:` only).
    public var over: Int?

    public init(toMicroBPM: Int64, over: Int? = nil) {
        self.toMicroBPM = toMicroBPM
        self.over = over
    }

    /// 1 to 60 breaths a minute, in millionths.
    public static let microBPMRange: ClosedRange<Int64> = 1_000_000...60_000_000
    /// The most fractional digits of a rate (`5.454545 bpm`).
    public static let maxBPMDecimals = 6

    /// `4.5`, `5.454545`, `6`: the rate as an exact decimal.
    public static func text(microBPM: Int64) -> String {
        let (whole, fraction) = microBPM.quotientAndRemainder(dividingBy: 1_000_000)
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

extension Recipe {
    /// The segments the practice is made of: `program`, or the recipe's one pattern as segment 0.
    /// The implicit segment's length is the recipe's (`duration` fills the practice, leaving the
    /// rest to the outro, as recipe-v1 says), not a segment's own.
    public var segments: [Segment] {
        program ?? [Segment(pattern: pattern, length: length, endOn: endOn, ramp: ramp)]
    }

    /// The key path of segment `index`'s key `key` (`program.1.ramp`), or the top-level key for a
    /// recipe without a program (`ramp`).
    public func segmentPath(_ index: Int, _ key: String) -> String {
        program == nil ? key : "program.\(index).\(key)"
    }
}
