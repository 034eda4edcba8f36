import Foundation

/// What ``TruePeakLimiter`` would take off a stream at 8 thresholds at once, from the peaks
/// pass 1 sees anyway: the limiter's envelope (the sliding minimum of the required gain over
/// its window, the release, the moving average over the attack ramp), one SIMD lane per
/// threshold, on blocks of ``block`` frames.
///
/// A limiter that holds `target` after a gain `G` is the limiter that holds `θ = target / G`
/// before it: its required gain `min(1, target / (G p))` is `min(1, θ / p)`. So the probe runs
/// on the mix as pass 1 meters it, at thresholds ``depthsDB`` under a base set per 100 ms hop
/// (the loudest level seen so far), and sums for each hop its energy `Σx²` (all channels,
/// unweighted) and, per threshold, what the limiter's gain `g` takes off it, `Σ(1 − g²)x²`
/// (each block weighted by the gain the limiter applies to it, its latency later).
///
/// It is a model of the limiter, not the limiter: a block's peak is the largest of its
/// interpolated peaks where pass 1 interpolates (``needsPeaks(samplePeak:)`` asks for it where a
/// chunk may reach the lowest threshold) and of its samples × ``allowance`` elsewhere; the
/// envelope moves once per block (the window, the release and the ramp rounded to blocks); the
/// loudness meter's K-weighting is left out of the energy ratio. On noise the limiter holds
/// everywhere, a voice, bells and bursts the limited loudness it predicts is within 0.25 LU
/// (`LimiterModelTests`); pass 1 of the reference hour costs 1.4 s more CPU with it (about
/// 8 ns a frame, the chunks it has interpolated included).
public final class LimiterProbe {
    /// Thresholds under the hop's base, dB: one SIMD lane each.
    public static let depthsDB: [Double] = [1, 3, 5, 7, 9, 11, 13, 15]
    /// The lanes.
    public static let levels = 8
    /// Frames per step of the envelope.
    public static let block = 16
    /// The factor (linear) of threshold `k` under the base.
    public static func factor(_ k: Int) -> Double { pow(10, -depthsDB[k] / 20) }
    /// A frame's true peak over its largest sample where it is not interpolated (about 0.5 dB).
    public static let allowance: Float = 1.06
    /// A chunk is interpolated for the probe when its largest sample × this (3 dB) reaches the
    /// lowest threshold: a true peak that far over its samples is rare outside test signals.
    public static let reach: Float = 1.4125

    /// Interleaved channels of the stream.
    public let channels: Int
    /// The limiter's window, ramp and latency in blocks, and its release per block.
    private let window: Int64
    private let averageBlocks: Int
    private let delayBlocks: Int
    private let releaseFactor: Double
    private let factors: SIMD8<Double>

    /// The thresholds of the current hop (linear), lowest last; all 0 until a base is set.
    public private(set) var thresholds = SIMD8<Double>()
    /// The level the thresholds sit under (linear).
    public private(set) var base: Float = 0
    /// The lowest threshold (linear).
    public var floor: Float { Float(thresholds[Self.levels - 1]) }
    /// The largest sample seen so far (linear): the base when the meter has no peak yet.
    public private(set) var samplePeak: Float = 0

    // The block being filled.
    private var blockPeak: Float = 0
    private var blockEnergy = 0.0
    private var blockFill = 0
    // The sliding maximum of the blocks' peaks: a ring of (block, peak), peaks decreasing front to back.
    private let holdFrame: UnsafeMutablePointer<Int64>
    private let holdPeak: UnsafeMutablePointer<Float>
    private let holdMask: Int
    private var holdFront = 0
    private var holdCount = 0
    // Per lane: 1 − envelope, and the moving average's ring of the last deficits and their sum.
    private var deficit = SIMD8<Double>()
    private let averageRing: UnsafeMutablePointer<SIMD8<Double>>
    private var averageIndex = 0
    private var averageSum = SIMD8<Double>()
    // The energy of the last `delayBlocks` blocks, a ring: the block the current gain applies to.
    private let energyRing: UnsafeMutablePointer<Double>
    private var energyIndex = 0
    /// Blocks stepped so far.
    private var position: Int64 = 0

    /// Σx² of the hop so far, and Σ(1 − g²)x² per threshold.
    public private(set) var hopEnergy = 0.0
    public private(set) var hopLost = SIMD8<Double>()

    /// A probe of the limiter ``TruePeakLimiter/init(channels:sampleRate:ceilingDBTP:lookahead:release:)``
    /// makes with the same `lookahead` and `release`.
    public init(channels: Int, sampleRate: Int, lookahead: Double = 0.0015, release: Double = 0.050) {
        precondition(channels > 0 && sampleRate > 0, "LimiterProbe needs channels and a sample rate")
        self.channels = channels
        let ramp = max(TruePeakInterpolator.span, Int((lookahead * Double(sampleRate)).rounded()))
        let b = Self.block
        window = Int64((ramp + TruePeakInterpolator.span - 1) / b)
        averageBlocks = max(1, (ramp + b / 2) / b)
        delayBlocks = max(1, (ramp + TruePeakInterpolator.span - 2 + b / 2) / b)
        releaseFactor = exp(-Double(b) / (release * Double(sampleRate)))
        var f = SIMD8<Double>()
        for k in 0..<Self.levels { f[k] = Self.factor(k) }
        factors = f
        var capacity = 1
        while capacity < Int(window) + 2 { capacity *= 2 }
        holdMask = capacity - 1
        holdFrame = .allocate(capacity: capacity)
        holdFrame.initialize(repeating: 0, count: capacity)
        holdPeak = .allocate(capacity: capacity)
        holdPeak.initialize(repeating: 0, count: capacity)
        averageRing = .allocate(capacity: averageBlocks)
        averageRing.initialize(repeating: SIMD8<Double>(), count: averageBlocks)
        energyRing = .allocate(capacity: delayBlocks)
        energyRing.initialize(repeating: 0, count: delayBlocks)
    }

