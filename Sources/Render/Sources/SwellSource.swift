import AudioCore
import CadenceCues
import DSP
import Foundation
import Recipe

/// The swell of recipe-v1.2 § Breath guidance: a sine or a noise whose linear amplitude at frame f is
/// the gain (a linear factor) × E(f), the same on every channel. Mixed with the cues (never ducked),
/// so it is part of the loudness the gain search measures.
///
/// A tone starts every block at the phase computed exactly from the frame index and turns by a fixed
/// rotation within the block (nothing accumulates across blocks, any block split gives the same
/// samples); a block where E is 0 throughout adds nothing and costs one envelope fill. A noise
/// runs from frame 0 (its generator is sequential, as a `synth:` bed's), one channel copied to all,
/// at the level a `synth:` bed of that noise has at the same gain.
struct SwellSource {
    enum Kind {
        case tone(hertz: Double)
        case noise(NoiseGenerator)
    }

    private var kind: Kind
    private let envelope: BreathEnvelope
    private let gain: Double
    private let channels: Int
    private let sampleRate: Int
    /// E of the current block, and the noise's samples: reused block after block.
    private var level: [Float] = []
    private var noise: [Float] = []

    /// The swell of `swell` following `envelope`; `seed` seeds a noise (the recipe's noise seed).
    init(swell: Swell, envelope: BreathEnvelope, channels: Int, seed: UInt64) {
        switch swell.source {
        case .tone(let hertz):
            kind = .tone(hertz: hertz)
        case .noise(let synth):
            let noise: NoiseGenerator.Kind =
                switch synth {
                case .whiteNoise: .white
                case .brownNoise: .brown
                default: .pink
                }
            kind = .noise(NoiseGenerator(kind: noise, channels: 1, sampleRate: envelope.sampleRate, seed: seed))
        }
        self.envelope = envelope
        self.gain = Gain.linear(dB: swell.gainDB)
        self.channels = channels
        self.sampleRate = envelope.sampleRate
    }

    /// Whether a mix may start part-way: a tone may, a noise runs from frame 0.
    var canStartAnywhere: Bool {
        if case .tone = kind { true } else { false }
    }

    /// Adds the swell of track frames [start, start + count) into `out` (interleaved, `channels` wide).
    mutating func mix(into out: UnsafeMutableBufferPointer<Float>, from start: Int64, count: Int) {
        guard count > 0 else { return }
        if level.count < count { level = [Float](repeating: 0, count: count) }
        envelope.fill(&level, from: start, count: count)
        switch kind {
        case .tone(let hertz):
            // the fast path: nothing sounds where E is 0 (the intro, holds when empty, after the outro's fall)
            if level.withUnsafeBufferPointer({ $0[0..<count].allSatisfy { $0 == 0 } }) { return }
            let rate = Double(sampleRate)
            let phase = 2 * Double.pi * (Double(start) * hertz).truncatingRemainder(dividingBy: rate) / rate
            let step = 2 * Double.pi * hertz / rate
            var (re, im) = (cos(phase), sin(phase))
            let (cr, ci) = (cos(step), sin(step))
            for i in 0..<count {
                let value = Float(gain * Double(level[i]) * im)
                for c in 0..<channels { out[i * channels + c] += value }
                (re, im) = (re * cr - im * ci, re * ci + im * cr)
            }
        case .noise(var generator):
            if noise.count < count { noise = [Float](repeating: 0, count: count) }
            noise.withUnsafeMutableBufferPointer { generator.render(into: $0, frames: count) }
            kind = .noise(generator)
            let g = Float(gain)
            for i in 0..<count {
                let value = g * level[i] * noise[i]
                for c in 0..<channels { out[i * channels + c] += value }
            }
        }
    }
}
