import AudioCore
import Foundation
import Testing

@testable import AudioIO

/// `SampleRateConverter` (libsamplerate), in process: lengths, frequency and timing kept, and the
/// same samples however the input is split.
@Suite struct SampleRateConverterTests {
    /// Where a sine's samples cross zero upwards, in frames, interpolated between samples.
    static func risingCrossings(_ x: [Float], in range: Range<Int>) -> [Double] {
        var found: [Double] = []
        for n in range.dropFirst() where x[n - 1] < 0 && x[n] >= 0 {
            found.append(Double(n - 1) + Double(-x[n - 1] / (x[n] - x[n - 1])))
        }
        return found
    }

    /// The frequency of a sine from its rising zero crossings, in Hz.
    static func frequency(_ x: [Float], rate: Int, in range: Range<Int>) -> Double {
        let crossings = risingCrossings(x, in: range)
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / Double(rate))
    }

    @Test(
        "a whole buffer converts to n · out / in frames, rounded down, and one more when upsampling (libsamplerate's drain)",
        arguments: [(44_100, 48_000, 44_100), (44_100, 48_000, 10_007), (48_000, 44_100, 48_000), (22_050, 48_000, 22_050), (96_000, 48_000, 9601)])
    func length(from input: Int, to output: Int, frames: Int) throws {
        let samples = UnitFixture.sine(hertz: 440, amplitude: 0.5, frames: frames, channels: 2, rate: input)
        let out = try SampleRateConverter.convert(samples, channels: 2, from: input, to: output, name: "test")
        let exact = Double(frames) * Double(output) / Double(input)
        let expected = Int(exact.rounded(.down)) + (output > input ? 1 : 0)
        #expect(out.count / 2 == expected, "\(out.count / 2) frames for \(exact)")
        #expect(out.count % 2 == 0)
    }

    @Test(
        "a sine keeps its frequency and its timing: no delay, the output sample at t is the sine at t",
        arguments: [(44_100, 48_000, 1000.0), (48_000, 44_100, 3000.0), (16_000, 48_000, 440.0)])
    func sine(from input: Int, to output: Int, hertz: Double) throws {
        let samples = UnitFixture.sine(hertz: hertz, amplitude: 0.5, frames: input / 2, rate: input)
        let out = try SampleRateConverter.convert(samples, channels: 1, from: input, to: output, name: "test")
        let middle = (output / 20)..<(out.count - output / 20)
        let measured = Self.frequency(out, rate: output, in: middle)
        #expect(abs(measured - hertz) < 0.01 * hertz / 1000, "\(measured) Hz")
        var worst = 0.0
        for n in middle {
            let expected: Double = 0.5 * sin(2 * Double.pi * hertz * Double(n) / Double(output))
            worst = max(worst, abs(Double(out[n]) - expected))
        }
        // medium quality: about -90 dB of error; a delay of one output frame would be 0.07 at 1 kHz
        #expect(worst < 1e-3, "worst difference \(worst)")
    }

    @Test("stereo channels stay apart and in order")
    func channelsInOrder() throws {
        let left = UnitFixture.sine(hertz: 1000, amplitude: 0.5, frames: 22_050, rate: 44_100)
        let samples = left.flatMap { x -> [Float] in [x, 0] }
        let out = try SampleRateConverter.convert(samples, channels: 2, from: 44_100, to: 48_000, name: "test")
        let frames = out.count / 2
        #expect((0..<frames).allSatisfy { out[2 * $0 + 1] == 0 })
        #expect((0..<frames).map { abs(out[2 * $0]) }.max() ?? 0 > 0.49)
    }

    /// Streams `samples` through `process` in pieces of `block` frames, draining at the end.
    static func streamed(_ samples: [Float], channels: Int, from input: Int, to output: Int, block: Int, capacity: Int) throws -> [Float] {
        let converter = try SampleRateConverter(channels: channels, inputRate: input, outputRate: output, name: "test")
        let frames = samples.count / channels
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: capacity * channels)
        var offset = 0
        while true {
            let end = min(frames, offset + block)
            let last = end == frames
            let (used, generated) = try samples.withUnsafeBufferPointer { input in
                try buffer.withUnsafeMutableBufferPointer { output in
                    try converter.process(
                        input: input.baseAddress! + offset * channels, inputFrames: end - offset, output: output.baseAddress!,
                        outputCapacity: capacity, endOfInput: last)
                }
            }
            offset += used
            out += buffer[0..<(generated * channels)]
            if last && offset >= frames && generated == 0 { break }
        }
        return out
    }

    @Test(
        "streamed in odd pieces into small outputs, the samples are those of one whole conversion",
        arguments: [(1, 7), (7, 64), (1000, 333), (4097, 8192)])
    func blockSizes(block: Int, capacity: Int) throws {
        let samples = UnitFixture.sine(hertz: 1234.5, amplitude: 0.7, frames: 12_345, channels: 2, rate: 44_100)
        let whole = try SampleRateConverter.convert(samples, channels: 2, from: 44_100, to: 48_000, name: "test")
        let pieces = try Self.streamed(samples, channels: 2, from: 44_100, to: 48_000, block: block, capacity: capacity)
        #expect(pieces.count == whole.count)
        #expect(pieces == whole)
    }

    @Test(
        "ratios past 256× either way are refused, with the rates named; up to 256× is accepted",
        arguments: [(1000, 384_000, false), (1500, 384_000, true), (384_000, 1000, false), (384_000, 1500, true), (0, 48_000, false)])
    func ratio(input: Int, output: Int, accepted: Bool) {
        let error = UnitFixture.audioError { try SampleRateConverter.checkRatio(inputRate: input, outputRate: output, name: "bed.wav") }
        #expect((error == nil) == accepted)
        if let error {
            #expect(error.kind == .data && error.reason.hasPrefix("cannot convert \(input) Hz to \(output) Hz"))
        }
    }

    @Test("the same rate is no conversion: the samples come back as they are")
    func sameRate() throws {
        let samples = UnitFixture.sine(hertz: 440, amplitude: 0.5, frames: 1000, rate: 48_000)
        #expect(try SampleRateConverter.convert(samples, channels: 1, from: 48_000, to: 48_000, name: "test") == samples)
    }
}
