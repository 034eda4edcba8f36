import AudioCore
import Foundation

/// Runs the encoder on a thread of its own, fed finished blocks through a small queue.
///
/// FLAC encoding is the floor of a render's time; mixing, limiting and picture
/// columns run on the caller's thread beside it. Samples are copied into a
/// fixed pool of chunks (`depth` × `chunkFrames`), so memory stays bounded and
/// nothing is allocated per block. Chunks are encoded in the order submitted:
/// the bytes are the same as encoding on one thread.
final class EncoderPipeline: @unchecked Sendable {
    static let chunkFrames = 8 * Block.frames
    static let depth = 4

    private let encoder: TrackEncoder
    private let channels: Int
    /// The chunks: allocated once, each owned by one thread at a time (the free / filled lists say which).
    private let pool: [UnsafeMutablePointer<Float>]
    private var filled: [(index: Int, frames: Int)] = []
    private var free: [Int]
    private var current: Int?
    private var currentFrames = 0
    private var closed = false
    private var failure: AudioError?
    private var finished = false
    private let condition = NSCondition()
    private var thread: Thread?
    private let threaded: Bool

    /// `threaded: false` encodes each chunk on the caller's thread when it is full.
    init(encoder: TrackEncoder, channels: Int, threaded: Bool = true) {
        self.encoder = encoder
        self.channels = channels
        self.threaded = threaded
        pool = (0..<Self.depth).map { _ in
            let chunk = UnsafeMutablePointer<Float>.allocate(capacity: Self.chunkFrames * channels)
            chunk.initialize(repeating: 0, count: Self.chunkFrames * channels)
            return chunk
        }
        free = Array(0..<Self.depth)
        guard threaded else {
            finished = true
            return
        }
        let thread = Thread { [unowned self] in self.consume() }
        thread.name = "cadence-encoder"
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    deinit {
        condition.lock()
        closed = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
        for chunk in pool { chunk.deallocate() }
    }

    /// Queues `frames` interleaved frames; throws the encoder's failure, if any so far.
    func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        var done = 0
        while done < frames {
            let index = try chunk()
            let n = min(frames - done, Self.chunkFrames - currentFrames)
            (pool[index] + currentFrames * channels).update(from: samples.baseAddress! + done * channels, count: n * channels)
            currentFrames += n
            done += n
            if currentFrames == Self.chunkFrames { submit() }
        }
    }

    /// Encodes what is queued and waits for it; then the encoder can be finished.
    func drain() throws(AudioError) {
        if current != nil && currentFrames > 0 { submit() }
        guard threaded else {
            if let failure { throw failure }
            return
        }
        condition.lock()
        closed = true
        condition.broadcast()
        while !finished { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// The chunk being filled, waiting for a free one when all are queued.
    private func chunk() throws(AudioError) -> Int {
        if let current {
            if !threaded, let failure { throw failure }
            return current
        }
        condition.lock()
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        let index = free.removeLast()
        condition.unlock()
        current = index
        currentFrames = 0
        return index
    }

    private func submit() {
        guard let index = current else { return }
        guard threaded else {
            // one thread: encode in place, the chunk is free again at once
            do {
                try encoder.write(UnsafeBufferPointer(start: pool[index], count: currentFrames * channels), frames: currentFrames, channels: channels)
            } catch {
                failure = error
            }
            currentFrames = 0
            return
        }
        condition.lock()
        filled.append((index, currentFrames))
        condition.broadcast()
        condition.unlock()
        current = nil
        currentFrames = 0
    }

    private func consume() {
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
            if !failed {
                do {
                    try encoder.write(UnsafeBufferPointer(start: pool[job.index], count: job.frames * channels), frames: job.frames, channels: channels)
                } catch {
                    condition.lock()
                    failure = error
                    condition.unlock()
                }
            }
            condition.lock()
            free.append(job.index)
            condition.broadcast()
            condition.unlock()
        }
    }
}
