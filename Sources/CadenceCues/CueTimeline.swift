/// A validated cue sheet, ready to answer "where are we?" for a playback time, in O(log n).
///
/// Build one when the sheet is loaded, then ask it on every display frame with the audio's
/// own clock (`AVAudioPlayer.currentTime`, `AVPlayer.currentTime().seconds`):
///
/// ```swift
/// let timeline = try CueTimeline(CueSheet.decode(from: data))
/// let now = timeline.position(atTime: player.currentTime)
/// now.phase?.label        // "Breathe In"
/// now.phaseProgress       // 0.25
/// ```
///
/// Lookups are a binary search over the phases' start frames (at most three sections are
/// checked directly), so an 8-hour sheet of thousands of phases costs a dozen comparisons.
/// Positions are frames (`Int64`) throughout; only the query's time and the answers' seconds
/// are `Double`.
public struct CueTimeline: Sendable {
    /// The sheet, as validated.
    public let sheet: CueSheet
    /// Each phase's start frame, for the binary search.
    private let phaseStarts: [Int64]
    /// The breath envelope (cues-v1.2 `guide`), nil for a sheet without one.
    public let envelope: BreathEnvelope?

    /// Validates `sheet` (see `CueSheet.validate()`) and prepares the lookup, in O(n) of its phases.
    ///
    /// - Throws: the first problem `validate()` finds, as a `CueSheetError`.
    public init(_ sheet: CueSheet) throws(CueSheetError) {
        try sheet.validate()
        self.sheet = sheet
        self.phaseStarts = sheet.phases.map(\.startFrame)
        self.envelope = sheet.guide.map { guide in
            BreathEnvelope(
                phases: sheet.phases.map {
                    BreathEnvelope.PhaseGuide(startFrame: $0.startFrame, endFrame: $0.endFrame, guide: $0.guide ?? .defaultGuide(for: $0.kind))
                },
                outroStart: sheet.sections.first { $0.kind == "outro" }?.startFrame, totalFrames: sheet.audio.frames,
                sampleRate: sheet.audio.sampleRate, shape: guide.shape)
        }
    }

    /// Whether the sheet has breath guidance (a top-level `guide`): `guide(atFrame:)` then moves.
    public var hasGuide: Bool { envelope != nil }

    /// E, how full the breath is at `frame` (0…1), by recipe-v1.2's formula from the phases'
    /// guides, the intro (0) and the outro's fall: a breathing ring's scale, in O(log n).
    /// 0 for a sheet without `guide`, and outside the file.
    ///
    /// ```swift
    /// ring.scale = 0.6 + 0.4 * timeline.guide(atFrame: timeline.frame(atTime: player.currentTime))
    /// ```
    public func guide(atFrame frame: Int64) -> Double {
        guard let envelope, frame >= 0, frame < frames else { return 0 }
        return envelope.value(atFrame: frame)
    }

    /// `guide(atFrame:)` at a playback time in seconds (the frame by `frame(atTime:)`).
    public func guide(atTime seconds: Double) -> Double { guide(atFrame: frame(atTime: seconds)) }

    /// Frames per second.
    public var sampleRate: Int { sheet.audio.sampleRate }
    /// The length of the file in frames.
    public var frames: Int64 { sheet.audio.frames }
    /// The length of the file in seconds, `frames / sample_rate`.
    public var duration: Double { FrameTime.time(atFrame: frames, sampleRate: sampleRate) }

    /// The frame of a time in seconds, by the rule of cues-v1: `floor(t × rate + 1/2)`, so each time
    /// written in the sheet gives back its exact frame.
    ///
    /// Clamped into `0...frames`: times before 0 (and NaN) are frame 0, times at or after the end are
    /// `frames`, the end of the file.
    public func frame(atTime seconds: Double) -> Int64 {
        guard let frame = FrameTime.frame(atTime: seconds, sampleRate: sampleRate) else {
            return seconds > 0 ? frames : 0
        }
        return min(max(frame, 0), frames)
    }

    /// `frame / sample_rate`, in seconds (not clamped: any frame gives its time).
    public func time(atFrame frame: Int64) -> Double {
        FrameTime.time(atFrame: frame, sampleRate: sampleRate)
    }

    /// The index of the phase holding `frame` (the phase that starts at a boundary frame), or nil
    /// outside the practice section. Binary search: O(log n).
    public func phaseIndex(atFrame frame: Int64) -> Int? {
        // The last phase starting at or before `frame`.
        var low = 0
        var high = phaseStarts.count
        while low < high {
            let mid = low + (high - low) / 2
            if phaseStarts[mid] <= frame { low = mid + 1 } else { high = mid }
        }
        let candidate = low - 1
        guard candidate >= 0, frame < sheet.phases[candidate].endFrame else { return nil }
        return candidate
    }

