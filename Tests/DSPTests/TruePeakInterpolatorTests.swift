import DSP
import Foundation
import TestKit
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

    /// Signals whose inter-sample peaks a short interpolator under-reads: full-band noise,
    /// square-ish tones, sines near Nyquist; 48 kHz stereo, about half scale, `frames` long.
    static func hardSignal(_ name: String, frames: Int) -> [Float] {
        func tone(_ f: (Double) -> Double) -> [Float] { (0..<(frames * 2)).map { Float(f(Double($0 / 2) / 48000)) } }
        switch name {
        case "white noise":
            var random = SplitMix64(seed: 7)
            return (0..<(frames * 2)).map { _ in Float(random.bipolar() * 0.5) }
        case "pink noise": return Array(LimiterSignal.pinkNoise.samples(seconds: Double(frames) / 48000))
        case "square 1000.7 Hz": return tone { sin(2 * Double.pi * 1000.7 * $0) >= 0 ? 0.4 : -0.4 }
        case "square 3 kHz": return tone { sin(2 * Double.pi * 3000 * $0 + 0.1) >= 0 ? 0.4 : -0.4 }
        case "sine 19.2 kHz": return tone { 0.5 * sin(2 * Double.pi * 19200 * $0 + 0.05) }
        case "sine 21.6 kHz": return tone { 0.5 * sin(2 * Double.pi * 21600 * $0 + 0.05) }
        default: return tone { 0.5 * sin(2 * Double.pi * 12000 * $0 + Double.pi / 4) }
        }
    }

    static let hardSignals = [
        "white noise", "pink noise", "square 1000.7 Hz", "square 3 kHz", "sine 19.2 kHz", "sine 21.6 kHz", "sine 12 kHz at 45°",
    ]

    @Test("the meter reads within 0.1 dB of a 16× reference (noise, squares, near-Nyquist sines)", arguments: hardSignals)
    func agreesWithSixteenTimesReference(_ name: String) {
        let samples = Self.hardSignal(name, frames: 12_000)
        let meter = TruePeakMeter(channels: 2)
        samples.withUnsafeBufferPointer { meter.add($0, frames: $0.count / 2) }
        let ours = meter.finish()
        let reference = ReferenceTruePeak.peakDB(samples, channels: 2)
        #expect(abs(ours - reference) <= 0.1, "\(name): ours \(ours) dBTP, 16× reference \(reference) dBTP")
    }

    @Test("the limiter holds the ceiling by the 16× reference", arguments: hardSignals)
    func limiterHoldsSixteenTimesReference(_ name: String) {
        let samples = Self.hardSignal(name, frames: 12_000)
        // 6 dB over a -1 dBTP ceiling
        let gain = Float(Gain.linear(dB: -1 + 6 - ReferenceTruePeak.peakDB(samples, channels: 2)))
        let limiter = TruePeakLimiter(channels: 2, sampleRate: 48000, ceilingDBTP: -1)
        let out = limitDiscardingLatency(samples, with: limiter, preGain: gain, blockSize: 4096)
        let reference = ReferenceTruePeak.peakDB(out, channels: 2)
        // the renderer aims 0.3 dB lower still (LoudnessPlan.margin): a few hundredths are allowed here
        #expect(reference <= -1 + 0.05, "\(name): 16× reference \(reference) dBTP over the -1 dBTP ceiling")
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
        // ≈ +7.0 dB: the half-sample phase's absolute coefficient sum.
        #expect(abs(Double(TruePeakInterpolator.worstCaseOvershoot) - 2.2417) < 0.002)
        // The worst case, built from the half-sample phase's signs, reaches it.
        let phase = TruePeakInterpolator.phaseCoefficients[3]
        var samples = [Float](repeating: 0, count: 64 * LimiterSignal.channels)
        for (i, c) in phase.enumerated() {
            let frame = 21 + i
            samples[2 * frame] = c < 0 ? -1 : 1
        }
        let peak = Self.peaks(of: samples, blockSize: 64).max() ?? 0
        #expect(abs(peak - TruePeakInterpolator.worstCaseOvershoot) < 1e-5)
    }
}
