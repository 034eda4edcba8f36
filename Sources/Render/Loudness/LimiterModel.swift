import AudioCore
import DSP
import Foundation

/// What the limiter will take off the mix at a gain, from pass 1's own data, without rendering
/// anything.
///
/// Pass 1 runs the limiter's envelope (`LimiterProbe`: the sliding minimum of the required gain
/// over the attack window, the 50 ms release, the moving average over the ramp) on the true
/// peaks it interpolates, at 8 thresholds 1, 3, …, 15 dB under the loudest level seen so far,
/// and keeps for every 100 ms hop the share of its energy the limiter leaves at each,
/// Σ(g²x²) / Σx². A limiter holding `T` after a gain `G` is the limiter holding `T / G` before
/// it, so at a gain the model reads each hop's share at `T / G`, linearly between the two
/// thresholds around it (in dB; above the highest, toward 1 at the hop's own true peak; under
/// the lowest, along the last two). A hop's share scales the energy of the gating blocks over
/// it (each by the mean of its 4 hops), and `BlockGating` gives the integrated loudness.
/// The model only aims the gain: the encode pass measures what was delivered, and
/// `LoudnessLoop` encodes again when it missed by more than ``LoudnessPlan/acceptance``.
struct LimiterModel {
    let blockEnergies: [Double]
    /// The level the limiter holds (linear): its ceiling less its safety margin.
    let threshold: Double
    private let probes: Measurement.Probes
    /// Each probed hop's true peak (dB): where its share reaches 1.
    private let peaksDB: [Double]
    private let hopCount: Int
    /// Each hop's energy (the probe's Σx²): weights of the hops' shares in a gating block.
    private let hopEnergies: [Float]
    /// The thresholds' depths under a hop's base (dB), highest threshold first.
    private let depths = LimiterProbe.depthsDB

    init(_ measured: Measurement, ceiling: Double, channels: Int) {
        blockEnergies = measured.blockEnergies
        threshold = Gain.linear(dB: ceiling - TruePeakLimiter.safetyMarginDB)
        probes = measured.probes
        hopCount = measured.hopPeaks.count
        hopEnergies = measured.hopEnergies
        peaksDB = measured.probes.hops.map { hop in
            let peak = Int(hop) < measured.hopPeaks.count ? measured.hopPeaks[Int(hop)] : 0
            return peak > 0 ? Gain.decibels(linear: Double(peak)) : -.infinity
        }
    }

    /// The share of a probed hop's energy the limiter leaves when it holds `levelDB` (dB, the mix's scale).
    ///
    /// Read in dB (10 log of the share) against the threshold in dB: between thresholds, a line;
    /// above the highest, a line to 0 dB at the hop's true peak; under the lowest, the line of the
    /// last two, at most 1 dB per dB (deep under its peaks, the limiter's output approaches a fixed
    /// level: its share falls as fast as the gain rises, no faster).
    func kept(_ i: Int, levelDB: Double) -> Double {
        let baseDB = Gain.decibels(linear: Double(probes.bases[i]))
        let levels = LimiterProbe.levels
        func share(_ k: Int) -> Double { 10 * log10(max(1e-6, Double(probes.share(i, k)))) }
        let highest = baseDB - depths[0]
        if levelDB >= highest {
            // above the thresholds: toward 1 at the hop's true peak (or one step up when it is under the highest)
            let top = max(peaksDB[i], highest + (depths[1] - depths[0]))
            guard levelDB < top else { return 1 }
            return pow(10, share(0) * (top - levelDB) / (top - highest) / 10)
        }
        var k = 1
        while k < levels - 1 && levelDB < baseDB - depths[k] { k += 1 }
        // between thresholds k − 1 and k (or along them past the lowest)
        let (x0, x1) = (baseDB - depths[k - 1], baseDB - depths[k])
        let (y0, y1) = (share(k - 1), share(k))
        let slope = min(1, max(0, (y0 - y1) / (x0 - x1)))
        let y = levelDB >= x1 ? y1 + (y0 - y1) * (levelDB - x1) / (x0 - x1) : y1 + slope * (levelDB - x1)
        return min(1, pow(10, y / 10))
    }

    /// Each hop's share of its energy through the limiter at `gain` (linear), 1 where it is idle.
    func hopGains(gain: Double) -> [Double] {
        let levelDB = Gain.decibels(linear: threshold / gain)
        var out = [Double](repeating: 1, count: hopCount)
        for i in 0..<probes.count where Int(probes.hops[i]) < hopCount { out[Int(probes.hops[i])] = kept(i, levelDB: levelDB) }
        return out
    }

    /// The integrated loudness (LUFS) of the mix × `gainDB` through the limiter, as modelled.
    func loudness(gainDB: Double) -> Double {
        let gain = Gain.linear(dB: gainDB)
        let squared = gain * gain
        let hops = hopGains(gain: gain)
        let energies = blockEnergies
        return BlockGating.integrated(blocks: 4..<energies.count) { e in
            // the block's share: its hops' shares weighted by their energies (a syllable or a bell
            // in one hop of four carries the block), or their mean where the energies are not known
            var kept = 0.0, total = 0.0, sum = 0.0
            var n = 0
            for h in (e - 4)..<e where h >= 0 && h < hops.count {
                let w = h < hopEnergies.count ? Double(hopEnergies[h]) : 0
                kept += hops[h] * w
                total += w
                sum += hops[h]
                n += 1
            }
            let share = total > 0 ? kept / total : (n > 0 ? sum / Double(n) : 1)
            return energies[e] * squared * share
        }
    }
}
