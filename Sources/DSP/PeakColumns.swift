/// The loudest sample in each of `count` equal spans of a track: the data of a waveform picture.
///
/// Fed block by block as the track is encoded; column `c` covers frames
/// `c·total/count ..< (c+1)·total/count`, in integer arithmetic.
public struct PeakColumns: Sendable {
    public private(set) var peaks: [Float]
    private let totalFrames: Int64
    private var frame: Int64 = 0
    private var column = 0
    private var columnEnd: Int64

    /// Columns over a track of `totalFrames`, the first frame added being track frame `start`
    /// (a part of the track: `merge` the parts' columns).
    public init(count: Int, totalFrames: Int64, start: Int64 = 0) {
        let count = max(1, min(count, Int(max(1, totalFrames))))
        peaks = [Float](repeating: 0, count: count)
        self.totalFrames = max(1, totalFrames)
        columnEnd = self.totalFrames / Int64(count)
        frame = start
    }

    /// Takes the louder of each column from `other`, columns over the same track.
    public mutating func merge(_ other: PeakColumns) {
        for i in peaks.indices where i < other.peaks.count { peaks[i] = max(peaks[i], other.peaks[i]) }
    }

    /// Adds `frames` interleaved frames of `channels` channels.
    public mutating func add(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) {
        guard let base = samples.baseAddress else { return }  // an empty buffer adds nothing
        var i = 0
        let count = peaks.count
        while i < frames {
            while frame >= columnEnd && column < count - 1 {
                column += 1
                columnEnd = (Int64(column) + 1) * totalFrames / Int64(count)
            }
            let span = column == count - 1 ? frames - i : min(frames - i, Int(columnEnd - frame))
            let peak = max(peaks[column], PeakScan.peak(base + i * channels, count: span * channels))
            peaks[column] = min(peak, 1)
            i += span
            frame += Int64(span)
        }
    }
}
