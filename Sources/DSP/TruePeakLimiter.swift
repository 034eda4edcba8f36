import Foundation

/// Holds the true peak of interleaved float audio at or below a ceiling.
///
/// A look-ahead limiter with one gain for all channels. Peaks are found on the
/// 8× oversampled signal by ``TruePeakInterpolator``, so the ceiling holds as that
/// meter (and, within a few hundredths of a dB, a 16× reference) measures it. For each frame:
///
/// 1. the required gain `r = min(1, target / truePeak)` of every inter-sample
///    instant, where `target` sits ``safetyMarginDB`` under the ceiling;
/// 2. the minimum of `r` over a sliding window (a monotonic deque, O(1)
///    amortized) that covers the attack ramp plus the 20 frames each
///    interpolated value is made of;
/// 3. a release: the gain returns toward 1 along a one-pole curve with time
///    constant `release`, but never above that sliding minimum;
/// 4. a moving average over the attack ramp (`lookahead` seconds), so the gain
///    glides down before a peak and every output frame's gain is at or below
///    the `r` of every interpolated value it contributes to.
///
/// Where nothing is near the ceiling the gain is exactly 1, so the output is
/// `input × preGain` bit for bit: the release snaps to 1 once within 1e-4
/// (0.0009 dB), and the moving average sums integer units, so it returns to
/// exactly zero reduction without drift.
///
/// Output lags input by ``latency`` frames. Either discard the first `latency`
/// output frames and append ``flush(into:)``'s output, or use
/// ``LatencyCompensatedLimiter``, which does that for you.
///
/// Memory is allocated once, in `init`; ``process(_:frames:preGain:)`` does not
/// allocate. Fast paths: a chunk whose sample peak is more than 7.0 dB (the
/// interpolator's worst-case overshoot) under the target skips interpolation,
/// and while no reduction is pending such a chunk is only delayed.
public final class TruePeakLimiter {
    /// How far under the ceiling the limiter aims: room for float rounding, for the
    /// gain changing within an interpolation window, and for dither. Measured by
    /// libebur128's 4× meter without it (when the limiter used that meter's filter), the
    /// worst overshoot found was 0.011 dB (noise bursts 40 dB over, 12-frame ramp); with
    /// the default 72-frame ramp, 0.0001 dB.
    public static let safetyMarginDB = 0.02
    /// Frames handled per internal pass; longer calls are split.
    static let chunkFrames = TruePeakInterpolator.chunkFrames
    /// A release deficit (1 − gain) below this snaps to zero, so the gain reaches exactly 1.
    static let releaseSnap = 1e-4
    /// The moving average sums deficits as integers in units of 2⁻⁴⁰, rounded up.
    static let deficitUnit = 0x1p-40
    static let unitsPerDeficit = 1 / deficitUnit

    public let channels: Int
    public let sampleRate: Int
    /// The ceiling, linear.
    public let ceiling: Float
    /// The delay in frames between input and output: the attack ramp plus the
    /// 18 frames the interpolator needs beyond it.
    public let latency: Int
    /// The smallest gain applied to an output frame so far (linear).
    public private(set) var minimumGain: Float = 1
    /// How many output frames had a gain below 1.
    public private(set) var reducedFrames: Int64 = 0
    /// The last frame given a gain below 1, counted in output frames from the first
    /// (input frames less ``latency``); negative while there is none.
    public private(set) var lastReducedFrame: Int64 = -1

    /// The level every interpolated value is held to: the ceiling less the margin.
    private let target: Float
    /// A sample magnitude at or below which no interpolated value can exceed `target`.
    private let quietBound: Float
    /// Frames of the attack ramp: the length of the moving average.
    private let ramp: Int
    /// The per-frame factor of the release deficit, exp(−1 / (release · rate)).
    private let releaseFactor: Double

    private let detector: TruePeakInterpolator
    /// `latency` frames of pre-gained input, then the current chunk; interleaved.
    private let delayLine: UnsafeMutablePointer<Float>

    /// The sliding minimum of the required gain: a ring of (interval, gain) whose gains increase front to back.
    /// Only gains below 1 are kept; an empty deque means 1.
    private let holdFrame: UnsafeMutablePointer<Int64>
    private let holdGain: UnsafeMutablePointer<Float>
    private let holdMask: Int
    private var holdFront = 0
    private var holdCount = 0

    /// The last `ramp` envelope deficits in units of ``deficitUnit``, a ring, and their sum.
    private let averageRing: UnsafeMutablePointer<Int64>
    private var averageIndex = 0
    private var averageSum: Int64 = 0
    /// 1 − the envelope (the sliding minimum with release).
    private var deficit: Double = 0
    /// Input frames taken so far.
    private var position: Int64 = 0

