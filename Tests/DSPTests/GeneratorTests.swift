import Foundation
import TestKit
import Testing

@testable import DSP

/// `NoiseGenerator`'s noises and drone, and `ToneSynth`: reproducible from the seed whatever the
/// block size, the spectra their names promise, phases from the frame index.
@Suite struct NoiseGeneratorTests {
    static let rate = 48_000

    static func render(
        _ kind: NoiseGenerator.Kind, channels: Int = 2, seed: UInt64 = 7, from start: Int64 = 0, frames: Int, blocks: [Int] = [4096]
    ) -> [Float] {
        var generator = NoiseGenerator(kind: kind, channels: channels, sampleRate: rate, seed: seed, startFrame: start)
        var out = [Float](repeating: .nan, count: frames * channels)
        out.withUnsafeMutableBufferPointer { buffer in
            forEachBlock(frames: frames, sizes: blocks) { done, count in
                generator.render(into: UnsafeMutableBufferPointer(rebasing: buffer[(done * channels)..<((done + count) * channels)]), frames: count)
            }
        }
        return out
    }

    static func channel(_ samples: [Float], _ c: Int, of channels: Int) -> [Double] {
        stride(from: c, to: samples.count, by: channels).map { Double(samples[$0]) }
    }

    static let hann = (0..<1024).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / 1024) }

    /// The mean power at DFT bins `bins` of 1024-frame Hann-windowed blocks of `x`, in dB.
    static func bandPower(_ x: [Double], bins: ClosedRange<Int>) -> Double {
        let size = 1024
        let hann = Self.hann
        var total = 0.0
        var count = 0
        for start in stride(from: 0, to: x.count - size + 1, by: size) {
            for k in bins {
                // Goertzel at bin k
                let w = 2 * Double.pi * Double(k) / Double(size)
                let coefficient = 2 * cos(w)
                var s1 = 0.0
                var s2 = 0.0
                for n in 0..<size {
                    let s = x[start + n] * hann[n] + coefficient * s1 - s2
                    s2 = s1
                    s1 = s
                }
                total += s1 * s1 + s2 * s2 - coefficient * s1 * s2
                count += 1
            }
        }
        return 10 * log10(total / Double(count))
    }

    static let noises: [NoiseGenerator.Kind] = [.white, .pink, .brown]

    @Test("the same seed gives the same samples, in blocks of any size; another seed other samples", arguments: noises)
    func reproducible(_ kind: NoiseGenerator.Kind) {
        let whole = Self.render(kind, frames: 20_000, blocks: [20_000])
        #expect(Self.render(kind, frames: 20_000, blocks: [1, 7, 4096, 333]) == whole)
        #expect(Self.render(kind, frames: 20_000) == whole)
        let other = Self.render(kind, seed: 8, frames: 20_000)
        #expect(zip(other, whole).filter { $0 == $1 }.count < 100)
        #expect(!whole.contains { $0.isNaN })
    }

    /// The RMS levels measured, in dBFS. The doc comment says every kind sits "near -18 dBFS":
    /// white is -18.0, but pink is 1.85 dB under it and brown 3.6 dB over.
    static let levels: [(kind: NoiseGenerator.Kind, dBFS: Double)] = [(.white, -18.0), (.pink, -19.85), (.brown, -14.4)]

    @Test("channels are decorrelated streams (their steps' correlation under 0.05), each at its level within 0.3 dB", arguments: levels)
    func channels(_ kind: NoiseGenerator.Kind, _ dBFS: Double) {
        let frames = 96_000
        let samples = Self.render(kind, frames: frames)
        // frame-to-frame steps: brown noise's slow wander would make two seconds of its samples look correlated
        var (ll, rr, lr, left, right) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for n in 0..<frames {
            let l = Double(samples[2 * n])
            let r = Double(samples[2 * n + 1])
            left += l * l
            right += r * r
            guard n > 0 else { continue }
            let dl = l - Double(samples[2 * n - 2])
            let dr = r - Double(samples[2 * n - 1])
            ll += dl * dl
            rr += dr * dr
            lr += dl * dr
        }
        let correlation = lr / (ll * rr).squareRoot()
        #expect(abs(correlation) < 0.05, "\(correlation)")
        let levels = [left, right].map { 10 * log10($0 / Double(frames)) }
        #expect(levels.allSatisfy { abs($0 - dBFS) < 0.3 }, "\(levels) dBFS")
    }

    @Test(
        "the slope: power at 375 Hz over power at 3 kHz (three octaves up) is 0 dB white, 9 dB pink, 18 dB brown",
        arguments: [(NoiseGenerator.Kind.white, 0.0), (.pink, 9.03), (.brown, 18.06)])
    func slope(_ kind: NoiseGenerator.Kind, _ decibels: Double) {
        let x = Self.channel(Self.render(kind, channels: 1, frames: 64 * 1024), 0, of: 1)
        // bins of 46.875 Hz: 7...9 around 375 Hz, 63...65 around 3 kHz
        let difference = Self.bandPower(x, bins: 7...9) - Self.bandPower(x, bins: 63...65)
        #expect(abs(difference - decibels) < 1.5, "\(difference) dB")
    }

    /// The drone by its formula, phases reduced from the frame index in Double.
    static func drone(_ hertz: Double, frame: Int64, channel: Int, channels: Int) -> Double {
        func sine(_ f: Double) -> Double {
            let turns = (Double(frame) * f).truncatingRemainder(dividingBy: Double(rate)) / Double(rate)
            return sin(2 * Double.pi * turns)
        }
        let detune = 1 + (Double(channel) - Double(channels - 1) / 2) * 0.0015
        let voices: [(Double, Double)] = [(1, 0.5), (1.5, 0.25), (2, 0.18), (3, 0.07)]
        let chord = voices.filter { hertz * $0.0 * detune < Double(rate) / 2 }.reduce(0.0) { $0 + $1.1 * 0.25 * sine(hertz * $1.0 * detune) }
        return chord * (0.8 + 0.2 * sine(0.07))
    }

    @Test("the drone is its formula at frame 0 and at frame 10⁸, whatever the block size: no drift", arguments: [Int64(0), 100_000_000])
    func droneAtFrame(_ start: Int64) {
        let samples = Self.render(.drone(hertz: 110), from: start, frames: 6000, blocks: [4096, 1, 999])
        var worst = 0.0
        for i in 0..<6000 {
            for c in 0..<2 {
                worst = max(worst, abs(Double(samples[2 * i + c]) - Self.drone(110, frame: start + Int64(i), channel: c, channels: 2)))
            }
        }
        // samples of about 0.25: a drift of 0.001 cycle would be 1e-3
        #expect(worst < 1e-5, "\(worst)")
    }
}

