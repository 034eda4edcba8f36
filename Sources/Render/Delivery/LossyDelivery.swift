import AudioCore
import AudioIO

/// Ogg Vorbis, Opus and MP3: one pass into the encoder sink (`LosslessDelivery`'s, unmetered),
/// then the file decoded and metered as players hear it. Their decoders' peaks pass the input's, so the plan's
/// ceiling is lowered by the format's headroom (`OutputPlan.ceiling`); what the codec still
/// moves, `LoudnessLoop` corrects by encoding again.
struct LossyDelivery: Delivery {
    let input: DeliveryInput

    init(_ input: DeliveryInput) { self.input = input }

    var ceiling: Double { input.output.ceiling }
    var isDecoded: Bool { true }

    func deliver(_ plan: LoudnessPlan?, into file: AtomicOutputFile) throws -> Delivered {
        var delivered = try LosslessDelivery(input, metered: false).deliver(plan, into: file)
        (delivered.loudness, delivered.truePeak) = try decoded(file)
        return delivered
    }

    /// The file just written, decoded through its descriptor: its frame count must be the
    /// timeline's; returns its loudness and true peak.
    private func decoded(_ file: AtomicOutputFile) throws(AudioError) -> (loudness: Double, truePeak: Double) {
        let (channels, rate, path) = (input.channels, input.sampleRate, input.output.audioPath)
        let frames = input.sources.totalFrames
        let meter = try MeterSink(channels: channels, sampleRate: rate, loudness: true, vorbisOrder: input.output.format.hasVorbisOrder)
        let decoded = try AudioDecoder.decode(
            path: "/proc/self/fd/\(file.fileDescriptor)", sampleRate: rate, channels: channels, maximumFrames: frames + Int64(rate)
        ) { (p, n) throws(AudioError) in
            _ = try meter.consume(p, frames: n)
        }
        guard decoded == frames else {
            throw AudioError(file: path, operation: "verify", reason: "the encoded file decodes to \(decoded) frames, not \(frames)", kind: .software)
        }
        let (loudness, truePeak) = try meter.finish()
        return (loudness ?? -.infinity, truePeak)
    }
}
