import AudioCore

/// Passes on to its sinks only the frames of a pass within `keep` (track frames), for a pass
/// that starts at track frame `start`: a part of a track rendered from a warm-up before it,
/// whose encoder takes one range and whose picture and clip guard another. Only a sink's own
/// `.stop` (a clip) ends the pass.
final class FrameRangeSink: Sink {
    private let keep: Range<Int64>
    private let sinks: [any Sink]
    private let channels: Int
    private var position: Int64

    init(start: Int64, keep: Range<Int64>, channels: Int, into sinks: [any Sink]) {
        self.keep = keep
        self.sinks = sinks
        self.channels = channels
        position = start
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        let here = position..<(position + Int64(frames))
        position += Int64(frames)
        let inside = here.clamped(to: keep)
        guard !inside.isEmpty else { return .more }
        let from = Int(inside.lowerBound - here.lowerBound) * channels
        let piece = UnsafeBufferPointer(rebasing: block[from..<(from + inside.count * channels)])
        for sink in sinks where try sink.consume(piece, frames: inside.count) == .stop { return .stop }
        return .more
    }
}