    /// - Parameters:
    ///   - ceilingDBTP: the highest true peak allowed, in dBTP (e.g. -1).
    ///   - lookahead: the attack ramp in seconds; at least 20 frames (the interpolator's reach)
    ///     are used, so the gain never changes abruptly within one interpolated value.
    ///   - release: the time constant in seconds of the gain's return toward 1.
    public init(channels: Int, sampleRate: Int, ceilingDBTP: Double, lookahead: Double = 0.0015, release: Double = 0.050) {
        precondition(channels > 0 && sampleRate > 0, "TruePeakLimiter needs channels and a sample rate")
        precondition(lookahead >= 0 && release > 0, "TruePeakLimiter needs a non-negative look-ahead and a positive release")
        self.channels = channels
        self.sampleRate = sampleRate
        ceiling = Float(Gain.linear(dB: ceilingDBTP))
        target = Float(Gain.linear(dB: ceilingDBTP - Self.safetyMarginDB))
        // Interpolated values stay within worstCaseOvershoot × the largest sample; the
        // extra 1e-4 covers float rounding in the detector's sums.
        quietBound = target / (TruePeakInterpolator.worstCaseOvershoot * 1.0001)
        ramp = max(TruePeakInterpolator.span, Int((lookahead * Double(sampleRate)).rounded()))
        // The gain of output frame t averages envelopes up to t + ramp − 1; each envelope
        // needs the required gain of intervals up to 9 frames later, known 10 frames after that.
        latency = ramp + TruePeakInterpolator.span - 2
        releaseFactor = exp(-1 / (release * Double(sampleRate)))

        detector = TruePeakInterpolator(channels: channels)
        let lineSamples = (latency + Self.chunkFrames) * channels
        delayLine = .allocate(capacity: lineSamples)
        delayLine.initialize(repeating: 0, count: lineSamples)

        var holdCapacity = 1
        while holdCapacity < ramp + TruePeakInterpolator.span { holdCapacity *= 2 }
        holdMask = holdCapacity - 1
        holdFrame = .allocate(capacity: holdCapacity)
        holdFrame.initialize(repeating: 0, count: holdCapacity)
        holdGain = .allocate(capacity: holdCapacity)
        holdGain.initialize(repeating: 1, count: holdCapacity)
        averageRing = .allocate(capacity: ramp)
        averageRing.initialize(repeating: 0, count: ramp)
    }

    deinit {
        delayLine.deallocate()
        holdFrame.deallocate()
        holdGain.deallocate()
        averageRing.deallocate()
    }

    /// Starts a new stream: silence before, statistics cleared.
    public func reset() {
        detector.reset()
        delayLine.update(repeating: 0, count: (latency + Self.chunkFrames) * channels)
        holdFront = 0
        holdCount = 0
        averageRing.update(repeating: 0, count: ramp)
        averageIndex = 0
        averageSum = 0
        deficit = 0
        position = 0
        minimumGain = 1
        reducedFrames = 0
        lastReducedFrame = -1
    }

    /// Applies `preGain` (linear) then limits, in place: `frames` frames of interleaved
    /// samples in `buffer`. Output is delayed by ``latency`` frames.
    public func process(_ buffer: UnsafeMutableBufferPointer<Float>, frames: Int, preGain: Float) {
        precondition(frames >= 0 && buffer.count >= frames * channels, "buffer holds fewer than \(frames) frames")
        guard frames > 0, let base = buffer.baseAddress else { return }
        var done = 0
        while done < frames {
            let n = min(Self.chunkFrames, frames - done)
            processChunk(base + done * channels, frames: n, preGain: preGain)
            done += n
        }
    }

    /// Emits the last ``latency`` frames (feeding zeros) into `buffer`; returns frames written.
    ///
    /// `buffer` must hold `latency` frames. Call ``reset()`` before starting another stream.
    public func flush(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        precondition(buffer.count >= latency * channels, "flush needs room for \(latency) frames")
        guard let base = buffer.baseAddress else { return 0 }
        base.update(repeating: 0, count: latency * channels)
        process(buffer, frames: latency, preGain: 1)
        return latency
    }

    /// True when no reduction is pending: the gain is 1 until a new peak arrives.
    public var isIdle: Bool { holdCount == 0 && deficit == 0 && averageSum == 0 }

