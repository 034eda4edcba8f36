import Foundation

/// BS.1770-4's integrated loudness from gating-block energies: the absolute gate at
/// -70 LUFS, then the relative gate 10 LU under the mean of what passed it.
///
/// libebur128 does the same over the blocks it meters; this form lets `LimiterModel`
/// gate pass 1's blocks as the limiter would leave them, without a pass.
enum BlockGating {
    /// A block's loudness is `-0.691 + 10 log10(energy)`.
    static func loudness(energy: Double) -> Double { energy > 0 ? -0.691 + 10 * log10(energy) : -.infinity }

    static let absoluteGate = pow(10, (-70 + 0.691) / 10)

    /// Integrated loudness (LUFS) of blocks whose energies `energy(e)` gives for e in `blocks`; -inf when none passes.
    static func integrated(blocks: Range<Int>, energy: (Int) -> Double) -> Double {
        /// The mean energy of the blocks at or over `gate`, and how many there are.
        func mean(over gate: Double) -> (Double, Int) {
            var sum = 0.0
            var count = 0
            for e in blocks {
                let x = energy(e)
                if x >= gate {
                    sum += x
                    count += 1
                }
            }
            return (count > 0 ? sum / Double(count) : 0, count)
        }
        let (ungated, count) = mean(over: absoluteGate)
        guard count > 0 else { return -.infinity }
        let (gated, passed) = mean(over: max(absoluteGate, ungated * 0.1))
        return passed > 0 ? loudness(energy: gated) : -.infinity
    }
}
