import Foundation

/// The shape of a cue tone, as the DSP sees it (the recipe's `envelope:`).
public enum ToneShape: Sendable {
    case bell, soft, click
}

/// Synthesizes a cue tone once, into a mono buffer that every instance of the cue reuses.
///
/// The phase comes from the frame index (not an accumulating float), so a tone
/// is bit-identical on every run. The envelope is exactly 0 at the first frame
/// and reaches 0 again at the last, so a cue starts on its frame with nothing
/// before it and ends without a click.
public enum ToneSynth {
    /// - frequency: fundamental in Hz (below Nyquist; checked by the recipe).
    /// - harmonics: relative amplitudes of 2f, 3f, …; partials at or above Nyquist are left out.
    /// - amplitude: linear peak scale of the result.
    public static func render(
        frequency: Double, frames: Int, sampleRate: Int, shape: ToneShape,
        harmonics: [Double], amplitude: Double
    ) -> [Float] {
        guard frames > 0 else { return [] }
        let nyquist = Double(sampleRate) / 2
        var partials: [(ratio: Double, amplitude: Double)] = [(1, 1)]
        for (k, a) in harmonics.enumerated() where a > 0 && frequency * Double(k + 2) < nyquist {
            partials.append((Double(k + 2), a))
        }
        let norm = amplitude / partials.reduce(0) { $0 + $1.amplitude }
        let rate = Double(sampleRate)
        var out = [Float](repeating: 0, count: frames)
        let envelope = Envelope(shape: shape, frames: frames, sampleRate: sampleRate)
        for n in 0..<frames {
            var s = 0.0
            for p in partials {
                // phase in cycles from the frame index; fmod keeps the argument small
                let cycles = (Double(n) * frequency * p.ratio).truncatingRemainder(dividingBy: rate) / rate
                // higher partials of a bell die away faster
                let decay = p.ratio == 1 ? 1 : envelope.partialDecay(n, ratio: p.ratio)
                s += p.amplitude * decay * sin(2 * Double.pi * cycles)
            }
            out[n] = Float(s * norm * envelope.value(n))
        }
        return out
    }
}

/// Envelope values by frame index.
struct Envelope {
    let shape: ToneShape
    let frames: Int
    let attack: Int
    let release: Int
    let tau: Double

    init(shape: ToneShape, frames: Int, sampleRate: Int) {
        self.shape = shape
        self.frames = frames
        let rate = Double(sampleRate)
        switch shape {
        case .bell:
            attack = max(1, min(Int(0.005 * rate), frames / 4))
            release = max(1, min(Int(0.05 * rate), frames / 4))
            tau = Double(frames) / 4.5
        case .click:
            attack = max(1, min(Int(0.001 * rate), frames / 8))
            release = max(1, min(Int(0.004 * rate), frames / 4))
            tau = Double(frames) / 5
        case .soft:
            attack = max(1, Int(Double(frames) * 0.35))
            release = max(1, Int(Double(frames) * 0.5))
            tau = .infinity
        }
    }

    /// The gain at frame n: 0 at n = 0 and at n = frames (one past the end).
    func value(_ n: Int) -> Double {
        var g = 1.0
        if n < attack { g *= 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(attack)) }
        let fromEnd = frames - n
        if fromEnd < release { g *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(release)) }
        if tau.isFinite && n > attack { g *= exp(-Double(n - attack) / tau) }
        return g
    }

    /// Extra decay of partial `ratio` (bells lose their overtones first).
    func partialDecay(_ n: Int, ratio: Double) -> Double {
        guard shape != .soft else { return 1 }
        return exp(-Double(n) * (ratio - 1) / (tau * 1.5))
    }
}
