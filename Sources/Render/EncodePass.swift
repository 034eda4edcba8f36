import AudioCore
import AudioIO
import DSP
import Foundation
import Recipe

/// The last pass: the mix through the plan's gain or limiter, into the encoder, the
/// waveform columns and the meters the plan still needs.
struct EncodePass {
    let recipe: Recipe
    let sources: TrackSources
    let output: OutputPlan
    let metadata: EmbeddedMetadata
    let seed: [UInt8]
    let threads: Int

    /// What the pass wrote and measured.
    struct Encoded {
        var loudness: Double
        var truePeak: Double
        /// The loudest sample of each of `TrackRenderer.pictureColumns` spans, 0…1.
        var peaks: [Float]
        /// AAC: the track as decoded from the packets muxed (`AACEncodePass`), what `LossyCheck`
        /// would measure reading the file back.
        var heard: LossyCheck.Heard? = nil
    }

    /// Encodes the track into `file` with `plan` (nil: `loudness: off`, the mix as it is).
    func run(plan: LoudnessPlan?, into file: AtomicOutputFile) throws -> Encoded {
        let channels = recipe.output.channels
        let rate = recipe.output.sampleRate
        let total = sources.totalFrames
        if output.format == .m4a {
            // repaired where the decoded true peak passes what the lossy check allows
            let allowed = recipe.output.loudness.map { _ in LossyCheck.allowedPeak(recipe.output.truePeak) }
            return try AACEncodePass(
                sources: sources, output: output, metadata: metadata, channels: channels, sampleRate: rate, threads: threads,
                allowedPeak: allowed, clipped: clipped
            ).run(plan: plan, into: file)
        }
        let encoder = try TrackEncoder(
            format: output.format, bitDepth: output.bitDepth, bitrate: output.bitrate, fileDescriptor: file.fileDescriptor,
            path: output.audioPath, sampleRate: rate, channels: channels, totalFrames: total,
            seed: Seed.word(seed, 1), serial: Int32(truncatingIfNeeded: Seed.word(seed, 2)), metadata: metadata)
        let sink = EncoderSink(encoder: encoder, channels: channels, threaded: threads > 1)
        let columns = PeakColumnsSink(count: TrackRenderer.pictureColumns, totalFrames: total, channels: channels)
        let guardSink = plan == nil ? ClipGuard(channels: channels) : nil
        // a plain gain's loudness and peak are pass 1's shifted; a limited one's peak is measured here
        let meter =
            plan?.truePeak == nil
            ? try MeterSink(channels: channels, sampleRate: rate, loudness: plan == nil, vorbisOrder: output.format.hasVorbisOrder) : nil
        let sinks: [any Sink] = [guardSink as (any Sink)?, meter, columns, sink].compactMap { $0 }
        var mix = try sources.makeMix()
        let written = try Driver.run(&mix, channels: channels, through: plan?.stages(channels: channels, sampleRate: rate) ?? [], into: sinks)
        if let clip = guardSink?.clip { throw clipped(at: clip) }
        guard written == total else {
            throw AudioError(file: output.audioPath, operation: "render", reason: "wrote \(written) frames, expected \(total)", kind: .software)
        }
        try sink.finish()
        let measured = meter?.finish()
        return Encoded(
            loudness: measured?.loudness ?? plan?.loudness ?? -.infinity,
            truePeak: plan?.truePeak ?? measured?.truePeak ?? -.infinity, peaks: columns.peaks)
    }

    /// The clip message names the mix's real peak, not the first sample over: the rest
    /// of the mix is rendered (not encoded) to find it.
    func clipped(at clip: Int64) -> Error {
        let loudest = LoudestSample(channels: recipe.output.channels)
        do throws(AudioError) {
            var mix = try sources.makeMix(from: 0, to: sources.totalFrames)
            try Driver.run(&mix, channels: recipe.output.channels, into: [loudest])
        } catch {
            return error
        }
        let rate = Double(recipe.output.sampleRate)
        let peakDB = Gain.decibels(linear: Double(loudest.peak))
        return Diagnostic(
            String(
                format:
                    "the mix clips from %.3f s (its peak is %+.2f dBFS at %.3f s) and loudness is off; lower the gains by %.1f dB or more, or set a loudness target",
                Double(clip) / rate, peakDB, Double(loudest.frame) / rate, (peakDB * 10).rounded(.up) / 10),
            at: recipe.location(of: "output.loudness"))
    }
}
