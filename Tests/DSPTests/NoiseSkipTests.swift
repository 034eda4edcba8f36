import Testing

@testable import DSP

/// `NoiseGenerator`'s white, pink and brown noise channel by channel, and `skip(frames:)`: the samples
/// of the plain loop (a frame at a time, every channel, the filter state in an array), bit for bit.
@Suite struct NoiseSkipTests {
    /// The plain loop the generator's noises are defined by: per frame, per channel, a draw from the
    /// channel's generator (seeded as the generator seeds it) through Paul Kellet's pink filter or the
    /// brown integrator.
    static func reference(_ kind: NoiseGenerator.Kind, channels: Int, seed: UInt64, frames: Int) -> [Float] {
        var random = (0..<channels).map { SeededRandom(seed: seed &+ UInt64($0) &* 0x9E37_79B9) }
        var b = [Float](repeating: 0, count: channels * 7)
        var out = [Float](repeating: 0, count: frames * channels)
        for i in 0..<frames {
            for c in 0..<channels {
                let w = random[c].nextBipolar()
                let s = c * 7
                switch kind {
                case .white:
                    out[i * channels + c] = w * 0.218
                case .pink:
                    b[s] = 0.99886 * b[s] + w * 0.0555179
                    b[s + 1] = 0.99332 * b[s + 1] + w * 0.0750759
                    b[s + 2] = 0.96900 * b[s + 2] + w * 0.1538520
                    b[s + 3] = 0.86650 * b[s + 3] + w * 0.3104856
                    b[s + 4] = 0.55000 * b[s + 4] + w * 0.5329522
                    b[s + 5] = -0.7616 * b[s + 5] - w * 0.0168980
                    let pink = b[s] + b[s + 1] + b[s + 2] + b[s + 3] + b[s + 4] + b[s + 5] + b[s + 6] + w * 0.5362
                    b[s + 6] = w * 0.115926
                    out[i * channels + c] = pink * 0.0578
                default:
                    b[s] = (b[s] + 0.02 * w) * 0.998
                    out[i * channels + c] = b[s] * 1.05
                }
            }
        }
        return out
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let kind: NoiseGenerator.Kind
        let channels: Int
        var testDescription: String { "\(kind), \(channels) channel\(channels == 1 ? "" : "s")" }
    }

    static let cases = [NoiseGenerator.Kind.white, .pink, .brown].flatMap { kind in [1, 2, 3].map { Case(kind: kind, channels: $0) } }

    @Test("render gives the plain loop's samples bit for bit, in blocks of any size", arguments: cases)
    func renderIsThePlainLoop(_ c: Case) {
        let frames = 30_000
        let expected = Self.reference(c.kind, channels: c.channels, seed: 11, frames: frames)
        let rendered = NoiseGeneratorTests.render(c.kind, channels: c.channels, seed: 11, frames: frames, blocks: [4096, 1, 333, 7000])
        #expect(rendered.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    @Test("skip(frames:) leaves the generator where rendering would: what follows is the plain loop's, bit for bit", arguments: cases)
    func skipThenRender(_ c: Case) {
        let expected = Self.reference(c.kind, channels: c.channels, seed: 5, frames: 40_000)
        var generator = NoiseGenerator(kind: c.kind, channels: c.channels, sampleRate: NoiseGeneratorTests.rate, seed: 5)
        var out = [Float](repeating: .nan, count: expected.count)
        // render, skip, render, skip one frame, render… through the whole length
        let steps: [(frames: Int, skipped: Bool)] = [(1000, false), (20_000, true), (7, false), (1, true), (3000, false), (64, true)]
        var frame = 0
        var kept: [Range<Int>] = []
        out.withUnsafeMutableBufferPointer { buffer in
            for step in steps + [(40_000 - 24_072, false)] {
                if step.skipped {
                    generator.skip(frames: step.frames)
                } else {
                    let part = UnsafeMutableBufferPointer(rebasing: buffer[(frame * c.channels)..<((frame + step.frames) * c.channels)])
                    generator.render(into: part, frames: step.frames)
                    kept.append((frame * c.channels)..<((frame + step.frames) * c.channels))
                }
                frame += step.frames
            }
        }
        #expect(frame == 40_000)
        for range in kept { #expect(out[range].map(\.bitPattern) == expected[range].map(\.bitPattern), "samples \(range)") }
    }
}
