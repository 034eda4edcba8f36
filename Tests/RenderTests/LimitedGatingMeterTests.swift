import AudioCore
import AudioIO
import DSP
import Foundation
import TestKit
import Testing

@testable import Render

/// `LimitedGatingMeter`: a limited stream's loudness from pass 1's blocks where the limiter
/// left the mix alone and libebur128 where it worked equals `GatingMeter` run on every frame.
@Suite struct LimitedGatingMeterTests {
    /// The limiter's output for `mix` × `gain` under -1 dBTP, fed in Driver-sized blocks to a
    /// `GatingMeter` on every frame and to a `LimitedGatingMeter` told (or, `hidden`, not told)
    /// where the limiter reduced; the mix's pass-1 blocks from a `GatingMeter` of its own.
    static func measure(
        _ mix: [Float], gain: Float, rate: Int, channels: Int, pieces: [Int] = [Block.frames], hidden: Bool = false
    ) throws -> (whole: Double, limited: Double, meter: LimitedGatingMeter, reduced: Int64, error: Double) {
        let frames = mix.count / channels
        let hop = (rate + 5) / 10
        var passOne = [Double](repeating: 0, count: frames / hop)
        let first = try GatingMeter(channels: channels, sampleRate: rate)
        try GatingMeterTests.feed(mix, channels: channels, pieces: [4096]) { (p, n) in
            try first.add(p, frames: n, window: { (h, energy) in passOne[h] = energy })
        }
        let stage = LimiterStage(gain: gain, ceiling: -1, channels: channels, sampleRate: rate)
        let whole = try GatingMeter(channels: channels, sampleRate: rate)
        let limited = try LimitedGatingMeter(passOne: passOne, gain: gain, totalFrames: Int64(frames), channels: channels, sampleRate: rate)
        var block = [Float](repeating: 0, count: max(pieces.max() ?? 0, 4096) * channels)
        var written = 0
        var wholeBlocks = [Int: Double](), limitedBlocks = [Int: Double]()
        func deliver(_ n: Int) throws {
            guard n > 0 else { return }
            try block.withUnsafeBufferPointer { p in
                let out = UnsafeBufferPointer(rebasing: p[0..<(n * channels)])
                try whole.add(out, frames: n) { (k, energy) in wholeBlocks[k] = energy }
                try limited.add(out, frames: n, reducedThrough: hidden ? -1 : stage.lastReducedFrame) { (k, energy) in limitedBlocks[k] = energy }
            }
            written += n
        }
        var at = 0, k = 0
        while at < frames {
            let n = min(pieces[k % pieces.count], frames - at)
            for i in 0..<(n * channels) { block[i] = mix[at * channels + i] }
            let ready = block.withUnsafeMutableBufferPointer { stage.flow($0, frames: n) }
            try deliver(ready)
            at += n
            k += 1
        }
        try deliver(block.withUnsafeMutableBufferPointer { stage.drain(into: $0) })
        #expect(written == frames)
        let loudness = try limited.finish { (k, energy) in limitedBlocks[k] = energy }
        // the largest relative difference of a block's energy between the two meters
        #expect(Set(wholeBlocks.keys) == Set(limitedBlocks.keys))
        let error = wholeBlocks.map { (k, energy) in abs((limitedBlocks[k] ?? 0) - energy) / max(energy, 1e-30) }.max() ?? 0
        return (whole.loudness, loudness, limited, stage.lastReducedFrame, error)
    }

    /// Noise peaking at `background` (-26 dBFS) with a burst peaking at `burst` for 50 ms every 3 s (the first at 0.2 s), `seconds` long.
    static func bursts(sampleRate: Int, channels: Int, seconds: Double, background: Double = 0.05, burst: Double = 0.5) -> [Float] {
        var random = SplitMix64(seed: 23)
        let frames = Int(Double(sampleRate) * seconds)
        return (0..<(frames * channels)).map { i in
            let t = (i / channels + 3 * sampleRate - sampleRate / 5) % (3 * sampleRate)
            return Float(random.bipolar() * (t < sampleRate / 20 ? burst : background))
        }
    }

