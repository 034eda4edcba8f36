import AudioCore
import AudioIO
import Foundation
import Recipe

/// Lossy formats are measured as players hear them: the file just written is decoded
/// and metered, and when the codec moved its loudness by more than 0.2 LU or its peaks
/// overshot the ceiling, the target and the limiter's ceiling are corrected by as much
/// and the track is encoded again, at most `attempts` times in all.
struct LossyCheck {
    /// Encodings tried before the measured result is taken as it is.
    static let attempts = 4

    /// The recipe's target (LUFS) and true-peak ceiling (dBTP).
    let target: Double?
    let truePeakCeiling: Double
    /// The ceiling the plan is made for: the output's, lowered by what the codec overshot.
    private(set) var ceiling: Double
    /// Added to the target the plan aims at: what the codec took away (or added).
    private(set) var targetOffset = 0.0
    private(set) var attempt = 1

    init(target: Double?, truePeakCeiling: Double, ceiling: Double) {
        self.target = target
        self.truePeakCeiling = truePeakCeiling
        self.ceiling = ceiling
        self.outputCeiling = ceiling
    }

    private let outputCeiling: Double

    /// Whether the ceiling was lowered for the codec (the contract's message says so).
    var loweredCeiling: Bool { ceiling < outputCeiling }

    /// Aims the plan past what the codec is expected to do (`CodecProbe`): a loudness change of
    /// `shift` LU (negative when it takes loudness away; under 0.05 LU it is left alone), and an
    /// overshoot of `overshoot` dB over `plannedPeak`, the plan's true peak, which lowers the
    /// ceiling as `again` would after encoding.
    mutating func aim(shift: Double, overshoot: Double, plannedPeak: Double?) {
        if shift.isFinite, abs(shift) >= 0.05 { targetOffset -= shift }
        guard let plannedPeak, overshoot.isFinite, overshoot > 0 else { return }
        let over = plannedPeak + overshoot - Self.allowedPeak(truePeakCeiling)
        if over > 0 { ceiling -= over + 0.1 }
    }

    /// The highest decoded true peak (dBTP) an encoding passes with, for a recipe's `true_peak`:
    /// half the limiter's margin under it (what `AACRepair` repairs down to).
    static func allowedPeak(_ truePeakCeiling: Double) -> Double { truePeakCeiling - LoudnessPlan.margin / 2 }

    /// After an encoding that decodes to `loudness` and `truePeak`: true (with the target
    /// and ceiling corrected) when it should be encoded again.
    mutating func again(loudness: Double, truePeak: Double) -> Bool {
        guard let target, loudness.isFinite, attempt < Self.attempts else { return false }
        let over = truePeak - Self.allowedPeak(truePeakCeiling)
        let off = target - loudness
        guard over > 0 || abs(off) > 0.2 else { return false }
        if over > 0 { ceiling -= over + 0.1 }
        targetOffset += off
        attempt += 1
        return true
    }

    /// What a track measured as decoded before it was muxed (`AACEncodePass`), and its frames.
    typealias Heard = (loudness: Double, truePeak: Double, frames: Int64)

    /// The file just written, as players hear it: its frame count must be the timeline's;
    /// returns its loudness and true peak. An M4A's packets were decoded and metered before they
    /// were muxed (`heard`: `AACEncodePass`, with the decoder `M4AReader` opens), so only its
    /// edit list's duration is read back; any other format is decoded through its descriptor.
    static func measure(
        _ file: AtomicOutputFile, format: AudioFormat, path: String, frames: Int64, sampleRate: Int, channels: Int, heard: Heard? = nil
    ) throws(AudioError) -> (loudness: Double, truePeak: Double) {
        if format == .m4a {
            guard let heard else {
                throw AudioError(file: path, operation: "verify", reason: "the AAC encoding was not measured as decoded", kind: .software)
            }
            let listed = try M4AReader.frames(descriptor: file.fileDescriptor, path: path)
            guard heard.frames == frames, listed == frames else {
                let what =
                    listed == frames ? "its packets decode to \(heard.frames)" : "its edit list lasts \(listed.map(String.init) ?? "no") frames"
                throw AudioError(file: path, operation: "verify", reason: "\(what), not \(frames)", kind: .software)
            }
            return (heard.loudness, heard.truePeak)
        }
        let meter = try MeterSink(channels: channels, sampleRate: sampleRate, loudness: true, vorbisOrder: format.hasVorbisOrder)
        let decoded = try AudioDecoder.decode(
            path: "/proc/self/fd/\(file.fileDescriptor)", sampleRate: sampleRate, channels: channels,
            maximumFrames: frames + Int64(sampleRate)
        ) { (p, n) throws(AudioError) in
            _ = try meter.consume(p, frames: n)
        }
        guard decoded == frames else {
            throw AudioError(file: path, operation: "verify", reason: "the encoded file decodes to \(decoded) frames, not \(frames)", kind: .software)
        }
        let (loudness, truePeak) = meter.finish()
        return (loudness ?? -.infinity, truePeak)
    }
}
