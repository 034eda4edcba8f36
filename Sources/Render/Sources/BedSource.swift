import AudioCore
import AudioIO
import DSP

/// The bed of a track: file (looped with equal-power crossfades), synth, or silence; scaled and faded.
///
/// Writes (overwrites) a block at a time. A file bed shorter than the track
/// loops with period `bed − crossfade`: at each seam the tail of one pass
/// fades out while the head of the next fades in, with out² + in² = 1.
struct BedSource {
    enum Kind {
        case silence
        case file(PreparedBed, crossfade: Int64)
        case synth(NoiseGenerator)
    }

    private var kind: Kind
    private let gain: Float
    private let envelope: FadeEnvelope
    /// The bed's gain under voice prompts; nil: no prompt ducks it.
    private let duck: DuckCurve?
    private let channels: Int
    private let totalFrames: Int64
    private var scratch: [Float]

    init(kind: Kind, gain: Float, envelope: FadeEnvelope, duck: DuckCurve?, channels: Int, totalFrames: Int64) {
        self.kind = kind
        self.gain = gain
        self.envelope = envelope
        self.duck = duck
        self.channels = channels
        self.totalFrames = totalFrames
        self.scratch = [Float](repeating: 0, count: Block.frames * channels)
    }

    /// Fills `count` frames of `out` with the bed at track frames [start, start+count).
    mutating func render(into out: UnsafeMutableBufferPointer<Float>, from start: Int64, count: Int) throws(AudioError) {
        switch kind {
        case .silence:
            out.baseAddress!.update(repeating: 0, count: count * channels)
            return
        case .synth(var generator):
            generator.render(into: out, frames: count)
            kind = .synth(generator)
        case .file(let bed, let crossfade):
            try renderFile(bed, crossfade: crossfade, into: out, from: start, count: count)
        }
        if gain != 1 {
            for i in 0..<(count * channels) { out[i] *= gain }
        }
        envelope.apply(out, channels: channels, from: start, count: count)
        duck?.apply(out, channels: channels, from: start, count: count)
    }

    private mutating func renderFile(
        _ bed: PreparedBed, crossfade: Int64, into out: UnsafeMutableBufferPointer<Float>,
        from start: Int64, count: Int
    ) throws(AudioError) {
        let length = bed.frames
        let looping = totalFrames > length
        let period = length - crossfade
        var done = 0
        while done < count {
            let t = start + Int64(done)
            let dest = out.baseAddress! + done * channels
            guard looping else {
                // the bed is at least as long as the track: play it straight
                try bed.read(frame: t, count: count - done, into: dest)
                return
            }
            let pass = t / period
            let position = t - pass * period
            if pass >= 1 && position < crossfade {
                // a seam: the tail of the previous pass under the head of this one
                let span = Int(min(Int64(count - done), crossfade - position))
                try bed.read(frame: position, count: span, into: dest)
                try scratch.withUnsafeMutableBufferPointer { (tail) throws(AudioError) in
                    try bed.read(frame: period + position, count: span, into: tail.baseAddress!)
                    for i in 0..<span {
                        let g = FadeCurve.equalPower(position + Int64(i), length: crossfade)
                        for c in 0..<channels {
                            let k = i * channels + c
                            dest[k] = dest[k] * g.in + tail[k] * g.out
                        }
                    }
                }
                done += span
            } else {
                let span = Int(min(Int64(count - done), period - position))
                try bed.read(frame: position, count: span, into: dest)
                done += span
            }
        }
    }
}
