import CEBUR128
import DSP
import Foundation
import Testing

/// What libebur128 measures of interleaved float audio: the meter that checks Cadence's output.
struct EBUR128Measurement {
    /// The largest `ebur128_true_peak` over channels, in dBTP.
    var truePeakDB: Double
    /// `ebur128_loudness_global`, in LUFS (-inf when not measured or silent).
    var loudness: Double

    init(_ samples: [Float], channels: Int, sampleRate: Int = LimiterSignal.sampleRate, loudness: Bool = false) {
        let mode = EBUR128_MODE_TRUE_PEAK.rawValue | (loudness ? EBUR128_MODE_I.rawValue : 0)
        var handle = ebur128_init(UInt32(channels), UInt(sampleRate), Int32(mode))
        guard let state = handle else { fatalError("ebur128_init failed") }
        defer { ebur128_destroy(&handle) }
        samples.withUnsafeBufferPointer { p in
            _ = ebur128_add_frames_float(state, p.baseAddress, samples.count / channels)
        }
        var peak = 0.0
        for c in 0..<channels {
            var channelPeak = 0.0
            _ = ebur128_true_peak(state, UInt32(c), &channelPeak)
            peak = max(peak, channelPeak)
        }
        truePeakDB = Gain.decibels(linear: peak)
        var global = -Double.infinity
        if loudness { _ = ebur128_loudness_global(state, &global) }
        self.loudness = global
    }
}

/// Test signals at 48 kHz, generated here: stereo, interleaved, unscaled.
enum LimiterSignal: String, CaseIterable, CustomTestStringConvertible {
    case pinkNoise, sine1k, quarterRateSine45, bell, impulse, noiseBursts, mixedLevels

    static let sampleRate = 48_000
    static let channels = 2

    var testDescription: String { rawValue }

    /// `seconds` of the signal (frames rounded down).
    func samples(seconds: Double = 1) -> [Float] {
        let frames = Int(seconds * Double(Self.sampleRate))
        var out = [Float](repeating: 0, count: frames * Self.channels)
        let rate = Double(Self.sampleRate)
        switch self {
        case .pinkNoise:
            var noise = NoiseGenerator(kind: .pink, channels: Self.channels, sampleRate: Self.sampleRate, seed: 0x5EED)
            out.withUnsafeMutableBufferPointer { noise.render(into: $0, frames: frames) }
        case .sine1k:
            for n in 0..<frames {
                out[2 * n] = Float(sin(2 * Double.pi * 1000 * Double(n) / rate))
                out[2 * n + 1] = Float(sin(2 * Double.pi * 1000 * Double(n) / rate + 0.3))
            }
        case .quarterRateSine45:
            // fs/4 with a 45° phase: samples at ±0.707, peaks of 1.0 between them (+3 dB).
            for n in 0..<frames {
                let v = Float(sin(Double.pi / 2 * Double(n) + Double.pi / 4))
                out[2 * n] = v
                out[2 * n + 1] = v
            }
        case .bell:
            // Inharmonic partials with exponential decays, struck every 0.4 s.
            let partials: [(ratio: Double, amp: Double, decay: Double)] = [
                (1, 0.5, 1.2), (2.76, 0.3, 0.6), (5.40, 0.2, 0.3), (8.93, 0.15, 0.15), (13.3, 0.1, 0.08),
            ]
            let strike = Int(0.4 * rate)
            for n in 0..<frames {
                let t = Double(n % strike) / rate
                var s = 0.0
                for p in partials { s += p.amp * exp(-t / p.decay) * sin(2 * Double.pi * 660 * p.ratio * t) }
                out[2 * n] = Float(s)
                out[2 * n + 1] = Float(s * 0.8)
            }
        case .impulse:
            out[2 * (frames / 2)] = 1
        case .noiseBursts:
            // Full-scale white noise switching on and off every 300 frames: hard transients.
            var random = SeededRandom(seed: 42)
            for n in 0..<frames {
                let on: Float = (n / 300) % 2 == 0 ? 1 : 0.01
                out[2 * n] = random.nextBipolar() * on
                out[2 * n + 1] = random.nextBipolar() * on
            }
        case .mixedLevels:
            // Quiet sine (no interpolation needed), near-full-scale pink noise, silence, a loud
            // fs/4 burst, quiet again: every path of the limiter in one signal.
            let pink = LimiterSignal.pinkNoise.samples(seconds: seconds)
            let quarter = LimiterSignal.quarterRateSine45.samples(seconds: seconds)
            for n in 0..<frames {
                let part = n * 5 / max(frames, 1)
                for c in 0..<Self.channels {
                    let i = 2 * n + c
                    switch part {
                    case 0, 4: out[i] = Float(0.05 * sin(2 * Double.pi * 220 * Double(n) / rate))
                    case 1: out[i] = pink[i] * 3
                    case 2: out[i] = 0
                    default: out[i] = quarter[i]
                    }
                }
            }
        }
        return out
    }
}

