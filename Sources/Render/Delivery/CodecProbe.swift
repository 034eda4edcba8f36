import AudioCore
import AudioIO
import DSP
import Foundation

/// How far AAC moves a track's loudness and peaks, measured on a sample before the track is encoded.
///
/// The AAC encoder's low-pass takes the top octave away, which K-weighting counts, so a
/// decoded M4A measures about 0.2–0.3 LU under its input (rain at 128k: −0.28 LU). Found only
/// after encoding, that costs a second encoding of the whole track, and AAC is the slowest
/// encoder Cadence drives (5 min of stereo: 7.4 s). So before encoding, the planned mix is
/// rendered once and `stretches` spans of `stretchSeconds` spread over it are encoded to an
/// unnamed scratch M4A, decoded and metered against what went in. The render then aims the
/// target by that shift, and lowers the limiter's ceiling when the planned peak plus the
/// sample's overshoot would pass what the loudness loop allows (bells on rain at 128k: +0.3 dB).
/// `AACDelivery` still measures the whole file afterwards: a probe that guessed wrong costs
/// the second encoding it would have cost anyway.
///
/// Each span is faded in and out over `edge` on both sides of the comparison, so the joins
/// between spans add no clicks of their own. The encoder first takes up to `primerSeconds`
/// of the mix before the first span, unmetered: a fresh AAC encoder's rate control needs
/// about 3 s to settle (`AACPartLayout.settle`), and a probe that metered its first seconds
/// would see the loudness its low start takes away (pink noise at 96k, 2 minutes: −0.21 LU
/// over the spans against +0.03 for the track).
struct CodecProbe {
    static let stretchSeconds = 2
    /// At most this many spans (48 s of AAC, about 1.2 s to encode and decode).
    static let maximumStretches = 24
    /// Spans are at least this far apart (the probe encodes at most a tenth of the track); a
    /// track shorter than 4 of them is not probed (a second encoding of it costs about what
    /// the probe would).
    static let spacingSeconds = 20
    static let minimumStretches = 4
    /// Where the mix can start part-way, each span's mix starts this long before it, so the
    /// limiter's look-ahead and release are settled when the span begins.
    static let warmUpSeconds = 0.5
    /// The fade at each end of a span.
    static let edge = 0.01
    /// The mix before the first span the encoder takes unmetered.
    static let primerSeconds = 4

    /// The frames at which each span starts, for a track of `frames` at `rate`; empty when too short to probe.
    static func starts(frames: Int64, rate: Int) -> [Int64] {
        let length = Int64(stretchSeconds * rate)
        let count = Int(min(Int64(maximumStretches), frames / Int64(spacingSeconds * rate)))
        guard count >= minimumStretches else { return [] }
        // evenly spread, the first and last a span away from the ends
        let room = frames - length
        return (0..<count).map { i in room * Int64(2 * i + 1) / Int64(2 * count) }
    }

    /// What AAC did to the sample.
    struct Shift {
        /// Decoded loudness minus the input's (LU; negative: the codec takes loudness away).
        var loudness: Double
        /// Decoded true peak minus the input's (dB; positive: the codec overshoots).
        var overshoot: Double
    }

    /// What AAC at `bitrate` does to the planned mix's loudness and true peak; nil when the
    /// track is too short to probe.
    static func aacShift(
        sources: TrackSources, plan: LoudnessPlan, bitrate: Int, sampleRate rate: Int, channels: Int
    ) throws(AudioError) -> Shift? {
        let starts = Self.starts(frames: sources.totalFrames, rate: rate)
        guard let last = starts.last else { return nil }
        let primer = (starts[0] - min(starts[0], Int64(primerSeconds * rate)))..<starts[0]
        let scratch = try ScratchFile(channels: channels, name: "the AAC probe")
        let writer = try M4AWriter(
            fileDescriptor: scratch.fileDescriptor, path: "the AAC probe", codec: .aac(bitrate: bitrate), sampleRate: rate,
            channels: channels, totalFrames: Int64(primer.count) + Int64(starts.count * stretchSeconds * rate))
        // both sides metered block by block over the spans as they follow each other in the probe's file
        let probed = Int64(starts.count * stretchSeconds * rate)
        let whole = Measurement.Span(start: 0, end: probed, loudness: 0..<probed, peaks: 0..<probed, isLast: true)
        let hop = Measurement.hopFrames(sampleRate: rate)
        let input = try SpanMeter(whole, hop: hop, channels: channels, sampleRate: rate)
        let sink = StretchSink(
            starts: starts, length: stretchSeconds * rate, fade: Int(edge * Double(rate)), primer: primer, channels: channels, writer: writer,
            meter: input)
        let length = Int64(stretchSeconds * rate)
        // a file bed's mix is rendered around each span only (the first from before its primer); a synth bed's runs from frame 0
        let runs: [Range<Int64>] =
            sources.startsCheaply
            ? starts.enumerated().map { k, start in
                max(0, (k == 0 ? primer.lowerBound : start) - Int64(warmUpSeconds * Double(rate)))..<(start + length)
            }
            : [0..<(last + length)]
        for run in runs {
            sink.position = run.lowerBound
            var mix = try sources.makeMix(from: run.lowerBound, to: run.upperBound)
            try Driver.run(&mix, channels: channels, through: plan.stages(channels: channels, sampleRate: rate), into: [sink])
        }
        try writer.finish()
        let output = try SpanMeter(whole, hop: hop, channels: channels, sampleRate: rate)
        var skip = primer.count
        try M4AReader.decode(descriptor: scratch.fileDescriptor, path: "the AAC probe") { (p, n) throws(AudioError) in
            let dropped = min(skip, n)
            skip -= dropped
            guard n > dropped else { return }
            _ = try output.consume(UnsafeBufferPointer(rebasing: p[(dropped * channels)..<(n * channels)]), frames: n - dropped)
        }
        guard let loudness = Self.loudnessChange(from: input.energies, to: output.energies) else { return nil }
        let (before, after) = (input.finishPeak(), output.finishPeak())
        let overshoot = before > 0 && after > 0 ? Gain.decibels(linear: Double(after / before)) : 0
        return Shift(loudness: loudness, overshoot: overshoot)
    }

