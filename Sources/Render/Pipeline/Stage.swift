import AudioCore

/// Where a pass's blocks come from: the track's mix, or one span of it.
///
/// Like miniaudio's `ma_data_source`: fills a block the caller owns and returns
/// how many frames it wrote; 0 means the end.
protocol BlockSource {
    mutating func render(into block: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int
}

/// A step between the source and the sinks, in the spirit of SoX's effects: `flow`
/// works on a block in place, `drain` gives back what it still holds at the end.
///
/// A stage may hold frames back (the limiter's look-ahead): `flow` returns how many
/// frames, from the start of the block, are ready; in all, a stage gives back as many
/// frames as it took.
protocol Stage: AnyObject {
    /// Processes `frames` frames of `block` in place; returns the frames ready at its start.
    func flow(_ block: UnsafeMutableBufferPointer<Float>, frames: Int) -> Int
    /// Once, at the end: writes the frames still held into `block` (which holds `Block.frames`); returns how many.
    func drain(into block: UnsafeMutableBufferPointer<Float>) -> Int
}

extension Stage {
    func drain(into block: UnsafeMutableBufferPointer<Float>) -> Int { 0 }
}

/// Whether the pass goes on after a sink has seen a block.
enum Flow {
    case more
    /// The sink has what it needs (a clip found, a span measured): the pass ends here.
    case stop
}

/// The end of a pass: an encoder, a meter, the waveform's columns.
protocol Sink: AnyObject {
    /// Takes `frames` frames of finished audio, in track order.
    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow
}
