import AudioCore
import Recipe

/// The phase lengths of a ramped pattern (recipe-v1.1 § Ramps), cycle by cycle, exactly.
///
/// Cycle k runs at r_k = r0 + (r1 − r0) × min(k, N) / N breaths a minute, r0 = 60 / C the pattern's own
/// rate (C its cycle in seconds) and r1 the target, so a phase of length L lasts L × r0 / r_k. With C
/// in nanoseconds c and r1 in millionths of a bpm p, r0 / r_k = 60·10¹⁵·N / (60·10¹⁵·N + (p·c − 60·10¹⁵)·m),
/// m = min(k, N): integers, so the length is one rational number, rounded once to the millisecond with
/// halves up. Every term fits Int128 for N ≤ 100,000 cycles and L ≤ 24 h (2·L·A ≤ 1.1·10³⁶).
struct RampedLengths {
    let pattern: Pattern
    let toMicroBPM: Int64
    let over: Int
    private let cycleNanos: Int128
    /// Lengths of cycles 0…N, filled as they are asked for (every cycle from N on is cycle N's).
    private var cache: [[ExactSeconds]] = []

    init(pattern: Pattern, ramp: Ramp, over: Int) {
        self.pattern = pattern
        self.toMicroBPM = ramp.toMicroBPM
        self.over = over
        self.cycleNanos = Int128(pattern.cycle.nanoseconds)
    }

    /// The pattern's own rate r0 = 60 / C in millionths of a bpm, rounded half up (the cue sheet's `from_bpm`).
    static func microBPM(ofCycle cycle: ExactSeconds) -> Int64 {
        let c = Int128(cycle.nanoseconds)
        return Int64((2 * 60_000_000_000_000_000 + c) / (2 * c))
    }

    /// The lengths of cycle `k`'s phases, each rounded to the millisecond.
    mutating func lengths(ofCycle k: Int) -> [ExactSeconds] {
        let m = min(k, over)
        while cache.count <= m { cache.append(Self.lengths(pattern, cycleNanos: cycleNanos, p: Int128(toMicroBPM), m: cache.count, n: over)) }
        return cache[m]
    }

    private static func lengths(_ pattern: Pattern, cycleNanos c: Int128, p: Int128, m: Int, n: Int) -> [ExactSeconds] {
        let scale: Int128 = 60_000_000_000_000_000  // 60 · 10⁶ (micro-bpm) · 10⁹ (ns)
        let a = scale * Int128(n)
        let b = a + (p * c - scale) * Int128(m)
        let msNanos: Int128 = 1_000_000
        return pattern.phases.map { phase in
            let l = Int128(phase.length.nanoseconds)
            // round(l·a / b / 10⁶) with halves up = floor((2·l·a + b·10⁶) / (2·b·10⁶))
            let ms = (2 * l * a + b * msNanos) / (2 * b * msNanos)
            return ExactSeconds(nanoseconds: Int64(ms * msNanos))
        }
    }
}
