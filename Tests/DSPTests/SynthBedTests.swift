import Foundation
import Testing

@testable import DSP

/// The binaural and isochronic beds (recipe-v1.1 § Beds): their samples are the formula's, at
/// second 1 and at hour 10 alike, because each block's phase comes from the frame index.
@Suite struct SynthBedTests {
    static let rate = 48000
    static let tenHours: Int64 = 10 * 3600 * 48000

    /// sin(2π · hertz · frame / rate) with the phase reduced exactly: hertz × 1000 is a whole number here.
    static func sine(_ hertz: Double, frame: Int64, rate: Int = rate) -> Double {
        let milli = Int64((hertz * 1000).rounded())
        let turns = (Int128(milli) * Int128(frame)) % (Int128(rate) * 1000)
        return sin(2 * Double.pi * Double(turns) / (Double(rate) * 1000))
    }

    static func cosine(_ hertz: Double, frame: Int64, rate: Int = rate) -> Double {
        let milli = Int64((hertz * 1000).rounded())
        let turns = (Int128(milli) * Int128(frame)) % (Int128(rate) * 1000)
        return cos(2 * Double.pi * Double(turns) / (Double(rate) * 1000))
    }

    static func render(_ kind: NoiseGenerator.Kind, channels: Int = 2, from start: Int64, frames: Int) -> [Float] {
        var generator = NoiseGenerator(kind: kind, channels: channels, sampleRate: rate, seed: 1, startFrame: start)
        var out = [Float](repeating: 0, count: frames * channels)
        // in blocks of 4096, as the pipeline renders
        var done = 0
        out.withUnsafeMutableBufferPointer { buffer in
            while done < frames {
                let count = min(4096, frames - done)
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[(done * channels)..<((done + count) * channels)])
                generator.render(into: slice, frames: count)
                done += count
            }
        }
        return out
    }

    @Test(
        "binaural: left carrier − beat/2, right carrier + beat/2, the formula's samples at second 1 and at hour 10",
        arguments: [
            (200.0, 10.0), (432.0, 7.83), (1500.0, 40.0), (20.0, 0.5),
        ])
    func binaural(carrier: Double, beat: Double) {
        let amplitude = NoiseGenerator.binauralAmplitude
        for start in [Int64(Self.rate), Self.tenHours] {
            let samples = Self.render(.binaural(carrier: carrier, beat: beat), from: start, frames: 9000)
            var worst = 0.0
            for i in 0..<9000 {
                let frame = start + Int64(i)
                let left = amplitude * Self.sine(carrier - beat / 2, frame: frame)
                let right = amplitude * Self.sine(carrier + beat / 2, frame: frame)
                worst = max(worst, abs(Double(samples[2 * i]) - left), abs(Double(samples[2 * i + 1]) - right))
            }
            // float samples of a 0.18 sine: a drift of 0.01 cycle would be 0.01
            #expect(worst < 2e-6, "at frame \(start): \(worst)")
        }
    }

    @Test("isochronic: the carrier under 0.5 − 0.5 cos(2π · beat · t), t from the first frame; minima on multiples of 1/beat")
    func isochronic() {
        let (carrier, beat) = (200.0, 10.0)
        let amplitude = NoiseGenerator.isochronicAmplitude
        for start in [Int64(0), Self.tenHours] {
            let samples = Self.render(.isochronic(carrier: carrier, beat: beat), channels: 3, from: start, frames: 9600)
            var worst = 0.0
            for i in 0..<9600 {
                let frame = start + Int64(i)
                let expected = amplitude * (0.5 - 0.5 * Self.cosine(beat, frame: frame)) * Self.sine(carrier, frame: frame)
                for c in 0..<3 { worst = max(worst, abs(Double(samples[3 * i + c]) - expected)) }
            }
            #expect(worst < 2e-6, "at frame \(start): \(worst)")
            // the envelope's minima: frames k × rate / beat (4800 apart) are silent, halfway between they peak
            let every = Int(Double(Self.rate) / beat)
            for k in stride(from: 0, to: 9600, by: every) { #expect(abs(samples[3 * k]) < 1e-4, "frame \(start + Int64(k))") }
            let loud = (0..<200).map { abs(samples[3 * (every / 2 - 100 + $0)]) }.max() ?? 0
            #expect(Double(loud) > 0.9 * amplitude)
        }
    }

    @Test("binaural RMS sits near the noises' -18 dBFS before gain")
    func level() {
        let samples = Self.render(.binaural(carrier: 200, beat: 10), from: 0, frames: 48000)
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        #expect(abs(20 * log10(rms) + 18) < 0.1)
    }
}
