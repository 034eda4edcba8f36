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
/// is one sequence from frame 0 (its generator is sequential, as a `synth:` bed's), one channel
/// copied to all, at the level a `synth:` bed of that noise has at the same gain; where E is 0 for
/// a stretch, its generator only moves on (`NoiseGenerator.skip`), which leaves it where rendering
/// would, and a mix that starts part-way seeks it there the same way (`NoiseGenerator.seek`).
///
/// Every sample is the one the plain loop gives (gain × E × the tone or noise, added per channel):
/// the fast paths skip only additions of a zero that cannot change what they add to.
struct SwellSource {
    private let hertz: Double?
    private var generator: NoiseGenerator?
    /// The noise's generator as it was made: where a seek back starts again.
    private let first: NoiseGenerator?
    private let envelope: BreathEnvelope
    private let gain: Double
    private let channels: Int
    private let sampleRate: Int
    /// E of the current block, and the noise's samples: grown once, reused block after block.
    private var level: [Float] = []
    private var noise: [Float] = []

    /// A stretch where E is 0 for at least this many frames moves the noise on without rendering it.
    static let shortestSkip = 64

    /// The swell of `swell` following `envelope`; `seed` seeds a noise (the recipe's noise seed).
    init(swell: Swell, envelope: BreathEnvelope, channels: Int, seed: UInt64) {
        switch swell.source {
        case .tone(let hertz):
            self.hertz = hertz
            generator = nil
            first = nil
        case .noise(let synth):
            let noise: NoiseGenerator.Kind =
                switch synth {
                case .whiteNoise: .white
                case .brownNoise: .brown
                default: .pink
                }
            hertz = nil
            generator = NoiseGenerator(kind: noise, channels: 1, sampleRate: envelope.sampleRate, seed: seed)
            first = generator
        }
        self.envelope = envelope
        self.gain = Gain.linear(dB: swell.gainDB)
        self.channels = channels
        self.sampleRate = envelope.sampleRate
    }

    /// Whether a mix starts part-way at no more cost than its own frames: a tone does; a noise seeks
    /// from frame 0.
    var startsCheaply: Bool { hertz != nil }

    /// Adds the swell of track frames [start, start + count) into `out` (interleaved, `channels` wide).
    mutating func mix(into out: UnsafeMutableBufferPointer<Float>, from start: Int64, count: Int) {
        guard count > 0, let target = out.baseAddress else { return }
        precondition(out.count >= count * channels, "mix: the buffer holds fewer than \(count) frames")
        if level.count < count { level = [Float](repeating: 0, count: count) }
        envelope.fill(&level, from: start, count: count)
        if let hertz {
            level.withUnsafeBufferPointer { level in
                guard let e = level.baseAddress else { return }
                // the fast path: nothing sounds where E is 0 (the intro, holds when empty, after the outro's fall)
                if Self.allZero(e, count: count) { return }
                Self.addTone(into: target, channels: channels, level: e, count: count, hertz: hertz, from: start, sampleRate: sampleRate, gain: gain)
            }
        } else if var generator, let first {
            // the generator lives outside `self` meanwhile: one copy of its state, changed in place
            self.generator = nil
            if generator.position != start { generator.seek(to: start, first: first) }
            if noise.count < count { noise = [Float](repeating: 0, count: count) }
            let channels = self.channels
            let g = Float(gain)
            level.withUnsafeBufferPointer { level in
                noise.withUnsafeMutableBufferPointer { noise in
                    guard let e = level.baseAddress, let n = noise.baseAddress else { return }
                    var i = 0
                    while i < count {
                        // a stretch of E = 0 long enough to skip, or the frames up to the next one
                        let (run, zero) = Self.run(e + i, count: count - i)
                        let frames = target + i * channels
                        // E = 0 adds ±0, which changes nothing but a -0 (to +0, for a noise sample ≥ 0): skip only without one
                        if zero && !Self.containsNegativeZero(frames, count: run * channels) {
                            generator.skip(frames: run)
                        } else {
                            generator.render(into: UnsafeMutableBufferPointer(start: n, count: run), frames: run)
                            Self.addProducts(into: frames, channels: channels, gain: g, level: e + i, noise: n, count: run)
                        }
                        i += run
                    }
                }
            }
            self.generator = generator
        }
    }

