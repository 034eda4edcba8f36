import AudioCore
import AudioIO
import DSP
import Foundation
import Recipe

/// Integrated loudness (libebur128) and true peak (4× oversampled) of a stream.
struct LoudnessMeasurement {
    private let loudnessMeter: LoudnessMeter
    private let peakMeter: TruePeakMeter

    init(channels: Int, sampleRate: Int) throws(AudioError) {
        loudnessMeter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false)
        peakMeter = TruePeakMeter(channels: channels)
    }

    func add(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        try StageClock.shared.time(.analysis) { () throws(AudioError) in
            try loudnessMeter.add(samples, frames: frames)
            peakMeter.add(samples, frames: frames)
        }
    }

    /// (LUFS, dBTP); -inf for silence.
    func finish() -> (loudness: Double, truePeak: Double) {
        (loudnessMeter.integratedLoudness(), peakMeter.finish())
    }
}

/// The gain that brings a mix to its loudness target, found by measuring before encoding.
///
/// Pass 1 measures the mix's integrated loudness and true peak. The gain
/// `target − measured` is applied as one constant (no gain riding: fades and
/// quiet passages keep their shape). Where that gain would push the true peak
/// over the ceiling, the look-ahead limiter is needed; it lowers loudness a
/// little, so a further analysis pass measures the limited mix and corrects
/// the gain, until the result is within 0.1 LU of the target.
struct LoudnessPlan {
    /// Linear gain applied before the limiter.
    var gain: Float
    /// Whether the limiter runs in the final pass, and the level it holds, in dBTP.
    var limit: Bool
    var limiterCeiling: Double
    /// Analysis passes run (for the report).
    var passes: Int
    /// Integrated loudness (LUFS) and true peak (dBTP) of the mix with this gain (and
    /// limiter): measured, or for a plain gain exactly the measurement shifted by it,
    /// so the encode pass needs no meters of its own.
    var loudness: Double
    var truePeak: Double

    /// Headroom kept under the ceiling: true-peak meters differ by a few tenths of a dB
    /// (libebur128 and FFmpeg's ebur128 filter oversample with different filters),
    /// so the limiter aims this far below and a plain gain must stay this far below.
    static let margin = 0.3
    /// Analysis passes with the limiter, at most, to settle the gain.
    static let maximumLimitedPasses = 6

    /// Loudness and true peak of the unprocessed mix (pass 1).
    static func measure(pass: AnalysisPass) throws(AudioError) -> (loudness: Double, truePeak: Double) {
        try pass.run()
    }

    /// The gain (and limiter) for `target` under `ceiling`, given pass 1's measurement.
    static func plan(
        measured: (loudness: Double, truePeak: Double), target: Double, ceiling: Double, pass: AnalysisPass
    ) throws(AudioError) -> LoudnessPlan {
        var measured = measured
        var passes = 1
        if !measured.loudness.isFinite && measured.truePeak.isFinite {
            // Quieter than BS.1770's absolute gate (-70 LUFS) but not silent: measure it
            // raised to a -6 dBTP peak, where the gate lets it through, and scale back.
            // The relative gate follows the signal, so the result is the mix's own loudness.
            let probeDB = -6 - measured.truePeak
            let (probed, _) = try pass.run(gain: Float(Gain.linear(dB: probeDB)))
            passes += 1
            measured.loudness = probed - probeDB
        }
        guard measured.loudness.isFinite else {
            // digital silence: there is no level to bring to the target (the caller reports it)
            return LoudnessPlan(
                gain: 1, limit: false, limiterCeiling: ceiling - margin, passes: passes, loudness: measured.loudness,
                truePeak: measured.truePeak)
        }
        var gainDB = target - measured.loudness
        guard measured.truePeak + gainDB > ceiling - margin else {
            // BS.1770 loudness and true peak scale exactly with a constant gain (the gates are relative)
            let gain = Float(Gain.linear(dB: gainDB))
            let applied = Gain.decibels(linear: Double(gain))
            return LoudnessPlan(
                gain: gain, limit: false, limiterCeiling: ceiling - margin, passes: passes,
                loudness: measured.loudness + applied, truePeak: measured.truePeak + applied)
        }
        // The limited loudness grows more slowly than the gain (the limiter takes
        // back part of it), so the gain is corrected by the secant through the
        // last two tries rather than by the plain error.
        var previous: (gain: Double, loudness: Double)?
        var best: LoudnessPlan?
        for _ in 0..<maximumLimitedPasses {
            let gain = Float(Gain.linear(dB: gainDB))
            let (limited, peak) = try pass.run(gain: gain, limiterCeiling: ceiling - margin)
            passes += 1
            // the plan keeps a gain that was measured: the encode pass renders exactly this signal
            let tried = LoudnessPlan(
                gain: gain, limit: true, limiterCeiling: ceiling - margin, passes: passes, loudness: limited, truePeak: peak)
            if best == nil || abs(target - limited) < abs(target - best!.loudness) { best = tried }
            best!.passes = passes
            let error = target - limited
            if abs(error) < 0.05 || !limited.isFinite { break }
            var slope = 1.0
            if let previous, gainDB != previous.gain {
                let rise = (limited - previous.loudness) / (gainDB - previous.gain)
                // the limiter is saturated: more gain only squares the wave off, the level stays
                // (the caller reports a target this mix cannot reach under its ceiling)
                if error > 0, rise < 0.02 { break }
                slope = min(1, max(0.05, rise))
            }
            previous = (gainDB, limited)
            gainDB += min(24, error / slope)
        }
        return best!
    }
}

