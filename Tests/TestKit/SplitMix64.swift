/// SplitMix64 (Steele, Lea and Flood): the tests' one reproducible generator, so a seeded case is
/// the same case every run and a failing one fails the same way. Every target's seeds feed this
/// one sequence; changing it changes every seeded case (the bad-input corpus's `.gen` files and
/// the random recipes, cue sheets and noise fixtures).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    public mutating func bipolar() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }

    /// `count` bytes, each the top byte of one draw (a "corrupt" sound file, a generated bad recipe).
    public static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }
    }
}
