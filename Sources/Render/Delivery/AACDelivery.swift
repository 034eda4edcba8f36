import AudioCore
import AudioIO
import DSP
import Foundation

/// AAC in an M4A: the codec sampled before the one encoding, the track in parts on every
/// core, checked as decoded, repaired where the codec overshoots, then muxed.
///
/// 0. **Probe** (`CodecProbe`, `expectedShift`): what AAC does to the planned mix's loudness
///    and peaks, so `LoudnessLoop` aims past it before the first encoding.
/// 1. **Parts** (`AACPartLayout`): each part's mix is rendered from half a second before
///    its encoder's first frame (a synth bed's or noise swell's generator seeks there), through the
///    plan's stages, into an AAC encoder of its own; the parts run side by side on
///    `threads` threads. The parts are the same however many threads there are, so the
///    bytes are too.
/// 2. **Joins** (`AACTrack.joinParts`): each part takes over from the one before at a packet
///    where both encoders chose the same window.
/// 3. **As decoded** (`Measurement` over `AACTrack.decode`, two spans on two threads): the
///    loudness, true peak, hop peaks and gating blocks players will hear (the hop peaks exact
///    only where they pass the allowed peak: the repairs need no more).
/// 4. **Repairs** (`AACRepair`): where the decoded true peak passes what the loudness loop
///    allows (AAC's quantization noise on a transient: a raindrop), that stretch is encoded
///    again with the mix dipped under it and patched in, instead of encoding the whole track
///    again at a lower ceiling.
/// 5. **Mux** (`AACTrack.mux`) into the output file, and its edit list read back: the
///    packets were decoded and metered before they were muxed (with the decoder `M4AReader`
///    opens), so only the duration players will be told is checked.
struct AACDelivery: Delivery {
    let input: DeliveryInput

    init(_ input: DeliveryInput) { self.input = input }

    /// Half a second of mix before a part's first frame settles the limiter's look-ahead and release.
    static let warmUpSeconds = 0.5

    var ceiling: Double { input.output.ceiling }
    var isDecoded: Bool { true }

    func expectedShift(of plan: LoudnessPlan) throws -> CodecProbe.Shift? {
        guard let bitrate = input.output.bitrate else { return nil }
        let clock = PhaseClock()
        defer { input.observer?.lossy("AAC phase probe: " + clock.lap()) }
        return try CodecProbe.aacShift(
            sources: input.sources, plan: plan, bitrate: bitrate, sampleRate: input.sampleRate, channels: input.channels)
    }

