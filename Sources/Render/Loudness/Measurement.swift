import AudioCore
import AudioIO
import DSP

/// Pass 1: the mix's integrated loudness and true peak, and what the limited gain needs
/// later without another pass: the energy of every 400 ms gating block, a bound on the
/// true peak of every 100 ms hop, and (`LimiterProbe`) what the limiter would leave of
/// each hop's energy at 8 thresholds.
///
/// The track is cut at a frame F on libebur128's 100 ms grid and measured on two
/// threads when the mix can start part-way. The first renders [0, F + lead) and meters
/// loudness on [0, F); the second renders from F − lead (warming up the true-peak
/// filter) and meters loudness from F − 300 ms, so that between them they hold exactly
/// the gating blocks of one continuous meter (their `BlockHistogram`s gate together, as
/// `ebur128_loudness_global_multiple` joins meters). True peaks are detected on [0, F + δ)
/// and [F, end): every instant, each from a filter history of real samples. The cut depends only on the track's length, so
/// the result is the same however many cores there are.
struct Measurement {
    /// Integrated loudness (LUFS; -inf below the absolute gate or silent) and true peak (dBTP) of the mix.
    var loudness: Double
    var truePeak: Double
    /// libebur128's 100 ms hop, in frames (`samples_in_100ms`).
    let hop: Int64
    /// The energy of the gating block that ends at hop `e` (hops e−4 ..< e), 0 for e < 4.
    var blockEnergies: [Double]
    /// The energy of each whole hop's own 100 ms window (channel-weighted mean square), where
    /// libebur128's hop is its window (`LoudnessMeter.hopIsWindow`; else empty): at the cut, the
    /// first span's, whose K-filter ran from the start.
    var hopWindows: [Double] = []
    /// A bound on the true peak of each hop (the last may be partial), linear: exact for
    /// every hop within 6 dB of the track's peak (`SpanMeter.exactAbove`), or, measured with
    /// an `exactOver` level, for every hop that passes it.
    var hopPeaks: [Float]
    /// What the limiter would leave of each hop's energy (`LimiterProbe`, pass 1 only), for the
    /// hops where it would take anything at one of its thresholds.
    var probes = Probes()
    /// Each hop's energy as the probe sums it (Σx², all channels, unweighted): a gating block's
    /// share through the limiter is its hops' shares weighted by these.
    var hopEnergies: [Float] = []

    /// The `LimiterProbe` figures of the hops it found the limiter working in, in hop order, kept
    /// flat (40 bytes a hop: 1.4 MB for an hour held everywhere).
    struct Probes {
        /// The hops.
        private(set) var hops: [Int32] = []
        /// Each hop's base: its thresholds are `LimiterProbe.depthsDB` under it (linear, the mix's scale).
        private(set) var bases: [Float] = []
        /// Σ(g²x²) / Σx² at each threshold, `LimiterProbe.levels` a hop.
        private var shares: [Float] = []
        /// Σx² the probe saw of each (where two spans saw the hop, the larger wins).
        private var energies: [Float] = []

        var count: Int { hops.count }
        func share(_ i: Int, _ k: Int) -> Float { shares[i * LimiterProbe.levels + k] }

        mutating func append(hop: Int, base: Float, kept: SIMD8<Float>, energy: Float) {
            if let last = hops.last, Int(last) == hop {
                // the hop at the cut, seen by both spans
                guard energy > energies[energies.count - 1] else { return }
                hops.removeLast()
                bases.removeLast()
                energies.removeLast()
                shares.removeLast(LimiterProbe.levels)
            }
            hops.append(Int32(hop))
            bases.append(base)
            energies.append(energy)
            for k in 0..<LimiterProbe.levels { shares.append(kept[k]) }
        }

        /// Appends `other`'s hops (all after this one's, but for one shared hop).
        mutating func append(contentsOf other: Probes) {
            hops.reserveCapacity(hops.count + other.count)
            bases.reserveCapacity(bases.count + other.count)
            energies.reserveCapacity(energies.count + other.count)
            shares.reserveCapacity(shares.count + other.shares.count)
            for i in 0..<other.count {
                let start = i * LimiterProbe.levels
                var kept = SIMD8<Float>()
                for k in 0..<LimiterProbe.levels { kept[k] = other.shares[start + k] }
                append(hop: Int(other.hops[i]), base: other.bases[i], kept: kept, energy: other.energies[i])
            }
        }
    }