    @Test(
        "a limited stream measures what libebur128 measures of every frame, within 0.001 LU, while most hops come from pass 1",
        arguments: [(48000, 2, [Block.frames]), (44100, 2, [1, 777, 4800, 10_000, 3]), (48000, 1, [Block.frames]), (22050, 6, [512])])
    func matches(rate: Int, channels: Int, pieces: [Int]) throws {
        // × 4.3 the bursts pass the ceiling, the rest stays well under it
        let mix = Self.bursts(sampleRate: rate, channels: channels, seconds: 20.3)
        let result = try Self.measure(mix, gain: 4.3, rate: rate, channels: channels, pieces: pieces)
        #expect(result.reduced > 0, "the limiter worked")
        #expect(abs(result.limited - result.whole) < 0.001, "\(rate) Hz × \(channels): \(result.limited) against \(result.whole) LUFS")
        // each block's energy, not only the histogram's bins: within what rounding x × gain to a float can move it (< 2⁻²³)
        #expect(result.error < 1.2e-7, "a block's energy is \(result.error) off")
        let meter = result.meter
        // every whole hop's window, some measured and most not
        #expect(meter.measuredHops + meter.shiftedHops == mix.count / channels / ((rate + 5) / 10))
        #expect(
            meter.measuredHops > 0 && meter.shiftedHops > meter.measuredHops * 2,
            "\(meter.measuredHops) measured, \(meter.shiftedHops) shifted; \(result.limited - result.whole) LU")
    }

    @Test("the measured blocks carry the limiter's loudness: told of no reduction, the meter reads pass 1 × gain², louder")
    func hiddenReductions() throws {
        let mix = Self.bursts(sampleRate: 48000, channels: 2, seconds: 20.3)
        let told = try Self.measure(mix, gain: 8, rate: 48000, channels: 2)
        let hidden = try Self.measure(mix, gain: 8, rate: 48000, channels: 2, hidden: true)
        #expect(hidden.meter.measuredHops == 0)
        #expect(abs(told.limited - told.whole) < 0.001)
        #expect(hidden.limited - hidden.whole > 0.05, "\(hidden.limited) against \(hidden.whole) LUFS")
    }

    @Test("a limiter working from the first frame to the last: every hop is measured, and the result is the whole meter's")
    func everywhere() throws {
        let rate = 48000
        var random = SplitMix64(seed: 5)
        let mix = (0..<(rate * 6 * 2)).map { _ in Float(random.bipolar() * 0.5) }
        let result = try Self.measure(mix, gain: 4, rate: rate, channels: 2)
        #expect(result.meter.shiftedHops == 0)
        #expect(abs(result.limited - result.whole) < 1e-9, "\(result.limited) against \(result.whole) LUFS")
    }

    @Test("a limiter that never works: every hop is pass 1's × gain², within 1e-6 LU of the whole meter")
    func nowhere() throws {
        let mix = GatingMeterTests.signal(sampleRate: 48000, channels: 2, seconds: 10.05)
        let result = try Self.measure(mix, gain: 1, rate: 48000, channels: 2)
        #expect(result.reduced < 0 && result.meter.measuredHops == 0)
        #expect(abs(result.limited - result.whole) < 1e-6, "\(result.limited) against \(result.whole) LUFS")
    }

    @Test(
        "the encode pass's meter of a limited stream, given pass 1's measurement: the loudness and true peak of every frame, from far less work",
        arguments: [1, 2])
    func meterSink(threads: Int) throws {
        let (rate, channels) = (48000, 2)
        // × 4.3 the background's samples reach 7 dB under the ceiling (the plain meter interpolates them all) and its true
        // peaks stay under it; within 6 dB of the bursts, pass 1 bounds its hops exactly
        let mix = Self.bursts(sampleRate: rate, channels: channels, seconds: 61.3, background: 0.09, burst: 0.3)
        let frames = Int64(mix.count / channels)
        // pass 1 as a render measures it (two spans on two threads)
        let measured = try Measurement.run(
            totalFrames: frames, sampleRate: rate, channels: channels, threads: threads, canSplit: true, probe: true
        ) { (span, meter) throws(AudioError) in
            var at = span.start
            while at < span.end {
                let n = Int(min(4096, span.end - at))
                let slice = Array(mix[(Int(at) * channels)..<((Int(at) + n) * channels)])
                _ = try slice.withUnsafeBufferPointer { (p) throws(AudioError) in try meter.consume(p, frames: n) }
                at += Int64(n)
            }
        }
        let gain: Float = 4.3
        let stage = LimiterStage(gain: gain, ceiling: -1.3, channels: channels, sampleRate: rate)
        let sink = try MeterSink(
            channels: channels, sampleRate: rate, limiter: stage, gain: gain, passOne: measured.hopWindows, hopPeaks: measured.hopPeaks,
            totalFrames: frames)
        let loudness = try GatingMeter(channels: channels, sampleRate: rate)
        let peak = TruePeakMeter(channels: channels)
        var block = [Float](repeating: 0, count: 4096 * channels)
        func deliver(_ n: Int) throws {
            try block.withUnsafeBufferPointer { p in
                let out = UnsafeBufferPointer(rebasing: p[0..<(n * channels)])
                _ = try sink.consume(out, frames: n)
                try loudness.add(out, frames: n)
                peak.add(out, frames: n)
            }
        }
        var at = 0
        while at < Int(frames) {
            let n = min(4096, Int(frames) - at)
            for i in 0..<(n * channels) { block[i] = mix[at * channels + i] }
            try deliver(block.withUnsafeMutableBufferPointer { stage.flow($0, frames: n) })
            at += n
        }
        try deliver(block.withUnsafeMutableBufferPointer { stage.drain(into: $0) })
        let result = try sink.finish()
        #expect(stage.lastReducedFrame > 0)
        #expect(result.loudness == loudness.loudness, "\(result.loudness ?? .nan) against \(loudness.loudness) LUFS")
        #expect(result.truePeak == peak.finish(), "\(result.truePeak) dBTP")
        let hops = try #require(sink.hops)
        #expect(hops.measured * 2 < hops.shifted, "\(hops.measured) hops measured, \(hops.shifted) shifted")
        #expect(sink.interpolatedFrames * 3 < peak.interpolatedFrames, "\(sink.interpolatedFrames) against \(peak.interpolatedFrames) frames")
    }
}
