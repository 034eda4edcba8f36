import AudioCore
import AudioIO
import DSP

/// The gain that brings a mix to its loudness target, and whether the limiter must hold its peaks.
///
/// The gain `target − measured` is one constant (no gain riding: fades and quiet
/// passages keep their shape). When that gain would push the true peak over the
/// ceiling, the look-ahead limiter runs in the encode pass; it takes back a little
/// loudness, so the gain is raised by what `LimiterModel` predicts it takes, from pass 1's
/// own blocks and its run of the limiter's envelope (`LimiterProbe`), with nothing rendered. The encode pass measures what it
/// delivers; `LoudnessLoop` accepts it within ``acceptance`` of the target and otherwise
/// encodes again with the gain corrected by the measured miss.
struct LoudnessPlan {
    /// Linear gain, applied before the limiter.
    var gain: Float
    /// The true peak the limiter holds (dBTP), when it runs.
    var limiterCeiling: Double?
    /// The encoded signal's integrated loudness (LUFS): pass 1's shifted by the gain, or the model's.
    var loudness: Double
    /// Its true peak (dBTP) when known before encoding: a plain gain shifts pass 1's exactly;
    /// a limited signal's is measured while encoding.
    var truePeak: Double?
    /// How fast the limited loudness rises with the gain there (LU per dB, the model's):
    /// a measured miss is corrected by miss / slope.
    var slope = 1.0
    /// The loudness (LUFS) the gain alone would give, without the limiter: what the limiter takes
    /// off is this less `loudness`.
    var plainLoudness: Double?
    /// Pass 1's hop window energies (`Measurement.hopWindows`), for a limited plan: the encode
    /// pass K-filters only the hops the limiter touches (`LimitedGatingMeter`).
    var passOne: [Double] = []
    /// Pass 1's bounds on each hop's true peak (`Measurement.hopPeaks`), for a limited plan: the
    /// encode pass's true-peak meter skips what the limiter left alone and cannot beat its peak.
    var passOnePeaks: [Float] = []

    var limit: Bool { limiterCeiling != nil }

    /// Headroom kept under the ceiling: true-peak meters differ by a few tenths of a dB
    /// (libebur128 and FFmpeg's ebur128 filter oversample with different filters),
    /// so the limiter aims this far below and a plain gain must stay this far below.
    static let margin = 0.3

    /// The highest decoded true peak (dBTP) an encoding passes with, for a recipe's `true_peak`:
    /// half the limiter's margin under it (what `AACRepair` repairs down to, and past which
    /// `LoudnessLoop` encodes again).
    static func allowedPeak(_ truePeakCeiling: Double) -> Double { truePeakCeiling - margin / 2 }
    /// How close to the target (LU) a limited encoding must measure to be kept without
    /// encoding again; the spec allows ``tolerance`` (0.5).
    static let acceptance = 0.3
    /// The span of gain (dB) over the plain gain that the model is searched over.
    static let searchSpan = 24.0

    /// The encode pass's stages for this plan: the limiter (with the gain), or the gain alone.
    func stages(channels: Int, sampleRate: Int) -> [any Stage] {
        if let limiterCeiling { return [LimiterStage(gain: gain, ceiling: limiterCeiling, channels: channels, sampleRate: sampleRate)] }
        return gain == 1 ? [] : [GainStage(gain: gain, channels: channels)]
    }

    /// The plan for `target` LUFS under `ceiling` dBTP, given pass 1's measurement.
    static func plan(_ measured: Measurement, target: Double, ceiling: Double, channels: Int) -> LoudnessPlan {
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
        let model = LimiterModel(measured, ceiling: limiterCeiling, channels: channels)
        var plan = search(target: target, from: gainDB, ceiling: limiterCeiling) { model.loudness(gainDB: $0) }
        plan.plainLoudness = loudness + Gain.decibels(linear: Double(plan.gain))
        plan.passOne = measured.hopWindows
        plan.passOnePeaks = measured.hopPeaks
        return plan
    }

    /// The gain (from `startDB`, the plain gain) that brings the limited mix to `target`, on
    /// `model`'s loudness against gain (dB): no rendering, so the search is exhaustive.
    ///
    /// The gain is stepped up by 0.5 dB over ``searchSpan`` until the model reaches the target,
    /// then that step is bisected. A target the model never reaches gets the gain where it is
    /// loudest: the plan's loudness is then the most the limiter brings this mix to, which the
    /// contract reports when it is more than the tolerance short.
    static func search(target: Double, from startDB: Double, ceiling limiterCeiling: Double, model: (Double) -> Double) -> LoudnessPlan {
        func plan(_ gainDB: Double) -> LoudnessPlan {
            let gain = Float(Gain.linear(dB: gainDB))
            let applied = Gain.decibels(linear: Double(gain))
            let reached = model(applied)
            let rise = (model(applied + 0.25) - model(applied - 0.25)) / 0.5
            return LoudnessPlan(
                gain: gain, limiterCeiling: limiterCeiling, loudness: reached, truePeak: nil,
                slope: rise.isFinite ? min(1, max(0.05, rise)) : 1)
        }
        var below = startDB
        var loudest = (gain: startDB, loudness: model(startDB))
        guard loudest.loudness < target else { return plan(startDB) }
        var above: Double?
        for step in 1...Int(searchSpan * 2) {
            let gainDB = startDB + Double(step) * 0.5
            let reached = model(gainDB)
            if reached >= target {
                above = gainDB
                break
            }
            below = gainDB
            if reached > loudest.loudness { loudest = (gainDB, reached) }
        }
        guard var above else { return plan(loudest.gain) }
        for _ in 0..<30 {
            let middle = (below + above) / 2
            if model(middle) >= target { above = middle } else { below = middle }
        }
        return plan(above)
    }
}
