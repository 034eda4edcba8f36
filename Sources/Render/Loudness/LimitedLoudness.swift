import AudioCore
import AudioIO
import DSP
import Dispatch

/// The loudness of the mix × gain through the limiter, without another pass over the track.
///
/// Where the limiter leaves the signal alone its output is the input × gain bit for
/// bit (`TruePeakLimiter`), so those gating blocks keep pass 1's energy × gain².
/// Only around the hops whose peaks could reach the limiter's threshold is the mix
/// rendered again, through gain and limiter, from half a second before (the K-filter
/// and the limiter start from real samples) until the limiter is idle again; the
/// blocks there are measured anew. For a bed with a few bells, that is a few percent
/// of the track; for a limited noise bed, all of it.
struct LimitedLoudness {
    let measured: Measurement
    let sources: TrackSources
    let channels: Int
    let sampleRate: Int
    /// The ceiling the limiter holds, dBTP.
    let ceiling: Double
    let threads: Int
    /// The output keeps Vorbis channel order (Ogg Vorbis, Opus): the LFE is last (`LoudnessMeter`).
    var vorbisOrder = false

    /// Hops rendered before the first hop the limiter may touch.
    static let leadHops: Int64 = 6
    /// Regions this many hops apart or closer are rendered as one.
    static let joinHops: Int64 = 20

    /// Hops of a stretch an estimate renders, at most: a region the limiter holds for
    /// minutes (a noise bed) is cut into stretches this long, so that an estimate can
    /// render every 4th of them.
    static let stretchHops: Int64 = 200

    /// A stretch of the track rendered again: from `start` (a hop) to where the limiter is
    /// idle after `lastHop`, or to the end of hop `stopHop` (a stretch cut from a longer region).
    struct Region {
        var start: Int64
        var lastHop: Int64
        var stopHop: Int64? = nil
    }

    /// Integrated loudness (LUFS) at `gainDB`, the frames re-rendered to know it, and whether it is exact.
    ///
    /// `every` > 1 renders only every n-th stretch (when there are at least 4n) and scales the
    /// blocks of the others by the energy the limiter took from the rendered ones: an
    /// estimate, good enough to aim the gain's first correction at a quarter of the cost.
    func loudness(gainDB: Double, every: Int = 1) throws(AudioError) -> (loudness: Double, remeasured: Int64, exact: Bool) {
        let gain = Float(Gain.linear(dB: gainDB))
        let squared = Double(gain) * Double(gain)
        let all = every > 1 ? stretches(regions(gain: gain)) : regions(gain: gain)
        let step = every > 1 && all.count >= 4 * every ? every : 1
        let regions = stride(from: 0, to: all.count, by: step).map { all[$0] }
        var results = [Result<[(Int, Double)], AudioError>](repeating: .success([]), count: regions.count)
        results.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let slots = slots
            let work = { (k: Int) in slots[k] = Result { () throws(AudioError) in try measure(regions[k], gain: gain) } }
            if threads == 1 || regions.count < 2 {
                for k in regions.indices { work(k) }
            } else {
                nonisolated(unsafe) let work = work
                DispatchQueue.concurrentPerform(iterations: regions.count) { work($0) }
            }
        }
        let energies = measured.blockEnergies
        var replaced: [Int: Double] = [:]
        var frames: Int64 = 0
        var (limited, plain) = (0.0, 0.0)
        for result in results {
            let blocks = try result.get()
            for (e, energy) in blocks {
                replaced[e] = energy
                limited += energy
                plain += energies[e] * squared
            }
            frames += Int64(blocks.count) * measured.hop
        }
        StageClock.shared.countRemeasured(frames: frames)
        if step > 1, plain > 0 {
            // the stretches not rendered lose what the rendered ones lost, in proportion
            let ratio = limited / plain
            for (k, region) in all.enumerated() where k % step != 0 {
                let first = Int(region.start + Self.leadHops), last = min(energies.count - 1, Int(region.lastHop + 8))
                guard first <= last else { continue }
                for e in first...last where replaced[e] == nil { replaced[e] = energies[e] * squared * ratio }
            }
        }
        let loudness = BlockGating.integrated(blocks: 4..<energies.count) { e in replaced[e] ?? energies[e] * squared }
        return (loudness, frames, step == 1)
    }

    /// The stretches whose hops' true peaks (pass 1's bounds) × gain could pass the
    /// limiter's threshold.
    func regions(gain: Float) -> [Region] {
        let threshold = Float(Gain.linear(dB: ceiling - TruePeakLimiter.safetyMarginDB)) / (gain * 1.0001)
        var regions: [Region] = []
        for (h, peak) in measured.hopPeaks.enumerated() where peak > threshold {
            let hop = Int64(h)
            // the interpolator reads 20 frames of the hop before, the look-ahead 1.5 ms
            let start = sources.canStartAnywhere ? max(0, hop - 1 - Self.leadHops) : 0
            if var last = regions.last, start <= last.lastHop + Self.joinHops {
                last.lastHop = hop
                regions[regions.count - 1] = last
            } else {
                regions.append(Region(start: start, lastHop: hop))
            }
        }
        return regions
    }

    /// `regions` with every one longer than `stretchHops` cut into stretches of that many
    /// hops, each rendered from its own lead-in and stopped at its end but the last
    /// (a mix that must start at frame 0 keeps its regions whole).
    func stretches(_ regions: [Region]) -> [Region] {
        guard sources.canStartAnywhere else { return regions }
        var cut: [Region] = []
        for region in regions {
            var start = region.start
            var first = region.start + 1 + Self.leadHops
            while region.lastHop - first + 1 > Self.stretchHops {
                let last = first + Self.stretchHops - 1
                cut.append(Region(start: start, lastHop: last, stopHop: last))
                first = last + 1
                start = max(0, first - 1 - Self.leadHops)
            }
            cut.append(Region(start: start, lastHop: region.lastHop))
        }
        return cut
    }

    /// Renders `region` through gain and limiter; returns (end hop, energy) of the gating
    /// blocks from its warm-up on until the limiter has been idle for a whole block.
    private func measure(_ region: Region, gain: Float) throws(AudioError) -> [(Int, Double)] {
        let hop = measured.hop
        var mix = try sources.makeMix(from: region.start * hop, to: sources.totalFrames)
        let limiter = LimiterStage(gain: gain, ceiling: ceiling, channels: channels, sampleRate: sampleRate)
        let meter = try RegionMeter(
            start: region.start * hop, after: (region.lastHop + 2) * hop, stop: region.stopHop.map { ($0 + 1) * hop }, hop: hop,
            channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder, isIdle: { limiter.isIdle })
        try Driver.run(&mix, channels: channels, through: [limiter], into: [meter])
        return meter.energies
    }
}

