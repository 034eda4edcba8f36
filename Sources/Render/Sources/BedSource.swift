import AudioCore
import AudioIO
import DSP

/// The bed of a track: its layers (file, looped with equal-power crossfades; synth; or none for
/// silence), each scaled and faded, summed, then ducked under the voice.
///
/// Writes (overwrites) a block at a time. A file bed shorter than the track
/// loops with period `bed − crossfade`: at each seam the tail of one pass
/// fades out while the head of the next fades in, with out² + in² = 1.
/// Ducking lowers the sum, so every layer drops by the same depth (recipe-v1.1 § Beds).
struct BedSource {
    enum Kind {
        case silence
        case file(PreparedBed, crossfade: Int64)
        /// The generator where the layer is, and as it was made (a mix starting part-way seeks from it).
        case synth(NoiseGenerator, first: NoiseGenerator)
    }

    /// One layer of `bed:` (a recipe's single bed is one layer).
    struct Layer {
        var kind: Kind
        let gain: Float
        let envelope: FadeEnvelope
    }

    private var layers: [Layer]
    /// The bed's gain under voice prompts; nil: no prompt ducks it.
    private let duck: DuckCurve?
    private let channels: Int
    private let totalFrames: Int64
    private var scratch: [Float]
    /// The second and later layers are rendered here, then added.
    private var layerScratch: [Float]

    init(layers: [Layer], duck: DuckCurve?, channels: Int, totalFrames: Int64) {
        self.layers = layers
        self.duck = duck
        self.channels = channels
        self.totalFrames = totalFrames
        self.scratch = [Float](repeating: 0, count: Block.frames * channels)
        self.layerScratch = layers.count > 1 ? [Float](repeating: 0, count: Block.frames * channels) : []
    }

    /// Fills `count` frames of `out` with the bed at track frames [start, start+count).
    mutating func render(into out: UnsafeMutableBufferPointer<Float>, from start: Int64, count: Int) throws(AudioError) {
        guard !layers.isEmpty else {
            out[0..<(count * channels)].update(repeating: 0)
            return
        }
        try renderLayer(0, into: out, from: start, count: count)
        if layers.count > 1 {
            var mix = layerScratch
            layerScratch = []
            defer { layerScratch = mix }
            try mix.withUnsafeMutableBufferPointer { (buffer) throws(AudioError) in
                for index in 1..<layers.count {
                    try renderLayer(index, into: buffer, from: start, count: count)
                    for i in 0..<(count * channels) { out[i] += buffer[i] }
                }
            }
        }
        duck?.apply(out, channels: channels, from: start, count: count)
    }

    /// Layer `index`, scaled and faded, into `out` (overwriting).
    private mutating func renderLayer(_ index: Int, into out: UnsafeMutableBufferPointer<Float>, from start: Int64, count: Int) throws(AudioError) {
        switch layers[index].kind {
        case .silence:
            out[0..<(count * channels)].update(repeating: 0)
            return
        case .synth(var generator, let first):
            // a mix that starts part-way (a pass's second half, an AAC part) gets there as rendering would
            if generator.position != start { generator.seek(to: start, first: first) }
            generator.render(into: out, frames: count)
            layers[index].kind = .synth(generator, first: first)
        case .file(let bed, let crossfade):
            try renderFile(bed, crossfade: crossfade, into: out, from: start, count: count)
        }
        let gain = layers[index].gain
        if gain != 1 {
            for i in 0..<(count * channels) { out[i] *= gain }
        }
        layers[index].envelope.apply(out, channels: channels, from: start, count: count)
    }

    private mutating func renderFile(
        _ bed: PreparedBed, crossfade: Int64, into out: UnsafeMutableBufferPointer<Float>,
        from start: Int64, count: Int
    ) throws(AudioError) {
        let length = bed.frames
        let looping = totalFrames > length
        let period = length - crossfade
        guard let base = out.baseAddress else { return }  // an empty buffer holds no frames
        var done = 0
        while done < count {
            let t = start + Int64(done)
            let dest = base + done * channels
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
                    guard let tailBase = tail.baseAddress else { return }  // scratch holds a block, never empty
                    try bed.read(frame: period + position, count: span, into: tailBase)
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
