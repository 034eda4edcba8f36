import AudioCore
import AudioIO
import DSP
import Recipe

/// How a track reaches its file in one codec family: its encoder, the ceiling its loudness
/// plan is made for, and what it measures of the file as players will hear it.
///
/// One owner per family, each going through the `Driver` like every other pass:
/// - `LosslessDelivery` (WAV, FLAC, CAF, ALAC): one pass into the encoder sink; the file
///   holds exactly what was measured.
/// - `LossyDelivery` (Ogg Vorbis, Opus, MP3): one pass into the encoder sink, then the file
///   decoded and metered.
/// - `AACDelivery` (M4A): a probe of the codec before, the track in parts, decoded as
///   muxed, repaired where it overshoots.
///
/// `LoudnessLoop` drives a delivery (plan → contract → `deliver` → verify) and, when the
/// delivery's result is the encoding decoded (`isDecoded`), encodes again when it misses.
protocol Delivery {
    /// The true-peak ceiling (dBTP) the first loudness plan is made for.
    var ceiling: Double { get }
    /// Whether `deliver` measures the encoding decoded: a miss is then the codec's, and
    /// `LoudnessLoop` corrects it by encoding again.
    var isDecoded: Bool { get }
    /// What the codec is expected to do to `plan`'s mix, sampled before the one encoding it
    /// should take (`CodecProbe`); nil when it is not sampled.
    func expectedShift(of plan: LoudnessPlan) throws -> CodecProbe.Shift?
    /// Encodes the track through `plan` (nil: `loudness: off`, the mix as it is) into `file`,
    /// checks what was written, and returns its loudness, true peak and picture columns.
    func deliver(_ plan: LoudnessPlan?, into file: AtomicOutputFile) throws -> Delivered
}

extension Delivery {
    func expectedShift(of plan: LoudnessPlan) throws -> CodecProbe.Shift? { nil }
}

/// What a delivery wrote and measured.
struct Delivered {
    /// Integrated loudness (LUFS) and true peak (dBTP) of the file: as decoded for a lossy format.
    var loudness: Double
    var truePeak: Double
    /// The loudest sample of each of `pictureColumns` spans, 0…1.
    var peaks: [Float]

    /// Columns of the waveform picture.
    static let pictureColumns = 600
}

/// What every delivery encodes: the track's mix, where it goes, and what goes inside the file.
struct DeliveryInput {
    let recipe: Recipe
    let sources: TrackSources
    let output: OutputPlan
    let metadata: EmbeddedMetadata
    let threads: Int
    let observer: (any RenderObserver)?

    /// The dither's seed and Ogg's serial.
    var seed: Seed { Seed(recipe: recipe) }
    var channels: Int { recipe.output.channels }
    var sampleRate: Int { recipe.output.sampleRate }

    /// The owner of the output's codec family.
    var delivery: any Delivery {
        if output.format.facts.encodedInParts { return AACDelivery(self) }
        return output.format.isLossy ? LossyDelivery(self) : LosslessDelivery(self)
    }

    /// The error for a mix that clips from `clip` with `loudness: off`. Its message names the
    /// mix's real peak, not the first sample over: the rest of the mix is rendered (not
    /// encoded) to find it.
    func clipped(at clip: Int64) -> Error {
        let loudest = LoudestSample(channels: channels)
        do throws(AudioError) {
            var mix = try sources.makeMix(from: 0, to: sources.totalFrames)
            try Driver.run(&mix, channels: channels, into: [loudest])
        } catch {
            return error
        }
        let rate = Double(sampleRate)
        let peakDB = Gain.decibels(linear: Double(loudest.peak))
        return Diagnostic(
            String(
                format:
                    "the mix clips from %.3f s (its peak is %+.2f dBFS at %.3f s) and loudness is off; lower the gains by %.1f dB or more, or set a loudness target",
                Double(clip) / rate, peakDB, Double(loudest.frame) / rate, (peakDB * 10).rounded(.up) / 10),
            at: recipe.location(of: "output.loudness"))
    }
}