/// Runs `input` through `limiter` the way the renderer does: blocks of `blockSize`
/// frames, the first `latency` output frames discarded, `flush` appended.
func limitDiscardingLatency(
    _ input: [Float], with limiter: TruePeakLimiter, preGain: Float, blockSize: Int
) -> [Float] {
    let channels = limiter.channels
    let frames = input.count / channels
    var output: [Float] = []
    output.reserveCapacity(input.count)
    var block = [Float](repeating: 0, count: max(blockSize, limiter.latency) * channels)
    var discard = limiter.latency
    func keep(_ written: Int) {
        let dropped = min(discard, written)
        discard -= dropped
        output.append(contentsOf: block[(dropped * channels)..<(written * channels)])
    }
    var start = 0
    while start < frames {
        let n = min(blockSize, frames - start)
        block.replaceSubrange(0..<(n * channels), with: input[(start * channels)..<((start + n) * channels)])
        block.withUnsafeMutableBufferPointer { limiter.process($0, frames: n, preGain: preGain) }
        keep(n)
        start += n
    }
    let tail = block.withUnsafeMutableBufferPointer { limiter.flush(into: $0) }
    keep(tail)
    return output
}

/// The same through ``LatencyCompensatedLimiter``.
func limitCompensated(
    _ input: [Float], with limiter: LatencyCompensatedLimiter, preGain: Float, blockSize: Int
) -> [Float] {
    let channels = limiter.limiter.channels
    let frames = input.count / channels
    var output: [Float] = []
    var block = [Float](repeating: 0, count: max(blockSize, limiter.latency) * channels)
    var start = 0
    while start < frames {
        let n = min(blockSize, frames - start)
        block.replaceSubrange(0..<(n * channels), with: input[(start * channels)..<((start + n) * channels)])
        let ready = block.withUnsafeMutableBufferPointer { limiter.process($0, frames: n, preGain: preGain) }
        output.append(contentsOf: block[0..<(ready * channels)])
        start += n
    }
    let tail = block.withUnsafeMutableBufferPointer { limiter.finish(into: $0) }
    output.append(contentsOf: block[0..<(tail * channels)])
    return output
}

/// The true peak (dBTP) of interleaved stereo `samples` by the meter the limiter holds
/// (`TruePeakMeter`, 8× oversampled; libebur128's 4× filter reads noise bursts up to 0.25 dB
/// higher and white noise up to 0.4 dB lower).
func limiterMeterDB(_ samples: [Float]) -> Double {
    let meter = TruePeakMeter(channels: LimiterSignal.channels)
    samples.withUnsafeBufferPointer { meter.add($0, frames: $0.count / LimiterSignal.channels) }
    return meter.finish()
}

/// The pre-gain that puts `samples`' true peak (as the limiter's meter measures it) at `dBTP`.
func preGain(placing samples: [Float], atDBTP dBTP: Double) -> Float {
    let peak = limiterMeterDB(samples)
    return Float(Gain.linear(dB: dBTP - peak))
}
