import AudioCore
import AudioIO

/// The integrated loudness of a limited encoding, K-filtered only where the limiter worked.
///
/// Where the limiter leaves the mix alone its output is the mix × the gain, bit for bit
/// (`TruePeakLimiter`), so a hop's 100 ms window it did not touch, nor the K-filter's memory
/// of a touched one, has pass 1's energy × gain² (to float rounding of x × gain: under 2⁻²³
/// of the energy, about 1e-9 measured). Only the hops from a reduced frame to ``settleHops``
/// hops after it are measured, by libebur128 in its momentary mode as `GatingMeter` measures
/// them; the others are pass 1's, shifted. The gating blocks are the mean of their four hops'
/// windows either way (`GatingMeter.blockEnergy`), counted in one `BlockHistogram`, so the
/// result gates as one meter would.
///
/// The K-filter's state is a sum of decaying terms of what it was fed: its slowest pole
/// (the RLB high-pass, a double pole at 1 − 0.005 at 48 kHz, the same time constant at
/// every rate) leaves under 1e-16 of a sample after 200 ms. So a measured hop is fed from
/// ``settleHops`` hops before it, and what the filter skipped before that cannot be told apart
/// in its window; a reduction's trace in the filter fades as fast, hence the hops measured after
/// it. A hop is fed when a reduced frame lies within ``settleHops`` hops of it either way (it is
/// measured, or one of the `settleHops` hops fed before a measured one); the hops are handled
/// ``lagHops`` behind the stream, from a ring of the last frames.
///
/// For rates whose hop is not libebur128's 100 ms window (`LoudnessMeter.hopIsWindow`) use
/// `GatingMeter` on everything.
final class LimitedGatingMeter {
    /// Hops of K-filtering before a measured hop, and hops measured after a reduced one: 200 ms.
    static let settleHops = 2
    /// Hops handled behind the newest frame: whether a hop is fed depends on the hops up to
    /// `settleHops` later, known once they are in.
    static let lagHops = settleHops + 1

    private let meter: LoudnessMeter
    private(set) var histogram = BlockHistogram()
    private let channels: Int
    private let hop: Int
    /// Pass 1's hop window energies (`Measurement.hopWindows`) and the gain², their scale here.
    private let passOne: [Double]
    private let gainSquared: Double
    /// Whole hops in the stream (and in pass 1's windows).
    private let hops: Int

    /// The last `ringFrames` frames added, interleaved, and the frames added so far.
    private let ring: UnsafeMutablePointer<Float>
    private let ringFrames: Int
    private var position: Int64 = 0
    /// The next hop to handle.
    private var next = 0
    /// Whether hop h holds a reduced frame, at `reduced[h & 15]`, for the hops up to `flagged`.
    private var reduced = [Bool](repeating: false, count: 16)
    private var flagged = -1
    /// The fed hops' 100 ms window energies, at `windows[h & 7]`.
    private var windows = [Double](repeating: 0, count: 8)

    /// Hop windows measured, and taken from pass 1.
    private(set) var measuredHops = 0
    private(set) var shiftedHops = 0
    /// Hops fed to the K-filter.
    private(set) var fedHops = 0

