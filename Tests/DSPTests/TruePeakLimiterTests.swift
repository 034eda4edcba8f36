import DSP
import Foundation
import TestKit
import Testing

@Suite struct TruePeakLimiterTests {
    static let rate = LimiterSignal.sampleRate
    static let channels = LimiterSignal.channels
    static let ceiling = -1.0

    static func makeLimiter() -> TruePeakLimiter {
        TruePeakLimiter(channels: channels, sampleRate: rate, ceilingDBTP: ceiling)
    }

    @Test("holds -1 dBTP with peaks pushed 6 dB over", arguments: LimiterSignal.allCases)
    func holdsTheCeiling(_ signal: LimiterSignal) {
        let input = signal.samples(seconds: 1)
        let gain = preGain(placing: input, atDBTP: Self.ceiling + 6)
        let limiter = Self.makeLimiter()
        let output = limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 4096)
        let measured = limiterMeterDB(output)
        #expect(output.count == input.count)
        #expect(measured <= Self.ceiling, "\(signal): \(measured) dBTP")
        // an independent 16× reference reads it within 0.1 dB (the renderer aims 0.3 dB lower still)
        let reference = ReferenceTruePeak.peakDB(output, channels: Self.channels)
        #expect(reference <= Self.ceiling + 0.1, "\(signal): 16× reference \(reference) dBTP")
        // The reduction is what was needed, not more: about 6 dB plus the margin.
        let deepest = Gain.decibels(linear: Double(limiter.minimumGain))
        #expect(deepest > -6.5 && deepest < -5.9, "deepest reduction \(deepest) dB")
        #expect(limiter.reducedFrames > 0)
    }

    @Test("holds other ceilings too", arguments: [-0.1, -2.0, -6.0])
    func holdsOtherCeilings(_ ceiling: Double) {
        let input = LimiterSignal.pinkNoise.samples(seconds: 1)
        let gain = preGain(placing: input, atDBTP: ceiling + 6)
        let limiter = TruePeakLimiter(channels: Self.channels, sampleRate: Self.rate, ceilingDBTP: ceiling)
        let output = limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 1000)
        let measured = limiterMeterDB(output)
        #expect(measured <= ceiling, "\(measured) dBTP over a \(ceiling) dBTP ceiling")
    }

    @Test("holds the ceiling 40 dB over with the shortest look-ahead", arguments: [LimiterSignal.noiseBursts, .pinkNoise, .bell])
    func holdsTheCeilingUnderStress(_ signal: LimiterSignal) {
        // lookahead 0 gives the shortest ramp (12 frames), where the gain changes fastest
        // within an interpolation window: the case the safety margin is there for.
        let input = signal.samples(seconds: 1)
        let gain = preGain(placing: input, atDBTP: Self.ceiling + 40)
        let limiter = TruePeakLimiter(channels: Self.channels, sampleRate: Self.rate, ceilingDBTP: Self.ceiling, lookahead: 0)
        #expect(limiter.latency == TruePeakInterpolator.span + TruePeakInterpolator.span - 2)
        let output = limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 4096)
        let measured = limiterMeterDB(output)
        #expect(measured <= Self.ceiling, "\(signal): \(measured) dBTP")
    }

    @Test("passes a signal 3 dB under the ceiling bit for bit", arguments: LimiterSignal.allCases)
    func passesQuietSignalUntouched(_ signal: LimiterSignal) {
        let input = signal.samples(seconds: 1)
        let gain = preGain(placing: input, atDBTP: Self.ceiling - 3)
        let limiter = Self.makeLimiter()
        let output = limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 4096)
        #expect(output == input.map { $0 * gain })
        #expect(limiter.reducedFrames == 0)
        #expect(limiter.minimumGain == 1)
    }

    @Test func passesUnityGainUntouched() {
        let input = LimiterSignal.pinkNoise.samples(seconds: 0.5).map { $0 * 0.5 }
        #expect(limiterMeterDB(input) < Self.ceiling - 1)
        let output = limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: 1, blockSize: 1000)
        #expect(output == input)
    }

    @Test func latencyIsTheRampPlusTheInterpolatorReach() {
        // 1.5 ms at 48 kHz is a 72-frame ramp; the detector needs 18 frames beyond it.
        #expect(Self.makeLimiter().latency == 90)
        #expect(TruePeakLimiter(channels: 1, sampleRate: 44_100, ceilingDBTP: -1, lookahead: 0.005).latency == 221 + 18)
    }

    @Test("output has the input's frame count", arguments: [0, 1, 5, 81, 82, 83, 4095, 4096, 10_007])
    func frameCountIsPreserved(_ frames: Int) {
        let input = LimiterSignal.pinkNoise.samples(seconds: 1)
        let clipped = Array(input[0..<(frames * Self.channels)])
        let manual = limitDiscardingLatency(clipped, with: Self.makeLimiter(), preGain: 4, blockSize: 1000)
        let compensated = limitCompensated(
            clipped, with: LatencyCompensatedLimiter(channels: Self.channels, sampleRate: Self.rate, ceilingDBTP: Self.ceiling),
            preGain: 4, blockSize: 1000)
        #expect(manual.count == clipped.count)
        #expect(compensated == manual)
    }

    @Test("a click stays at its frame", arguments: [0, 1, 1234, 4095, 4096, 9999])
    func clickStaysAtItsFrame(_ frame: Int) {
        var input = [Float](repeating: 0, count: 10_000 * Self.channels)
        input[frame * Self.channels] = 0.5
        let quiet = limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: 1, blockSize: 4096)
        #expect(quiet == input)
        // Limited: still centred on its frame, and under the ceiling.
        let loud = limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: 4, blockSize: 4096)
        let loudest = loud.indices.max { abs(loud[$0]) < abs(loud[$1]) }
        #expect(loudest == frame * Self.channels)
        #expect(limiterMeterDB(loud) <= Self.ceiling)
    }

    @Test func gainReturnsToExactlyOne() {
        // A -12 dBFS tone with one loud click at 0.2 s: before the look-ahead reaches the
        // click and once the release has finished, the tone passes bit for bit.
        let frames = Self.rate
        let click = Self.rate / 5
        var input = [Float](repeating: 0, count: frames * Self.channels)
        for n in 0..<frames {
            let v = Float(0.25 * sin(2 * Double.pi * 440 * Double(n) / Double(Self.rate)))
            input[2 * n] = v
            input[2 * n + 1] = v
        }
        input[2 * click] = 1.5
        let limiter = Self.makeLimiter()
        let output = limitDiscardingLatency(input, with: limiter, preGain: 1, blockSize: 4096)
        let lookahead = limiter.latency
        let settled = click + Self.rate / 2
        #expect(output[..<(2 * (click - lookahead))] == input[..<(2 * (click - lookahead))])
        #expect(output[(2 * settled)...] == input[(2 * settled)...])
        #expect(output[2 * click] < 1.5)
        #expect(limiter.reducedFrames < Int64(Self.rate / 2))
    }

    @Test("block size does not change the output", arguments: [LimiterSignal.pinkNoise, .noiseBursts, .mixedLevels, .impulse])
    func blockSizeIndependence(_ signal: LimiterSignal) {
        let input = signal.samples(seconds: 0.5)
        let gain = preGain(placing: input, atDBTP: Self.ceiling + 6)
        let reference = limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: gain, blockSize: 4096)
        #expect(limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: gain, blockSize: 1000) == reference)
        #expect(limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: gain, blockSize: 1) == reference)
        #expect(limitDiscardingLatency(input, with: Self.makeLimiter(), preGain: gain, blockSize: 1 << 20) == reference)
    }

    @Test func pinkNoiseLosesLittleLoudness() {
        // As in perf-facts: a pink bed raised until it measures -0.75 dBTP, against -1 dBTP.
        let input = LimiterSignal.pinkNoise.samples(seconds: 10)
        let gain = preGain(placing: input, atDBTP: -0.75)
        let before = EBUR128Measurement(input.map { $0 * gain }, channels: Self.channels, loudness: true)
        let limiter = Self.makeLimiter()
        let output = limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 4096)
        let after = EBUR128Measurement(output, channels: Self.channels, loudness: true)
        let drop = before.loudness - after.loudness
        #expect(after.truePeakDB <= Self.ceiling, "\(after.truePeakDB) dBTP")
        #expect(drop >= 0 && drop < 0.3, "loudness fell by \(drop) LU")
        // No pumping: light reductions on a few peaks only.
        #expect(Gain.decibels(linear: Double(limiter.minimumGain)) > -0.5)
        #expect(limiter.reducedFrames < Int64(input.count / Self.channels / 2))
    }

    @Test func resetStartsANewStream() {
        let input = LimiterSignal.bell.samples(seconds: 0.3)
        let gain = preGain(placing: input, atDBTP: Self.ceiling + 6)
        let limiter = Self.makeLimiter()
        let first = limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 1000)
        limiter.reset()
        #expect(limiter.reducedFrames == 0)
        #expect(limitDiscardingLatency(input, with: limiter, preGain: gain, blockSize: 1000) == first)
    }

    /// Throughput in × realtime, 48 kHz stereo, limiting and idle: `CADENCE_BENCHMARK=1 swift test -c release`.
    /// Best of 5 runs over a minute of pink noise in 4096-frame blocks. Each case also says what
    /// the limiter must have done: its deepest reduction (about 6 dB for peaks 6 dB over, none
    /// when idle) and the output's true peak, min(input peak, ceiling) and at most
    /// `peakTolerance` under it (the last `latency` frames stay in the limiter).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CADENCE_BENCHMARK"] != nil, "a benchmark: set CADENCE_BENCHMARK=1"))
    func throughput() {
        let seconds = 60.0
        let peakTolerance = 0.3
        let source = LimiterSignal.pinkNoise.samples(seconds: seconds)
        let placed = preGain(placing: source, atDBTP: 0)
        let cases: [(name: String, peakDBTP: Double, deepestReductionDB: ClosedRange<Double>)] = [
            ("limiting (peaks 6 dB over)", Self.ceiling + 6, -6.5 ... -5.9),
            ("idle, interpolating (peaks 0.5 dB under)", Self.ceiling - 0.5, 0...0),
            ("idle, mostly skipping (peaks 3 dB under)", Self.ceiling - 3, 0...0),
            ("idle, quiet (peaks 12 dB under)", Self.ceiling - 12, 0...0),
        ]
        let frames = source.count / Self.channels
        var block = [Float](repeating: 0, count: 4096 * Self.channels)
        for c in cases {
            let gain = placed * Float(Gain.linear(dB: c.peakDBTP))
            var best = Double.infinity
            var reduced: Int64 = 0
            var deepest = 0.0
            var output: [Float] = []
            for run in 0..<5 {
                let limiter = Self.makeLimiter()
                var elapsed = Duration.zero
                var start = 0
                while start < frames {
                    let n = min(4096, frames - start)
                    block.replaceSubrange(
                        0..<(n * Self.channels), with: source[(start * Self.channels)..<((start + n) * Self.channels)])
                    let clock = ContinuousClock.now
                    block.withUnsafeMutableBufferPointer { limiter.process($0, frames: n, preGain: gain) }
                    elapsed += ContinuousClock.now - clock
                    if run == 0 { output.append(contentsOf: block[0..<(n * Self.channels)]) }
                    start += n
                }
                let (whole, atto) = elapsed.components
                best = min(best, Double(whole) + Double(atto) * 1e-18)
                reduced = limiter.reducedFrames
                deepest = Gain.decibels(linear: Double(limiter.minimumGain))
            }
            print("TruePeakLimiter \(c.name): \(Int(seconds / best))× realtime, \(reduced) frames reduced")
            #expect(c.deepestReductionDB.contains(deepest), "\(c.name): deepest reduction \(deepest) dB")
            #expect((reduced > 0) == (c.deepestReductionDB.upperBound < 0), "\(c.name): \(reduced) frames reduced")
            let measured = limiterMeterDB(output)
            let expected = min(c.peakDBTP, Self.ceiling)
            #expect(measured <= expected + 0.001 && measured >= expected - peakTolerance, "\(c.name): \(measured) dBTP, expected \(expected)")
        }
    }
}
