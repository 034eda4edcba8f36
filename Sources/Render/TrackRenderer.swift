import AudioCore
import AudioIO
import Foundation
import Recipe
import Sidecars
import Timeline

/// Renders one recipe to its audio file and cue sheet: the story of a render, top-down.
///
/// recipe → `Timeline` (frames) → `TrackSources` (beds and cues, prepared once) →
/// pass 1, `Measurement` (loudness, true peak, gating blocks) → `LoudnessPlan` (gain,
/// limiter or not) → the encode pass, `EncodePass` (mix → stages → encoder) →
/// `LossyCheck` for lossy formats → `TrackFiles` (cue sheet and sidecars beside the
/// audio, all put in place together). Every pass is `Driver.run`.
public final class TrackRenderer: @unchecked Sendable {
    private let beds: BedCache
    /// Cue files, prompt clips and drafts, decoded once for all the tracks this renderer renders.
    public let clips: ClipCache
    /// Threads one render may keep busy: pass 1's halves, and the encoder beside the mixer.
    private let threads: Int

    /// `threads`: 1 renders on the calling thread only (a catalog's `-j N` runs N such
    /// renders, so `-j 1` uses one core); the default uses every core.
    public init(
        beds: BedCache = BedCache(), clips: ClipCache = ClipCache(), threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.beds = beds
        self.clips = clips
        self.threads = max(1, threads)
    }

    /// Reads and validates a recipe file; its id defaults to the file's name.
    /// At most 1 MiB + 1 byte is read, so `/dev/zero` or a FIFO costs no more than a recipe.
    public static func load(recipePath: String) throws(DiagnosticList) -> Recipe {
        try RecipeLoader.load(path: recipePath)
    }

    /// Renders a loaded recipe to `outputPath` (default `<id>.<format>` in the current folder),
    /// with the `sidecars` asked for and those the recipe lists.
    /// `expected`: the versions of the asset files (by resolved path) a catalog fingerprinted;
    /// a file that has changed since is refused, so the manifest never vouches for other bytes.
    public func render(
        recipe: Recipe, outputPath: String?, assets override: String?, sidecars: Set<SidecarKind> = [],
        expected: [String: FileIdentity] = [:]
    ) throws(DiagnosticList) -> RenderedTrack {
        let output = try OutputPlan(recipe: recipe, outputPath: outputPath, sidecars: sidecars)
        try output.checkDestinations()
        let timeline = try Timeline(recipe: recipe)
        // seeds follow the recipe's meaning, not its spacing or comments
        let seed = SHA256Hasher.digest(Array(recipe.canonicalText.utf8))
        let sources = try TrackSources(
            recipe: recipe, timeline: timeline, assetsOverride: override, beds: beds, clips: clips, seed: Seed.word(seed, 0), expected: expected)
        let contract = LoudnessContract(recipe: recipe, format: output.format)
        return try DiagnosticList.collecting(file: recipe.file) {
            let files = TrackFiles(recipe: recipe, timeline: timeline, sources: sources, output: output)
            let pass = EncodePass(recipe: recipe, sources: sources, output: output, metadata: files.metadata, seed: seed, threads: threads)
            let (channels, rate) = (recipe.output.channels, recipe.output.sampleRate)
            let measured = try recipe.output.loudness.map { _ in
                try Measurement.run(sources, sampleRate: rate, channels: channels, threads: threads, vorbisOrder: output.format.hasVorbisOrder)
            }
            var lossy = LossyCheck(target: recipe.output.loudness, truePeakCeiling: recipe.output.truePeak, ceiling: output.ceiling)
            /// The plan for a target and ceiling; the last one made is kept, so an aim that changed neither is not searched again.
            var last: (plan: LoudnessPlan, target: Double, ceiling: Double)?
            func plan(_ measured: Measurement, target: Double, ceiling: Double) throws -> LoudnessPlan {
                if let last, last.target == target, last.ceiling == ceiling { return last.plan }
                let made = try LoudnessPlan.plan(measured, target: target, ceiling: ceiling) {
                    LimitedLoudness(
                        measured: measured, sources: sources, channels: channels, sampleRate: rate, ceiling: $0, threads: threads,
                        vorbisOrder: output.format.hasVorbisOrder)
                }
                last = (made, target, ceiling)
                return made
            }
            if output.format == .m4a, let measured, let target = recipe.output.loudness, let bitrate = output.bitrate {
                // AAC's loudness change and overshoot, sampled before the one encoding it should take (CodecProbe)
                let first = try plan(measured, target: target, ceiling: lossy.ceiling)
                if let shift = try CodecProbe.aacShift(sources: sources, plan: first, bitrate: bitrate, sampleRate: rate, channels: channels) {
                    lossy.aim(shift: shift.loudness, overshoot: shift.overshoot, plannedPeak: first.truePeak ?? first.limiterCeiling)
                    Self.trace(
                        String(
                            format: "probe: %+.2f LU, overshoot %+.2f dB over %.2f dBTP planned", shift.loudness, shift.overshoot,
                            first.truePeak ?? first.limiterCeiling ?? .nan))
                }
            }
            while true {
                let plan = try measured.map { try plan($0, target: (recipe.output.loudness ?? 0) + lossy.targetOffset, ceiling: lossy.ceiling) }
                // a target the limiter cannot reach is known before encoding
                if let plan { try contract.check(loudness: plan.loudness - lossy.targetOffset, truePeak: -.infinity, plan: plan, lossy: lossy) }
                let file = try AtomicOutputFile(path: output.audioPath)
                var encoded = try pass.run(plan: plan, into: file)
                if output.format.isLossy {
                    (encoded.loudness, encoded.truePeak) = try LossyCheck.measure(
                        file, format: output.format, path: output.audioPath, frames: timeline.totalFrames, sampleRate: rate,
                        channels: channels, heard: encoded.heard)
                    Self.trace(
                        String(
                            format: "encoding %d: %.2f LUFS, %.2f dBTP decoded (aimed %+.2f LU, ceiling %.2f dBTP)", lossy.attempt,
                            encoded.loudness, encoded.truePeak, lossy.targetOffset, lossy.ceiling))
                    // the codec's overshoot and loudness change are only known after encoding
                    if lossy.again(loudness: encoded.loudness, truePeak: encoded.truePeak) {
                        file.discard()
                        continue
                    }
                }
                do { try contract.check(loudness: encoded.loudness, truePeak: encoded.truePeak, plan: plan, lossy: lossy) } catch {
                    file.discard()
                    throw error
                }
                return try files.commit(file, encoded: encoded, limited: plan?.limit ?? false)
            }
        }
    }

    /// With `CADENCE_STAGES=1` (the benchmark's runs), what the lossy check found at each
    /// encoding, on stderr as `cadence-lossy: …`.
    private static let tracing = ProcessInfo.processInfo.environment["CADENCE_STAGES"] == "1"
    static func trace(_ line: @autoclosure () -> String) {
        if tracing { FileHandle.standardError.write(Data(("cadence-lossy: " + line() + "\n").utf8)) }
    }

    /// Columns of the waveform picture.
    public static let pictureColumns = 600
}