    private func processChunk(_ io: UnsafeMutablePointer<Float>, frames: Int, preGain: Float) {
        let samples = frames * channels
        let input = delayLine + latency * channels
        let samplePeak = Self.scale(io, by: preGain, into: input, count: samples)
        let quiet: Bool
        if max(samplePeak, detector.historyPeak) <= quietBound {
            detector.skip(input, frames: frames)
            quiet = true
        } else {
            quiet = detector.detect(input, frames: frames) <= target
        }
        if quiet && isIdle {
            io.update(from: delayLine, count: samples)
        } else {
            limit(io, frames: frames, quiet: quiet)
        }
        UnsafeMutableRawPointer(delayLine).copyMemory(
            from: delayLine + samples, byteCount: latency * channels * MemoryLayout<Float>.stride)
        position += Int64(frames)
    }

    /// The gain computer, one frame at a time; `quiet` means no peak of this chunk needs reduction.
    private func limit(_ io: UnsafeMutablePointer<Float>, frames: Int, quiet: Bool) {
        let peaks = detector.peaks
        let window = Int64(ramp + TruePeakInterpolator.span - 1)
        let unitsPerFrame = Self.deficitUnit / Double(ramp)
        let firstOutput = Int64(latency)
        // State in locals for the loop (stored properties would be reloaded after every store).
        var holdFront = self.holdFront, holdCount = self.holdCount
        var deficit = self.deficit, averageSum = self.averageSum, averageIndex = self.averageIndex
        var reducedFrames = self.reducedFrames, minimumGain = self.minimumGain, lastReduced = self.lastReducedFrame
        for i in 0..<frames {
            let frame = position + Int64(i)
            // The interval [frame − 10, frame − 9.125] whose sub-samples `peaks[i]` holds.
            let interval = frame - Int64(TruePeakInterpolator.delay)
            if !quiet && peaks[i] > target {
                let required = target / peaks[i]
                while holdCount > 0 && holdGain[(holdFront + holdCount - 1) & holdMask] >= required {
                    holdCount -= 1
                }
                let slot = (holdFront + holdCount) & holdMask
                holdFrame[slot] = interval
                holdGain[slot] = required
                holdCount += 1
            }
            // The envelope for frame − 19 may reach intervals [frame − 19 − ramp − 9, frame − 10].
            while holdCount > 0 && holdFrame[holdFront] <= interval - window {
                holdFront = (holdFront + 1) & holdMask
                holdCount -= 1
            }
            var next = deficit * releaseFactor
            if next < Self.releaseSnap { next = 0 }
            if holdCount > 0 { next = max(next, 1 - Double(holdGain[holdFront])) }
            deficit = next

            let scaled = next * Self.unitsPerDeficit
            var units = Int64(scaled)
            if Double(units) < scaled { units += 1 }
            averageSum += units - averageRing[averageIndex]
            averageRing[averageIndex] = units
            averageIndex += 1
            if averageIndex == ramp { averageIndex = 0 }

            let out = io + i * channels
            let delayed = delayLine + i * channels
            if averageSum == 0 {
                for c in 0..<channels { out[c] = delayed[c] }
            } else {
                let gain = Float(1 - Double(averageSum) * unitsPerFrame)
                for c in 0..<channels { out[c] = delayed[c] * gain }
                if gain < 1 && frame >= firstOutput {
                    reducedFrames += 1
                    minimumGain = min(minimumGain, gain)
                    lastReduced = frame - firstOutput
                }
            }
        }
        self.holdFront = holdFront
        self.holdCount = holdCount
        self.deficit = deficit
        self.averageSum = averageSum
        self.averageIndex = averageIndex
        self.reducedFrames = reducedFrames
        self.minimumGain = minimumGain
        self.lastReducedFrame = lastReduced
    }

    /// `output[i] = input[i] × gain` for `count` samples; returns the largest magnitude written.
    private static func scale(
        _ input: UnsafePointer<Float>, by gain: Float, into output: UnsafeMutablePointer<Float>, count: Int
    ) -> Float {
        var peak = SIMD8<Float>()
        var i = 0
        while i + 8 <= count {
            let v = UnsafeRawPointer(input + i).loadUnaligned(as: SIMD8<Float>.self) * gain
            UnsafeMutableRawPointer(output + i).storeBytes(of: v, as: SIMD8<Float>.self)
            peak = TruePeakInterpolator.larger(peak, TruePeakInterpolator.larger(v, -v))
            i += 8
        }
        var result = peak.max()
        while i < count {
            let v = input[i] * gain
            output[i] = v
            result = max(result, abs(v))
            i += 1
        }
        return result
    }
}