@Suite struct ToneSynthTests {
    static let rate = 48_000

    static func risingCrossings(_ x: [Float], in range: Range<Int>) -> [Double] {
        range.dropFirst().compactMap { n in
            x[n - 1] < 0 && x[n] >= 0 ? Double(n - 1) + Double(-x[n - 1] / (x[n] - x[n - 1])) : nil
        }
    }

    @Test(
        "a pure tone's frequency, measured by its zero crossings", arguments: [(440.0, ToneShape.soft), (528, .bell), (2000, .click), (997, .soft)])
    func frequency(_ hertz: Double, _ shape: ToneShape) throws {
        let frames = Self.rate / 2
        let tone = ToneSynth.render(frequency: hertz, frames: frames, sampleRate: Self.rate, shape: shape, harmonics: [], amplitude: 0.5)
        #expect(tone.count == frames)
        let crossings = Self.risingCrossings(tone, in: (frames / 10)..<(frames * 6 / 10))
        let first = try #require(crossings.first)
        let last = try #require(crossings.last)
        let measured = Double(crossings.count - 1) * Double(Self.rate) / (last - first)
        #expect(abs(measured - hertz) < 0.01, "\(measured) Hz")
    }

    @Test(
        "the envelope is exactly 0 at the first frame, small at the last, and no sample exceeds the amplitude",
        arguments: [ToneShape.bell, .soft, .click])
    func envelope(_ shape: ToneShape) {
        let frames = 9600
        let tone = ToneSynth.render(frequency: 528, frames: frames, sampleRate: Self.rate, shape: shape, harmonics: [0.3, 0.12], amplitude: 0.5)
        #expect(tone[0] == 0)
        #expect(abs(tone[frames - 1]) < 0.5 * 0.001)
        #expect(tone.allSatisfy { abs($0) <= 0.5 })
        #expect(tone.map(abs).max() ?? 0 > 0.1)
    }

    @Test("the phase comes from the frame index: sample n is the sine at n, to the end of a long soft tone")
    func phase() {
        let frames = 3 * Self.rate
        let hertz = 1234.5
        let tone = ToneSynth.render(frequency: hertz, frames: frames, sampleRate: Self.rate, shape: .soft, harmonics: [], amplitude: 1)
        let envelope = Envelope(shape: .soft, frames: frames, sampleRate: Self.rate)
        var worst = 0.0
        for n in stride(from: 0, to: frames, by: 7) {
            let expected = envelope.value(n) * sin(2 * Double.pi * hertz * Double(n) / Double(Self.rate))
            worst = max(worst, abs(Double(tone[n]) - expected))
        }
        #expect(worst < 1e-5, "\(worst)")
    }

    @Test("overtones at or above Nyquist are left out, and the rest normalised to the amplitude")
    func nyquist() {
        // 15 kHz: 2f = 30 kHz is past 24 kHz, so the tone is the pure sine at full amplitude
        let pure = ToneSynth.render(frequency: 15_000, frames: 4800, sampleRate: Self.rate, shape: .soft, harmonics: [], amplitude: 0.5)
        let asked = ToneSynth.render(frequency: 15_000, frames: 4800, sampleRate: Self.rate, shape: .soft, harmonics: [0.5], amplitude: 0.5)
        #expect(asked == pure)
        // 5 kHz: 2f is kept, and the sum of the partials' amplitudes is the amplitude
        let rich = ToneSynth.render(frequency: 5000, frames: 4800, sampleRate: Self.rate, shape: .soft, harmonics: [1], amplitude: 0.5)
        let envelope = Envelope(shape: .soft, frames: 4800, sampleRate: Self.rate)
        let n = 2000
        let expected = 0.25 * envelope.value(n) * (sin(2 * Double.pi * 5000 * Double(n) / 48_000) + sin(2 * Double.pi * 10_000 * Double(n) / 48_000))
        #expect(abs(Double(rich[n]) - expected) < 1e-6)
    }

    @Test("no frames, no samples")
    func empty() {
        #expect(ToneSynth.render(frequency: 440, frames: 0, sampleRate: Self.rate, shape: .bell, harmonics: [], amplitude: 1).isEmpty)
    }
}
