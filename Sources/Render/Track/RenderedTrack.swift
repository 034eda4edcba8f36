import AudioCore
import CadenceCues
import Recipe

/// What a finished render wrote and measured.
public struct RenderedTrack: Sendable {
    public let recipe: Recipe
    public let audioPath: String
    public let cueSheetPath: String
    /// Sidecar files written beside the audio (WebVTT, chapters, picture), in kind order.
    public let sidecarPaths: [String]
    public let format: AudioFormat
    public let frames: Int64
    public let sampleRate: Int
    public let loudness: Double?
    public let truePeak: Double?
    public let sha256: String
    public let bytes: Int64
    public let limited: Bool
    /// The loudest sample of each of `Delivered.pictureColumns` (600) spans of the track, 0…1.
    public let peaks: [Float]
    /// The cue sheet written beside the audio.
    public let cueSheet: CueSheet
    /// What reading and laying out the recipe noticed and let pass, in line order (`TrackRenderer.warnings(of:)`).
    public let warnings: [Diagnostic]
}
