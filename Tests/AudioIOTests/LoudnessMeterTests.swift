import AudioCore
import Foundation
import Testing

@testable import AudioIO

/// `LoudnessMeter` (libebur128), in process, against EBU Tech 3341's and BS.1770's known values.
@Suite struct LoudnessMeterTests {
    static let rate = 48_000

    static func measure(_ samples: [Float], channels: Int, truePeak: Bool = false) throws -> LoudnessMeter {
        let meter = try LoudnessMeter(channels: channels, sampleRate: Self.rate, truePeak: truePeak)
        try samples.withUnsafeBufferPointer { try meter.add($0, frames: samples.count / channels) }
        return meter
    }

    static func sine(dBFS: Double, seconds: Double, channels: Int, hertz: Double = 1000) -> [Float] {
        UnitFixture.sine(hertz: hertz, amplitude: pow(10, dBFS / 20), frames: Int(seconds * Double(Self.rate)), channels: channels, rate: Self.rate)
    }

    @Test(
        "a 1 kHz sine's integrated loudness: Tech 3341 case 1 (stereo at -23 dBFS reads -23 LUFS); one channel reads 3 LU less",
        arguments: [(2, -23.0, -23.0), (2, -33.0, -33.0), (2, -3.0, -3.0), (1, -23.0, -26.01), (1, 0.0, -3.01)])
    func sine(channels: Int, dBFS: Double, lufs: Double) throws {
        let meter = try Self.measure(Self.sine(dBFS: dBFS, seconds: 3, channels: channels), channels: channels)
        #expect(abs(meter.integratedLoudness() - lufs) < 0.1, "\(meter.integratedLoudness())")
    }

    @Test("silence measures -inf, integrated, over a window and as a mean square")
    func silence() throws {
        let zeros = [Float](repeating: 0, count: Self.rate * 2)
        let meter = try Self.measure(zeros, channels: 2)
        #expect(meter.integratedLoudness() == -.infinity)
        #expect(try meter.windowLoudness(milliseconds: 400) == -.infinity)
        #expect(meter.momentaryEnergy() == 0)
        let meanSquare = try zeros.withUnsafeBufferPointer {
            try LoudnessMeter.meanSquareLoudness(of: $0, frames: Self.rate, channels: 2, sampleRate: Self.rate)
        }
        #expect(meanSquare == -.infinity)
    }

    @Test("the gates: 2 s at -23 LUFS then 2 s at -80 reads -23.3 (the absolute gate drops the quiet blocks), not the -26 of their mean")
    func absoluteGate() throws {
        let loud = Self.sine(dBFS: -23, seconds: 2, channels: 2)
        let quiet = Self.sine(dBFS: -80, seconds: 2, channels: 2)
        let meter = try Self.measure(loud + quiet, channels: 2)
        // the 400 ms blocks that straddle the step (above both gates) pull it 0.3 LU under -23
        #expect(abs(meter.integratedLoudness() + 23.3) < 0.1, "\(meter.integratedLoudness())")
    }

    @Test("the last 400 ms only: a window over 200 ms of tone and 200 ms of silence reads 3 LU under the tone")
    func window() throws {
        let tone = Self.sine(dBFS: -23, seconds: 1, channels: 2)
        let meter = try Self.measure(tone, channels: 2)
        #expect(abs(try meter.windowLoudness(milliseconds: 400) + 23) < 0.1)
        #expect(abs(10 * log10(meter.momentaryEnergy()) - 0.691 + 23) < 0.1)
        try [Float](repeating: 0, count: Self.rate / 5 * 2).withUnsafeBufferPointer { try meter.add($0, frames: Self.rate / 5) }
        #expect(abs(try meter.windowLoudness(milliseconds: 400) + 26.01) < 0.1)
        // the last 200 ms hold only the K-filter's ringing
        #expect(try meter.windowLoudness(milliseconds: 200) < -60)
    }

    @Test(
        "mean-square loudness of a clip, ungated and weighted by length, under and over 400 ms",
        arguments: [(0.2, 0.0, -23.0), (0.2, 0.2, -26.01), (1.0, 0.0, -23.0), (0.3, 0.9, -29.03), (0.05, 0.0, -23.0)])
    func meanSquare(toneSeconds: Double, silenceSeconds: Double, lufs: Double) throws {
        let clip = Self.sine(dBFS: -23, seconds: toneSeconds, channels: 2) + [Float](repeating: 0, count: Int(silenceSeconds * Double(Self.rate)) * 2)
        let measured = try clip.withUnsafeBufferPointer {
            try LoudnessMeter.meanSquareLoudness(of: $0, frames: clip.count / 2, channels: 2, sampleRate: Self.rate)
        }
        #expect(abs(measured - lufs) < 0.1, "\(measured)")
    }

    @Test("without gating, the meter keeps no blocks but reads its windows as a gating one does")
    func ungated() throws {
        let signal = Self.sine(dBFS: -20, seconds: 1, channels: 2) + Self.sine(dBFS: -30, seconds: 1, channels: 2)
        let gating = try Self.measure(signal, channels: 2)
        let plain = try LoudnessMeter(channels: 2, sampleRate: Self.rate, truePeak: false, gating: false)
        try signal.withUnsafeBufferPointer { try plain.add($0, frames: signal.count / 2) }
        #expect(gating.gates && !plain.gates)
        for window in [100, 250, 400] {
            #expect(try plain.windowLoudness(milliseconds: window) == gating.windowLoudness(milliseconds: window))
        }
        #expect(abs(try plain.windowLoudness(milliseconds: 400) + 30) < 0.2)
    }

    @Test("true peak finds the peak between samples: a sine at fs/4 sampled 45° off its crest")
    func truePeak() throws {
        let amplitude = 0.5
        let samples = (0..<Self.rate).map { n in Float(amplitude * sin(2 * Double.pi * Double(n) / 4 + Double.pi / 4)) }
        let meter = try Self.measure(samples, channels: 1, truePeak: true)
        let samplePeak = 20 * log10(Double(samples.map(abs).max() ?? 0))
        #expect(abs(samplePeak - (20 * log10(amplitude) - 3.01)) < 0.01)
        #expect(abs(meter.truePeakDB() - 20 * log10(amplitude)) < 0.2, "\(meter.truePeakDB())")
    }
}