    /// Measures `sources`' mix, on two threads when `threads` > 1.
    static func run(
        _ sources: TrackSources, sampleRate: Int, channels: Int, threads: Int, vorbisOrder: Bool = false
    ) throws(AudioError) -> Measurement {
        StageClock.shared.countPass()
        return try run(
            totalFrames: sources.totalFrames, sampleRate: sampleRate, channels: channels, threads: threads, canSplit: true,
            vorbisOrder: vorbisOrder, probe: true
        ) { (span, meter) throws(AudioError) in
            var mix = try sources.makeMix(from: span.start, to: span.end)
            try Driver.run(&mix, channels: channels, into: [meter])
        }
    }

    /// Measures a track of `totalFrames` whose frames [span.start, span.end) `feed` hands to a
    /// span's meter (a mix rendered, or an encoding decoded), on two threads when `threads` > 1
    /// and the track can be split.
    /// With `probe`, the meters run `LimiterProbe` too (pass 1 of a mix). With `exactOver` (linear),
    /// the hop peaks need only be exact where they pass that level (a decoded check, whose repairs
    /// look for hops over the allowed peak), not within 6 dB of the peak: only chunks that could
    /// pass it and the peak so far are interpolated.
    static func run(
        totalFrames total: Int64, sampleRate: Int, channels: Int, threads: Int, canSplit: Bool, vorbisOrder: Bool = false, probe: Bool = false,
        exactOver: Float? = nil, feed: (Span, SpanMeter) throws(AudioError) -> Void
    ) throws(AudioError) -> Measurement {
        let hop = hopFrames(sampleRate: sampleRate)
        let spans = Span.cut(total: total, hop: hop, sampleRate: sampleRate, canSplit: canSplit)
        var meters: [SpanMeter] = []
        for span in spans {
            meters.append(
                try SpanMeter(
                    span, hop: hop, channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder, probe: probe, exactOver: exactOver))
        }
        // each span owns its meter
        try Parallel.run(spans.count, threads: threads) { (k) throws(AudioError) in try feed(spans[k], meters[k]) }
        var peak: Float = 0
        for meter in meters { peak = max(peak, meter.finishPeak()) }
        let hops = Int((total + hop - 1) / hop)
        var energies = [Double](repeating: 0, count: hops + 1)
        var hopPeaks = [Float](repeating: 0, count: hops)
        var probes = Probes()
        var hopEnergies = [Float](repeating: 0, count: probe ? hops : 0)
        var windows = [Double](repeating: 0, count: LoudnessMeter.hopIsWindow(sampleRate: sampleRate) ? Int(total / hop) : 0)
        // the later span's first hops are its K-filter's warm-up: the earlier span's win
        for meter in meters.reversed() {
            for (h, energy) in meter.windows where h < windows.count { windows[h] = energy }
        }
        for meter in meters {
            for (h, e) in meter.probeEnergies where h < hopEnergies.count { hopEnergies[h] = max(hopEnergies[h], e) }
            probes.append(contentsOf: meter.finishProbes())
            for (e, energy) in meter.energies { energies[e] = energy }
            for (h, p) in meter.hopPeaks { hopPeaks[h] = max(hopPeaks[h], p) }
        }
        return Measurement(
            loudness: BlockHistogram.integrated(meters.map(\.gating.histogram)),
            truePeak: peak > 0 ? Gain.decibels(linear: Double(peak)) : -.infinity, hop: hop,
            blockEnergies: energies, hopWindows: windows, hopPeaks: hopPeaks,
            probes: probes, hopEnergies: hopEnergies)
    }

