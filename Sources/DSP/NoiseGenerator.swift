import Foundation

/// Seeded noise, drone, binaural and isochronic generators for synthesized beds, one stream per channel.
///
/// Each channel has its own generator (decorrelated stereo). Levels before the bed's `gain`,
/// measured (GeneratorTests pins them): white -18.0, pink -19.9, brown -14.4 dBFS RMS; the
/// binaural and isochronic tones -18 dBFS RMS. The loudness stage levels the track, so these
/// only set how the layers of a bed balance.
public struct NoiseGenerator: Sendable {
    public enum Kind: Sendable, Equatable {
        case white, pink, brown
        case drone(hertz: Double)
        /// recipe-v1.1 § Beds: a sine at carrier − beat/2 on the left, carrier + beat/2 on the right (two channels).
        case binaural(carrier: Double, beat: Double)
        /// A sine at the carrier, amplitude 0.5 − 0.5 cos(2π · beat · t), the same on every channel.
        case isochronic(carrier: Double, beat: Double)
    }

    /// The binaural and isochronic sines' amplitudes: each bed at -18 dBFS RMS, as white noise is.
    /// A sine of amplitude A has RMS A/√2; the isochronic envelope's mean square is 3/8.
    static let binauralAmplitude = 0.125 * 2.0.squareRoot()
    static let isochronicAmplitude = 0.125 / (0.5 * 0.375).squareRoot()

    private let kind: Kind
    private let channels: Int
    private let sampleRate: Int
    private var random: [SeededRandom]
    /// Per-channel filter state: pink uses 7 (Paul Kellet's refined filter), brown 1.
    private var state: [Float]
    private var frame: Int64 = 0

    /// `startFrame`: the track frame the first sample is (the tones' phase comes from it; noise ignores it).
    public init(kind: Kind, channels: Int, sampleRate: Int, seed: UInt64, startFrame: Int64 = 0) {
        self.kind = kind
        self.channels = channels
        self.sampleRate = sampleRate
        self.random = (0..<channels).map { SeededRandom(seed: seed &+ UInt64($0) &* 0x9E37_79B9) }
        self.state = [Float](repeating: 0, count: channels * 7)
        self.frame = startFrame
    }

    /// The track frame of the next sample.
    public var position: Int64 { frame }

    /// Moves to track frame `target` exactly as rendering up to it would: forward by
    /// `skip(frames:)`, backward by starting again from `first` (this generator as it was made) and
    /// skipping. A noise's sample at a frame is then the same whichever frame a mix starts at.
    public mutating func seek(to target: Int64, first: NoiseGenerator) {
        if target < frame { self = first }
        precondition(target >= frame, "seek: frame \(target) is before the generator's first, \(frame)")
        var left = target - frame
        while left > 0 {
            let n = Int(min(left, 1 << 30))
            skip(frames: n)
            left -= Int64(n)
        }
    }

    /// Writes `frames` frames of interleaved noise into `out` (overwriting).
    ///
    /// Each channel's noise is its own stream (its generator and filter), so the noises run channel
    /// by channel, their state in locals: the same operations in the same order as one frame at a
    /// time, without reaching through `self` for every sample.
    public mutating func render(into out: UnsafeMutableBufferPointer<Float>, frames: Int) {
        switch kind {
        case .white, .pink, .brown:
            guard frames > 0, let base = out.baseAddress else { break }
            precondition(out.count >= frames * channels, "render: the buffer holds fewer than \(frames) frames")
            for c in 0..<channels { renderNoise(channel: c, into: base + c, stride: channels, frames: frames) }
        case .drone, .binaural, .isochronic:
            guard frames > 0, let base = out.baseAddress else { break }
            precondition(out.count >= frames * channels, "render: the buffer holds fewer than \(frames) frames")
            // the oscillators start again at every multiple of `anchorFrames`, so a sample depends on its
            // frame alone, not on where a render began (a pass's second half, an AAC part)
            var done = 0
            while done < frames {
                let n = min(frames - done, Int(Self.nextAnchor(after: frame) - frame))
                let part = UnsafeMutableBufferPointer(start: base + done * channels, count: n * channels)
                switch kind {
                case .drone(let hertz): renderDrone(into: part, frames: n, hertz: hertz)
                case .binaural(let carrier, let beat): renderBinaural(into: part, frames: n, carrier: carrier, beat: beat)
                case .isochronic(let carrier, let beat): renderIsochronic(into: part, frames: n, carrier: carrier, beat: beat)
                case .white, .pink, .brown: break
                }
                frame += Int64(n)
                done += n
            }
            return
        }
        frame += Int64(frames)
    }

