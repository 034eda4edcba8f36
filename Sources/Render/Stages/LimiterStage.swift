import AudioCore
import DSP

/// Gain, then the true-peak limiter: N frames in, the same N frames out, time-aligned.
///
/// The limiter looks 1.5 ms ahead, so the first blocks give back fewer frames and
/// `drain` the rest (`LatencyCompensatedLimiter`).
final class LimiterStage: Stage {
    private let limiter: LatencyCompensatedLimiter
    private let gain: Float

    /// `ceiling`: the true peak (dBTP) the limiter holds; `gain`: linear, applied before it.
    init(gain: Float, ceiling: Double, channels: Int, sampleRate: Int) {
        self.gain = gain
        self.limiter = LatencyCompensatedLimiter(channels: channels, sampleRate: sampleRate, ceilingDBTP: ceiling)
    }

    /// True while no gain reduction is pending: from here the output is the input × gain, bit for bit.
    var isIdle: Bool { limiter.limiter.isIdle }

    /// The last output frame the limiter reduced so far (from the stream's first), negative while none:
    /// the frames after it are the input × gain, bit for bit.
    var lastReducedFrame: Int64 { limiter.limiter.lastReducedFrame }

    func flow(_ block: UnsafeMutableBufferPointer<Float>, frames: Int) -> Int {
        StageClock.shared.time(.limiter) { limiter.process(block, frames: frames, preGain: gain) }
    }

    func drain(into block: UnsafeMutableBufferPointer<Float>) -> Int {
        limiter.finish(into: block)
    }
}
