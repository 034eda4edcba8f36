import Glibc
import Synchronization

/// Where a render spends its time: CPU seconds per stage (each thread's own clock,
/// `CLOCK_THREAD_CPUTIME_ID`), summed over threads, for the benchmark.
///
/// Recording costs two clock reads and one atomic add per block. `render`
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

    // Atomics rather than a lock: a relaxed add per block is all a total needs, and
    // ThreadSanitizer sees atomics (it cannot see `Mutex`'s futex on Linux, and
    // reported these totals as a race in catalog renders).
    private let decode = Atomic<Int>(0)
    private let resample = Atomic<Int>(0)
    private let mix = Atomic<Int>(0)
    private let analysis = Atomic<Int>(0)
    private let limiter = Atomic<Int>(0)
    private let encode = Atomic<Int>(0)
    private let passes = Atomic<Int>(0)
    private let bedsPrepared = Atomic<Int>(0)
    private let remeasured = Atomic<Int>(0)

    public init() {}

    /// Runs `body`, adding the CPU time its thread spent in it to `stage`.
    @inline(__always)
    public func time<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
        let start = Self.now()
        defer { add(Self.now() - start, to: stage) }
        return try body()
    }

    /// The calling thread's CPU clock (ns), the start of a span `add(since:to:)` records: for a
    /// stage whose work comes in pieces too small to time one by one (AAC packets).
    public static func threadNanoseconds() -> Int { now() }

    /// Adds the calling thread's CPU time since `start` (`threadNanoseconds()`) to `stage`.
    public func add(since start: Int, to stage: Stage) { add(Self.now() - start, to: stage) }

    /// Counts one full render of a track's mix (an analysis or encode pass).
    public func countPass() { passes.add(1, ordering: .relaxed) }
    /// Counts frames measured again under the limiter (the gating blocks it touches), not a whole pass.
    public func countRemeasured(frames: Int64) { remeasured.add(Int(frames), ordering: .relaxed) }
    /// Counts one bed decoded and resampled.
    public func countBed() { bedsPrepared.add(1, ordering: .relaxed) }

    /// The totals as one JSON object: seconds per stage, passes over the whole mix, frames
    /// re-measured under the limiter, beds prepared.
    public func jsonText() -> String {
        let stages = Stage.allCases.map { "\"\($0.name)\":" + format3(Double(nanoseconds($0)) / 1e9) }
        let counts = [
            "\"passes\":\(passes.load(ordering: .relaxed))", "\"remeasured_frames\":\(remeasured.load(ordering: .relaxed))",
            "\"beds_prepared\":\(bedsPrepared.load(ordering: .relaxed))",
        ]
        return "{" + (stages + counts).joined(separator: ",") + "}"
    }

    private func add(_ spent: Int, to stage: Stage) {
        switch stage {
        case .decode: decode.add(spent, ordering: .relaxed)
        case .resample: resample.add(spent, ordering: .relaxed)
        case .mix: mix.add(spent, ordering: .relaxed)
        case .analysis: analysis.add(spent, ordering: .relaxed)
        case .limiter: limiter.add(spent, ordering: .relaxed)
        case .encode: encode.add(spent, ordering: .relaxed)
        }
    }

    private func nanoseconds(_ stage: Stage) -> Int {
        switch stage {
        case .decode: decode.load(ordering: .relaxed)
        case .resample: resample.load(ordering: .relaxed)
        case .mix: mix.load(ordering: .relaxed)
        case .analysis: analysis.load(ordering: .relaxed)
        case .limiter: limiter.load(ordering: .relaxed)
        case .encode: encode.load(ordering: .relaxed)
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