    /// The voice prompt sounding at `frame` (cues-v1.1): the one with `frame ≤ f < frame + length_frames`,
    /// or nil between prompts and in a sheet without voice. Binary search over the prompts, which
    /// are in frame order and never overlap: O(log n). For on-screen captions.
    public func prompt(atFrame frame: Int64) -> CueSheet.VoicePrompt? {
        guard let voice = sheet.voice else { return nil }
        var low = 0
        var high = voice.count
        while low < high {
            let mid = low + (high - low) / 2
            if voice[mid].frame <= frame { low = mid + 1 } else { high = mid }
        }
        guard low > 0, frame < voice[low - 1].endFrame else { return nil }
        return voice[low - 1]
    }

    /// The voice prompt sounding at a playback time: `prompt(atFrame: frame(atTime: seconds))`.
    public func prompt(atTime seconds: Double) -> CueSheet.VoicePrompt? { prompt(atFrame: frame(atTime: seconds)) }

    /// The practice sections, one per program segment (cues-v1.1), in order: one for a sheet without a program.
    ///
    /// Computed on each call, O(n) in the sections (at most a few dozen).
    public var segments: [CueSheet.Section] { sheet.sections.filter { $0.kind == CueSheet.SectionKind.practice.rawValue } }

    /// The practice section of the segment playing at `seconds`, or nil outside the practice.
    ///
    /// `seconds` becomes a frame by `frame(atTime:)` (clamped); the segment is `section.segment`
    /// (nil in a v1 sheet, whose one practice section is segment 0). O(n) in the sections.
    public func segment(atTime seconds: Double) -> CueSheet.Section? {
        let frame = frame(atTime: seconds)
        return segments.first { $0.startFrame <= frame && frame < $0.endFrame }
    }

    /// Where a playback time falls: `position(atFrame: frame(atTime: seconds))`.
    public func position(atTime seconds: Double) -> CuePosition {
        position(atFrame: frame(atTime: seconds))
    }

    /// Where a frame falls, clamped into `0...frames` (before 0 reads as frame 0; at or after the
    /// end reads as `frames`, where there is no section or phase, progress is 1 and `isAtEnd` holds).
    public func position(atFrame requested: Int64) -> CuePosition {
        let frame = min(max(requested, 0), frames)
        let phases = sheet.phases
        let index = phaseIndex(atFrame: frame)
        let phase = index.map { phases[$0] }
        let section = sheet.sections.first { $0.startFrame <= frame && frame < $0.endFrame }

        let boundary: Int64?
        var nextPhase: CueSheet.Phase?
        if let index, let phase {
            boundary = phase.endFrame
            nextPhase = index + 1 < phases.count ? phases[index + 1] : nil
        } else {
            boundary =
                section?.endFrame
                ?? sheet.sections.first { $0.startFrame > frame && $0.endFrame > $0.startFrame }?.startFrame
                ?? (frame < frames ? frames : nil)
            if let first = phases.first, first.startFrame == boundary { nextPhase = first }
        }

        return CuePosition(
            frame: frame,
            time: time(atFrame: frame),
            section: section,
            sectionKind: section.flatMap { CueSheet.SectionKind(rawValue: $0.kind) },
            phase: phase,
            previousPhase: index.flatMap { $0 > 0 ? phases[$0 - 1] : nil },
            phaseProgress: phase.map { Self.progress(frame, $0.startFrame, $0.endFrame) } ?? 0,
            sectionProgress: section.map { Self.progress(frame, $0.startFrame, $0.endFrame) } ?? 0,
            progress: frames > 0 ? Self.progress(frame, 0, frames) : 1,
            nextBoundaryFrame: boundary,
            framesToNextBoundary: boundary.map { $0 - frame },
            secondsToNextBoundary: boundary.map { time(atFrame: $0 - frame) },
            nextPhase: nextPhase,
            nextSection: boundary.flatMap { b in sheet.sections.first { $0.startFrame == b && $0.endFrame > b } })
    }

    /// `(frame - start) / (end - start)`, exact in `Double` for any frame count below 2⁵³.
    private static func progress(_ frame: Int64, _ start: Int64, _ end: Int64) -> Double {
        Double(frame - start) / Double(end - start)
    }
}
