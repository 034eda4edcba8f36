import DSP

/// The waveform picture's columns: the loudest sample of each of `count` spans of the track.
final class PeakColumnsSink: Sink {
    private var columns: PeakColumns
    private let channels: Int

    init(count: Int, totalFrames: Int64, channels: Int) {
        columns = PeakColumns(count: count, totalFrames: totalFrames)
        self.channels = channels
    }

    var peaks: [Float] { columns.peaks }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) -> Flow {
        columns.add(block, frames: frames, channels: channels)
        return .more
    }
}
