import AudioCore
import Foundation

/// The encode pass's sink: finished blocks into the track's encoder, on a thread of its own.
///
/// FLAC encoding is the floor of a render's time, so the mixer and the limiter run on
/// the caller's thread beside it, and blocks cross over through a `BlockQueue` in
/// chunks of 8 blocks. Chunks are encoded in order: the bytes are those of encoding
/// on one thread. Unthreaded, `consume` is a plain call into the encoder.
///
/// The encoder thread holds the queue and the encoder itself, never the sink, and
/// the sink waits for it before it goes: a render that fails early must not leave a
/// thread writing to a descriptor that is being discarded.
final class EncoderSink: Sink {
    private let encoder: TrackEncoder
    private let channels: Int
    private let worker: Worker?
    private var chunk: UnsafeMutablePointer<Float>?
    private var chunkFill = 0

    /// Frames per chunk: what the encoder converts at once.
    static let chunkFrames = TrackEncoder.maximumFrames
    static let depth = 4

    init(encoder: TrackEncoder, channels: Int, threaded: Bool) {
        self.encoder = encoder
        self.channels = channels
        worker = threaded ? Worker(encoder: encoder, channels: channels) : nil
    }

    deinit { worker?.queue.endAndWait() }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        guard let worker else {
            try encoder.write(block, frames: frames, channels: channels)
            return .more
        }
        guard let base = block.baseAddress else { return .more }
        let capacity = worker.queue.chunkSamples
        var done = 0
        let count = frames * channels
        while done < count {
            let current: UnsafeMutablePointer<Float>
            if let chunk {
                current = chunk
            } else {
                guard let free = worker.queue.nextFree() else { throw worker.failure ?? Self.stopped }
                chunk = free
                chunkFill = 0
                current = free
            }
            let n = min(count - done, capacity - chunkFill)
            (current + chunkFill).update(from: base + done, count: n)
            chunkFill += n
            done += n
            if chunkFill == capacity { publish() }
        }
        return .more
    }

    /// Encodes what is queued, waits for the encoder thread, and completes the file.
    func finish() throws(AudioError) {
        if let worker {
            if chunkFill > 0 { publish() }
            worker.queue.endAndWait()
            if let failure = worker.failure { throw failure }
        }
        try encoder.finish()
    }

    private func publish() {
        worker?.queue.publish(samples: chunkFill)
        chunk = nil
        chunkFill = 0
    }

    private static let stopped = AudioError(file: "encoder", operation: "encode", reason: "the encoder thread stopped", kind: .software)

    /// The encoder thread: takes chunks in order until the queue ends or encoding fails.
    private final class Worker: @unchecked Sendable {
        let queue: BlockQueue
        private let encoder: TrackEncoder
        private let channels: Int
        /// Written by the thread before `queue.stop()`, read by the sink after `nextFree()`
        /// returns nil or `endAndWait()` returns (the queue's lock orders the two).
        private(set) var failure: AudioError?

        init(encoder: TrackEncoder, channels: Int) {
            self.encoder = encoder
            self.channels = channels
            queue = BlockQueue(chunkSamples: EncoderSink.chunkFrames * channels, depth: EncoderSink.depth)
            let thread = Thread { [self] in run() }
            thread.name = "cadence-encoder"
            thread.stackSize = 1 << 20
            thread.start()
        }

        private func run() {
            while let chunk = queue.nextFilled() {
                do {
                    try encoder.write(chunk, frames: chunk.count / channels, channels: channels)
                } catch {
                    failure = error
                    break
                }
                queue.release()
            }
            queue.stop()
        }
    }
}