extension LoudnessPlan {
    /// How far from its target a finished track may be: ±0.5 LU (recipe-v1 § Output).
    static let tolerance = 0.5

    /// Why a track of `loudness` LUFS and `truePeak` dBTP breaks its contract (the target
    /// ±0.5 LU, the true peak at most `ceiling`), in words an author acts on; nil when it keeps it.
    static func shortfall(
        loudness: Double, truePeak: Double, target: Double, ceiling: Double, limited: Bool, format: AudioFormat,
        loweredCeiling: Double?
    ) -> String? {
        let want = String(format: "%g LUFS", target)
        let peakText = String(format: "%g dBTP", ceiling)
        guard loudness.isFinite else {
            return "the mix is silent, so there is no level to bring to \(want); give it a bed or cues, or set 'loudness: off'"
        }
        let reached = String(format: "%.2f LUFS", loudness)
        if truePeak > ceiling + 1e-9 {
            return String(
                format: "the %@ file's true peak is %.2f dBTP, over the ceiling of %@, and no lower limiter setting kept it under; raise output.true_peak or lower output.loudness",
                format.rawValue, truePeak, peakText)
        }
        guard abs(loudness - target) <= tolerance else {
            if loudness < target && limited {
                let overshoot = loweredCeiling.map {
                    String(format: " (the %@ decoder's peaks overshoot the limited signal, so the limiter had to hold %.2f dBTP)", format.rawValue, $0)
                } ?? ""
                return String(
                    format: "cannot reach %@ under the true-peak ceiling of %@: the limiter brings this mix to %@ at most%@; lower output.loudness to %.0f LUFS or below, or raise output.true_peak",
                    want, peakText, reached, overshoot, (loudness - tolerance).rounded(.down))
            }
            return "the track measures \(reached), not \(want) ±\(tolerance) LU, and the gain could not be corrected; lower output.loudness or raise output.true_peak"
        }
        return nil
    }
}

/// The limiter in the render loop: N frames in, the same N frames out, time-aligned.
struct LimiterStage {
    private let limiter: LatencyCompensatedLimiter
    private let channels: Int

    init(channels: Int, sampleRate: Int, ceiling: Double) {
        self.channels = channels
        self.limiter = LatencyCompensatedLimiter(channels: channels, sampleRate: sampleRate, ceilingDBTP: ceiling)
    }

    /// Renders the whole mix through gain and limiter, handing aligned blocks to `sink`.
    func run(
        mix: inout MixSource, gain: Float, block: inout [Float],
        sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void
    ) throws(AudioError) {
        while true {
            let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try mix.render(into: p) }
            if n == 0 { break }
            try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in
                let ready = StageClock.shared.time(.limiter) { limiter.process(p, frames: n, preGain: gain) }
                if ready > 0 { try sink(UnsafeBufferPointer(rebasing: p[0..<(ready * channels)]), ready) }
            }
        }
        try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in
            let rest = limiter.finish(into: p)
            if rest > 0 { try sink(UnsafeBufferPointer(rebasing: p[0..<(rest * channels)]), rest) }
        }
    }
}
