import AudioCore
import Foundation

/// Runs the encoder on a thread of its own, fed finished blocks through a small queue.
///
/// FLAC encoding is the floor of a render's time; mixing, limiting and picture
/// columns run on the caller's thread beside it. Samples are copied into a
/// fixed pool of chunks (`depth` × `chunkFrames`), so memory stays bounded and
/// nothing is allocated per block. Chunks are encoded in the order submitted:
/// the bytes are the same as encoding on one thread.
///
/// The encoder thread holds the queue (`Shared`) strongly, never the pipeline: a
/// render that fails before the thread has even started (a mix that clips in its
/// first block) ends the pipeline while the thread may still be starting, and the
/// thread must find a live queue, closed, rather than a destroyed owner.
final class EncoderPipeline: @unchecked Sendable {
    static let chunkFrames = 8 * Block.frames
    static let depth = 4

    private let shared: Shared
    private let channels: Int
    private var current: Int?
    private var currentFrames = 0
    private let threaded: Bool

    /// `threaded: false` encodes each chunk on the caller's thread when it is full.
    init(encoder: TrackEncoder, channels: Int, threaded: Bool = true) {
        self.channels = channels
        self.threaded = threaded
        shared = Shared(encoder: encoder, channels: channels, finished: !threaded)
        guard threaded else { return }
        let thread = Thread { [shared] in shared.consume() }
        thread.name = "cadence-encoder"
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { shared.closeAndWait() }

    /// Queues `frames` interleaved frames; throws the encoder's failure, if any so far.
    func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        guard let base = samples.baseAddress else { return }
        var done = 0
        while done < frames {
            let index = try chunk()
            let n = min(frames - done, Self.chunkFrames - currentFrames)
            (shared.pool[index] + currentFrames * channels).update(from: base + done * channels, count: n * channels)
            currentFrames += n
            done += n
            if currentFrames == Self.chunkFrames { submit() }
        }
    }

    /// Encodes what is queued and waits for it; then the encoder can be finished.
    func drain() throws(AudioError) {
        if current != nil && currentFrames > 0 { submit() }
        if let failure = shared.closeAndWait() { throw failure }
    }

    /// The chunk being filled, waiting for a free one when all are queued.
    private func chunk() throws(AudioError) -> Int {
        if let current {
            if !threaded, let failure = shared.failureNow() { throw failure }
            return current
        }
        let index = try shared.takeFree()
        current = index
        currentFrames = 0
        return index
    }

    private func submit() {
        guard let index = current else { return }
        if threaded {
            shared.enqueue(index, frames: currentFrames)
            current = nil
        } else {
            // one thread: encode in place, the chunk stays this writer's
            shared.encode(index, frames: currentFrames)
        }
        currentFrames = 0
    }

    /// The chunks and the lists that say who owns each, shared by the writer and the encoder thread.
    private final class Shared: @unchecked Sendable {
        let encoder: TrackEncoder
        let channels: Int
        /// Allocated once; each chunk is owned by one thread at a time (the free / filled lists say which).
        let pool: [UnsafeMutablePointer<Float>]
        private var filled: [(index: Int, frames: Int)] = []
        private var free: [Int]
        private var closed = false
        private var finished: Bool
        private var failure: AudioError?
        private let condition = NSCondition()

        init(encoder: TrackEncoder, channels: Int, finished: Bool) {
            self.encoder = encoder
            self.channels = channels
            self.finished = finished
            pool = (0..<EncoderPipeline.depth).map { _ in
                let chunk = UnsafeMutablePointer<Float>.allocate(capacity: EncoderPipeline.chunkFrames * channels)
                chunk.initialize(repeating: 0, count: EncoderPipeline.chunkFrames * channels)
                return chunk
            }
            free = Array(0..<EncoderPipeline.depth)
        }

        deinit { for chunk in pool { chunk.deallocate() } }

        /// Stops taking work, waits until the encoder thread is done, and returns its failure.
        @discardableResult
        func closeAndWait() -> AudioError? {
            condition.lock()
            defer { condition.unlock() }
            closed = true
            condition.broadcast()
            while !finished { condition.wait() }
            return failure
        }

        func failureNow() -> AudioError? {
            condition.lock()
            defer { condition.unlock() }
            return failure
        }

        /// A free chunk, waiting while all are queued; throws the encoder's failure.
        func takeFree() throws(AudioError) -> Int {
            condition.lock()
            defer { condition.unlock() }
            while free.isEmpty && failure == nil { condition.wait() }
            if let failure { throw failure }
            return free.removeLast()
        }

        func enqueue(_ index: Int, frames: Int) {
            condition.lock()
            filled.append((index, frames))
            condition.broadcast()
            condition.unlock()
        }

        /// Encodes a chunk on the calling thread, keeping the first failure.
        func encode(_ index: Int, frames: Int) {
            do {
                try encoder.write(UnsafeBufferPointer(start: pool[index], count: frames * channels), frames: frames, channels: channels)
            } catch {
                condition.lock()
                if failure == nil { failure = error }
                condition.unlock()
            }
        }

        /// The encoder thread: encodes queued chunks in order until the queue is closed and empty.
        func consume() {
            while true {
                condition.lock()
                while filled.isEmpty && !closed { condition.wait() }
                guard !filled.isEmpty else {
                    finished = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                let job = filled.removeFirst()
                let failed = failure != nil
                condition.unlock()
                if !failed { encode(job.index, frames: job.frames) }
                condition.lock()
                free.append(job.index)
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