    func deliver(_ plan: LoudnessPlan?, into file: AtomicOutputFile) throws -> Delivered {
        StageClock.shared.countPass()
        let clock = PhaseClock()
        let (sources, output, channels, sampleRate) = (input.sources, input.output, input.channels, input.sampleRate)
        let total = sources.totalFrames
        guard let bitrate = output.bitrate else {
            throw AudioError(file: output.audioPath, operation: "encode", reason: "an AAC encoding needs a bit rate", kind: .software)
        }
        let track = try AACTrack(bitrate: bitrate, sampleRate: sampleRate, channels: channels, totalFrames: total, path: output.audioPath)
        let layout = track.layout
        var columns = PeakColumns(count: Delivered.pictureColumns, totalFrames: total)
        var clip: Int64?
        let lock = NSLock()
        try Parallel.run(layout.count, threads: input.threads) { (k) throws(AudioError) in
            let encoder = try track.partEncoder(k)
            let nominal = layout.boundaries[k]..<layout.boundaries[k + 1]
            let partColumns = PeakColumnsSink(count: Delivered.pictureColumns, totalFrames: total, channels: channels, start: nominal.lowerBound)
            let guardSink = plan == nil ? ClipGuard(channels: channels, start: nominal.lowerBound) : nil
            let start = warmStart(encoder.input.lowerBound)
            var mix = try sources.makeMix(from: start, to: encoder.input.upperBound)
            try Driver.run(
                &mix, channels: channels, through: plan?.stages(channels: channels, sampleRate: sampleRate) ?? [],
                into: [
                    FrameRangeSink(start: start, keep: nominal, channels: channels, into: [guardSink as (any Sink)?, partColumns].compactMap { $0 }),
                    FrameRangeSink(start: start, keep: encoder.input, channels: channels, into: [encoder]),
                ])
            lock.withLock {
                columns.merge(partColumns.all)
                if let found = guardSink?.clip { clip = min(clip ?? found, found) }
            }
            guard guardSink?.clip == nil else { return }
            try encoder.finish()
        }
        if let clip { throw input.clipped(at: clip) }
        try track.joinParts()
        input.observer?.lossy("AAC phase parts: " + clock.lap())
        // the repairs look for hops over the allowed peak: only those need exact peaks (none without a loudness target)
        let allowed = input.recipe.output.loudness == nil ? .infinity : Float(Gain.linear(dB: LoudnessPlan.allowedPeak(input.recipe.output.truePeak)))
        var heard = try Measurement.run(
            totalFrames: total, sampleRate: sampleRate, channels: channels, threads: input.threads, canSplit: true, exactOver: allowed
        ) { (span, meter) throws(AudioError) in try decode(track, span, into: meter) }
        input.observer?.lossy("AAC phase check: " + clock.lap())
        input.observer?.lossy(
            String(
                format: "AAC in %d parts (%d joins where no window matched): %.2f LUFS, %.2f dBTP decoded", layout.count,
                track.unmatchedJoins, heard.loudness, heard.truePeak))
        if input.recipe.output.loudness != nil {
            // repaired where the decoded true peak passes what the loudness loop allows
            try AACRepair(
                track: track, sources: sources, plan: plan, channels: channels, sampleRate: sampleRate, observer: input.observer,
                warmStart: warmStart
            ).repair(&heard, allowedPeak: LoudnessPlan.allowedPeak(input.recipe.output.truePeak)) { (span, meter) throws(AudioError) in
                try decode(track, span, into: meter)
            }
        }
        input.observer?.lossy("AAC phase repair: " + clock.lap())
        try track.mux(
            fileDescriptor: file.fileDescriptor, path: output.audioPath, metadata: input.metadata.m4aTags, chapters: input.metadata.chapters)
        let listed = try M4AReader.frames(descriptor: file.fileDescriptor, path: output.audioPath)
        guard listed == total else {
            throw AudioError(
                file: output.audioPath, operation: "verify", reason: "its edit list lasts \(listed.map(String.init) ?? "no") frames, not \(total)",
                kind: .software)
        }
        input.observer?.lossy("AAC phase mux: " + clock.lap())
        return Delivered(loudness: heard.loudness, truePeak: heard.truePeak, peaks: columns.peaks)
    }

    /// Where a mix that feeds frames from `first` on starts: a warm-up before (a synth bed's or a noise
    /// swell's generator seeks there from frame 0, `TrackSources.startsCheaply`).
    func warmStart(_ first: Int64) -> Int64 {
        max(0, first - Int64(Self.warmUpSeconds * Double(input.sampleRate)))
    }
}

/// The frames of `span` as the track decodes, into its meter.
private func decode(_ track: AACTrack, _ span: Measurement.Span, into meter: SpanMeter) throws(AudioError) {
    try track.decode(span.start..<span.end) { (samples, frames) throws(AudioError) -> Bool in
        try meter.consume(samples, frames: frames) == .more
    }
}

extension AACPartEncoder: Sink {
    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        try write(block, frames: frames)
        return .more
    }
}

/// The process's CPU time (user + system, every thread) and wall time between laps, for the
/// AAC phases the benchmark's trace lists (`CADENCE_STAGES=1`).
final class PhaseClock {
    private var cpu: Double
    private var wall: Double

    init() { (cpu, wall) = (Self.cpuNow(), Self.wallNow()) }

    /// "cpu X s, wall Y s" since the last lap (or the start).
    func lap() -> String {
        let (c, w) = (Self.cpuNow(), Self.wallNow())
        defer { (cpu, wall) = (c, w) }
        return String(format: "cpu %.2f s, wall %.2f s", c - cpu, w - wall)
    }

    private static func cpuNow() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func wallNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