    /// Measures the frames `changed` again (after a patch of an encoding, `AACRepair`): the
    /// hops they touch get new peak bounds, and the gating blocks that overlap them new
    /// energies, from `feed` run on a span around them (its meters warmed up before, as the
    /// second span of `run` is); loudness and true peak follow from the hops and blocks.
    mutating func remeasure(
        _ changed: Range<Int64>, totalFrames total: Int64, sampleRate: Int, channels: Int,
        feed: (Span, SpanMeter) throws(AudioError) -> Void
    ) throws(AudioError) {
        guard !changed.isEmpty else { return }
        let firstHop = changed.lowerBound / hop, endHop = min(Int64(hopPeaks.count), (changed.upperBound + hop - 1) / hop)
        // blocks ending at firstHop+1 ... endHop+3 overlap the changed hops; the K-filter starts 2 hops before the first of them
        let loudness = max(0, (firstHop - 5) * hop)..<min(total, (endHop + 3) * hop)
        let start = max(0, loudness.lowerBound - Span.lead(sampleRate: sampleRate) / hop * hop)
        let end = min(total, loudness.upperBound + Int64(2 * TruePeakInterpolator.delay))
        let span = Span(start: start, end: end, loudness: loudness, peaks: (firstHop * hop)..<min(total, endHop * hop), isLast: end == total)
        let meter = try SpanMeter(span, hop: hop, channels: channels, sampleRate: sampleRate)
        try feed(span, meter)
        _ = meter.finishPeak()
        for (e, energy) in meter.energies where e > Int(firstHop) { blockEnergies[e] = energy }
        for (h, p) in meter.hopPeaks where h >= Int(firstHop) && h < Int(endHop) { hopPeaks[h] = p }
        let energies = blockEnergies
        self.loudness = BlockGating.integrated(blocks: 4..<energies.count) { energies[$0] }
        let peak = hopPeaks.max() ?? 0
        truePeak = peak > 0 ? Gain.decibels(linear: Double(peak)) : -.infinity
    }

    /// libebur128's `samples_in_100ms`.
    static func hopFrames(sampleRate: Int) -> Int64 { Int64((sampleRate + 5) / 10) }

    /// The frames one thread renders and meters.
    struct Span {
        var start: Int64
        var end: Int64
        /// Frames fed to the loudness meter (hop-aligned at its start).
        var loudness: Range<Int64>
        /// Frames whose true peak this span detects (the rest of [start, end) only primes the filter).
        var peaks: Range<Int64>
        /// The span reaches the end of the track: flush the peak filter.
        var isLast: Bool

        /// Lead-in before (and run-on after) the cut.
        static func lead(sampleRate: Int) -> Int64 { Int64(sampleRate) / 2 }

        /// Two spans when the mix is a minute or more and can start part-way, else one.
        static func cut(total: Int64, hop: Int64, sampleRate: Int, canSplit: Bool) -> [Span] {
            let whole = Span(start: 0, end: total, loudness: 0..<total, peaks: 0..<total, isLast: true)
            let lead = lead(sampleRate: sampleRate)
            let cut = (total / 2) / hop * hop
            guard canSplit, cut - 3 * hop - lead > 0, cut + lead < total, total >= 60 * Int64(sampleRate) else { return [whole] }
            let delay = Int64(2 * TruePeakInterpolator.delay)
            return [
                Span(start: 0, end: cut + lead, loudness: 0..<cut, peaks: 0..<(cut + delay), isLast: false),
                Span(start: cut - lead, end: total, loudness: (cut - 3 * hop)..<total, peaks: cut..<total, isLast: true),
            ]
        }
    }
}

/// One span's meters: the loudness meter (`GatingMeter`, which also hands over each gating
/// block's energy), the true-peak meter, and the hop peaks.
final class SpanMeter: Sink {
    let span: Measurement.Span
    let gating: GatingMeter
    private let peakMeter: TruePeakMeter
    private let hop: Int64
    private let channels: Int
    private var position: Int64
    /// (end hop, energy) of every full gating block inside `span.loudness`.
    private(set) var energies: [(Int, Double)] = []
    /// (hop, energy of its 100 ms window) of every whole hop inside `span.loudness`.
    private(set) var windows: [(Int, Double)] = []
    /// (hop, true-peak bound) of the hops this span detects.
    private(set) var hopPeaks: [(Int, Float)] = []
    private let probe: LimiterProbe?
    /// The probe's figures of the hops it finished, and the hop it is in.
    private var probes = Measurement.Probes()
    /// (hop, Σx²) of every hop the probe finished.
    private(set) var probeEnergies: [(Int, Float)] = []
    private var probeHop = -1
    /// The hop peaks are exact above `fraction` of the peak so far, and above `level` (linear).
    private let fraction: Float
    private let level: Float

