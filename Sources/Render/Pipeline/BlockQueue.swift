import AudioCore
import Foundation

/// A fixed ring of sample chunks (floats, or a FLAC lane's integers) handed from one producer
/// thread to one consumer thread, in order.
///
/// The encoder sink owns it: the mixing thread fills chunks, the encoder thread
/// empties them. Memory is the ring, allocated once (`depth` × `chunkSamples`);
/// nothing is allocated per block. One lock and one condition (pthreads, which
/// ThreadSanitizer sees) guard four numbers: where the oldest filled chunk is,
/// how many are filled, and whether either side has stopped.
final class BlockQueue<Element: BitwiseCopyable & ExpressibleByIntegerLiteral>: @unchecked Sendable {
    let chunkSamples: Int
    let depth: Int
    private let chunks: [UnsafeMutablePointer<Element>]
    private var sizes: [Int]
    private var head = 0
    private var filled = 0
    /// The producer has published its last chunk.
    private var ended = false
    /// The consumer has stopped (its work failed, or it is done): the producer stops too.
    private var stopped = false
    private let condition = NSCondition()

    init(chunkSamples: Int, depth: Int) {
        self.chunkSamples = chunkSamples
        self.depth = depth
        chunks = (0..<depth).map { _ in
            let chunk = UnsafeMutablePointer<Element>.allocate(capacity: chunkSamples)
            chunk.initialize(repeating: 0, count: chunkSamples)
            return chunk
        }
        sizes = Array(repeating: 0, count: depth)
    }

    deinit { for chunk in chunks { chunk.deallocate() } }

    // MARK: producer

    /// The next chunk to fill, waiting while every chunk is queued; nil once the consumer has stopped.
    func nextFree() -> UnsafeMutablePointer<Element>? {
        condition.lock()
        defer { condition.unlock() }
        while filled == depth && !stopped { condition.wait() }
        return stopped ? nil : chunks[(head + filled) % depth]
    }

    /// Hands the chunk from `nextFree()` to the consumer, holding `samples` samples.
    func publish(samples: Int) {
        condition.lock()
        sizes[(head + filled) % depth] = samples
        filled += 1
        condition.broadcast()
        condition.unlock()
    }

    /// No more chunks; waits until the consumer has taken every one and stopped.
    func endAndWait() {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        condition.broadcast()
        while !stopped { condition.wait() }
    }

    // MARK: consumer

    /// The oldest filled chunk, waiting for one; nil when the producer has ended and all are taken.
    func nextFilled() -> UnsafeBufferPointer<Element>? {
        condition.lock()
        defer { condition.unlock() }
        while filled == 0 && !ended { condition.wait() }
        guard filled > 0 else { return nil }
        return UnsafeBufferPointer(start: chunks[head], count: sizes[head])
    }

    /// Gives the chunk from `nextFilled()` back to the producer.
    func release() {
        condition.lock()
        head = (head + 1) % depth
        filled -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer is done (or has failed): the producer's waits end.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
