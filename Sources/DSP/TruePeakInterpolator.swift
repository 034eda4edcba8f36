import Foundation

/// Finds inter-sample peaks by 4× oversampling, with the filter of libebur128's true-peak meter.
///
/// libebur128 (`interp_create(49, 4, channels)`, used below 96 kHz) upsamples
/// with a 49-tap sinc cut off at the input's Nyquist frequency and shaped by a
/// Hann window, split into 4 polyphase filters. Phase 0 is the input sample
/// itself (its other taps fall on zeros of the sinc or the window); phases 1–3
/// have 12 taps each. This type builds the same coefficients the same way, so
/// the peaks it finds are the ones the meter that checks Cadence's output finds
/// (to float rounding: libebur128 accumulates in double, this in float).
///
/// Streaming: the last 11 frames of each channel are kept between calls, and,
/// like libebur128, the history starts as silence. The peak reported for input
/// frame `n` covers the instants `n − 6`, `n − 5.75`, `n − 5.5` and `n − 5.25`
/// (``delay``), since the filter is centred 6 frames back.
///
/// Memory is allocated once, in `init`; no call allocates.
public final class TruePeakInterpolator {
    /// The oversampling factor.
    public static let factor = 4
    /// Taps of the prototype low-pass filter.
    public static let taps = 49
    /// Frames each phase filter reads: the current one and the 11 before it.
    public static let span = 12
    /// Frames between an input frame and the instants its reported peak covers.
    public static let delay = 6
    /// The largest sum of absolute coefficients of a phase: no interpolated value
    /// exceeds the largest nearby sample magnitude times this (≈ 1.864, +5.4 dB).
    public static let worstCaseOvershoot: Float = phaseCoefficients.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1

    /// The 12 coefficients of phases 1, 2 and 3, as libebur128's `interp_create` computes them.
    ///
    /// Element `k` of phase `f` multiplies the input `k` frames back: prototype tap `4k + f`.
    public static let phaseCoefficients: [[Float]] = (1..<factor).map { phase in
        (0..<span).map { k in Float(prototypeTap(k * factor + phase)) }
    }

    /// Tap `j` of libebur128's prototype: sin(πm/4)/(πm/4) · ½(1 − cos(2πj/48)), m = j − 24.
    static func prototypeTap(_ j: Int) -> Double {
        let m = Double(j) - Double(taps - 1) / 2
        var c = 1.0
        if abs(m) > 0.000001 {
            c = sin(m * Double.pi / Double(factor)) / (m * Double.pi / Double(factor))
        }
        return c * 0.5 * (1 - cos(2 * Double.pi * Double(j) / Double(taps - 1)))
    }

    /// Frames handled per internal pass; longer calls are split.
    public static let chunkFrames = 1024
    /// Frames of history kept per channel.
    static let history = span - 1
    /// Extra frames after a chunk so the last 8-lane group may read and write past its end.
    static let padding = 8
    static let laneStride = history + chunkFrames + padding

    public let channels: Int
    /// Per channel: `history` frames of history, then the current chunk, then padding.
    private let lanes: UnsafeMutablePointer<Float>
    /// The reversed phase coefficients, 3 × 12: `weights[f * 12 + i]` multiplies `lane[frame + i]`.
    private let weights: UnsafeMutablePointer<Float>
    /// The peak of each frame of the last chunk passed to ``detect(_:frames:)``.
    let peaks: UnsafeMutablePointer<Float>

    public init(channels: Int) {
        precondition(channels > 0, "TruePeakInterpolator needs at least one channel")
        self.channels = channels
        lanes = .allocate(capacity: channels * Self.laneStride)
        lanes.initialize(repeating: 0, count: channels * Self.laneStride)
        weights = .allocate(capacity: (Self.factor - 1) * Self.span)
        for (f, phase) in Self.phaseCoefficients.enumerated() {
            for (k, c) in phase.enumerated() { weights[f * Self.span + Self.span - 1 - k] = c }
        }
        peaks = .allocate(capacity: Self.chunkFrames + Self.padding)
        peaks.initialize(repeating: 0, count: Self.chunkFrames + Self.padding)
    }

    deinit {
        lanes.deallocate()
        weights.deallocate()
        peaks.deallocate()
    }