    /// `passOne`: pass 1's hop windows of the mix this meter's stream is `gain` × (limited);
    /// `totalFrames`: the stream's length.
    init(
        passOne: [Double], gain: Float, totalFrames: Int64, channels: Int, sampleRate: Int, vorbisOrder: Bool = false
    ) throws(AudioError) {
        precondition(LoudnessMeter.hopIsWindow(sampleRate: sampleRate), "LimitedGatingMeter needs a rate whose hop is its window")
        meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false, vorbisOrder: vorbisOrder, gating: false)
        self.channels = channels
        hop = (sampleRate + 5) / 10
        self.passOne = passOne
        gainSquared = Double(gain) * Double(gain)
        hops = min(Int(totalFrames / Int64(hop)), passOne.count)
        ringFrames = (Self.lagHops + 2) * hop
        ring = .allocate(capacity: ringFrames * channels)
        ring.initialize(repeating: 0, count: ringFrames * channels)
    }

    deinit { ring.deallocate() }

    /// Adds `frames` interleaved frames; `reducedThrough` is the last frame (from the stream's
    /// start) the limiter had reduced by the end of them, or negative when none: every hop from
    /// these frames' first to it counts as reduced. `block(k, energy)` follows each gating block
    /// counted, the one ending after hop k, as `GatingMeter.add` hands them over (a few hops late).
    func add(
        _ samples: UnsafeBufferPointer<Float>, frames: Int, reducedThrough: Int64, block: (Int, Double) -> Void = { _, _ in }
    ) throws(AudioError) {
        guard frames > 0, let base = samples.baseAddress else { return }
        var done = 0
        while done < frames {
            // at most a hop at a time, so the ring still holds every hop not yet handled
            let n = min(frames - done, hop)
            let end = position + Int64(n)
            flag(through: Int((end - 1) / Int64(hop)))
            if reducedThrough >= position {
                let last = min(reducedThrough, end - 1)
                for h in Int(position / Int64(hop))...Int(last / Int64(hop)) { reduced[h & 15] = true }
            }
            let at = Int(position % Int64(ringFrames))
            let first = min(n, ringFrames - at)
            (ring + at * channels).update(from: base + done * channels, count: first * channels)
            if first < n { ring.update(from: base + (done + first) * channels, count: (n - first) * channels) }
            position = end
            done += n
            // hop h is handled once the hop `lagHops` later is in
            while next < hops, Int64(next + Self.lagHops) * Int64(hop) <= position { try handle(next, block) }
        }
    }

    /// Handles the hops still held, and returns the integrated loudness (LUFS; -inf when no block passes the gates).
    func finish(block: (Int, Double) -> Void = { _, _ in }) throws(AudioError) -> Double {
        while next < hops { try handle(next, block) }
        return histogram.integrated
    }

    /// Clears the flags of hops up to `hop` not flagged yet.
    private func flag(through hop: Int) {
        while flagged < hop {
            flagged += 1
            reduced[flagged & 15] = false
        }
    }

    /// Whether any hop in `range` (clamped to the hops seen) held a reduced frame.
    private func anyReduced(_ range: ClosedRange<Int>) -> Bool {
        for h in max(0, range.lowerBound)...range.upperBound where h <= flagged && reduced[h & 15] { return true }
        return false
    }

    /// Feeds hop `h` to the K-filter when it or a hop up to `settleHops` later is measured (hop h′ is
    /// measured when a hop in h′ − settleHops ... h′ was reduced, so: a reduced hop within
    /// `settleHops` of h either way), takes
    /// its window (measured, or pass 1's × gain²), then counts the gating block ending after it.
    private func handle(_ h: Int, _ block: (Int, Double) -> Void) throws(AudioError) {
        next += 1
        let settle = Self.settleHops
        if anyReduced((h - settle)...(h + settle)) {
            fedHops += 1
            let at = Int((Int64(h) * Int64(hop)) % Int64(ringFrames))
            let first = min(hop, ringFrames - at)
            try meter.add(UnsafeBufferPointer(start: ring + at * channels, count: first * channels), frames: first)
            if first < hop { try meter.add(UnsafeBufferPointer(start: ring, count: (hop - first) * channels), frames: hop - first) }
        }
        if anyReduced((h - settle)...h) {
            windows[h & 7] = try meter.windowEnergy(milliseconds: 100)
            measuredHops += 1
        } else {
            windows[h & 7] = passOne[h] * gainSquared
            shiftedHops += 1
        }
        // the block ending after hop h: hops h−3 ... h, summed oldest first as `GatingMeter` sums them
        let k = h + 1
        guard k >= 4 else { return }
        let w = windows
        let energy = GatingMeter.blockEnergy(w[(k - 4) & 7], w[(k - 3) & 7], w[(k - 2) & 7], w[(k - 1) & 7])
        histogram.add(energy: energy)
        block(k, energy)
    }
}