    deinit {
        holdFrame.deallocate()
        holdPeak.deallocate()
        averageRing.deallocate()
        energyRing.deallocate()
    }

    /// Starts a hop whose thresholds sit ``depthsDB`` under `base` (linear; 0 leaves the probe off
    /// until a later hop has a base).
    public func beginHop(base: Float) {
        setBase(base)
        hopEnergy = 0
        hopLost = SIMD8<Double>()
    }

    /// Sets the current hop's thresholds under `base` (linear) without starting a new hop: for
    /// a hop that had no base when it began.
    public func setBase(_ base: Float) {
        self.base = base
        thresholds = factors * Double(base)
    }

    /// Each threshold's share of the hop's energy the limiter leaves, 1 for a silent hop.
    public var hopRatios: SIMD8<Float> {
        guard hopEnergy > 0 else { return SIMD8<Float>(repeating: 1) }
        let kept = (SIMD8<Double>(repeating: 1) - hopLost / hopEnergy).clamped(lowerBound: SIMD8<Double>(), upperBound: SIMD8<Double>(repeating: 1))
        return SIMD8<Float>(kept)
    }

    /// True when no reduction is pending at any threshold.
    public var isIdle: Bool { holdCount == 0 && deficit == SIMD8<Double>() && averageSum == SIMD8<Double>() }

    /// Whether a chunk whose largest sample (with the interpolator's history) is `peak` must be
    /// interpolated for the probe: when it may reach the lowest threshold.
    public func needsPeaks(samplePeak peak: Float) -> Bool { thresholds[0] > 0 && peak * Self.reach > floor }

    /// Takes `frames` interleaved frames; `peaks` holds their interpolated peaks (as
    /// ``TruePeakInterpolator``'s, `delay` frames late) or is nil where the chunk was not
    /// interpolated (its frames' sample peaks × ``allowance`` stand in).
    public func add(_ chunk: UnsafePointer<Float>, frames: Int, peaks: UnsafePointer<Float>?, samplePeak: Float) {
        self.samplePeak = max(self.samplePeak, samplePeak)
        var blockPeak = self.blockPeak, blockEnergy = self.blockEnergy, blockFill = self.blockFill
        var energy = 0.0
        for i in 0..<frames {
            let f = chunk + i * channels
            var e: Float = 0
            var m: Float = 0
            for c in 0..<channels {
                e += f[c] * f[c]
                m = max(m, abs(f[c]))
            }
            energy += Double(e)
            blockEnergy += Double(e)
            blockPeak = max(blockPeak, peaks.map { $0[i] } ?? m * Self.allowance)
            blockFill += 1
            if blockFill == Self.block {
                step(peak: blockPeak, energy: blockEnergy)
                blockPeak = 0
                blockEnergy = 0
                blockFill = 0
            }
        }
        self.blockPeak = blockPeak
        self.blockEnergy = blockEnergy
        self.blockFill = blockFill
        hopEnergy += energy
    }

    /// One block of the envelope: its peak (linear) and energy.
    private func step(peak: Float, energy: Double) {
        let delayed = energyRing[energyIndex]
        energyRing[energyIndex] = energy
        energyIndex += 1
        if energyIndex == delayBlocks { energyIndex = 0 }
        let index = position
        position += 1
        let lowest = Float(thresholds[Self.levels - 1])
        guard thresholds[0] > 0, peak > lowest || !isIdle else { return }
        let one = SIMD8<Double>(repeating: 1), zero = SIMD8<Double>()
        if peak > lowest {
            while holdCount > 0 && holdPeak[(holdFront + holdCount - 1) & holdMask] <= peak { holdCount -= 1 }
            let slot = (holdFront + holdCount) & holdMask
            holdFrame[slot] = index
            holdPeak[slot] = peak
            holdCount += 1
        }
        while holdCount > 0 && holdFrame[holdFront] <= index - window {
            holdFront = (holdFront + 1) & holdMask
            holdCount -= 1
        }
        var next = deficit * releaseFactor
        next.replace(with: zero, where: next .< SIMD8<Double>(repeating: TruePeakLimiter.releaseSnap))
        if holdCount > 0 {
            let required = (thresholds / Double(holdPeak[holdFront])).clamped(lowerBound: zero, upperBound: one)
            next = pointwiseMax(next, one - required)
        }
        deficit = next
        averageSum += next - averageRing[averageIndex]
        averageRing[averageIndex] = next
        averageIndex += 1
        if averageIndex == averageBlocks { averageIndex = 0 }
        if next == zero {
            // the sum in Double drifts by rounding: exactly 0 once every deficit in the ring is
            var all = zero
            for k in 0..<averageBlocks { all += averageRing[k] }
            if all == zero { averageSum = zero }
        }
        let gain = one - (averageSum / Double(averageBlocks)).clamped(lowerBound: zero, upperBound: one)
        hopLost += (one - gain * gain) * delayed
    }
}
