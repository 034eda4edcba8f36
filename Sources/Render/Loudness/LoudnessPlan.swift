import AudioCore
import AudioIO
import DSP

/// The gain that brings a mix to its loudness target, and whether the limiter must hold its peaks.
///
/// The gain `target − measured` is one constant (no gain riding: fades and quiet
/// passages keep their shape). When that gain would push the true peak over the
/// ceiling, the look-ahead limiter runs in the encode pass; it takes back a little
/// loudness, so the gain is corrected until the limited mix is within 0.05 LU of the
/// target, each try measured by `LimitedLoudness` (pass 1's blocks, and the few the
/// limiter touches rendered again), never by another whole pass. The search first aims
/// with estimates (every 4th stretch rendered, a quarter of the cost), then measures
/// exactly: a bed the limiter holds for minutes costs 2 exact tries instead of 4.
struct LoudnessPlan {
    /// Linear gain, applied before the limiter.
    var gain: Float
    /// The true peak the limiter holds (dBTP), when it runs.
    var limiterCeiling: Double?
    /// The encoded signal's integrated loudness (LUFS): pass 1's shifted by the gain, or the correction's.
    var loudness: Double
    /// Its true peak (dBTP) when known before encoding: a plain gain shifts pass 1's exactly;
    /// a limited signal's is measured while encoding.
    var truePeak: Double?
    /// Frames rendered again to correct the gain under the limiter.
    var remeasured: Int64 = 0

    var limit: Bool { limiterCeiling != nil }

    /// Headroom kept under the ceiling: true-peak meters differ by a few tenths of a dB
    /// (libebur128 and FFmpeg's ebur128 filter oversample with different filters),
    /// so the limiter aims this far below and a plain gain must stay this far below.
    static let margin = 0.3

    /// The highest decoded true peak (dBTP) an encoding passes with, for a recipe's `true_peak`:
    /// half the limiter's margin under it (what `AACRepair` repairs down to, and past which
    /// `LoudnessLoop` encodes again).
    static func allowedPeak(_ truePeakCeiling: Double) -> Double { truePeakCeiling - margin / 2 }
    /// Gains tried under the limiter, at most, and how many of them may be estimates: a search
    /// converges in 2 to 5 exact tries; the rest is room for bisecting a bracket.
    static let maximumTries = 16
    static let maximumEstimates = 4
    /// The span of gain (dB) over which a limited loudness that rises by less than 0.02 LU per dB
    /// counts as saturated: below it, a flat stretch may be a step too small to measure.
    static let saturationSpan = 6.0
    /// How close to the target the limited loudness must come (LU): the spec allows 0.5.
    static let searchTolerance = 0.05
    /// An estimate this close to the target (LU) hands over to exact tries: estimates stray
    /// by up to about 0.1 LU, so a closer one cannot aim the next gain much better than an
    /// exact try, which is what the plan needs anyway.
    static let estimateReach = 0.25

    /// The encode pass's stages for this plan: the limiter (with the gain), or the gain alone.
    func stages(channels: Int, sampleRate: Int) -> [any Stage] {
        if let limiterCeiling { return [LimiterStage(gain: gain, ceiling: limiterCeiling, channels: channels, sampleRate: sampleRate)] }
        return gain == 1 ? [] : [GainStage(gain: gain, channels: channels)]
    }

    /// The plan for `target` LUFS under `ceiling` dBTP, given pass 1's measurement.
    static func plan(
        _ measured: Measurement, target: Double, ceiling: Double, limited: (Double) -> LimitedLoudness
    ) throws(AudioError) -> LoudnessPlan {
        var loudness = measured.loudness
        if !loudness.isFinite && measured.truePeak.isFinite {
            // Quieter than BS.1770's absolute gate (-70 LUFS) but not silent: gate the blocks
            // as if raised to a -6 dBTP peak, and scale back. The relative gate follows the
            // signal, so the result is the mix's own loudness.
            let probeDB = -6 - measured.truePeak
            let squared = Gain.linear(dB: 2 * probeDB)
            let energies = measured.blockEnergies
            loudness = BlockGating.integrated(blocks: 4..<energies.count) { energies[$0] * squared } - probeDB
        }
        guard loudness.isFinite else {
            // digital silence: there is no level to bring to the target (the caller reports it)
            return LoudnessPlan(gain: 1, limiterCeiling: nil, loudness: loudness, truePeak: measured.truePeak)
        }
        let gainDB = target - loudness
        let limiterCeiling = ceiling - margin
        guard measured.truePeak + gainDB > limiterCeiling else {
            // BS.1770 loudness and true peak scale exactly with a constant gain (the gates are relative)
            let gain = Float(Gain.linear(dB: gainDB))
            let applied = Gain.decibels(linear: Double(gain))
            return LoudnessPlan(
                gain: gain, limiterCeiling: nil, loudness: loudness + applied, truePeak: measured.truePeak + applied)
        }
        let correction = limited(limiterCeiling)
        return try search(target: target, from: gainDB, ceiling: limiterCeiling) { (gainDB, every) throws(AudioError) in
            try correction.loudness(gainDB: gainDB, every: every)
        }
    }

