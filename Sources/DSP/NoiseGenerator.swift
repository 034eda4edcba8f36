import Foundation

/// Seeded noise and drone generators for synthesized beds, one stream per channel.
///
/// Each channel has its own generator (decorrelated stereo). Levels are set so
/// that every kind sits near -18 dBFS RMS before the bed's `gain`.
public struct NoiseGenerator: Sendable {
    public enum Kind: Sendable, Equatable {
        case white, pink, brown
        case drone(hertz: Double)
    }

    private let kind: Kind
    private let channels: Int
    private let sampleRate: Int
    private var random: [SeededRandom]
    /// Per-channel filter state: pink uses 7 (Paul Kellet's refined filter), brown 1.
    private var state: [Float]
    private var frame: Int64 = 0

    public init(kind: Kind, channels: Int, sampleRate: Int, seed: UInt64) {
        self.kind = kind
        self.channels = channels
        self.sampleRate = sampleRate
        self.random = (0..<channels).map { SeededRandom(seed: seed &+ UInt64($0) &* 0x9E37_79B9) }
        self.state = [Float](repeating: 0, count: channels * 7)
    }

    /// Writes `frames` frames of interleaved noise into `out` (overwriting).
    public mutating func render(into out: UnsafeMutableBufferPointer<Float>, frames: Int) {
        switch kind {
        case .white:
            for i in 0..<frames {
                for c in 0..<channels { out[i * channels + c] = random[c].nextBipolar() * 0.218 }
            }
        case .pink:
            state.withUnsafeMutableBufferPointer { b in
                for i in 0..<frames {
                    for c in 0..<channels {
                        let w = random[c].nextBipolar()
                        let s = c * 7
                        b[s] = 0.99886 * b[s] + w * 0.0555179
                        b[s + 1] = 0.99332 * b[s + 1] + w * 0.0750759
                        b[s + 2] = 0.96900 * b[s + 2] + w * 0.1538520
                        b[s + 3] = 0.86650 * b[s + 3] + w * 0.3104856
                        b[s + 4] = 0.55000 * b[s + 4] + w * 0.5329522
                        b[s + 5] = -0.7616 * b[s + 5] - w * 0.0168980
                        let pink = b[s] + b[s + 1] + b[s + 2] + b[s + 3] + b[s + 4] + b[s + 5] + b[s + 6] + w * 0.5362
                        b[s + 6] = w * 0.115926
                        out[i * channels + c] = pink * 0.0578
                    }
                }
            }
        case .brown:
            state.withUnsafeMutableBufferPointer { b in
                for i in 0..<frames {
                    for c in 0..<channels {
                        let w = random[c].nextBipolar()
                        let s = c * 7
                        b[s] = (b[s] + 0.02 * w) * 0.998
                        out[i * channels + c] = b[s] * 1.05
                    }
                }
            }
        case .drone(let hertz):
            renderDrone(into: out, frames: frames, hertz: hertz)
        }
        frame += Int64(frames)
    }

    /// A fundamental with a fifth and an octave, slightly detuned between channels, with a slow swell.
    private func renderDrone(into out: UnsafeMutableBufferPointer<Float>, frames: Int, hertz: Double) {
        let rate = Double(sampleRate)
        let nyquist = rate / 2
        let voices: [(ratio: Double, amp: Double)] = [(1, 0.5), (1.5, 0.25), (2, 0.18), (3, 0.07)]
        for i in 0..<frames {
            let n = Double(frame + Int64(i))
            let swell = 0.8 + 0.2 * sin(2 * Double.pi * (n * 0.07).truncatingRemainder(dividingBy: rate) / rate)
            for c in 0..<channels {
                let detune = 1 + (Double(c) - Double(channels - 1) / 2) * 0.0015
                var s = 0.0
                for v in voices where hertz * v.ratio * detune < nyquist {
                    let cycles = (n * hertz * v.ratio * detune).truncatingRemainder(dividingBy: rate) / rate
                    s += v.amp * sin(2 * Double.pi * cycles)
                }
                out[i * channels + c] = Float(s * swell * 0.25)
            }
        }
    }
}
