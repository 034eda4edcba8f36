import AudioCore
import DSP

/// `loudness: off` renders the mix as it is: the first sample past full scale stops the pass.
final class ClipGuard: Sink {
    private let channels: Int
    private var position: Int64 = 0
    /// The first frame with a sample over 1.0 (0 dBFS), once found.
    private(set) var clip: Int64?

    /// `start`: the track frame of the first frame it takes.
    init(channels: Int, start: Int64 = 0) {
        self.channels = channels
        position = start
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) -> Flow {
        defer { position += Int64(frames) }
        guard let base = block.baseAddress, PeakScan.peak(base, count: frames * channels) > 1,
            let i = (0..<(frames * channels)).first(where: { abs(block[$0]) > 1 })
        else { return .more }
        clip = position + Int64(i / channels)
        return .stop
    }
}

/// The loudest sample of a pass and where it is: what the clip message names.
final class LoudestSample: Sink {
    private let channels: Int
    private var position: Int64 = 0
    private(set) var peak: Float = 0
    private(set) var frame: Int64 = 0

    init(channels: Int) { self.channels = channels }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) -> Flow {
        defer { position += Int64(frames) }
        guard let base = block.baseAddress, PeakScan.peak(base, count: frames * channels) > peak else { return .more }
        for i in 0..<(frames * channels) where abs(block[i]) > peak { (peak, frame) = (abs(block[i]), position + Int64(i / channels)) }
        return .more
    }
}
