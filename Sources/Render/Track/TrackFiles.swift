import AudioCore
import AudioIO
import CadenceCues
import Foundation
import Recipe
import Sidecars
import Timeline

/// What a track puts in and beside its audio: the tags and chapters inside the file,
/// the cue sheet, the sidecars; and the step that puts them all in place together.
struct TrackFiles {
    let recipe: Recipe
    let output: OutputPlan
    /// The cue sheet before the audio exists: everything but the file's hash and measured loudness.
    let draft: CueSheet
    /// What reading and laying out the recipe noticed and let pass (`TrackRenderer.warnings(of:)`).
    let warnings: [Diagnostic]
    /// The haptic steps, when a haptics sidecar is asked for (by `haptics: on`, `output.sidecars` or `--sidecars`).
    let haptics: HapticSteps?

    /// Throws when the track's haptics would hold more than `RecipeLimits.maxHapticEventsPerTrack`
    /// events: an error at `haptics`, before any audio is written (`TrackRenderer.hapticSteps`).
    init(recipe: Recipe, timeline: Timeline, sources: TrackSources, output: OutputPlan) throws(DiagnosticList) {
        self.recipe = recipe
        self.output = output
        warnings = TrackRenderer.warnings(of: recipe, timeline: timeline)
        // recipe-v1.2 § Breath guidance: `guide:`, `swell:`, `haptics: on`, or a haptics sidecar asked for turn the envelope on
        let kinds = output.sidecars.map(\.0)
        let guide = recipe.breathEnvelopeOn || kinds.contains(where: \.isHaptic) ? recipe.breathGuide : nil
        haptics = try TrackRenderer.hapticSteps(recipe: recipe, timeline: timeline, sidecars: kinds)
        draft = CueSheetBuilder.build(
            recipe: recipe, timeline: timeline, sounds: sources.cueLengths, prompts: sources.prompts, audioFile: PathName.name(of: output.audioPath),
            sha256: "", loudness: nil, truePeak: nil, guide: guide)
    }

    /// Tags, chapter comments and markers: they depend on frames only, not on the audio's bytes.
    var metadata: EmbeddedMetadata {
        EmbeddedMetadata(
            tags: [
                // one plain line each: a NUL would cut a C-string tag, and Vorbis comments refuse it
                ("TITLE", PlainText.line(recipe.title)), ("ALBUM", PlainText.line(recipe.category ?? "Cadence")),
                ("COMMENT", PlainText.line("\(recipe.pattern.name), rendered by Cadence")),
            ],
            chapterComments: ChapterComments.comments(of: draft),
            chapterPoints: ChapterComments.points(of: draft).map { M4AWriter.Chapter(title: PlainText.line($0.title), start: $0.frame) },
            chapters: draft.chapters.map { M4AWriter.Chapter(title: PlainText.line($0.title), start: $0.startFrame) },
            markers: draft.markers.map { WAVMarkers.Point(frame: $0.frame, label: $0.label) })
    }

    /// Writes the cue sheet and sidecars for the audio in `file`, and puts them all in place
    /// as one step: the audio first (a catalog trusts an old entry while its audio is the
    /// old one), so two renders of the same outputs never mix their files.
    func commit(_ file: AtomicOutputFile, delivered: Delivered, limited: Bool) throws -> RenderedTrack {
        let (loudness, peak) = (delivered.loudness, delivered.truePeak)
        var sheet = draft
        // the disk takes the file's tail while it is hashed
        AtomicOutputFile.startWriteback(fileDescriptor: file.fileDescriptor)
        sheet.audio.sha256 = try file.sha256()
        let bytes = file.size()
        sheet.audio.loudnessLUFS = loudness.isFinite ? CueSheetBuilder.round2(loudness) : nil
        sheet.audio.truePeakDBTP = peak.isFinite ? CueSheetBuilder.round2(peak) : nil
        let cues = try AtomicOutputFile(path: output.cueSheetPath)
        try cues.write(Array(sheet.jsonText().utf8))
        var sidecars: [AtomicOutputFile] = []
        for (kind, path) in output.sidecars {
            let sidecar = try AtomicOutputFile(path: path)
            sidecars.append(sidecar)
            if kind == .ahap, let haptics {
                // the longest sidecar by far (76 MB for 8 hours of 1-second phases): written as it is made
                try AHAP.write(haptics, id: sheet.id) { (piece) throws(AudioError) in try sidecar.write(Array(piece.utf8)) }
                continue
            }
            try sidecar.write(Array(Self.sidecarText(kind, sheet: sheet, peaks: delivered.peaks, haptics: haptics).utf8))
        }
        try AtomicOutputFile.commitTogether([file, cues] + sidecars)
        return RenderedTrack(
            recipe: recipe, audioPath: output.audioPath, cueSheetPath: output.cueSheetPath,
            sidecarPaths: output.sidecars.map(\.1), format: output.format, frames: sheet.audio.frames,
            sampleRate: sheet.audio.sampleRate, loudness: loudness.isFinite ? loudness : nil,
            truePeak: peak.isFinite ? peak : nil, sha256: sheet.audio.sha256, bytes: bytes, limited: limited,
            peaks: delivered.peaks, cueSheet: sheet, warnings: warnings)
    }

    /// A sidecar file's text.
    static func sidecarText(_ kind: SidecarKind, sheet: CueSheet, peaks: [Float], haptics: HapticSteps?) -> String {
        switch kind {
        case .vtt: WebVTT.text(of: sheet)
        case .chapters: PodcastChapters.jsonText(of: sheet)
        case .waveform: WaveformPicture.svg(peaks: peaks, sheet: sheet)
        case .captions: WebVTT.captions(of: sheet)
        case .ahap: haptics.map { AHAP.text(of: $0, id: sheet.id) } ?? ""
        case .haptics: haptics.map { AndroidHaptics.jsonText(of: $0, id: sheet.id) } ?? ""
        }
    }
}
