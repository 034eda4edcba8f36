import Foundation
import TestKit
import Testing

@testable import DSP

/// The AVX2 inner loop of the true-peak interpolator gives the portable loop's bits: the limiter's
/// gains, and so the rendered audio and the golden files, do not depend on the processor.
@Suite struct TruePeakKernelTests {
    /// Interpolated peaks of `samples` (interleaved, `channels`), in pieces of `piece` frames, through `kernel`.
    static func peaks(_ samples: [Float], channels: Int, piece: Int, kernel: TruePeakInterpolator.Kernel) -> (peaks: [UInt32], results: [UInt32]) {
        let interpolator = TruePeakInterpolator(channels: channels)
        let frames = samples.count / channels
        var peaks: [UInt32] = [], results: [UInt32] = []
        samples.withUnsafeBufferPointer { input in
            var start = 0
            while start < frames {
                let n = min(piece, TruePeakInterpolator.chunkFrames, frames - start)
                let largest = interpolator.detect(input.baseAddress! + start * channels, frames: n, kernel: kernel)
                results.append(largest.bitPattern)
                for i in 0..<n { peaks.append(interpolator.peaks[i].bitPattern) }
                start += n
            }
        }
        return (peaks, results)
    }

    /// Loud white noise with runs of silence, denormals, full-scale steps and negative zeros.
    static func signal(frames: Int, channels: Int, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<(frames * channels)).map { i in
            switch (i / (channels * 700)) % 5 {
            case 0: Float(random.bipolar() * 1.7)
            case 1: i % 3 == 0 ? -0.0 : 0
            case 2: Float(random.bipolar()) * Float.leastNormalMagnitude * 4
            case 3: (i / (channels * 13)) % 2 == 0 ? 1 : -1
            default: Float(random.bipolar() * 0.01)
            }
        }
    }

    @Test(
        "AVX2 and portable loops agree bit for bit", .enabled(if: TruePeakInterpolator.fastestKernel == .avx2, "the processor has no AVX2"),
        arguments: [(1, 1024), (2, 1024), (2, 37), (2, 1), (6, 500), (3, 8)])
    func sameBits(channels: Int, piece: Int) {
        let samples = Self.signal(frames: 12_000, channels: channels, seed: UInt64(channels * 1000 + piece))
        let portable = Self.peaks(samples, channels: channels, piece: piece, kernel: .portable)
        let avx2 = Self.peaks(samples, channels: channels, piece: piece, kernel: .avx2)
        #expect(portable.peaks.count == 12_000 && avx2.peaks.count == 12_000)
        let differentPeaks = zip(avx2.peaks, portable.peaks).filter { $0 != $1 }.count
        let differentResults = zip(avx2.results, portable.results).filter { $0 != $1 }.count
        #expect(differentPeaks == 0 && differentResults == 0)
        // the signal reaches past its samples between them: the loops did interpolate
        #expect(portable.results.map(Float.init(bitPattern:)).max()! > 1.7 * 0.99)
    }

    @Test("the render takes the fastest loop the processor has")
    func fastestIsChosen() {
        let hasAVX2 = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.contains(" avx2") ?? false
        #expect(TruePeakInterpolator.fastestKernel == (hasAVX2 ? .avx2 : .portable))
    }
}
