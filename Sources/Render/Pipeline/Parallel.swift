import AudioCore
import Dispatch

/// Independent pieces of one pass (pass 1's spans, AAC's parts) run side by side.
enum Parallel {
    /// Runs `work` for 0..<count, on every core unless `threads` is 1 (then in order, on the
    /// caller's thread); each call must touch only what belongs to its index. The first failure,
    /// by index, is thrown once all have run.
    static func run(_ count: Int, threads: Int, _ work: (Int) throws(AudioError) -> Void) throws(AudioError) {
        var failures = [AudioError?](repeating: nil, count: count)
        withoutActuallyEscaping(work) { work in
            failures.withUnsafeMutableBufferPointer { slots in
                nonisolated(unsafe) let slots = slots
                let each = { (k: Int) in
                    do throws(AudioError) { try work(k) } catch { slots[k] = error }
                }
                if threads == 1 || count == 1 {
                    for k in 0..<count { each(k) }
                } else {
                    // each iteration owns its index's slot, and whatever `work` gives it
                    nonisolated(unsafe) let each = each
                    DispatchQueue.concurrentPerform(iterations: count) { each($0) }
                }
            }
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
    }
}