    /// Whether `count` values from `p` are all 0.
    @inline(__always)
    static func allZero(_ p: UnsafePointer<Float>, count: Int) -> Bool {
        var any: UInt32 = 0
        // +0 and -0: the bits but the sign
        for i in 0..<count { any |= p[i].bitPattern & 0x7FFF_FFFF }
        return any == 0
    }

    /// Whether any of `count` values from `p` is -0.
    @inline(__always)
    static func containsNegativeZero(_ p: UnsafePointer<Float>, count: Int) -> Bool {
        var found: UInt32 = 0
        for i in 0..<count { found |= p[i].bitPattern == 0x8000_0000 ? 1 : 0 }
        return found != 0
    }

    /// The frames from `e` up to the next stretch of at least `shortestSkip` zeros (not zero), or that
    /// stretch (zero); at most `count`.
    static func run(_ e: UnsafePointer<Float>, count: Int) -> (frames: Int, zero: Bool) {
        var i = 0
        while i < count {
            guard e[i] == 0 else {
                i += 1
                continue
            }
            var j = i + 1
            while j < count && e[j] == 0 { j += 1 }
            if j - i >= shortestSkip { return i == 0 ? (j, true) : (i, false) }
            i = j
        }
        return (count, false)
    }

    /// out[i, c] += g × e[i] × noise[i] for every channel c, i < count.
    static func addProducts(
        into out: UnsafeMutablePointer<Float>, channels: Int, gain g: Float, level e: UnsafePointer<Float>, noise: UnsafePointer<Float>,
        count: Int
    ) {
        switch channels {
        case 1:
            for i in 0..<count { out[i] += g * e[i] * noise[i] }
        case 2:
            for i in 0..<count {
                let value = g * e[i] * noise[i]
                out[2 * i] += value
                out[2 * i + 1] += value
            }
        default:
            for i in 0..<count {
                let value = g * e[i] * noise[i]
                for c in 0..<channels { out[i * channels + c] += value }
            }
        }
    }

    /// out[i, c] += Float(gain × e[i] × sin(phase(start + i))), the sine turned by a rotation from the
    /// exact phase of `start`.
    static func addTone(
        into out: UnsafeMutablePointer<Float>, channels: Int, level e: UnsafePointer<Float>, count: Int, hertz: Double, from start: Int64,
        sampleRate: Int, gain: Double
    ) {
        // the sine starts again at its exact phase at every anchor (`NoiseGenerator.anchorFrames`): a
        // sample depends on its frame alone, however the blocks fall
        let next = NoiseGenerator.nextAnchor(after: start)
        if start + Int64(count) > next {
            let n = Int(next - start)
            addTone(into: out, channels: channels, level: e, count: n, hertz: hertz, from: start, sampleRate: sampleRate, gain: gain)
            addTone(
                into: out + n * channels, channels: channels, level: e + n, count: count - n, hertz: hertz, from: next, sampleRate: sampleRate,
                gain: gain)
            return
        }
        let rate = Double(sampleRate)
        let anchor = start - start % NoiseGenerator.anchorFrames
        let phase = 2 * Double.pi * (Double(anchor) * hertz).truncatingRemainder(dividingBy: rate) / rate
        let step = 2 * Double.pi * hertz / rate
        var (re, im) = (cos(phase), sin(phase))
        let (cr, ci) = (cos(step), sin(step))
        // from the anchor at or before `start`, as a block that began there has it
        for _ in anchor..<start { (re, im) = (re * cr - im * ci, re * ci + im * cr) }
        switch channels {
        case 1:
            for i in 0..<count {
                out[i] += Float(gain * Double(e[i]) * im)
                (re, im) = (re * cr - im * ci, re * ci + im * cr)
            }
        case 2:
            for i in 0..<count {
                let value = Float(gain * Double(e[i]) * im)
                out[2 * i] += value
                out[2 * i + 1] += value
                (re, im) = (re * cr - im * ci, re * ci + im * cr)
            }
        default:
            for i in 0..<count {
                let value = Float(gain * Double(e[i]) * im)
                for c in 0..<channels { out[i * channels + c] += value }
                (re, im) = (re * cr - im * ci, re * ci + im * cr)
            }
        }
    }
}
