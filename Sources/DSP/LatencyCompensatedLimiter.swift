/// A ``TruePeakLimiter`` whose output lines up with its input: frame `n` out is frame `n` in.
///
/// Each ``process(_:frames:preGain:)`` limits a block in place and moves the
/// frames that are ready to the front of the buffer, returning how many: a
/// block's count less the latency still to be absorbed, so the first block(s)
/// return fewer frames. ``finish(into:)`` returns the rest. The total written
/// equals the total taken.
///
/// ```swift
/// let limiter = LatencyCompensatedLimiter(channels: 2, sampleRate: 48_000, ceilingDBTP: -1)
/// while let frames = source.read(into: block) {
///     let ready = limiter.process(block, frames: frames, preGain: gain)
///     try writer.write(block, frames: ready)
/// }
/// let tail = limiter.finish(into: block)   // block holds at least `limiter.latency` frames
/// try writer.write(block, frames: tail)
/// ```
public final class LatencyCompensatedLimiter {
    /// The limiter doing the work; read its statistics here.
    public let limiter: TruePeakLimiter
    /// Output frames still to be dropped: the leading silence of the delay line.
    private var pendingDiscard: Int

    public init(channels: Int, sampleRate: Int, ceilingDBTP: Double, lookahead: Double = 0.0015, release: Double = 0.050) {
        limiter = TruePeakLimiter(
            channels: channels, sampleRate: sampleRate, ceilingDBTP: ceilingDBTP, lookahead: lookahead, release: release)
        pendingDiscard = limiter.latency
    }

    /// The most frames ``finish(into:)`` writes: `buffer` must hold this many.
    public var latency: Int { limiter.latency }

    /// Applies `preGain` then limits `frames` frames in place; returns how many frames,
    /// from the start of `buffer`, are finished output (`frames` once the latency is absorbed).
    public func process(_ buffer: UnsafeMutableBufferPointer<Float>, frames: Int, preGain: Float) -> Int {
        limiter.process(buffer, frames: frames, preGain: preGain)
        return dropLeading(buffer, frames: frames)
    }

    /// Writes the last frames (at most ``latency``) into `buffer`; returns how many.
    /// Call ``reset()`` before starting another stream.
    public func finish(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        dropLeading(buffer, frames: limiter.flush(into: buffer))
    }

    /// Starts a new stream.
    public func reset() {
        limiter.reset()
        pendingDiscard = limiter.latency
    }

    private func dropLeading(_ buffer: UnsafeMutableBufferPointer<Float>, frames: Int) -> Int {
        let drop = min(pendingDiscard, frames)
        guard drop > 0, let base = buffer.baseAddress else { return frames }
        let channels = limiter.channels
        UnsafeMutableRawPointer(base).copyMemory(
            from: base + drop * channels, byteCount: (frames - drop) * channels * MemoryLayout<Float>.stride)
        pendingDiscard -= drop
        return frames - drop
    }
}