    /// Where an oscillator starts again at its exact phase: every 4096 frames of the track (the
    /// block a render from frame 0 takes, so such a render's samples are what they were before).
    public static let anchorFrames: Int64 = 4096

    /// The first multiple of `anchorFrames` after `frame` (frame ≥ 0).
    @inline(__always)
    public static func nextAnchor(after frame: Int64) -> Int64 { (frame / anchorFrames + 1) * anchorFrames }

    /// Moves a noise on by `frames` frames without writing them: its generator and its filter
    /// state end as `render` would leave them (the same steps, less the output), so what it renders
    /// next is what it would have rendered. The tones keep nothing but the frame.
    public mutating func skip(frames: Int) {
        guard frames > 0 else { return }
        switch kind {
        case .white, .pink, .brown:
            for c in 0..<channels { renderNoise(channel: c, into: nil, stride: channels, frames: frames) }
        case .drone, .binaural, .isochronic:
            break
        }
        frame += Int64(frames)
    }

    /// One channel's white, pink or brown noise: `frames` samples `stride` apart from `out`, or
    /// only the state moved on when `out` is nil. Pink is Paul Kellet's refined filter.
    private mutating func renderNoise(channel c: Int, into out: UnsafeMutablePointer<Float>?, stride: Int, frames: Int) {
        var random = self.random[c]
        let s = c * 7
        switch kind {
        case .white:
            if let out {
                for i in 0..<frames { out[i * stride] = random.nextBipolar() * 0.218 }
            } else {
                for _ in 0..<frames { _ = random.next() }
            }
        case .pink:
            var pink = PinkFilter(state, at: s)
            if let out {
                for i in 0..<frames {
                    let w = random.nextBipolar()
                    pink.step(w)
                    out[i * stride] = pink.output(w)
                }
            } else {
                // the same steps without the sum: b6 is only the last sample's
                var w: Float = 0
                for _ in 0..<frames {
                    w = random.nextBipolar()
                    pink.step(w)
                }
                pink.b6 = w * 0.115926
            }
            pink.store(into: &state, at: s)
        case .brown:
            var b = state[s]
            if let out {
                for i in 0..<frames {
                    let w = random.nextBipolar()
                    b = (b + 0.02 * w) * 0.998
                    out[i * stride] = b * 1.05
                }
            } else {
                for _ in 0..<frames { b = (b + 0.02 * random.nextBipolar()) * 0.998 }
            }
            state[s] = b
        case .drone, .binaural, .isochronic:
            break
        }
        self.random[c] = random
    }

    /// Left carrier − beat/2, right carrier + beat/2; each sine's phase from the frame index
    /// (`Rotor`), so the frequencies at hour 10 are those of second 1. Channels past two are silent.
    private func renderBinaural(into out: UnsafeMutableBufferPointer<Float>, frames: Int, carrier: Double, beat: Double) {
        let amplitude = Float(Self.binauralAmplitude)
        for c in 0..<channels {
            guard c < 2 else {
                for i in 0..<frames { out[i * channels + c] = 0 }
                continue
            }
            var rotor = Rotor(hertz: carrier + (c == 0 ? -beat : beat) / 2, frame: frame, sampleRate: sampleRate)
            for i in 0..<frames { out[i * channels + c] = amplitude * rotor.next() }
        }
    }

    /// The carrier under the envelope 0.5 − 0.5 cos(2π · beat · t), t from the file's first frame:
    /// its minima fall on whole multiples of 1/beat. Every channel the same.
    private func renderIsochronic(into out: UnsafeMutableBufferPointer<Float>, frames: Int, carrier: Double, beat: Double) {
        let amplitude = Float(Self.isochronicAmplitude)
        var tone = Rotor(hertz: carrier, frame: frame, sampleRate: sampleRate)
        var pulse = Rotor(hertz: beat, frame: frame, sampleRate: sampleRate)
        for i in 0..<frames {
            let envelope = 0.5 - 0.5 * pulse.nextCosine()
            let value = amplitude * envelope * tone.next()
            for c in 0..<channels { out[i * channels + c] = value }
        }
    }

    /// The drone's voices: (frequency ratio, amplitude); the fundamental, a fifth, an octave and a twelfth.
    private static let droneVoices: [(ratio: Double, amplitude: Double)] = [(1, 0.5), (1.5, 0.25), (2, 0.18), (3, 0.07)]
    /// The drone's slow swell, in Hz.
    private static let swellHertz = 0.07