    /// The gain (from `startDB`) that brings the limited mix to `target`: `measure` gives the
    /// limited loudness at a gain (dB) and whether it is exact (`every` > 1 asks for an estimate).
    ///
    /// The limited loudness grows more slowly than the gain (the limiter takes back part of
    /// it), so the gain is corrected by the secant through the last two tries rather than by
    /// the plain error. Exact tries on either side of the target bracket it: a correction
    /// that would leave the bracket bisects it instead, so the search closes in on any target
    /// the limiter can reach. A target is given up only when the loudness, below it, rose by
    /// less than 0.02 LU per dB over at least ``saturationSpan`` of gain: the limiter is
    /// saturated (more gain only squares the wave off), and the plan's loudness, the highest
    /// measured, is what the caller reports as the most this mix reaches.
    static func search(
        target: Double, from startDB: Double, ceiling limiterCeiling: Double,
        measure: (Double, Int) throws(AudioError) -> (loudness: Double, remeasured: Int64, exact: Bool)
    ) throws(AudioError) -> LoudnessPlan {
        var gainDB = startDB
        var previous: (gain: Double, loudness: Double, exact: Bool)?
        // the slope the estimates found: the first exact try's correction follows it
        var estimatedSlope: Double?
        var best: LoudnessPlan?
        var remeasured: Int64 = 0
        // exact tries: the highest gain that fell short of the target, the lowest that passed it
        var below: Double?
        var above: Double?
        // the search runs on estimates from every 4th stretch until they agree with the
        // target, then on exact tries; the plan keeps exact tries only
        var estimates = 0
        for _ in 0..<maximumTries {
            let gain = Float(Gain.linear(dB: gainDB))
            let applied = Gain.decibels(linear: Double(gain))
            let (reached, frames, exact) = try measure(applied, estimates < maximumEstimates ? 4 : 1)
            remeasured += frames
            let error = target - reached
            if exact {
                // the plan keeps a gain that was measured: the encode pass renders exactly this signal
                let tried = LoudnessPlan(gain: gain, limiterCeiling: limiterCeiling, loudness: reached, truePeak: nil)
                if best.map({ abs(error) < abs(target - $0.loudness) }) ?? true { best = tried }
                if abs(error) < searchTolerance || !reached.isFinite { break }
                if error > 0 {
                    below = max(below ?? applied, applied)
                } else {
                    above = min(above ?? applied, applied)
                }
            } else {
                estimates += 1
            }
            var slope = estimatedSlope ?? 1
            var flat = false
            if let previous, previous.exact == exact, applied != previous.gain {
                let rise = (reached - previous.loudness) / (applied - previous.gain)
                if exact, error > 0, rise < 0.02 {
                    // nearly flat below the target: saturated if it stays so over a wide span of gain
                    if abs(applied - previous.gain) >= saturationSpan && above == nil { break }
                    flat = true
                }
                slope = min(1, max(0.05, rise))
                if !exact { estimatedSlope = slope }
            }
            previous = (applied, reached, exact)
            // estimates stray by up to about 0.1 LU: one within `estimateReach` has done its work
            // (the next try is exact), and one within the tolerance cannot aim better (the
            // exact try is made at its gain)
            if !exact && abs(error) < estimateReach { estimates = maximumEstimates }
            if !exact && abs(error) < searchTolerance { continue }
            guard reached.isFinite else { continue }
            var next = applied + min(24, error / slope)
            // a flat stretch is checked over a whole span: the next try goes that far above the highest short one
            if flat, let below { next = max(next, below + saturationSpan) }
            if exact, let below, let above, !(below < next && next < above) { next = (below + above) / 2 }
            gainDB = next
        }
        var plan: LoudnessPlan
        if let best {
            plan = best
        } else {
            let gain = Float(Gain.linear(dB: gainDB))
            let (reached, frames, _) = try measure(Gain.decibels(linear: Double(gain)), 1)
            remeasured += frames
            plan = LoudnessPlan(gain: gain, limiterCeiling: limiterCeiling, loudness: reached, truePeak: nil)
        }
        plan.remeasured = remeasured
        return plan
    }
}
