import Foundation

/// The true peak of a stream (8× oversampled, ``TruePeakInterpolator``), computed only where it can matter.
///
/// A chunk whose largest sample (with the history its interpolation reads),
/// times the filter's worst-case overshoot, cannot beat the peak found so far
/// is only taken into the history, not interpolated: for most of a track,
/// once the loudest moment is known, that is nearly every chunk. The result
/// equals interpolating everything.
public final class TruePeakMeter {
    private let interpolator: TruePeakInterpolator
    private let channels: Int
    private var zeros: [Float]
    /// The largest interpolated magnitude so far, linear.
    public private(set) var peak: Float = 0

    public init(channels: Int) {
        self.channels = channels
        self.interpolator = TruePeakInterpolator(channels: channels)
        self.zeros = [Float](repeating: 0, count: TruePeakInterpolator.delay * 2 * channels)
    }

    /// Measures `frames` frames of interleaved samples.
    public func add(_ samples: UnsafeBufferPointer<Float>, frames: Int) {
        add(samples, frames: frames, from: 0) { _ in .infinity }
    }

    /// Measures like `add(_:frames:)` (the peak comes out the same), where `bound(frames)` is a
    /// bound known beforehand on the true peak reported for those frames (counted from the
    /// stream's first; `start` is the first of these): a chunk whose bound cannot beat the peak
    /// so far is only taken into the history. The encode pass of a limited track knows one where
    /// the limiter left the mix alone: pass 1's hop peaks × the gain.
    public func add(_ samples: UnsafeBufferPointer<Float>, frames: Int, from start: Int64, bound: (Range<Int64>) -> Float) {
        guard let base = samples.baseAddress else { return }
        var done = 0
        while done < frames {
            let n = min(TruePeakInterpolator.chunkFrames, frames - done)
            let chunk = base + done * channels
            let first = start + Int64(done)
            if bound(first..<(first + Int64(n))) <= peak
                || max(interpolator.historyPeak, PeakScan.peak(chunk, count: n * channels)) * TruePeakInterpolator.worstCaseOvershoot <= peak
            {
                interpolator.skip(chunk, frames: n)
            } else {
                peak = max(peak, interpolator.detect(chunk, frames: n))
                interpolatedFrames += Int64(n)
            }
            done += n
        }
    }

    /// Frames interpolated so far by `add` (the others were only taken into the history).
    public private(set) var interpolatedFrames: Int64 = 0

    /// Measures like `add(_:frames:)` (the peak comes out the same), and returns a bound on
    /// these frames' own true peak: exact where a chunk was interpolated, the filter's
    /// worst-case overshoot × its samples where not. Every chunk that could reach
    /// `fraction` of the peak so far, or `level` (linear), is interpolated, so a bound that is
    /// not exact is at most the smaller of the two: `fraction` tells the limiter model which
    /// stretches a gain would make the limiter touch; `level` tells a decoded check which
    /// stretches pass an allowed peak (with `fraction` 1, nothing under it is interpolated
    /// that cannot change the peak).
    ///
    /// With a `probe`, every chunk is handed to it too, interpolated also where the probe's
    /// thresholds need its peaks (``LimiterProbe/needsPeaks(samplePeak:)``).
    public func addBounded(
        _ samples: UnsafeBufferPointer<Float>, frames: Int, fraction: Float, level: Float = .infinity, probe: LimiterProbe? = nil
    ) -> Float {
        guard let base = samples.baseAddress else { return 0 }
        var bound: Float = 0
        var done = 0
        while done < frames {
            let n = min(TruePeakInterpolator.chunkFrames, frames - done)
            let chunk = base + done * channels
            let samplePeak = max(interpolator.historyPeak, PeakScan.peak(chunk, count: n * channels))
            let reach = samplePeak * TruePeakInterpolator.worstCaseOvershoot
            if reach <= min(peak * fraction, level) && !(probe?.needsPeaks(samplePeak: samplePeak) ?? false) {
                interpolator.skip(chunk, frames: n)
                bound = max(bound, reach)
                probe?.add(chunk, frames: n, peaks: nil, samplePeak: samplePeak)
            } else {
                let detected = interpolator.detect(chunk, frames: n)
                peak = max(peak, detected)
                bound = max(bound, detected)
                probe?.add(chunk, frames: n, peaks: UnsafePointer(interpolator.peaks), samplePeak: samplePeak)
            }
            done += n
        }
        return bound
    }

    /// Takes `frames` frames into the interpolator's history without measuring them: the
    /// lead-in of a meter that starts part-way through a stream.
    public func prime(_ samples: UnsafeBufferPointer<Float>, frames: Int) {
        guard let base = samples.baseAddress else { return }
        var done = 0
        while done < frames {
            let n = min(TruePeakInterpolator.chunkFrames, frames - done)
            interpolator.skip(base + done * channels, frames: n)
            done += n
        }
    }

    /// The true peak in dBTP, after the last instants still inside the filter are measured.
    public func finish() -> Double {
        zeros.withUnsafeBufferPointer { add($0, frames: TruePeakInterpolator.delay * 2) }
        return peak > 0 ? 20 * log10(Double(peak)) : -.infinity
    }
}
