import AudioCore
import AudioIO
import CadenceCues
import Recipe
import Sidecars
import Timeline

/// What a track's output will be, for `render --plan`: the format the render decides, its
/// bit depth or bit rate, and the size to expect, worked out without rendering.
public struct OutputSummary: Sendable {
    public let path: String
    public let format: AudioFormat
    /// The sample format written, for the formats that store PCM samples (WAV, FLAC, CAF, ALAC).
    public let bitDepth: BitDepth?
    /// A lossy format's bit rate in bits per second; nil for lossless formats and Ogg at its quality setting.
    public let bitrate: Int?
    /// The size of the samples uncompressed: frames × channels × bytes per sample.
    public let pcmBytes: Int64
    /// The file's size to expect: exact for WAV and CAF (samples and header), the bit rate's for
    /// a lossy format at a fixed rate; nil where it depends on the sound (FLAC, ALAC, Ogg quality).
    public let expectedBytes: Int64?
}

extension TrackRenderer {
    /// The output `recipe` will be written as (at `outputPath`, or `<id>.<format>`), with its size for `timeline`.
    public static func outputSummary(recipe: Recipe, outputPath: String?, timeline: Timeline) throws(DiagnosticList) -> OutputSummary {
        let frames = timeline.totalFrames
        let plan = try OutputPlan(recipe: recipe, outputPath: outputPath)
        let channels = Int64(recipe.output.channels)
        let stored: BitDepth? = plan.format.isLossy ? nil : plan.bitDepth
        let bytesPerSample = Int64(stored?.bytes ?? BitDepth.float32.bytes)
        let pcm = frames * channels * bytesPerSample
        let seconds = Double(frames) / Double(recipe.output.sampleRate)
        let expected: Int64? =
            switch plan.format {
            case .wav: pcm + 44 + WAVMarkers.size(of: markers(recipe: recipe, timeline: timeline))
            case .caf: pcm + 4096
            case .opus, .mp3, .m4a: plan.bitrate.map { Int64((Double($0) * seconds / 8).rounded()) }
            case .ogg: plan.bitrate.map { Int64((Double($0) * seconds / 8).rounded()) }
            case .flac, .alac: nil
            }
        return OutputSummary(
            path: plan.audioPath, format: plan.format, bitDepth: stored, bitrate: plan.bitrate, pcmBytes: pcm, expectedBytes: expected)
    }

    /// The markers a WAV file gets (`CueSheet.markers`), from the layout: sections, phases, prompts.
    private static func markers(recipe: Recipe, timeline: Timeline) -> [WAVMarkers.Point] {
        var points = timeline.sections.filter { $0.kind != .practice }.map {
            WAVMarkers.Point(frame: $0.startFrame, label: CueSheet.sectionTitle($0.kind.rawValue))
        }
        let practice = timeline.practiceSections
        if practice.count > 1 {
            points += practice.enumerated().map { WAVMarkers.Point(frame: $1.startFrame, label: PlainText.line($1.name ?? "Segment \($0 + 1)")) }
        }
        points += timeline.phases.map { WAVMarkers.Point(frame: $0.startFrame, label: PlainText.line($0.label)) }
        let prompts = recipe.voice?.prompts ?? []
        points += timeline.prompts.map { event in
            WAVMarkers.Point(frame: event.frame, label: PlainText.line("Voice: " + (prompts[event.prompt].text ?? "prompt \(event.prompt + 1)")))
        }
        return points
    }
}
