import AudioCore
import AudioIO
import DSP
import Foundation

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
        guard measured.loudness.isFinite else {
            // silence (or below the gate): nothing to normalize
            return LoudnessPlan(
                gain: 1, limit: false, limiterCeiling: ceiling - margin, passes: 1, loudness: measured.loudness,
                truePeak: measured.truePeak)
        }
        var gainDB = target - measured.loudness
        guard measured.truePeak + gainDB > ceiling - margin else {
            // BS.1770 loudness and true peak scale exactly with a constant gain (the gates are relative)
            let gain = Float(Gain.linear(dB: gainDB))
            let applied = Gain.decibels(linear: Double(gain))
            return LoudnessPlan(
                gain: gain, limit: false, limiterCeiling: ceiling - margin, passes: 1,
                loudness: measured.loudness + applied, truePeak: measured.truePeak + applied)
        }
        // The limited loudness grows more slowly than the gain (the limiter takes
        // back part of it), so the gain is corrected by the secant through the
        // last two tries rather than by the plain error.
        var passes = 1
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
                slope = min(1, max(0.05, (limited - previous.loudness) / (gainDB - previous.gain)))
            }
            previous = (gainDB, limited)
            gainDB += min(24, error / slope)
        }
        return best!
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
