import Foundation

/// An independent true-peak reference for the tests: 16× oversampling in double precision with
/// the filter of SciPy's `resample_poly(x, 16, 1)` (a sinc cut off at the input's Nyquist
/// frequency, ±10 input frames, Kaiser window β = 5), each phase scaled to sum to 1. It shares
/// no code with the renderer's meter (8×, float, SIMD) and reads within a few hundredths of a dB
/// of `scipy.signal.resample_poly` at 16×. Brute force: for test signals of a few seconds.
public enum ReferenceTruePeak {
    public static let factor = 16
    static let reach = 10

    /// `phases[p][k]` multiplies `x[m + k − reach]` for the instant `m + p/16`.
    static let phases: [[Double]] = (0..<factor).map { p in
        let half = Double(reach * factor)
        let raw = (0...(2 * reach)).map { k -> Double in
            let n = Double(p) - Double(factor * (k - reach))
            guard abs(n) <= half else { return 0 }
            let x = n / Double(factor)
            let sinc = n == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            let r = n / half
            return sinc * besselI0(5 * (1 - r * r).squareRoot()) / besselI0(5)
        }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-17 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }

    /// The largest 16× oversampled magnitude of interleaved `samples` (silence before and after), linear.
    public static func peak(_ samples: [Float], channels: Int) -> Double {
        let frames = samples.count / channels
        var peak = 0.0
        for c in 0..<channels {
            // 2 × reach frames of silence on either side: every instant within reach of a sample
            var x = [Double](repeating: 0, count: frames + 4 * reach)
            for n in 0..<frames { x[n + 2 * reach] = Double(samples[n * channels + c]) }
            x.withUnsafeBufferPointer { x in
                // instant (j − reach) + p/16 reads x[j ..< j + 2 reach + 1]
                for j in 0..<(frames + 2 * reach) {
                    for phase in phases {
                        var v = 0.0
                        for k in 0..<phase.count { v += phase[k] * x[j + k] }
                        peak = max(peak, abs(v))
                    }
                }
            }
        }
        return peak
    }

    /// ``peak(_:channels:)`` in dBTP.
    public static func peakDB(_ samples: [Float], channels: Int) -> Double {
        let p = peak(samples, channels: channels)
        return p > 0 ? 20 * log10(p) : -.infinity
    }
}
