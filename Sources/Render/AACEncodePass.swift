import AudioCore
import AudioIO
import DSP
import Foundation

/// The encode pass of an AAC M4A: the track in parts on every core, checked as decoded,
/// repaired where the codec overshoots, then muxed.
///
/// 1. **Parts** (`AACPartLayout`): each part's mix is rendered from half a second before
///    its encoder's first frame (a file bed; a synth bed's mix from frame 0), through the
///    plan's stages, into an AAC encoder of its own; the parts run side by side on
///    `threads` threads. The parts are the same however many threads there are, so the
///    bytes are too.
/// 2. **Joins** (`AACTrack.joinParts`): each part takes over from the one before at a packet
///    where both encoders chose the same window.
/// 3. **As decoded** (`Measurement` over `AACTrack.decode`, two spans on two threads): the
///    loudness, true peak, hop peaks and gating blocks players will hear.
/// 4. **Repairs** (`AACRepair`): where the decoded true peak passes what the lossy check
///    allows (AAC's quantization noise on a transient: a raindrop), that stretch is encoded
///    again with the mix dipped under it and patched in, instead of encoding the whole track
///    again at a lower ceiling.
/// 5. **Mux** (`AACTrack.mux`) into the output file.
struct AACEncodePass {
    let sources: TrackSources
    let output: OutputPlan
    let metadata: EmbeddedMetadata
    let channels: Int
    let sampleRate: Int
    let threads: Int
    /// The highest decoded true peak the lossy check passes (dBTP); nil: `loudness: off`, no repair.
    let allowedPeak: Double?
    /// The error for a mix that clips at a frame (`loudness: off`).
    let clipped: (Int64) -> Error

    /// Half a second of mix before a part's first frame settles the limiter's look-ahead and release.
    static let warmUpSeconds = 0.5

    func run(plan: LoudnessPlan?, into file: AtomicOutputFile) throws -> EncodePass.Encoded {
        StageClock.shared.countPass()
        let total = sources.totalFrames
        guard let bitrate = output.bitrate else {
            throw AudioError(file: output.audioPath, operation: "encode", reason: "an AAC encoding needs a bit rate", kind: .software)
        }
        let track = try AACTrack(bitrate: bitrate, sampleRate: sampleRate, channels: channels, totalFrames: total, path: output.audioPath)
        let layout = track.layout
        var columns = PeakColumns(count: TrackRenderer.pictureColumns, totalFrames: total)
        var clip: Int64?
        let lock = NSLock()
        try Parallel.run(layout.count, threads: threads) { (k) throws(AudioError) in
            let encoder = try track.partEncoder(k)
            let nominal = layout.boundaries[k]..<layout.boundaries[k + 1]
            let partColumns = PeakColumnsSink(count: TrackRenderer.pictureColumns, totalFrames: total, channels: channels, start: nominal.lowerBound)
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
        if let clip { throw clipped(clip) }
        try track.joinParts()
        var heard = try Measurement.run(totalFrames: total, sampleRate: sampleRate, channels: channels, threads: threads, canSplit: true) {
            (span, meter) throws(AudioError) in try decode(track, span, into: meter)
        }
        TrackRenderer.trace(
            String(
                format: "AAC in %d parts (%d joins where no window matched): %.2f LUFS, %.2f dBTP decoded", layout.count,
                track.unmatchedJoins, heard.loudness, heard.truePeak))
        if let allowedPeak {
            try AACRepair(track: track, sources: sources, plan: plan, channels: channels, sampleRate: sampleRate, warmStart: warmStart)
                .repair(&heard, allowedPeak: allowedPeak) { (span, meter) throws(AudioError) in try decode(track, span, into: meter) }
        }
        try track.mux(
            fileDescriptor: file.fileDescriptor, path: output.audioPath, metadata: metadata.m4aTags, chapters: metadata.chapters)
        return EncodePass.Encoded(
            loudness: heard.loudness, truePeak: heard.truePeak, peaks: columns.peaks, heard: (heard.loudness, heard.truePeak, total))
    }

    /// Where a mix that feeds frames from `first` on starts: a warm-up before, or frame 0 for a mix that must.
    func warmStart(_ first: Int64) -> Int64 {
        sources.canStartAnywhere ? max(0, first - Int64(Self.warmUpSeconds * Double(sampleRate))) : 0
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
