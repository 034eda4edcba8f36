import AudioCore
import AudioIO
import DSP
import Foundation

/// Where an AAC track decodes over the allowed true peak, that stretch is encoded again
/// with the mix dipped under it, and the new packets replace the old (`AACTrack.install`).
///
/// AAC's overshoot on a noise bed is sporadic: on the benchmark's rain hour, one raindrop in
/// thousands decodes 1–4 dB over its input's peak, at places that move whenever the encoder's
/// input changes. Lowering the whole track's ceiling for them (what the loudness loop does
/// after a failed encoding) costs a second encoding of the whole track and limits every
/// other raindrop too. A dip is a gain reduction of the overshoot plus `headroomDB`, held
/// over the hops that overshoot and eased in and out over `rampSeconds` with a raised
/// cosine in dB (a limiter's gain reduction, computed from the decoded result). A dipped
/// stretch that still overshoots is dipped deeper, up to `rounds` times; more than
/// `maximumRegions` stretches at once is not sporadic, and is left to the loudness loop's
/// lower ceiling. Each patch's mix is rendered from a warm-up before its encoder's first
/// frame; a mix that must start at frame 0 (a synth bed) is rendered once per round for all
/// of its patches.
struct AACRepair {
    let track: AACTrack
    let sources: TrackSources
    let plan: LoudnessPlan?
    let channels: Int
    let sampleRate: Int
    let observer: (any RenderObserver)?
    let warmStart: (Int64) -> Int64

    static let rounds = 4
    static let headroomDB = 0.3
    static let rampSeconds = 0.05
    static let maximumRegions = 64
    /// Hops over the allowed peak this close together are dipped as one.
    static let joinHops = 3

    /// A gain reduction of `depthDB` over `hops` (hop indices), eased over `ramp` frames each side.
    struct Dip {
        var hops: ClosedRange<Int>
        var depthDB: Double
    }

    /// Repairs `heard` (the track as decoded) until no hop passes `allowedPeak` (dBTP) or the
    /// rounds run out; `feed` decodes a span of the track into a meter.
    /// Returns the stretches patched.
    @discardableResult
    func repair(
        _ heard: inout Measurement, allowedPeak: Double, feed: (Measurement.Span, SpanMeter) throws(AudioError) -> Void
    ) throws(AudioError) -> Int {
        let allowed = Float(Gain.linear(dB: allowedPeak))
        let hop = heard.hop
        let ramp = Int64(Self.rampSeconds * Double(sampleRate))
        var dips: [Dip] = []
        var patched = 0
        for round in 1...Self.rounds {
            let over = heard.hopPeaks.indices.filter { heard.hopPeaks[$0] > allowed }
            guard !over.isEmpty else { break }
            // hops close together become one stretch, its depth what its loudest hop needs
            var stretches: [Dip] = []
            for h in over {
                let need = Gain.decibels(linear: Double(heard.hopPeaks[h])) - allowedPeak + Self.headroomDB
                if let last = stretches.last, h - last.hops.upperBound <= Self.joinHops {
                    stretches[stretches.count - 1] = Dip(hops: last.hops.lowerBound...h, depthDB: max(last.depthDB, need))
                } else {
                    stretches.append(Dip(hops: h...h, depthDB: need))
                }
            }
            observer?.lossy(
                String(
                    format: "repair round %d: %d hops over %.2f dBTP (the loudest %.2f) in %d stretches", round, over.count, allowedPeak,
                    heard.truePeak, stretches.count))
            guard stretches.count <= Self.maximumRegions else { break }
            for stretch in stretches {
                // deeper where an earlier dip already lay
                let before = dips.filter { $0.hops.overlaps(stretch.hops) }.map(\.depthDB).max() ?? 0
                dips.append(Dip(hops: stretch.hops, depthDB: before + stretch.depthDB))
            }
            let patches = try stretches.map { (stretch) throws(AudioError) in
                let span = (Int64(stretch.hops.lowerBound) * hop - ramp)..<(Int64(stretch.hops.upperBound + 1) * hop + ramp)
                return try track.patchEncoder(for: span.clamped(to: 0..<sources.totalFrames))
            }
            // each patch's mix from its own warm-up; a mix that must start at frame 0 feeds every patch of the round in one run
            for run in sources.startsCheaply ? patches.map { [$0] } : [patches] {
                guard let first = run.map(\.input.lowerBound).min(), let end = run.map(\.input.upperBound).max() else { continue }
                let start = warmStart(first)
                var mix = try sources.makeMix(from: start, to: end)
                let sinks = run.map { patch in
                    FrameRangeSink(
                        start: start, keep: patch.input, channels: channels,
                        into: [DipSink(dips: dips, hop: hop, ramp: ramp, first: patch.input.lowerBound, channels: channels, into: patch)])
                }
                try Driver.run(&mix, channels: channels, through: plan?.stages(channels: channels, sampleRate: sampleRate) ?? [], into: sinks)
            }
            for patch in patches {
                try patch.finish()
                let changed = try track.install(patch)
                try heard.remeasure(changed, totalFrames: sources.totalFrames, sampleRate: sampleRate, channels: channels, feed: feed)
                patched += 1
            }
        }
        return patched
    }
}

/// Applies the dips to the frames it passes on, the first of them being track frame `first`.
private final class DipSink: Sink {
    private let dips: [(full: Range<Int64>, depthDB: Double)]
    private let ramp: Int64
    private let channels: Int
    private let sink: any Sink
    private var position: Int64
    private var scratch: [Float]

    init(dips: [AACRepair.Dip], hop: Int64, ramp: Int64, first: Int64, channels: Int, into sink: any Sink) {
        self.dips = dips.map { ((Int64($0.hops.lowerBound) * hop)..<(Int64($0.hops.upperBound + 1) * hop), $0.depthDB) }
        self.ramp = ramp
        self.channels = channels
        self.sink = sink
        position = first
        scratch = [Float](repeating: 0, count: Block.frames * channels)
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        let here = position..<(position + Int64(frames))
        position += Int64(frames)
        // most blocks of a patch lie outside every dip: passed on as they are
        guard dips.contains(where: { (($0.full.lowerBound - ramp)..<($0.full.upperBound + ramp)).overlaps(here) }) else {
            return try sink.consume(block, frames: frames)
        }
        if scratch.count < frames * channels { scratch = [Float](repeating: 0, count: frames * channels) }
        for f in 0..<frames {
            let gain = Float(Gain.linear(dB: gainDB(at: here.lowerBound + Int64(f))))
            for c in 0..<channels { scratch[f * channels + c] = block[f * channels + c] * gain }
        }
        return try scratch.withUnsafeBufferPointer { (p) throws(AudioError) in try sink.consume(p, frames: frames) }
    }

    /// The gain (dB, ≤ 0) at track frame `t`: the deepest dip there, each eased in and out
    /// with a raised cosine over `ramp`.
    private func gainDB(at t: Int64) -> Double {
        var depth = 0.0
        for dip in dips {
            let shape: Double
            if dip.full.contains(t) {
                shape = 1
            } else if t < dip.full.lowerBound, t >= dip.full.lowerBound - ramp {
                shape = (1 - cos(Double.pi * Double(t - (dip.full.lowerBound - ramp)) / Double(ramp))) / 2
            } else if t >= dip.full.upperBound, t < dip.full.upperBound + ramp {
                shape = (1 + cos(Double.pi * Double(t - dip.full.upperBound) / Double(ramp))) / 2
            } else {
                continue
            }
            depth = max(depth, dip.depthDB * shape)
        }
        return -depth
    }
}
