import Glibc
import Synchronization

/// Where a render spends its time: CPU seconds per stage (each thread's own clock,
/// `CLOCK_THREAD_CPUTIME_ID`), summed over threads, for the benchmark.
///
/// Recording costs two clock reads and an uncontended lock per block. `render`
/// prints the totals when `CADENCE_STAGES=1` is set (`cadence-stages: {…}` on stderr).
public final class StageClock: Sendable {
    public enum Stage: Int, CaseIterable, Sendable {
        case decode, resample, mix, analysis, limiter, encode

        public var name: String {
            switch self {
            case .decode: "decode"
            case .resample: "resample"
            case .mix: "mix"
            case .analysis: "analysis"
            case .limiter: "limiter"
            case .encode: "encode"
            }
        }
    }

    /// The one clock of the process.
    public static let shared = StageClock()

    private struct Totals {
        var nanoseconds = [Int](repeating: 0, count: Stage.allCases.count)
        var passes = 0
        var bedsPrepared = 0
    }
    private let totals = Mutex(Totals())

    public init() {}

    /// Runs `body`, adding the CPU time its thread spent in it to `stage`.
    @inline(__always)
    public func time<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
        let start = Self.now()
        defer {
            let spent = Self.now() - start
            totals.withLock { $0.nanoseconds[stage.rawValue] += spent }
        }
        return try body()
    }

    /// Counts one full render of a track's mix (an analysis or encode pass).
    public func countPass() { totals.withLock { $0.passes += 1 } }
    /// Counts one bed decoded and resampled.
    public func countBed() { totals.withLock { $0.bedsPrepared += 1 } }

    /// The totals as one JSON object: seconds per stage, passes, beds prepared.
    public func jsonText() -> String {
        totals.withLock { t in
            let stages = Stage.allCases.map { "\"\($0.name)\":" + String(format3(Double(t.nanoseconds[$0.rawValue]) / 1e9)) }
            return "{" + (stages + ["\"passes\":\(t.passes)", "\"beds_prepared\":\(t.bedsPrepared)"]).joined(separator: ",") + "}"
        }
    }

    private static func now() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return ts.tv_sec * 1_000_000_000 + ts.tv_nsec
    }
}

/// Seconds with 3 decimals, without Foundation.
private func format3(_ x: Double) -> String {
    let ms = Int((x * 1000).rounded())
    let frac = String(ms % 1000)
    return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
}
