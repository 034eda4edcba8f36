import AudioCore
import AudioIO
import Foundation
import TestKit
import Testing

@testable import Render

/// Pass 1's gating-block energies (`Measurement.blockEnergies`), which the limiter model and the
/// AAC repairs gate: each is what libebur128 reads as the momentary loudness after that hop,
/// whether the meter reads it so or as the mean of its four hops' 100 ms windows.
@Suite struct BlockEnergyTests {
    /// Stereo noise whose level steps every 130 ms over 30 dB, with a gap every seventh step: `seconds` long.
    static func signal(sampleRate: Int, seconds: Double) -> [Float] {
        var random = SplitMix64(seed: 5)
        let frames = Int(Double(sampleRate) * seconds)
        let step = sampleRate * 13 / 100
        return (0..<(frames * 2)).map { i in
            let segment = (i / 2) / step
            let level = segment % 7 == 3 ? 0 : pow(10, -Double(segment * 5 % 31) / 20) * 0.3
            return Float(random.bipolar() * level)
        }
    }

    /// libebur128's momentary energy after every hop from the 4th, one meter over the whole signal.
    static func reference(_ samples: [Float], sampleRate: Int) throws -> [Double] {
        let hop = Int(Render.Measurement.hopFrames(sampleRate: sampleRate))
        let meter = try LoudnessMeter(channels: 2, sampleRate: sampleRate, truePeak: false)
        var energies = [Double](repeating: 0, count: samples.count / 2 / hop + 1)
        try samples.withUnsafeBufferPointer { p in
            var at = 0
            while at + hop <= samples.count / 2 {
                try meter.add(UnsafeBufferPointer(rebasing: p[(2 * at)..<(2 * (at + hop))]), frames: hop)
                at += hop
                if at / hop >= 4 { energies[at / hop] = meter.momentaryEnergy() }
            }
        }
        return energies
    }

    @Test(
        "every gating block's energy is libebur128's momentary one, within 1e-12 (in two spans, the first block of the second within 1e-3)",
        arguments: [48000, 44100, 11025, 8000])
    func blockEnergiesAreMomentary(_ rate: Int) throws {
        // 11025 Hz: libebur128's hop (1103 frames) is not its 100 ms window (1102), so the meter reads the momentary energy
        #expect(LoudnessMeter.hopIsWindow(sampleRate: rate) == (rate != 11025))
        let samples = Self.signal(sampleRate: rate, seconds: 64)
        let reference = try Self.reference(samples, sampleRate: rate)
        for split in [false, true] {
            let measured = try measurement(of: samples, channels: 2, sampleRate: rate, canSplit: split)
            let hop = Int(measured.hop)
            let full = samples.count / 2 / hop
            // the second span's loudness meter starts 3 hops before the cut, its K-filter cold: the first
            // block it reads (ending a hop after the cut) is a little off; the gating counts it like the rest
            let cutBlock = split ? (samples.count / 2 / 2) / hop + 1 : -1
            var worst = 0.0
            for e in 4...full {
                let (got, want) = (measured.blockEnergies[e], reference[e])
                let off = abs(got - want) / max(want, 1e-20)
                if e == cutBlock {
                    #expect(off <= 1e-3, "\(rate) Hz: the block at the cut is \(off) off")
                } else {
                    worst = max(worst, off)
                }
            }
            #expect(worst <= 1e-12, "\(rate) Hz, split \(split): relative difference up to \(worst)")
            // and they differ from block to block: the signal's steps are in them
            #expect(Set((4...full).map { measured.blockEnergies[$0] }).count > full / 2)
        }
    }
}
