import AudioCore
import AudioIO
import Foundation
import TestKit
import Testing

@testable import Render

/// `GatingMeter` and `BlockHistogram`: the integrated loudness libebur128 gives in its own
/// gating mode (`EBUR128_MODE_I | EBUR128_MODE_HISTOGRAM`), to the last bit, from the blocks
/// the renderer's meters read anyway.
@Suite struct GatingMeterTests {
    /// Noise on `channels` channels whose level steps every 130 ms over 30 dB, with a gap every
    /// seventh step and a stretch 40 dB down (under the relative gate), `seconds` long.
    static func signal(sampleRate: Int, channels: Int, seconds: Double) -> [Float] {
        var random = SplitMix64(seed: 11)
        let frames = Int(Double(sampleRate) * seconds)
        let step = sampleRate * 13 / 100
        return (0..<(frames * channels)).map { i in
            let segment = (i / channels) / step
            var level = segment % 7 == 3 ? 0 : pow(10, -Double(segment * 5 % 31) / 20) * 0.3
            if segment % 40 >= 30 { level *= 0.01 }
            return Float(random.bipolar() * level)
        }
    }

    /// Adds `samples` to `add` in pieces of the lengths `pieces` cycles through.
    static func feed(_ samples: [Float], channels: Int, pieces: [Int], _ add: (UnsafeBufferPointer<Float>, Int) throws -> Void) rethrows {
        try samples.withUnsafeBufferPointer { p in
            var at = 0, k = 0
            let frames = samples.count / channels
            while at < frames {
                let n = min(pieces[k % pieces.count], frames - at)
                try add(UnsafeBufferPointer(rebasing: p[(at * channels)..<((at + n) * channels)]), n)
                at += n
                k += 1
            }
        }
    }

    @Test(
        "the integrated loudness is libebur128's own, bit for bit, at every rate and layout, fed in pieces of any size",
        arguments: [(48000, 2), (44100, 2), (11025, 2), (8000, 1), (48000, 6)])
    func libebur128s(rate: Int, channels: Int) throws {
        let samples = Self.signal(sampleRate: rate, channels: channels, seconds: 47.3)
        let reference = try LoudnessMeter(channels: channels, sampleRate: rate, truePeak: false)
        let meter = try GatingMeter(channels: channels, sampleRate: rate)
        try Self.feed(samples, channels: channels, pieces: [4096]) { try reference.add($0, frames: $1) }
        var blocks = 0
        try Self.feed(samples, channels: channels, pieces: [1, 777, 4800, 10_000, 3]) { (piece, n) in
            try meter.add(piece, frames: n) { (k, _) in
                #expect(k == meter.hops)
                blocks += 1
            }
        }
        let want = reference.integratedLoudness()
        #expect(meter.loudness == want, "\(rate) Hz × \(channels): \(meter.loudness) against libebur128's \(want)")
        // a block after every whole hop from the fourth
        let hops = samples.count / channels / ((rate + 5) / 10)
        #expect(meter.hops == hops && blocks == hops - 3)
        // the gates worked: the mean of the blocks over -70 LUFS alone is more than 1 LU under
        let counts = meter.histogram.counts
        let mean = zip(counts, BlockHistogram.energies).reduce(0.0) { $0 + Double($1.0) * $1.1 } / Double(counts.reduce(0, +))
        #expect(BlockGating.loudness(energy: mean) < want - 1)
    }

    @Test("silence, and blocks under -70 LUFS alone, measure -inf")
    func silence() throws {
        let meter = try GatingMeter(channels: 2, sampleRate: 48000)
        let quiet = (0..<96_000).map { Float(sin(Double($0) * 0.1) * 1e-5) }
        try Self.feed(quiet, channels: 2, pieces: [4800]) { try meter.add($0, frames: $1) }
        #expect(meter.hops == 10 && meter.loudness == -.infinity)
        #expect(meter.histogram.counts.allSatisfy { $0 == 0 })
    }

    @Test("histograms gate together: a loud half and a half 25 dB down read as the loud half alone")
    func together() throws {
        let rate = 48000
        let loud = (0..<(8 * rate)).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double($0 / 2) / Double(rate))) }
        let quiet = loud.map { $0 * Float(pow(10, -25.0 / 20)) }
        let first = try GatingMeter(channels: 2, sampleRate: rate)
        let second = try GatingMeter(channels: 2, sampleRate: rate)
        try Self.feed(loud, channels: 2, pieces: [4800]) { try first.add($0, frames: $1) }
        try Self.feed(quiet, channels: 2, pieces: [4800]) { try second.add($0, frames: $1) }
        let joined = BlockHistogram.integrated([first.histogram, second.histogram])
        #expect(abs(joined - first.loudness) < 1e-9, "\(joined) against \(first.loudness)")
        #expect(abs(second.loudness - (first.loudness - 25)) < 0.1)
        // either order
        #expect(BlockHistogram.integrated([second.histogram, first.histogram]) == joined)
    }
}
