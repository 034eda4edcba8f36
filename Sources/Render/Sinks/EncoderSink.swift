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
    /// The chunk being filled (floats for `worker`, integers for a lane), and how many samples it holds.
    private var filling: UnsafeMutableRawPointer?
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
            // quantized straight into the current lane's chunk
            try fill(count: frames * channels, from: { lanes[published % lanes.count] }) { (done, into, n) in
                encoder.prepare(
                    UnsafeBufferPointer(rebasing: block[done..<(done + n)]), frames: n / channels, channels: channels,
                    into: UnsafeMutableBufferPointer(start: into, count: n))
            }
        } else if let worker {
            guard let base = block.baseAddress else { return .more }
            try fill(count: frames * channels, from: { worker }) { (done, into, n) in into.update(from: base + done, count: n) }
        } else {
            try encoder.write(block, frames: frames, channels: channels)
        }
        return .more
    }

    /// Puts `count` samples into chunks of the queue `worker()` names (asked anew for each chunk):
    /// `put(done, into, n)` writes samples done..<done+n at `into`. Full chunks are published.
    private func fill<Element>(
        count: Int, from worker: () -> Worker<Element>, put: (Int, UnsafeMutablePointer<Element>, Int) -> Void
    ) throws(AudioError) {
        let capacity = Self.chunkFrames * channels
        var done = 0
        while done < count {
            let current: UnsafeMutablePointer<Element>
            if let filling {
                current = filling.assumingMemoryBound(to: Element.self)
            } else {
                let next = worker()
                guard let free = next.queue.nextFree() else { throw next.failure ?? Self.stopped }
                filling = UnsafeMutableRawPointer(free)
                chunkFill = 0
                current = free
            }
            let n = min(count - done, capacity - chunkFill)
            put(done, current + chunkFill, n)
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
        guard filling != nil else { return }
        if lanes.isEmpty {
            worker?.queue.publish(samples: chunkFill)
        } else {
            lanes[published % lanes.count].queue.publish(samples: chunkFill)
            published += 1
        }
        filling = nil
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
