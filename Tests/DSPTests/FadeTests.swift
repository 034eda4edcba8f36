import Foundation
import Testing

@testable import DSP

/// `FadeCurve` and `FadeEnvelope`: the raised-cosine and equal-power shapes their doc comments give,
/// frame by frame, and the envelope's fast path agreeing with its gains.
@Suite struct FadeCurveTests {
    @Test("a fade in is 0 at its first frame, 1 from its length on, never falling between", arguments: [1, 2, 3, 480, 48_001])
    func fadeIn(length: Int64) {
        #expect(FadeCurve.fadeIn(0, length: length) == 0)
        #expect(FadeCurve.fadeIn(-5, length: length) == 0)
        #expect(FadeCurve.fadeIn(length, length: length) == 1)
        #expect(FadeCurve.fadeIn(length + 1000, length: length) == 1)
        let gains = (0...length).map { FadeCurve.fadeIn($0, length: length) }
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $0 <= $1 })
        // short fades rise at every frame (long ones flatten into equal floats near 0 and 1)
        if length <= 480 {
            #expect(zip(gains, gains.dropFirst()).allSatisfy { $0 < $1 })
            #expect(gains.dropLast().allSatisfy { $0 < 1 })
        }
    }

    @Test(
        "the raised cosine: 0.5 at the middle, 0.5 − 0.5 cos(π p / L), and symmetric: g(p) + g(L − p) = 1",
        arguments: [(Int64(2), Int64(1)), (480, 240), (480, 120), (48_000, 12_000), (1000, 333)])
    func shape(length: Int64, position: Int64) {
        let g = Double(FadeCurve.fadeIn(position, length: length))
        #expect(abs(g - (0.5 - 0.5 * cos(Double.pi * Double(position) / Double(length)))) < 1e-7)
        #expect(abs(g + Double(FadeCurve.fadeIn(length - position, length: length)) - 1) < 1e-6)
        if 2 * position == length { #expect(g == 0.5) }
    }

    @Test("an equal-power seam: out² + in² = 1 at every frame, out falling and in rising, mirror images", arguments: [1, 2, 64, 4801])
    func equalPower(length: Int64) {
        let gains = (0..<length).map { FadeCurve.equalPower($0, length: length) }
        #expect(gains.allSatisfy { abs(Double($0.out * $0.out + $0.in * $0.in) - 1) < 1e-6 })
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $0.out > $1.out && $0.in < $1.in })
        for p in 0..<Int(length) {
            #expect(abs(gains[p].out - gains[Int(length) - 1 - p].in) < 1e-6)
        }
        // half a frame in: never exactly 0 or 1, so neither side is dropped at the seam's ends
        #expect(gains.first!.in > 0 && gains.last!.out > 0)
    }
}

@Suite struct FadeEnvelopeTests {
    @Test(
        "0 at frame 0 and at the last frame, 1 between the fades, each fade its curve",
        arguments: [(Int64(100), Int64(50), Int64(1000)), (1, 1, 10), (0, 200, 1000), (300, 0, 1000), (500, 500, 1000)])
    func gains(fadeIn: Int64, fadeOut: Int64, total: Int64) {
        let envelope = FadeEnvelope(fadeInFrames: fadeIn, fadeOutFrames: fadeOut, totalFrames: total)
        // every case fades out over fewer frames than the track holds
        #expect(envelope.gain(at: 0) == (fadeIn > 0 ? 0 : 1))
        #expect(envelope.gain(at: total - 1) == (fadeOut > 0 ? 0 : 1))
        for frame in 0..<total {
            var expected: Float = 1
            if fadeIn > 0 { expected *= FadeCurve.fadeIn(frame, length: fadeIn) }
            if fadeOut > 0 { expected *= FadeCurve.fadeIn(total - 1 - frame, length: fadeOut) }
            #expect(envelope.gain(at: frame) == expected)
        }
        if fadeIn + fadeOut < total {
            #expect((fadeIn..<(total - fadeOut)).allSatisfy { envelope.gain(at: $0) == 1 })
            #expect(fadeIn == 0 || envelope.gain(at: fadeIn - 1) < 1)
            #expect(fadeOut == 0 || envelope.gain(at: total - fadeOut - 1) == 1 && envelope.gain(at: total - fadeOut) < 1)
        }
    }

    @Test("the fast path: a block it calls unity holds only gains of 1, and apply gives each frame its gain")
    func unityAndApply() {
        let envelope = FadeEnvelope(fadeInFrames: 37, fadeOutFrames: 53, totalFrames: 400)
        for start in Int64(0)..<400 {
            for count in [1, 2, 16, 100] where start + Int64(count) <= 400 {
                if envelope.isUnity(from: start, count: count) {
                    #expect((start..<(start + Int64(count))).allSatisfy { envelope.gain(at: $0) == 1 }, "\(start) +\(count)")
                }
            }
        }
        #expect(envelope.isUnity(from: 37, count: 400 - 37 - 53 - 1))
        // stereo blocks of 64 frames over the whole track
        var samples = (0..<800).map { Float($0 % 7) - 3 }
        let original = samples
        samples.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: 400, by: 64) {
                let count = min(64, 400 - start)
                envelope.apply(
                    UnsafeMutableBufferPointer(rebasing: buffer[(2 * start)..<(2 * (start + count))]), channels: 2, from: Int64(start),
                    count: count)
            }
        }
        #expect((0..<800).allSatisfy { samples[$0] == original[$0] * envelope.gain(at: Int64($0 / 2)) })
    }
}
