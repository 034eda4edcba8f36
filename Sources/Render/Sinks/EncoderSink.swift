import AudioCore
import Foundation

/// The encode pass's sink: finished blocks into the track's encoder, on threads of their own.
///
/// FLAC encoding is the floor of a render's time, so the mixer and the limiter run on
/// the caller's thread beside it, and blocks cross over through a `BlockQueue` in
/// chunks of 8 blocks. Chunks are encoded in order: the bytes are those of encoding
/// on one thread. Unthreaded, `consume` is a plain call into the encoder.
///
/// FLAC in lanes (`TrackEncoder.lanes` > 1): the caller's thread quantizes each chunk (the
/// dither runs in order) into the integer queue of lane k % lanes, each lane's thread encodes
/// its chunks, and `FLACLaneWriter` puts the frames in order. The bytes are the same again.
///
/// The encoder threads hold their queue and the encoder itself, never the sink, and
/// the sink waits for them before it goes: a render that fails early must not leave a
/// thread writing to a descriptor that is being discarded.
final class EncoderSink: Sink {
    private let encoder: TrackEncoder
    private let channels: Int
    /// One thread taking float chunks, or none.
    private let worker: Worker<Float>?
    /// FLAC's lanes, each taking every `lanes.count`-th chunk as integers.
    private let lanes: [Worker<Int32>]
    private var chunk: UnsafeMutablePointer<Float>?
    private var laneChunk: UnsafeMutablePointer<Int32>?
    private var chunkFill = 0
    /// Chunks handed to the lanes so far: the next goes to lane `published % lanes.count`.
    private var published = 0

    /// Frames per chunk: what the encoder converts at once, a FLAC lane's chunk.
    static let chunkFrames = TrackEncoder.maximumFrames
    static let depth = 4

    init(encoder: TrackEncoder, channels: Int, threaded: Bool) {
        self.encoder = encoder
        self.channels = channels
        let samples = Self.chunkFrames * channels
        if threaded && encoder.lanes > 1 {
            worker = nil
            lanes = (0..<encoder.lanes).map { lane in
                Worker<Int32>(chunkSamples: samples, name: "cadence-flac-\(lane)") { (chunk) throws(AudioError) in
                    try encoder.write(lane: lane, chunk, frames: chunk.count / channels)
                }
            }
        } else {
            worker =
                threaded
                ? Worker<Float>(chunkSamples: samples, name: "cadence-encoder") { (chunk) throws(AudioError) in
                    try encoder.write(chunk, frames: chunk.count / channels, channels: channels)
                } : nil
            lanes = []
        }
    }

    deinit {
        worker?.queue.endAndWait()
        for lane in lanes { lane.queue.endAndWait() }
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        if !lanes.isEmpty {
            try quantize(block, frames: frames)
            return .more
        }
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

    /// Lanes: the block quantized straight into the current lane's chunk.
    private func quantize(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        let capacity = Self.chunkFrames * channels
        var done = 0
        let count = frames * channels
        while done < count {
            let current: UnsafeMutablePointer<Int32>
            if let laneChunk {
                current = laneChunk
            } else {
                let lane = lanes[published % lanes.count]
                guard let free = lane.queue.nextFree() else { throw lane.failure ?? Self.stopped }
                laneChunk = free
                chunkFill = 0
                current = free
            }
            let n = min(count - done, capacity - chunkFill)
            encoder.prepare(
                UnsafeBufferPointer(rebasing: block[done..<(done + n)]), frames: n / channels, channels: channels,
                into: UnsafeMutableBufferPointer(start: current + chunkFill, count: n))
            chunkFill += n
            done += n
            if chunkFill == capacity { publish() }
        }
    }

    /// Encodes what is queued, waits for the encoder threads, and completes the file.
    func finish() throws(AudioError) {
        if chunkFill > 0 { publish() }
        if let worker {
            worker.queue.endAndWait()
            if let failure = worker.failure { throw failure }
        }
        for lane in lanes { lane.queue.endAndWait() }
        if let failure = lanes.lazy.compactMap(\.failure).first { throw failure }
        try encoder.finish()
    }

    private func publish() {
        if laneChunk != nil {
            lanes[published % lanes.count].queue.publish(samples: chunkFill)
            published += 1
            laneChunk = nil
        } else if chunk != nil {
            worker?.queue.publish(samples: chunkFill)
            chunk = nil
        }
        chunkFill = 0
    }

    private static let stopped = AudioError(file: "encoder", operation: "encode", reason: "the encoder thread stopped", kind: .software)

    /// An encoder thread: takes chunks in order until the queue ends or encoding fails.
    private final class Worker<Element: BitwiseCopyable & ExpressibleByIntegerLiteral>: @unchecked Sendable {
        let queue: BlockQueue<Element>
        private let body: (UnsafeBufferPointer<Element>) throws(AudioError) -> Void
        /// Written by the thread before `queue.stop()`, read by the sink after `nextFree()`
        /// returns nil or `endAndWait()` returns (the queue's lock orders the two).
        private(set) var failure: AudioError?

        init(chunkSamples: Int, name: String, body: @escaping (UnsafeBufferPointer<Element>) throws(AudioError) -> Void) {
            self.body = body
            queue = BlockQueue<Element>(chunkSamples: chunkSamples, depth: EncoderSink.depth)
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.stackSize = 1 << 20
            thread.start()
        }

        private func run() {
            while let chunk = queue.nextFilled() {
                do {
                    try body(chunk)
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