/// Meters a re-rendered region hop by hop; stops 4 hops after the limiter is idle past
/// `after`, or at `stop` when given.
private final class RegionMeter: Sink {
    private let meter: LoudnessMeter
    private let start: Int64
    private let after: Int64
    private let stop: Int64?
    private let hop: Int64
    private let channels: Int
    private let isIdle: () -> Bool
    private var position: Int64
    private var stopAt: Int64?
    private(set) var energies: [(Int, Double)] = []

    init(
        start: Int64, after: Int64, stop: Int64?, hop: Int64, channels: Int, sampleRate: Int, vorbisOrder: Bool,
        isIdle: @escaping () -> Bool
    ) throws(AudioError) {
        meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false, vorbisOrder: vorbisOrder)
        self.start = start
        self.after = after
        self.stop = stop
        self.hop = hop
        self.channels = channels
        self.isIdle = isIdle
        position = start
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        try StageClock.shared.time(.analysis) { () throws(AudioError) -> Flow in
            var done = 0
            while done < frames {
                let n = Int(min(Int64(frames - done), (position / hop + 1) * hop - position))
                try meter.add(UnsafeBufferPointer(rebasing: block[(done * channels)..<((done + n) * channels)]), frames: n)
                done += n
                position += Int64(n)
                guard position % hop == 0 else { continue }
                let e = Int(position / hop)
                // blocks that begin 200 ms after the meter started, where the K-filter has
                // settled (from the track's start, every block: pass 1 started there too)
                if position >= 4 * hop && (start == 0 || position - 4 * hop >= start + 2 * hop) { energies.append((e, meter.momentaryEnergy())) }
                if let stop, position >= stop { return .stop }
                if stopAt == nil, position >= after, isIdle() { stopAt = position + 4 * hop }
                if let stopAt, position >= stopAt { return .stop }
            }
            return .more
        }
    }
}
