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

/// libebur128's histogram of gating blocks (`EBUR128_MODE_HISTOGRAM`): 1000 bins of 0.1 LU
/// from -70 LUFS, a block counted in the bin its energy falls in and weighed at the bin's
/// centre, and the integrated loudness gated from the bins as `ebur128_loudness_global` does,
/// with the same constants, in the same order: the same `Double`.
///
/// The meters add their blocks here rather than let libebur128 do it: in `EBUR128_MODE_I` it
/// sums every 400 ms block anew after each 100 ms hop, four times the samples the meters
/// already sum for the blocks' energies (`GatingMeter`). Several histograms gate together as
/// `ebur128_loudness_global_multiple` gates several meters, summing meter by meter.
struct BlockHistogram {
    private(set) var counts = [Int](repeating: 0, count: 1000)

    /// Each bin's energy: its centre.
    static let energies: [Double] = (0..<1000).map { pow(10.0, (Double($0) / 10.0 - 69.95 + 0.691) / 10.0) }
    /// The bins' edges; the first is the absolute gate.
    static let boundaries: [Double] = (0...1000).map { pow(10.0, (Double($0) / 10.0 - 70.0 + 0.691) / 10.0) }
    static let relativeGateFactor = pow(10.0, -10.0 / 10.0)

    /// Counts a block of `energy` (channel-weighted mean square); blocks under -70 LUFS are not counted.
    mutating func add(energy: Double) {
        guard energy >= Self.boundaries[0] else { return }
        counts[Self.bin(energy)] += 1
    }

    /// The bin of `energy`, by libebur128's bisection (energies over +30 LUFS in the last).
    static func bin(_ energy: Double) -> Int {
        var low = 0, high = 1000
        repeat {
            let mid = (low + high) / 2
            if energy >= boundaries[mid] { low = mid } else { high = mid }
        } while high - low != 1
        return low
    }

    /// The integrated loudness in LUFS; -inf when no block passes the gates.
    var integrated: Double { Self.integrated([self]) }

    /// The integrated loudness of the blocks of `histograms` together, in LUFS; -inf when none passes the gates.
    static func integrated(_ histograms: [BlockHistogram]) -> Double {
        var relative = 0.0
        var count = 0
        for histogram in histograms {
            for j in 0..<1000 {
                relative += Double(histogram.counts[j]) * energies[j]
                count += histogram.counts[j]
            }
        }
        guard count > 0 else { return -.infinity }
        relative /= Double(count)
        relative *= relativeGateFactor
        var start = 0
        if relative >= boundaries[0] {
            start = bin(relative)
            if relative > energies[start] { start += 1 }
        }
        var gated = 0.0
        count = 0
        for histogram in histograms {
            for j in start..<1000 {
                gated += Double(histogram.counts[j]) * energies[j]
                count += histogram.counts[j]
            }
        }
        guard count > 0 else { return -.infinity }
        gated /= Double(count)
        // libebur128's ebur128_energy_to_loudness, to the last bit
        return 10 * (log(gated) / log(10.0)) - 0.691
    }
}
