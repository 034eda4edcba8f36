import AudioCore
import AudioIO
import CadenceCues
import DSP
import Foundation
import Preview
import Recipe
import Sidecars
import Timeline

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
    /// The loudest sample of each of `TrackRenderer.pictureColumns` spans of the track, 0…1.
    public let peaks: [Float]
    /// The cue sheet written beside the audio.
    public let cueSheet: CueSheet
}

/// Renders one recipe to its audio file and cue sheet.
///
/// recipe → Timeline (frames) → sources → mix → loudness plan → encoder, with
/// the output written to a hidden file and put in place only when whole.
public final class TrackRenderer: @unchecked Sendable {
    private let beds: BedCache

    /// Threads one render may keep busy: analysis halves, and the encoder beside the mixer.
    private let threads: Int

    /// `threads`: 1 renders on the calling thread only (a catalog's `-j N` runs N such
    /// renders, so `-j 1` uses one core); the default uses every core.
    public init(beds: BedCache = BedCache(), threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.beds = beds
        self.threads = max(1, threads)
    }

    /// Renders `recipePath` to `outputPath` (default `<id>.<format>` in the current folder).
    public func render(
        recipePath: String, outputPath: String?, assets override: String?, sidecars: Set<SidecarKind> = []
    ) throws(DiagnosticList) -> RenderedTrack {
        try render(recipe: try Self.load(recipePath: recipePath), outputPath: outputPath, assets: override, sidecars: sidecars)
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
        // every file the render will put in place (audio, cue sheet, sidecars) is checked before
        // any work: a folder named like the cue sheet must not be found after the render
        do throws(AudioError) {
            for path in [output.audioPath, output.cueSheetPath] + output.sidecars.map(\.1) {
                try AtomicOutputFile.checkDestination(path)
            }
        } catch {
            throw DiagnosticList([error.diagnostic])
        }
        let timeline = try Timeline(recipe: recipe)
        // seeds follow the recipe's meaning, not its spacing or comments
        let seed = SHA256Hasher.digest(Array(recipe.canonicalText.utf8))
        let sources = try TrackSources(
            recipe: recipe, timeline: timeline, assetsOverride: override, beds: beds,
            seed: Self.word(seed, 0), expected: expected)
        do {
            return try encode(recipe: recipe, timeline: timeline, sources: sources, output: output, seed: seed)
        } catch let error as AudioError {
            throw DiagnosticList([error.diagnostic])
        } catch let error as DiagnosticList {
            throw error
        } catch let error as Diagnostic {
            throw DiagnosticList([error])
        } catch {
            throw DiagnosticList([Diagnostic("\(error)", file: recipe.file, kind: .software)])
        }
    }