    /// Forgets the history: the next frame follows silence.
    public func reset() {
        lanes.update(repeating: 0, count: channels * Self.laneStride)
    }

    /// Writes, for each of `frames` interleaved input frames, the largest magnitude of its
    /// 4 interpolated sub-samples over all channels into `peaks` (see ``delay``).
    public func process(_ input: UnsafeBufferPointer<Float>, frames: Int, into peaks: UnsafeMutableBufferPointer<Float>) {
        precondition(frames >= 0 && input.count >= frames * channels && peaks.count >= frames)
        guard frames > 0, let source = input.baseAddress, let target = peaks.baseAddress else { return }
        var done = 0
        while done < frames {
            let n = min(Self.chunkFrames, frames - done)
            _ = detect(source + done * channels, frames: n)
            (target + done).update(from: self.peaks, count: n)
            done += n
        }
    }

    /// The largest magnitude among the kept history samples: with the next chunk's
    /// own samples, a bound on every input its interpolated values read.
    public var historyPeak: Float {
        var m: Float = 0
        for c in 0..<channels {
            let lane = lanes + c * Self.laneStride
            for i in 0..<Self.history { m = max(m, abs(lane[i])) }
        }
        return m
    }

    /// Interpolates up to ``chunkFrames`` frames into ``peaks`` and returns the largest.
    public func detect(_ input: UnsafePointer<Float>, frames: Int) -> Float {
        deinterleave(input, from: 0, to: frames)
        let w = UnsafePointer(weights)
        var i = 0
        while i < frames {
            var m = SIMD8<Float>()
            for c in 0..<channels {
                m = Self.larger(m, Self.subsamplePeaks(UnsafePointer(lanes + c * Self.laneStride + i), w))
            }
            UnsafeMutableRawPointer(peaks + i).storeBytes(of: m, as: SIMD8<Float>.self)
            i += 8
        }
        var result: Float = 0
        for j in 0..<frames { result = max(result, peaks[j]) }
        shiftHistory(frames)
        return result
    }

    /// Takes `frames` frames (up to ``chunkFrames``) into the history without interpolating:
    /// for chunks whose every interpolated value is known to be small.
    public func skip(_ input: UnsafePointer<Float>, frames: Int) {
        deinterleave(input, from: max(0, frames - Self.history), to: frames)
        shiftHistory(frames)
    }

    /// Copies frames `start..<end` of the interleaved chunk into the lanes, after the history.
    @inline(__always)
    private func deinterleave(_ input: UnsafePointer<Float>, from start: Int, to end: Int) {
        for c in 0..<channels {
            let lane = lanes + c * Self.laneStride + Self.history
            for i in start..<end { lane[i] = input[i * channels + c] }
        }
    }

    /// Moves the last `history` frames of each lane to its front.
    @inline(__always)
    private func shiftHistory(_ frames: Int) {
        for c in 0..<channels {
            let lane = lanes + c * Self.laneStride
            UnsafeMutableRawPointer(lane).copyMemory(
                from: lane + frames, byteCount: Self.history * MemoryLayout<Float>.stride)
        }
    }

    /// For 8 consecutive frames of one lane (`lane[0]` is 11 frames before the first):
    /// the largest magnitude of each frame's 4 sub-samples.
    @inline(__always)
    private static func subsamplePeaks(_ lane: UnsafePointer<Float>, _ w: UnsafePointer<Float>) -> SIMD8<Float> {
        var a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        for k in 0..<span {
            let x = UnsafeRawPointer(lane + k).loadUnaligned(as: SIMD8<Float>.self)
            a1 += x * w[k]
            a2 += x * w[span + k]
            a3 += x * w[2 * span + k]
        }
        // Phase 0: the sample `delay` frames back, unchanged.
        let a0 = UnsafeRawPointer(lane + span - 1 - delay).loadUnaligned(as: SIMD8<Float>.self)
        return larger(larger(magnitude(a0), magnitude(a1)), larger(magnitude(a2), magnitude(a3)))
    }

    /// Lane-wise maximum (the standard library's `pointwiseMax` is not inlined for SIMD8 and costs 10×).
    @inline(__always)
    static func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: a .< b)
    }

    @inline(__always)
    private static func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }
}