    init(
        _ span: Measurement.Span, hop: Int64, channels: Int, sampleRate: Int, vorbisOrder: Bool = false, probe: Bool = false,
        exactOver: Float? = nil
    ) throws(AudioError) {
        (fraction, level) = exactOver.map { (1, $0) } ?? (Self.exactAbove, .infinity)
        self.probe = probe ? LimiterProbe(channels: channels, sampleRate: sampleRate) : nil
        self.span = span
        self.hop = hop
        self.channels = channels
        self.position = span.start
        gating = try GatingMeter(channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder)
        peakMeter = TruePeakMeter(channels: channels)
        energies.reserveCapacity(Int(Int64(span.loudness.count) / hop) + 1)
        hopPeaks.reserveCapacity(Int(Int64(span.peaks.count) / hop) + 2)
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        try StageClock.shared.time(.analysis) { () throws(AudioError) in
            func part(_ r: Range<Int64>) -> UnsafeBufferPointer<Float> {
                let a = Int(r.lowerBound - position) * channels, b = Int(r.upperBound - position) * channels
                return UnsafeBufferPointer(rebasing: block[a..<b])
            }
            // in pieces that end on the hop grid: a gating block after each hop, a peak bound per hop
            var at = position
            let end = position + Int64(frames)
            while at < end {
                let piece = at..<min(end, (at / hop + 1) * hop)
                let loud = piece.clamped(to: span.loudness)
                if !loud.isEmpty {
                    // the span's loudness starts on the hop grid: the block after its k-th hop ends at hop first + k
                    let first = Int(span.loudness.lowerBound / hop)
                    try gating.add(part(loud), frames: loud.count) { (k, energy) in
                        energies.append((first + k, energy))
                    } window: { (h, energy) in
                        windows.append((first + h, energy))
                    }
                }
                let lead = piece.clamped(to: span.start..<span.peaks.lowerBound)
                if !lead.isEmpty { peakMeter.prime(part(lead), frames: lead.count) }
                let detect = piece.clamped(to: span.peaks)
                if !detect.isEmpty {
                    let samples = part(detect)
                    let h = Int(detect.lowerBound / hop)
                    if let probe {
                        // the thresholds sit under the loudest level so far, this piece's samples included
                        let sample = samples.baseAddress.map { PeakScan.peak($0, count: samples.count) } ?? 0
                        let base = max(peakMeter.peak, probe.samplePeak, sample)
                        if h != probeHop {
                            finishProbeHop()
                            probe.beginHop(base: base)
                            probeHop = h
                        } else if probe.thresholds[0] == 0 {
                            probe.setBase(base)
                        }
                    }
                    let bound = peakMeter.addBounded(samples, frames: detect.count, fraction: fraction, level: level, probe: probe)
                    if let last = hopPeaks.last, last.0 == h {
                        hopPeaks[hopPeaks.count - 1].1 = max(last.1, bound)
                    } else {
                        hopPeaks.append((h, bound))
                    }
                }
                at = piece.upperBound
            }
        }
        position += Int64(frames)
        return .more
    }

    /// Hops whose true peak could be within 6 dB of the loudest so far are interpolated, so
    /// their bound is exact: the limiter correction renders again only where the limiter
    /// works, as long as it takes at most 6 dB off the loudest peak (beyond, the other
    /// hops' bounds are conservative: more is rendered again, the result is the same).
    static let exactAbove: Float = 0.5

    /// Records the probe's hop, when the limiter would take anything there.
    private func finishProbeHop() {
        guard let probe, probeHop >= 0 else { return }
        let kept = probe.hopRatios
        probeEnergies.append((probeHop, Float(probe.hopEnergy)))
        if kept.min() < 1 {
            probes.append(hop: probeHop, base: probe.base, kept: kept, energy: Float(probe.hopEnergy))
        }
    }

    /// The probe's hops, after the last frame.
    func finishProbes() -> Measurement.Probes {
        finishProbeHop()
        probeHop = -1
        defer { probes = Measurement.Probes() }
        return probes
    }

    /// The span's linear true peak (the last span flushes the filter's final instants).
    func finishPeak() -> Float {
        if span.isLast {
            let db = peakMeter.finish()
            return db.isFinite ? Float(Gain.linear(dB: db)) : 0
        }
        return peakMeter.peak
    }
}
