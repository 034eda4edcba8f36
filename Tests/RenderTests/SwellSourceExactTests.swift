import CadenceCues
import DSP
import Foundation
import Recipe
import TestKit
import Testing

@testable import Render

/// `SwellSource`'s fast paths (whole blocks of E = 0, stretches of E = 0 where a noise only moves on,
/// channel-specialized loops) add exactly what the plain loop adds: gain × E × the sine or the noise,
/// per frame and channel, into whatever the mix holds (a -0 included), in blocks of any size.
@Suite struct SwellSourceExactTests {
    static let rate = 16_000

    /// An envelope with long stretches of 0 (the intro, `none` phases, after the outro's fall),
    /// rises and falls of both shapes' lengths, holds at 1, and zeros a frame long at a rise's start.
    static func envelope(_ shape: BreathShape) -> BreathEnvelope {
        let guides: [(frames: Int64, BreathGuide)] = [
            (20_000, .rise), (3_000, .hold), (17_000, .fall), (9_000, .none), (50, .rise), (30, .fall), (6_000, .none), (12_345, .rise),
            (4_000, .fall), (40, .none), (8_000, .rise),
        ]
        var start: Int64 = 7_001
        var phases: [BreathEnvelope.PhaseGuide] = []
        for (frames, guide) in guides {
            phases.append(BreathEnvelope.PhaseGuide(startFrame: start, endFrame: start + frames, guide: guide))
            start += frames
        }
        return BreathEnvelope(phases: phases, outroStart: start, totalFrames: start + 40_000, sampleRate: rate, shape: shape)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let source: Swell.Source
        let shape: BreathShape
        let channels: Int
        var testDescription: String { "\(source), \(shape), \(channels) channel\(channels == 1 ? "" : "s")" }
    }

    static let cases: [Case] = [
        Case(source: .tone(hertz: 174), shape: .sine, channels: 2), Case(source: .tone(hertz: 440.5), shape: .linear, channels: 1),
        Case(source: .tone(hertz: 96), shape: .sine, channels: 3), Case(source: .noise(.pinkNoise), shape: .sine, channels: 2),
        Case(source: .noise(.pinkNoise), shape: .linear, channels: 1), Case(source: .noise(.whiteNoise), shape: .sine, channels: 2),
        Case(source: .noise(.brownNoise), shape: .sine, channels: 3),
    ]

    /// What the mix holds before the swell: values, +0 and -0 (a -0 plus a noise's +0 is +0).
    static func mixBefore(frames: Int, channels: Int) -> [Float] {
        var random = SeededRandom(seed: 3)
        return (0..<(frames * channels)).map { i -> Float in
            switch random.next() % 4 {
            case 0: 0
            case 1: -0.0
            default: Float(i % 97) * 0.001 - 0.05
            }
        }
    }

    /// The plain loop, block by block: E, then per frame gain × E × (the sine from the exact phase of
    /// every multiple of `NoiseGenerator.anchorFrames`, turned by a rotation per frame, or the noise), added to every channel; a tone skips a block where E is 0 throughout.
    static func reference(_ c: Case, envelope: BreathEnvelope, blocks: [Int], gainDB: Double, seed: UInt64) -> [Float] {
        let frames = Int(envelope.totalFrames)
        var out = mixBefore(frames: frames, channels: c.channels)
        let gain = Gain.linear(dB: gainDB)
        var generator: NoiseGenerator?
        if case .noise(let synth) = c.source {
            let kind: NoiseGenerator.Kind = synth == .whiteNoise ? .white : synth == .brownNoise ? .brown : .pink
            generator = NoiseGenerator(kind: kind, channels: 1, sampleRate: rate, seed: seed)
        }
        forEachBlock(frames: frames, sizes: blocks) { done, count in
            var level = [Float](repeating: 0, count: count)
            envelope.fill(&level, from: Int64(done), count: count)
            switch c.source {
            case .tone(let hertz):
                if level.allSatisfy({ $0 == 0 }) { break }
                // from the anchor at or before the block's start
                let anchor = done - done % Int(NoiseGenerator.anchorFrames)
                let phase = 2 * Double.pi * (Double(anchor) * hertz).truncatingRemainder(dividingBy: Double(rate)) / Double(rate)
                let step = 2 * Double.pi * hertz / Double(rate)
                var (re, im) = (cos(phase), sin(phase))
                let (cr, ci) = (cos(step), sin(step))
                for _ in anchor..<done { (re, im) = (re * cr - im * ci, re * ci + im * cr) }
                for i in 0..<count {
                    // the sine starts again at its exact phase at every anchor too
                    if i > 0, Int64(done + i) % NoiseGenerator.anchorFrames == 0 {
                        let anchor = 2 * Double.pi * (Double(done + i) * hertz).truncatingRemainder(dividingBy: Double(rate)) / Double(rate)
                        (re, im) = (cos(anchor), sin(anchor))
                    }
                    let value = Float(gain * Double(level[i]) * im)
                    for ch in 0..<c.channels { out[(done + i) * c.channels + ch] += value }
                    (re, im) = (re * cr - im * ci, re * ci + im * cr)
                }
            case .noise:
                var noise = [Float](repeating: 0, count: count)
                noise.withUnsafeMutableBufferPointer { generator?.render(into: $0, frames: count) }
                let g = Float(gain)
                for i in 0..<count {
                    let value = g * level[i] * noise[i]
                    for ch in 0..<c.channels { out[(done + i) * c.channels + ch] += value }
                }
            }
        }
        return out
    }

    @Test("every sample is the plain loop's, bit for bit, in blocks of 4096 and of odd sizes", arguments: cases)
    func exact(_ c: Case) {
        let envelope = Self.envelope(c.shape)
        let frames = Int(envelope.totalFrames)
        let seed: UInt64 = 0xC0FFEE
        for blocks in [[4096], [1000, 37, 5000, 64, 1]] {
            var swell = SwellSource(swell: Swell(source: c.source, gainDB: -7.5), envelope: envelope, channels: c.channels, seed: seed)
            var out = Self.mixBefore(frames: frames, channels: c.channels)
            out.withUnsafeMutableBufferPointer { buffer in
                forEachBlock(frames: frames, sizes: blocks) { done, count in
                    let part = UnsafeMutableBufferPointer(rebasing: buffer[(done * c.channels)..<((done + count) * c.channels)])
                    swell.mix(into: part, from: Int64(done), count: count)
                }
            }
            let expected = Self.reference(c, envelope: envelope, blocks: blocks, gainDB: -7.5, seed: seed)
            let differing = out.indices.filter { out[$0].bitPattern != expected[$0].bitPattern }
            #expect(
                differing.isEmpty,
                "blocks \(blocks): \(differing.count) samples differ, the first at \(differing.first.map { $0 / c.channels } ?? -1)")
            // the swell sounded, and was silent where E is 0
            #expect(zip(out, Self.mixBefore(frames: frames, channels: c.channels)).contains { $0 != $1 })
        }
    }
}
