import DSP
import Foundation
import Testing

@Suite struct TruePeakInterpolatorTests {
    /// The largest interpolated peak of `samples`, fed in blocks of `blockSize` frames.
    static func peaks(of samples: [Float], blockSize: Int) -> [Float] {
        let channels = LimiterSignal.channels
        let frames = samples.count / channels
        let interpolator = TruePeakInterpolator(channels: channels)
        var peaks = [Float](repeating: 0, count: frames)
        samples.withUnsafeBufferPointer { input in
            peaks.withUnsafeMutableBufferPointer { out in
                var start = 0
                while start < frames {
                    let n = min(blockSize, frames - start)
                    interpolator.process(
                        UnsafeBufferPointer(rebasing: input[(start * channels)...]), frames: n,
                        into: UnsafeMutableBufferPointer(rebasing: out[start...]))
                    start += n
                }
            }
        }
        return peaks
    }

    @Test("agrees with ebur128_true_peak within 0.01 dB", arguments: LimiterSignal.allCases)
    func agreesWithLibebur128(_ signal: LimiterSignal) {
        let samples = signal.samples(seconds: 0.5)
        let ours = Self.peaks(of: samples, blockSize: 4096).max() ?? 0
        // libebur128 also takes the sample peak, which covers the last 6 frames the
        // interpolator (never flushed) has not reached.
        let samplePeak = samples.reduce(0) { max($0, abs($1)) }
        let ourDB = Gain.decibels(linear: Double(max(ours, samplePeak)))
        let theirDB = EBUR128Measurement(samples, channels: LimiterSignal.channels).truePeakDB
        #expect(abs(ourDB - theirDB) < 0.01, "ours \(ourDB) dBTP, libebur128 \(theirDB) dBTP")
    }

    @Test func findsThePeakBetweenSamples() {
        // fs/4 at 45°: every sample is ±0.707, the waveform peaks at ±1.0 halfway between
        // every other pair of samples (the filter's response at fs/4 is 0.996).
        let peaks = Self.peaks(of: LimiterSignal.quarterRateSine45.samples(seconds: 0.1), blockSize: 512)
        for frame in stride(from: 100 + TruePeakInterpolator.delay, to: 4000, by: 2) {
            #expect(abs(peaks[frame] - 1) < 0.005, "frame \(frame): \(peaks[frame])")
            #expect(abs(peaks[frame + 1] - 0.7071) < 0.003, "frame \(frame + 1): \(peaks[frame + 1])")
        }
    }

    @Test func reportsEachInstantSixFramesLate() {
        var samples = [Float](repeating: 0, count: 200 * LimiterSignal.channels)
        samples[2 * 100 + 1] = 1
        let peaks = Self.peaks(of: samples, blockSize: 37)
        #expect(peaks[100 + TruePeakInterpolator.delay] == 1)
        #expect(peaks.indices.filter { peaks[$0] >= 1 } == [100 + TruePeakInterpolator.delay])
        // Nothing before the impulse enters the filter's reach, nothing after it leaves.
        #expect(peaks[..<100].allSatisfy { $0 == 0 })
        #expect(peaks[(100 + TruePeakInterpolator.span)...].allSatisfy { $0 == 0 })
    }

    @Test func blockSizeDoesNotChangeThePeaks() {
        let samples = LimiterSignal.mixedLevels.samples(seconds: 0.2)
        let whole = Self.peaks(of: samples, blockSize: 1 << 20)
        #expect(Self.peaks(of: samples, blockSize: 1000) == whole)
        #expect(Self.peaks(of: samples, blockSize: 7) == whole)
        #expect(Self.peaks(of: samples, blockSize: 1) == whole)
    }

    @Test func worstCaseOvershootBoundsEveryPhase() {
        // ≈ +5.4 dB: the half-sample phase's absolute coefficient sum.
        #expect(abs(Double(TruePeakInterpolator.worstCaseOvershoot) - 1.8642) < 0.0005)
        // The worst case, built from the half-sample phase's signs, reaches it.
        let phase = TruePeakInterpolator.phaseCoefficients[1]
        var samples = [Float](repeating: 0, count: 64 * LimiterSignal.channels)
        for (k, c) in phase.enumerated() {
            let frame = 40 - k
            samples[2 * frame] = c < 0 ? -1 : 1
        }
        let peak = Self.peaks(of: samples, blockSize: 64).max() ?? 0
        #expect(abs(peak - TruePeakInterpolator.worstCaseOvershoot) < 1e-5)
    }
}
