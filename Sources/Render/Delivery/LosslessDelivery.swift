import AudioCore
import AudioIO
import DSP
import Foundation

/// WAV, FLAC, CAF and ALAC: one pass of the mix through the plan's gain or limiter into the
/// encoder sink, the waveform's columns, and the meters the plan still needs. The file holds
/// what was encoded, so what the pass (or the plan) measured is the file's loudness and true
/// peak, and the plan's ceiling is the recipe's own.
struct LosslessDelivery: Delivery {
    let input: DeliveryInput
    /// Whether the pass meters what it encodes where the plan does not know it; false when
    /// the file is measured decoded afterwards (`LossyDelivery`'s pass is this one).
    var metered = true

    init(_ input: DeliveryInput, metered: Bool = true) {
        self.input = input
        self.metered = metered
    }

    var ceiling: Double { input.output.ceiling }

    /// FLAC's encoding lanes for a render allowed `threads` threads: all but the feeding thread's
    /// core, at least two (on two cores the lanes share the cores with the feeder); one (no lanes)
    /// for a render kept to one thread.
    static func flacLanes(threads: Int) -> Int { threads > 1 ? max(2, threads - 1) : 1 }

    var isDecoded: Bool { false }

    func deliver(_ plan: LoudnessPlan?, into file: AtomicOutputFile) throws -> Delivered {
        let (channels, rate, output) = (input.channels, input.sampleRate, input.output)
        let total = input.sources.totalFrames
        let seed = input.seed
        let encoder = try TrackEncoder(
            format: output.format, bitDepth: output.bitDepth, bitrate: output.bitrate, fileDescriptor: file.fileDescriptor,
            path: output.audioPath, sampleRate: rate, channels: channels, totalFrames: total,
            seed: seed.dither, serial: seed.serial, metadata: input.metadata, lanes: Self.flacLanes(threads: input.threads))
        let sink = EncoderSink(encoder: encoder, channels: channels, threaded: input.threads > 1)
        let columns = PeakColumnsSink(count: Delivered.pictureColumns, totalFrames: total, channels: channels)
        let guardSink = plan == nil ? ClipGuard(channels: channels) : nil
        let stages = plan?.stages(channels: channels, sampleRate: rate) ?? []
        // a plain gain's loudness and peak are pass 1's shifted; a limited one's are measured here
        // (its loudness only where the limiter works); without a target, everything is
        var meter: MeterSink?
        if metered, let plan, plan.truePeak == nil, let limiter = stages.first as? LimiterStage {
            meter = try MeterSink(
                channels: channels, sampleRate: rate, limiter: limiter, gain: plan.gain, passOne: plan.passOne, hopPeaks: plan.passOnePeaks,
                totalFrames: total,
                vorbisOrder: output.format.hasVorbisOrder)
        } else if metered && plan?.truePeak == nil {
            meter = try MeterSink(
                channels: channels, sampleRate: rate, loudness: plan?.limit ?? true, vorbisOrder: output.format.hasVorbisOrder)
        }
        let sinks: [any Sink] = [guardSink as (any Sink)?, meter, columns, sink].compactMap { $0 }
        var mix = try input.sources.makeMix()
        let written = try Driver.run(&mix, channels: channels, through: stages, into: sinks)
        if let clip = guardSink?.clip { throw input.clipped(at: clip) }
        guard written == total else {
            throw AudioError(file: output.audioPath, operation: "render", reason: "wrote \(written) frames, expected \(total)", kind: .software)
        }
        try sink.finish()
        let measured = try meter?.finish()
        if let hops = meter?.hops {
            input.observer?.lossy(
                "limited encoding: \(hops.measured) hops measured, \(hops.shifted) from pass 1 × gain² (\(hops.fed) K-filtered); true peak interpolated on \(meter?.interpolatedFrames ?? 0) of \(total) frames"
            )
        }
        return Delivered(
            loudness: measured?.loudness ?? plan?.loudness ?? -.infinity,
            truePeak: plan?.truePeak ?? measured?.truePeak ?? -.infinity, peaks: columns.peaks)
    }
}
