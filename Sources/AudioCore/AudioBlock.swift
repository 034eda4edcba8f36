/// The number of frames every stage of the renderer moves at once.
public enum Block {
    public static let frames = 4096
}

/// A fixed-size, caller-owned buffer of interleaved float samples.
///
/// Allocated once per render; stages fill it through `withUnsafeMutableBufferPointer`.
public struct AudioBuffer: Sendable {
    public let channels: Int
    public let capacity: Int
    public var samples: [Float]

    public init(channels: Int, frames: Int = Block.frames) {
        self.channels = channels
        self.capacity = frames
        self.samples = [Float](repeating: 0, count: channels * frames)
    }

    /// Sets the first `frames` frames to zero.
    public mutating func clear(frames: Int) {
        samples.withUnsafeMutableBufferPointer { p in
            p.baseAddress!.update(repeating: 0, count: frames * channels)
        }
    }
}