    /// Checks a loaded recipe without rendering: its timeline, and every asset it names
    /// (found inside the assets folder, and readable as sound by libsndfile).
    /// Returns the asset files it uses, resolved.
    @discardableResult
    public static func check(recipe: Recipe, assets override: String?) throws(DiagnosticList) -> [String] {
        var problems: [Diagnostic] = []
        do { _ = try Timeline(recipe: recipe) } catch { problems += error.diagnostics }
        var used: [String] = []
        var folder: AssetFolder?
        do { folder = try AssetFolder.locate(recipePath: recipe.file, override: override) } catch { problems.append(error) }
        for (key, path) in recipe.assetPaths {
            guard let folder else {
                problems.append(Diagnostic("\(key): no assets folder found above the recipe (use --assets DIR)",
                                           at: recipe.location(of: key), kind: .noInput))
                continue
            }
            do {
                let resolved = try folder.resolve(path, key: key, in: recipe)
                do {
                    let reader = try SoundFileReader(path: resolved)
                    try Self.checkHeader(of: reader, key: key, outputRate: recipe.output.sampleRate)
                    used.append(resolved)
                } catch {
                    problems.append(Diagnostic("\(key): \(path): \(error.operation) failed: \(error.reason)",
                                               at: recipe.location(of: key), kind: error.kind))
                }
            } catch {
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
        return used
    }

    /// What an asset's header already tells, so that `--check` finds it without decoding:
    /// a rate libsamplerate cannot convert to the output's, a cue file over its 60 s, a bed
    /// shorter than `PreparedBed.minimumSeconds`. The renderer checks the same while decoding.
    static func checkHeader(of reader: SoundFileReader, key: String, outputRate: Int) throws(AudioError) {
        try SampleRateConverter.checkRatio(inputRate: reader.sampleRate, outputRate: outputRate, name: reader.path)
        if key == "bed.file" {
            if let frames = reader.knownFrames { try PreparedBed.checkLength(frames: frames, rate: reader.sampleRate, path: reader.path) }
        } else {
            let limit = Int64(CueSounds.maximumFileSeconds) * Int64(outputRate)
            try AudioDecoder.checkClaimedLength(of: reader, sampleRate: outputRate, maximumFrames: limit)
        }
    }

    private func encode(recipe: Recipe, timeline: Timeline, sources: TrackSources, output: OutputPlan, seed: [UInt8]) throws -> RenderedTrack {
        let channels = recipe.output.channels
        let rate = recipe.output.sampleRate
        let analysis = AnalysisPass(
            sources: sources, sampleRate: rate, channels: channels, totalFrames: timeline.totalFrames, threads: threads)
        let measured = recipe.output.loudness == nil ? nil : try LoudnessPlan.measure(pass: analysis)
        let audioFile = (output.audioPath as NSString).lastPathComponent
        // what goes inside the file (chapters, markers) depends on frames only, not on the bytes
        let draft = CueSheetBuilder.build(
            recipe: recipe, timeline: timeline, sounds: sources.cueLengths, audioFile: audioFile, sha256: "",
            loudness: nil, truePeak: nil)
        let metadata = EmbeddedMetadata(
            tags: [
                // one plain line each: a NUL would cut a C-string tag, and Vorbis comments refuse it
                ("TITLE", PlainText.line(recipe.title)), ("ALBUM", PlainText.line(recipe.category ?? "Cadence")),
                ("COMMENT", PlainText.line("\(recipe.pattern.name), rendered by Cadence")),
            ],
            chapterComments: ChapterComments.comments(of: draft),
            markers: draft.markers.map { WAVMarkers.Point(frame: $0.frame, label: $0.label) })
        var ceiling = output.ceiling
        var targetOffset = 0.0
        for attempt in 1...Self.lossyAttempts {
            var plan: LoudnessPlan?
            if let target = recipe.output.loudness, let measured {
                let planned = try LoudnessPlan.plan(measured: measured, target: target + targetOffset, ceiling: ceiling, pass: analysis)
                // a target the limiter cannot reach is known before encoding
                if let why = LoudnessPlan.shortfall(
                    loudness: planned.loudness - targetOffset, truePeak: planned.truePeak, target: target,
                    ceiling: recipe.output.truePeak, limited: planned.limit, format: output.format,
                    loweredCeiling: ceiling < output.ceiling ? planned.limiterCeiling : nil)
                {
                    throw Diagnostic(why, at: recipe.location(of: "output.loudness"))
                }
                plan = planned
            }
            let file = try AtomicOutputFile(path: output.audioPath)
            var (loudness, peak, peaks) = try encodePass(
                recipe: recipe, timeline: timeline, sources: sources, output: output,
                plan: plan, seed: seed, file: file, metadata: metadata)
            if output.format.isLossy {
                (loudness, peak) = try Self.verifyLossy(
                    file: file, path: output.audioPath, frames: timeline.totalFrames,
                    rate: rate, channels: channels)
                // the codec's overshoot and loudness change are only known after encoding:
                // correct the ceiling and the target by them and encode again
                if let target = recipe.output.loudness, loudness.isFinite, attempt < Self.lossyAttempts {
                    let over = peak - (recipe.output.truePeak - LoudnessPlan.margin / 2)
                    let off = target - loudness
                    if over > 0 || abs(off) > 0.2 {
                        if over > 0 { ceiling -= over + 0.1 }
                        targetOffset += off
                        file.discard()
                        continue
                    }
                }
            }
            // recipe-v1 § Output: never a file whose loudness misses its target, with exit 0
            if let target = recipe.output.loudness,
                let why = LoudnessPlan.shortfall(
                    loudness: loudness, truePeak: peak, target: target, ceiling: recipe.output.truePeak,
                    limited: plan?.limit ?? false, format: output.format,
                    loweredCeiling: ceiling < output.ceiling ? plan?.limiterCeiling : nil)
            {
                file.discard()
                throw Diagnostic(why, at: recipe.location(of: "output.loudness"))
            }
            let sha = try file.sha256()
            let size = file.size()
            var sheet = draft
            sheet.audio.sha256 = sha
            sheet.audio.loudnessLUFS = loudness.isFinite ? CueSheetBuilder.round2(loudness) : nil
            sheet.audio.truePeakDBTP = peak.isFinite ? CueSheetBuilder.round2(peak) : nil
            let cues = try AtomicOutputFile(path: output.cueSheetPath)
            try cues.write(Array(sheet.jsonText().utf8))
            var sidecarFiles: [AtomicOutputFile] = []
            for (kind, path) in output.sidecars {
                let sidecar = try AtomicOutputFile(path: path)
                try sidecar.write(Array(Self.sidecarText(kind, sheet: sheet, peaks: peaks).utf8))
                sidecarFiles.append(sidecar)
            }
            // the audio first (a catalog trusts an old entry while its audio is the old one), and
            // all of them as one step, so two renders of the same outputs never mix their files
            try AtomicOutputFile.commitTogether([file, cues] + sidecarFiles)
            return RenderedTrack(
                recipe: recipe, audioPath: output.audioPath, cueSheetPath: output.cueSheetPath,
                sidecarPaths: output.sidecars.map(\.1), format: output.format,
                frames: timeline.totalFrames, sampleRate: rate, loudness: loudness.isFinite ? loudness : nil,
                truePeak: peak.isFinite ? peak : nil, sha256: sha, bytes: size, limited: plan?.limit ?? false,
                peaks: peaks, cueSheet: sheet)
        }
        throw AudioError(file: output.audioPath, operation: "render", reason: "no encoding attempt was kept", kind: .software)
    }

    /// Encodings tried for a lossy format before its true peak is accepted as measured.
    static let lossyAttempts = 4

    /// Columns of the waveform picture.
    public static let pictureColumns = 600

    /// A sidecar file's text.
    static func sidecarText(_ kind: SidecarKind, sheet: CueSheet, peaks: [Float]) -> String {
        switch kind {
        case .vtt: WebVTT.text(of: sheet)
        case .chapters: PodcastChapters.jsonText(of: sheet)
        case .waveform: WaveformPicture.svg(peaks: peaks, sheet: sheet)
        }
    }

    /// The final pass: mix → gain → limiter → encoder, into `file`. Returns the written
    /// audio's loudness and true peak, and its waveform columns.
    private func encodePass(
        recipe: Recipe, timeline: Timeline, sources: TrackSources, output: OutputPlan, plan: LoudnessPlan?,
        seed: [UInt8], file: AtomicOutputFile, metadata: EmbeddedMetadata
    ) throws -> (Double, Double, [Float]) {
        let channels = recipe.output.channels
        let rate = recipe.output.sampleRate
        let encoder = try TrackEncoder(
            format: output.format, bitDepth: output.bitDepth, fileDescriptor: file.fileDescriptor,
            path: output.audioPath, sampleRate: rate, channels: channels, totalFrames: timeline.totalFrames,
            seed: Self.word(seed, 1), serial: Int32(truncatingIfNeeded: Self.word(seed, 2)), metadata: metadata)
        let pipeline = EncoderPipeline(encoder: encoder, channels: channels, threaded: threads > 1)
        var columns = PeakColumns(count: Self.pictureColumns, totalFrames: timeline.totalFrames)
        // a plan knows its signal's loudness and peak: only `loudness: off` measures while encoding
        let meter = plan == nil ? try LoudnessMeasurement(channels: channels, sampleRate: rate) : nil
        var mix = try sources.makeMix()
        var block = [Float](repeating: 0, count: Block.frames * channels)
        var written: Int64 = 0
        var clip: Int64?
        let sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void = { (p, n) throws(AudioError) in
            if plan == nil, clip == nil, let i = (0..<(n * channels)).first(where: { abs(p[$0]) > 1 }) {
                clip = written + Int64(i / channels)
                return
            }
            try meter?.add(p, frames: n)
            columns.add(p, frames: n, channels: channels)
            try pipeline.write(p, frames: n)
            written += Int64(n)
        }
        if let plan, plan.limit {
            let stage = LimiterStage(channels: channels, sampleRate: rate, ceiling: plan.limiterCeiling)
            try stage.run(mix: &mix, gain: plan.gain, block: &block, sink: sink)
        } else {
            let gain = plan?.gain ?? 1
            while true {
                let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try mix.render(into: p) }
                if n == 0 { break }
                try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in
                    if gain != 1 { for i in 0..<(n * channels) { p[i] *= gain } }
                    try sink(UnsafeBufferPointer(p), n)
                }
                if clip != nil { break }
            }
        }
        if let clip {
            // the message names the mix's real peak, not the first sample over: the rest of
            // the mix is rendered (not encoded) to find it
            var peak: (peak: Float, frame: Int64) = (0, 0)
            var rest = try sources.makeMix()
            var position: Int64 = 0
            while true {
                let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try rest.render(into: p) }
                if n == 0 { break }
                block.withUnsafeBufferPointer { p in
                    guard let base = p.baseAddress, PeakScan.peak(base, count: n * channels) > peak.peak else { return }
                    for i in 0..<(n * channels) where abs(p[i]) > peak.peak { peak = (abs(p[i]), position + Int64(i / channels)) }
                }
                position += Int64(n)
            }
            throw Diagnostic(
                String(
                    format: "the mix clips from %.3f s (its peak is %+.2f dBFS at %.3f s) and loudness is off; lower the gains by %.1f dB or more, or set a loudness target",
                    Double(clip) / Double(rate), Gain.decibels(linear: Double(peak.peak)), Double(peak.frame) / Double(rate),
                    (Gain.decibels(linear: Double(peak.peak)) * 10).rounded(.up) / 10),
                at: recipe.location(of: "output.loudness"))
        }
        guard written == timeline.totalFrames else {
            throw AudioError(
                file: output.audioPath, operation: "render", reason: "wrote \(written) frames, expected \(timeline.totalFrames)", kind: .software)
        }
        try pipeline.drain()
        try encoder.finish()
        let (loudness, peak) = meter?.finish() ?? (plan!.loudness, plan!.truePeak)
        return (loudness, peak, columns.peaks)
    }

    /// Decodes a lossy file just written: its frame count must match the timeline; returns its loudness and true peak.
    private static func verifyLossy(file: AtomicOutputFile, path: String, frames: Int64, rate: Int, channels: Int) throws(AudioError) -> (
        Double, Double
    ) {
        let meter = try LoudnessMeasurement(channels: channels, sampleRate: rate)
        let decoded = try AudioDecoder.decode(
            path: "/proc/self/fd/\(file.fileDescriptor)", sampleRate: rate, channels: channels,
            maximumFrames: frames + Int64(rate)
        ) { (p, n) throws(AudioError) in
            try meter.add(p, frames: n)
        }
        guard decoded == frames else {
            throw AudioError(file: path, operation: "verify", reason: "the encoded file decodes to \(decoded) frames, not \(frames)", kind: .software)
        }
        return meter.finish()
    }

    /// 64 bits of a digest, for seeds.
    static func word(_ digest: [UInt8], _ index: Int) -> UInt64 {
        var w: UInt64 = 0
        for k in 0..<8 { w = w << 8 | UInt64(digest[(index * 8 + k) % digest.count]) }
        return w
    }
}