    /// A chord of sines, slightly detuned between channels, with a slow swell.
    ///
    /// Each oscillator starts every block at the phase computed exactly from the
    /// frame index, then turns by a fixed rotation per frame within the block, so
    /// nothing accumulates across blocks and every render gives the same samples.
    private func renderDrone(into out: UnsafeMutableBufferPointer<Float>, frames: Int, hertz: Double) {
        let nyquist = Double(sampleRate) / 2
        for c in 0..<channels {
            let detune = 1 + (Double(c) - Double(channels - 1) / 2) * 0.0015
            for i in 0..<frames { out[i * channels + c] = 0 }
            for voice in Self.droneVoices where hertz * voice.ratio * detune < nyquist {
                var rotor = Rotor(hertz: hertz * voice.ratio * detune, frame: frame, sampleRate: sampleRate)
                let amplitude = Float(voice.amplitude * 0.25)
                for i in 0..<frames { out[i * channels + c] += amplitude * rotor.next() }
            }
            var swell = Rotor(hertz: Self.swellHertz, frame: frame, sampleRate: sampleRate)
            for i in 0..<frames { out[i * channels + c] *= 0.8 + 0.2 * swell.next() }
        }
    }
}

/// A sine oscillator as a rotating unit vector, started at an exact phase.
struct Rotor {
    private var re: Double, im: Double
    private let cr: Double, ci: Double

    /// Starts at the phase of `frame`: the exact phase 2π·frac(a × hertz / rate) of the anchor a at or
    /// before it (`NoiseGenerator.anchorFrames`), turned by a rotation per frame from a to `frame`, as
    /// a render that passed the anchor has it: a frame's sample is the same wherever a render began.
    init(hertz: Double, frame: Int64, sampleRate: Int) {
        let rate = Double(sampleRate)
        let anchor = frame - frame % NoiseGenerator.anchorFrames
        let start = 2 * Double.pi * (Double(anchor) * hertz).truncatingRemainder(dividingBy: rate) / rate
        let step = 2 * Double.pi * hertz / rate
        re = cos(start); im = sin(start)
        cr = cos(step); ci = sin(step)
        for _ in anchor..<frame { (re, im) = (re * cr - im * ci, re * ci + im * cr) }
    }

    /// The sine at the current frame; then advances one frame.
    @inline(__always)
    mutating func next() -> Float {
        let value = Float(im)
        (re, im) = (re * cr - im * ci, re * ci + im * cr)
        return value
    }

    /// The cosine at the current frame; then advances one frame.
    @inline(__always)
    mutating func nextCosine() -> Float {
        let value = Float(re)
        (re, im) = (re * cr - im * ci, re * ci + im * cr)
        return value
    }
}

/// Paul Kellet's refined pink-noise filter: seven one-pole sections of white noise, summed. One
/// definition for rendering and for skipping ahead (`NoiseGenerator.skip`), which steps the
/// sections without the sum; in locals, its fields live in registers.
struct PinkFilter {
    var b0, b1, b2, b3, b4, b5, b6: Float

    /// The state of the channel whose seven values start at `state[s]`.
    @inline(__always) init(_ state: [Float], at s: Int) {
        (b0, b1, b2, b3) = (state[s], state[s + 1], state[s + 2], state[s + 3])
        (b4, b5, b6) = (state[s + 4], state[s + 5], state[s + 6])
    }

    @inline(__always) func store(into state: inout [Float], at s: Int) {
        (state[s], state[s + 1], state[s + 2], state[s + 3]) = (b0, b1, b2, b3)
        (state[s + 4], state[s + 5], state[s + 6]) = (b4, b5, b6)
    }

    /// Moves the six recursive sections on by the white sample `w`.
    @inline(__always) mutating func step(_ w: Float) {
        b0 = 0.99886 * b0 + w * 0.0555179
        b1 = 0.99332 * b1 + w * 0.0750759
        b2 = 0.96900 * b2 + w * 0.1538520
        b3 = 0.86650 * b3 + w * 0.3104856
        b4 = 0.55000 * b4 + w * 0.5329522
        b5 = -0.7616 * b5 - w * 0.0168980
    }

    /// The pink sample after `step(w)`, scaled; `b6` then takes `w`'s share for the next.
    @inline(__always) mutating func output(_ w: Float) -> Float {
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
        b6 = w * 0.115926
        return pink * 0.0578
    }
}
