import AudioCore
import DSP
import Foundation

/// What the limiter will take off the mix at a gain, predicted from pass 1's own data (its
/// gating-block energies and hop peaks), without rendering anything.
///
/// Each 100 ms hop is modelled by two levels the limiter reacts to: its true peak `p` (pass 1's
/// hop bound), assumed in the hop's middle, and the peak a steady signal of the hop's energy
/// reaches within every release time constant, `q` (its RMS × ``steadyCrest``, at most `p`).
/// At gain `G`, with `T` the level the limiter holds:
/// - the whole hop is held at ``held`` (60 %) of the dip to `min(1, T / (G q))`: what a
///   dense signal (noise, a voice) loses between the peaks that reach the ceiling;
/// - from the peak on, the gain dips further to `min(1, T / (G p))` and comes back along the
///   limiter's release (`TruePeakLimiter`'s one-pole curve, 50 ms), carried into the next hop:
///   what a transient (a bell, a drop) loses.
/// A hop's mean squared gain scales the energy of the gating blocks over it (each by the mean
/// of its 4 hops), and `BlockGating` gives the integrated loudness. The model only aims the
/// gain: the encode pass measures what was delivered, and `LoudnessLoop` encodes again when
/// it missed by more than ``LoudnessPlan/acceptance``.
struct LimiterModel {
    let blockEnergies: [Double]
    let hopPeaks: [Float]
    /// The level the limiter holds (linear): its ceiling less its safety margin.
    let threshold: Double
    /// The steady level of each hop (linear): `q` above.
    private let steady: [Double]

    /// The peak over one release time constant of a steady signal, as a factor of its RMS: about
    /// the largest of 2400 Gaussian samples (√(2 ln 2400) ≈ 3.95), 8× oversampled.
    static let steadyCrest = 3.95
    /// The share of the steady level's dip the limiter holds through a hop: between the peaks
    /// that reach it, its gain comes back along the release (noise and voices peak about
    /// every 10–30 ms).
    static let held = 0.6
    /// A hop's true peak over its sample peak, where only the sample peak is known (about 1 dB).
    static let samplePeakAllowance: Float = 1.12
    /// The limiter's release time constant (s) and the hop (s).
    static let release = 0.050
    static let hopSeconds = 0.1

    init(_ measured: Measurement, ceiling: Double, channels: Int) {
        blockEnergies = measured.blockEnergies
        threshold = Gain.linear(dB: ceiling - TruePeakLimiter.safetyMarginDB)
        // a bound more than 6 dB under the loudest peak may be the sample peak × the interpolator's
        // worst overshoot (7 dB): such a hop's level is its sample peak and a little more
        let exact = Float(Gain.linear(dB: measured.truePeak)) * SpanMeter.exactAbove
        let samplePeaks = measured.hopSamplePeaks
        let peaks = measured.hopPeaks.indices.map { h in
            let bound = measured.hopPeaks[h]
            guard bound <= exact, h < samplePeaks.count else { return bound }
            return min(bound, samplePeaks[h] * Self.samplePeakAllowance)
        }
        hopPeaks = peaks
        let energies = measured.blockEnergies
        let count = energies.count
        steady = peaks.indices.map { h in
            // the quietest gating block over the hop: a transient inside it raises them all
            var energy = Double.infinity
            for e in (h + 1)...(h + 4) where e >= 4 && e < count { energy = min(energy, energies[e]) }
            guard energy.isFinite else { return 0 }
            // a signal that stays over the level of both hops beside it (a voice, a tone, noise) peaks
            // again and again in this one: the limiter holds the hop at least there
            let around = min(peaks[max(0, h - 1)], peaks[min(peaks.count - 1, h + 1)])
            return min(Double(peaks[h]), max(Double(around), (energy / Double(max(1, channels))).squareRoot() * Self.steadyCrest))
        }
    }

    /// The mean of (base − D e^(−t/τ))² over half a hop (τ the release).
    private static func half(base: Double, dip: Double) -> Double {
        let l = hopSeconds / 2, tau = release
        let a1 = tau / l * (1 - exp(-l / tau)), a2 = tau / (2 * l) * (1 - exp(-2 * l / tau))
        return base * base - 2 * base * dip * a1 + dip * dip * a2
    }

    /// Each hop's mean squared gain through the limiter at `gain` (linear), 1 where it is idle.
    func hopGains(gain: Double) -> [Double] {
        let level = threshold / gain
        let decay = exp(-Self.hopSeconds / 2 / Self.release)
        var out = [Double](repeating: 1, count: hopPeaks.count)
        // the gain at the end of the hop before
        var previous = 1.0
        for h in hopPeaks.indices {
            let p = Double(hopPeaks[h])
            guard p > level || previous < 1 else { continue }
            let base = steady[h] > level ? 1 - Self.held * (1 - level / steady[h]) : 1
            let atPeak = p > level ? level / p : 1
            let carried = max(0, base - previous)
            let dip = max(max(0, base - atPeak), carried * decay)
            out[h] = (Self.half(base: base, dip: carried) + Self.half(base: base, dip: dip)) / 2
            let end = base - dip * decay
            previous = end > 1 - 1e-4 ? 1 : end
        }
        return out
    }

    /// The integrated loudness (LUFS) of the mix × `gainDB` through the limiter, as modelled.
    func loudness(gainDB: Double) -> Double {
        let gain = Gain.linear(dB: gainDB)
        let squared = gain * gain
        let hops = hopGains(gain: gain)
        let energies = blockEnergies
        return BlockGating.integrated(blocks: 4..<energies.count) { e in
            var sum = 0.0
            var n = 0
            for h in (e - 4)..<e where h >= 0 && h < hops.count {
                sum += hops[h]
                n += 1
            }
            return energies[e] * squared * (n > 0 ? sum / Double(n) : 1)
        }
    }
}