    /// The change in loudness (LU) between the input's gating blocks and the output's, over the
    /// blocks the input's gates keep (BS.1770: −70 LUFS, then 10 LU under their mean); nil when
    /// none passes. Each side's own integrated loudness would gate each side apart: with spans
    /// of two levels (a breath cue on a quiet bed, 15 dB over it), the quieter spans sit near the
    /// relative gate, and a change of a few tenths of a dB in them moves many blocks across it
    /// (anxiety-relief at 128k: +2.26 LU between the two integrated figures, for spans whose
    /// levels the codec kept within 0.3 dB; the track as a whole: 0.0 LU).
    static func loudnessChange(from input: [(Int, Double)], to output: [(Int, Double)]) -> Double? {
        let decoded = Dictionary(output, uniquingKeysWith: { first, _ in first })
        let audible = input.filter { $0.1 >= BlockGating.absoluteGate }
        guard !audible.isEmpty else { return nil }
        let gate = max(BlockGating.absoluteGate, audible.reduce(0) { $0 + $1.1 } / Double(audible.count) * 0.1)
        var (before, after) = (0.0, 0.0)
        for (e, energy) in audible where energy >= gate {
            guard let out = decoded[e] else { continue }
            before += energy
            after += out
        }
        guard before > 0, after > 0 else { return nil }
        return 10 * log10(after / before)
    }
}

/// Passes on the frames inside the spans, each faded at both ends, to the probe's encoder and
/// its meter, and before them the primer's, to the encoder only.
private final class StretchSink: Sink {
    private let spans: [Range<Int64>]
    private let primer: Range<Int64>
    private let fade: Int
    private let channels: Int
    private let writer: M4AWriter
    private let meter: SpanMeter
    /// The track frame of the next block.
    var position: Int64 = 0
    private var faded: [Float]

    init(starts: [Int64], length: Int, fade: Int, primer: Range<Int64>, channels: Int, writer: M4AWriter, meter: SpanMeter) {
        spans = starts.map { $0..<($0 + Int64(length)) }
        self.primer = primer
        self.fade = max(fade, 1)
        self.channels = channels
        self.writer = writer
        self.meter = meter
        faded = [Float](repeating: 0, count: Block.frames * channels)
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        let blockRange = position..<(position + Int64(frames))
        defer { position += Int64(frames) }
        let primed = primer.clamped(to: blockRange)
        if !primed.isEmpty {
            let from = Int(primed.lowerBound - position) * channels
            try writer.write(UnsafeBufferPointer(rebasing: block[from..<(from + primed.count * channels)]), frames: primed.count)
        }
        for span in spans where span.overlaps(blockRange) {
            let from = max(span.lowerBound, blockRange.lowerBound)
            let to = min(span.upperBound, blockRange.upperBound)
            let count = Int(to - from)
            try faded.withUnsafeMutableBufferPointer { (out) throws(AudioError) in
                for f in 0..<count {
                    let frame = from + Int64(f)
                    let edgeDistance = min(frame - span.lowerBound, span.upperBound - 1 - frame)
                    let gain = FadeCurve.fadeIn(edgeDistance, length: Int64(fade))
                    let source = Int(frame - position) * channels
                    for c in 0..<channels { out[f * channels + c] = block[source + c] * gain }
                }
                let piece = UnsafeBufferPointer(rebasing: out[0..<(count * channels)])
                try writer.write(piece, frames: count)
                _ = try meter.consume(piece, frames: count)
            }
        }
        // each run's mix ends where its span (or, for a synth bed, the last span) ends
        return .more
    }
}
