import DSP

/// The waveform picture's columns: the loudest sample of each of `count` spans of the track.
final class PeakColumnsSink: Sink {
    private var columns: PeakColumns
    private let channels: Int

    /// `start`: the track frame of the first frame it takes.
    init(count: Int, totalFrames: Int64, channels: Int, start: Int64 = 0) {
        columns = PeakColumns(count: count, totalFrames: totalFrames, start: start)
        self.channels = channels
    }

    var peaks: [Float] { columns.peaks }
    var all: PeakColumns { columns }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) -> Flow {
        columns.add(block, frames: frames, channels: channels)
        return .more
    }
}
