import AudioCore
import AudioIO
import Foundation
import Recipe
import Sidecars
import Timeline

/// Renders one recipe to its audio file and cue sheet: the story of a render, top-down.
///
/// recipe → `OutputPlan` (paths and format, checked before any work) → `Timeline` (frames)
/// → `TrackSources` (beds and cues, prepared once; the noise seeded from the recipe) →
/// `TrackFiles` (the cue sheet's draft, the tags and chapters) → `LoudnessLoop` (pass 1, the
/// plan, the contract) driving the codec family's `Delivery` (lossless, lossy, AAC), unless a
/// rendition that sounds the same was delivered already (`SharedSound`) →
/// `TrackFiles.commit` (audio, cue sheet and sidecars put in place together). Every pass is
/// `Driver.run`.
public final class TrackRenderer: @unchecked Sendable {
    private let beds: BedCache
    /// Cue files, prompt clips and drafts, decoded once for all the tracks this renderer renders.
    public let clips: ClipCache
    /// Threads one render may keep busy: pass 1's halves, and the encoder beside the mixer.
    private let threads: Int
    /// Told what the lossy encodings measured (the command line's `CADENCE_STAGES=1` trace).
    private let observer: (any RenderObserver)?
    /// The audio of renditions delivered so far, for those that sound the same.
    private let shared = SharedSound()

    /// `threads`: 1 renders on the calling thread only (a catalog's `-j N` runs N such
    /// renders, so `-j 1` uses one core); the default uses every core.
    public init(
        beds: BedCache = BedCache(), clips: ClipCache = ClipCache(), threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        observer: (any RenderObserver)? = nil
    ) {
        self.beds = beds
        self.clips = clips
        self.threads = max(1, threads)
        self.observer = observer
    }

    /// What `recipe` sounds like in `format`, when a renderer renders that sound once for every
    /// rendition that shares it (`SharedSound`): a catalog's workers take one such track at a time.
    public static func soundKey(of recipe: Recipe, format: AudioFormat) -> String? { SharedSound.key(of: recipe, format: format) }

    /// Renders a loaded recipe to `outputPath` (default `<id>.<format>` in the current folder),
    /// with the `sidecars` asked for and those the recipe lists. `timeline`: the recipe's, when
    /// the caller has laid it out already (a recipe's variants are all laid out before the first
    /// renders).
    /// `expected`: the versions of the asset files (by resolved path) a catalog fingerprinted;
    /// a file that has changed since is refused, so the manifest never vouches for other bytes.
    public func render(
        recipe: Recipe, timeline laidOut: Timeline? = nil, outputPath: String?, assets override: String?, sidecars: Set<SidecarKind> = [],
        expected: [String: FileIdentity] = [:]
    ) throws(DiagnosticList) -> RenderedTrack {
        let output = try OutputPlan(recipe: recipe, outputPath: outputPath, sidecars: sidecars)
        try output.checkDestinations()
        let timeline = if let laidOut { laidOut } else { try Timeline(recipe: recipe) }
        let sources = try TrackSources(
            recipe: recipe, timeline: timeline, assetsOverride: override, beds: beds, clips: clips, expected: expected)
        return try DiagnosticList.collecting(file: recipe.file) {
            let files = try TrackFiles(recipe: recipe, timeline: timeline, sources: sources, output: output)
            return try shared.once(SharedSound.key(of: recipe, format: output.format)) { same in
                let (file, delivered, limited) =
                    try same?.copy(to: output, metadata: files.metadata)
                    ?? LoudnessLoop(
                        DeliveryInput(
                            recipe: recipe, sources: sources, output: output, metadata: files.metadata, threads: threads, observer: observer)
                    ).run()
                return (try files.commit(file, delivered: delivered, limited: limited), delivered)
            }
        }
    }
}
