import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Programs started together and timed as one job (two `flac -5` floors side by side, the
/// yardstick of a catalog rendered with `-j 2`).
extension ChildProcess {
    /// One program of a side-by-side run.
    struct Job {
        var executable: String
        var arguments: [String]
        /// Its stdout and stderr go to `logPrefix.out` / `.err`.
        var logPrefix: String
    }

    /// Starts every job one right after the other (each through its own `/bin/sh`, about a
    /// millisecond apart), waits for all of them and returns their results with the cost of the whole.
    ///
    /// The whole's wall time runs from the first spawn to the last `wait4`; its CPU times are the
    /// sum of the jobs', its peak RSS the largest single job's (as for SoX's pipes), its other-CPU
    /// the machine's busy time less theirs. A job's own wall time is from the first spawn to its
    /// `wait4`, taken in job order: for a job that ended before an earlier one, an upper bound.
    ///
    /// - Throws: `BenchError` when a job cannot be started or waited for (the jobs already
    ///   started are killed and reaped first), or exits with a status other than 0.
    static func runSideBySide(_ jobs: [Job], what: String) throws(BenchError) -> (results: [ChildResult], cost: ChildCost) {
        let busyBefore = machineBusySeconds()
        let start = monotonicSeconds()
        var running: [Running] = []
        for job in jobs {
            do {
                running.append(try spawn(job.executable, job.arguments, logPrefix: job.logPrefix))
            } catch {
                for child in running {
                    kill(child.pid, SIGKILL)
                    _ = try? reap(child)
                }
                throw error
            }
        }
        var reaped: [Reaped] = []
        for child in running { reaped.append(try reap(child)) }
        let end = reaped.map(\.end).max() ?? start
        let busyAfter = machineBusySeconds()

        var results: [ChildResult] = []
        for child in reaped {
            let result = try child.result(cost: child.cost(wall: child.end - start))
            guard result.status == 0 else {
                throw BenchError(
                    "\(what): \(child.running.executable) exited with status \(result.status) "
                        + "(log: \(child.running.logPrefix).err):\n  \(result.stderrTail)")
            }
            results.append(result)
        }
        let costs = results.map(\.cost)
        var total = ChildCost(
            wall: end - start, user: costs.map(\.user).reduce(0, +), system: costs.map(\.system).reduce(0, +),
            maxRSSKiB: costs.map(\.maxRSSKiB).max() ?? 0)
        if let busyBefore, let busyAfter { total.otherCPU = max(0, busyAfter - busyBefore - total.cpu) }
        return (results, total)
    }
}
