import AudioCore
import AudioIO
import DSP
import Recipe
import Timeline

/// A track's voice prompts, ready to mix: their levelled clips, their events at the timeline's
/// frames, the duck curve of the bed under them, and what the cue sheet says of each.
///
/// Checked here, where the clips' lengths are known: a prompt that runs past the file's end
/// (by how much), and two prompts that sound at the same time (both named, with their times).
/// `render --check` runs the same check on the lengths the clips' headers give.
struct VoicePrompts {
    /// One placed prompt as the cue sheet describes it.
    struct Placed: Equatable {
        let prompt: Int
        let phase: Int?
        let frame: Int64
        let lengthFrames: Int64
        /// How far the bed is lowered under it (the depth of its merged span), in dB.
        let duckDB: Double
    }

    let sounds: [[Float]]
    let events: [CueTrack.Event]
    let placed: [Placed]
    let duck: DuckCurve

    /// No voice: nothing to mix, nothing ducked.
    static let none = VoicePrompts(sounds: [], events: [], placed: [], duck: DuckCurve(prompts: [], attack: 0, release: 0))

    private init(sounds: [[Float]], events: [CueTrack.Event], placed: [Placed], duck: DuckCurve) {
        self.sounds = sounds
        self.events = events
        self.placed = placed
        self.duck = duck
    }

    /// Prepares the prompts of `timeline`; their sounds are numbered from `firstSound` in the
    /// track's list of sounds. `bed` makes the bed alone, unducked, from frame 0 (for `duck: wcag`).
    init(
        recipe: Recipe, timeline: Timeline, assets: AssetFolder?, expected: [String: FileIdentity], clips cache: ClipCache,
        firstSound: Int, bed: () -> BedSource
    ) throws(DiagnosticList) {
        guard let voice = recipe.voice, !timeline.prompts.isEmpty else {
            self = .none
            return
        }
        let rate = timeline.sampleRate
        let channels = recipe.output.channels
        if voice.prompts.contains(where: \.isDraft), let problem = Self.unknownDraftVoice(voice, recipe: recipe) {
            throw DiagnosticList([problem])
        }
        var clips = PromptClips()
        var clipOf: [Int: Int] = [:]
        var problems: [Diagnostic] = []
        var failed: Set<Int> = []
        for event in timeline.prompts where clipOf[event.prompt] == nil && !failed.contains(event.prompt) {
            do throws(Diagnostic) {
                clipOf[event.prompt] = try clips.prepare(
                    prompt: event.prompt, voice: voice, recipe: recipe, assets: assets, expected: expected, cache: cache)
            } catch {
                failed.insert(event.prompt)
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw DiagnosticList(Self.inRecipeOrder(problems)) }

        var lengths: [Int: Int64] = [:]
        for (prompt, clip) in clipOf { lengths[prompt] = Int64(clips.clips[clip].samples.count / channels) }
        let spans = timeline.prompts.map { (start: $0.frame, end: $0.frame + (lengths[$0.prompt] ?? 0)) }
        problems = Self.overlapsAndOverruns(timeline: timeline, lengths: lengths, recipe: recipe)
        if !problems.isEmpty { throw DiagnosticList(problems) }

        var depths: [Double]
        switch voice.duck {
        case .depth(let depth):
            depths = Array(repeating: depth, count: spans.count)
        case .wcag:
            do {
                depths = try Self.wcagDepths(
                    spans: spans, clips: timeline.prompts.map { clips.clips[clipOf[$0.prompt] ?? 0].samples }, channels: channels,
                    sampleRate: rate, bed: bed())
            } catch {
                throw DiagnosticList([
                    Diagnostic("voice.duck: measuring the bed under the prompts failed: \(error.reason)", at: recipe.location(of: "voice.duck"))
                ])
            }
        }
        let duck = DuckCurve(
            prompts: zip(spans, depths).map { ($0.start, $0.end, $1) }, attack: voice.attack.frame(at: rate),
            release: voice.release.frame(at: rate))
        self.sounds = clips.clips.map(\.samples)
        self.events = timeline.prompts.map { CueTrack.Event(frame: $0.frame, sound: firstSound + (clipOf[$0.prompt] ?? 0)) }
        self.placed = zip(timeline.prompts, zip(spans, depths)).map { event, span in
            // the depth the bed is at under it: its merged span's, when prompts close together share one
            let applied = duck.spans.first { $0.holdStart <= span.0.start && span.0.end <= $0.holdEnd }?.depthDB ?? span.1
            return Placed(
                prompt: event.prompt, phase: event.phase, frame: event.frame, lengthFrames: span.0.end - span.0.start, duckDB: applied)
        }
        self.duck = duck
    }

    /// Prompts that run past the file's end (by how much) and prompts that start while the one
    /// before still sounds (both named, with their times), from each prompt's length in frames at
    /// the output rate. A prompt missing from `lengths` is not known yet (a draft, or a header that
    /// does not say) and is left for the render. `margins` are how much shorter a length may turn
    /// out once decoded (a resampled clip's length from its header); a problem is reported only
    /// when it holds at the shortest. An `on:` prompt is named once, not once per cycle.
    static func overlapsAndOverruns(
        timeline: Timeline, lengths: [Int: Int64], margins: [Int: Int64] = [:], recipe: Recipe
    ) -> [Diagnostic] {
        let rate = timeline.sampleRate
        func seconds(_ frames: Int64) -> String { DiagnosticText.number((Double(frames) / Double(rate) * 1000).rounded() / 1000) + "s" }
        var problems: [Diagnostic] = []
        var reported: Set<[Int]> = []
        for event in timeline.prompts {
            guard let length = lengths[event.prompt] else { continue }
            let end = event.frame + length
            if end - (margins[event.prompt] ?? 0) > timeline.totalFrames, reported.insert([event.prompt]).inserted {
                problems.append(
                    Diagnostic(
                        "voice.prompts.\(event.prompt): the prompt starts at \(seconds(event.frame)) and lasts \(seconds(length)): "
                            + "it runs \(seconds(end - timeline.totalFrames)) past the file's end (\(seconds(timeline.totalFrames))); "
                            + "expected it to end by then (start it earlier, or lengthen the outro)",
                        at: recipe.location(of: "voice.prompts.\(event.prompt)"), kind: .data))
            }
        }
        for (first, second) in zip(timeline.prompts, timeline.prompts.dropFirst()) {
            guard let length = lengths[first.prompt], lengths[second.prompt] != nil else { continue }
            let end = first.frame + length
            guard second.frame < end - (margins[first.prompt] ?? 0), reported.insert([first.prompt, second.prompt]).inserted else { continue }
            // the other prompt's line too: the author may have to move either
            let otherLine = " at line \(recipe.location(of: "voice.prompts.\(first.prompt)").line)"
            problems.append(
                Diagnostic(
                    "voice.prompts.\(second.prompt): the prompt at \(seconds(second.frame)) starts while voice.prompts.\(first.prompt)"
                        + "\(otherLine) (\(seconds(first.frame)) to \(seconds(end))) still sounds; expected prompts that do not overlap "
                        + "(move one by at least \(seconds(end - second.frame)))",
                    at: recipe.location(of: "voice.prompts.\(second.prompt)"), kind: .data))
        }
        return inRecipeOrder(problems)
    }

    /// Problems ordered as the recipe reads, by line then column (stable, so one prompt's problems keep their order).
    static func inRecipeOrder(_ problems: [Diagnostic]) -> [Diagnostic] {
        problems.enumerated().sorted { a, b in
            let x = a.element.location, y = b.element.location
            let p = (x?.line ?? .max, x?.column ?? .max, a.offset), q = (y?.line ?? .max, y?.column ?? .max, b.offset)
            return p < q
        }.map(\.element)
    }

    /// An error at `voice.draft_voice` when espeak-ng has no voice of that language (or cannot start).
    static func unknownDraftVoice(_ voice: Voice, recipe: Recipe) -> Diagnostic? {
        let location = recipe.location(of: "voice.draft_voice")
        do {
            if try DraftVoice.languages(timeLimitSeconds: RecipeLimits.draftSpeechSeconds).contains(voice.draftVoice.lowercased()) { return nil }
        } catch {
            return Diagnostic("voice.draft_voice: the draft voice cannot start: \(error.reason)", at: location, kind: .software)
        }
        return Diagnostic(
            "voice.draft_voice: espeak-ng has no voice for \(DiagnosticText.quoted(voice.draftVoice)) (known: "
                + DraftVoice.someLanguages(timeLimitSeconds: RecipeLimits.draftSpeechSeconds).joined(separator: ", ") + ", …)",
            at: location, kind: .data)
    }

    /// `duck: wcag`: per prompt, max(12 dB, 20 dB + L_bed − L_prompt), with L_bed the K-weighted mean
    /// square of the bed alone over the prompt's frames and L_prompt that of the levelled clip.
    /// The bed is rendered once from frame 0 to the last prompt's end (a synth bed would seek from frame 0 for each prompt).
    static func wcagDepths(
        spans: [(start: Int64, end: Int64)], clips: [[Float]], channels: Int, sampleRate: Int, bed: BedSource
    ) throws(AudioError) -> [Double] {
        var bed = bed
        var block = [Float](repeating: 0, count: Block.frames * channels)
        var position: Int64 = 0
        var depths: [Double] = []
        for (span, clip) in zip(spans, clips) {
            var under = [Float]()
            under.reserveCapacity(Int(span.end - span.start) * channels)
            while position < span.end {
                let count = Int(min(Int64(Block.frames), span.end - position))
                try block.withUnsafeMutableBufferPointer { (out) throws(AudioError) in
                    try bed.render(into: out, from: position, count: count)
                }
                let from = max(position, span.start)
                if from < position + Int64(count) {
                    under.append(contentsOf: block[(Int(from - position) * channels)..<(count * channels)])
                }
                position += Int64(count)
            }
            let frames = Int(span.end - span.start)
            let bedLevel = try under.withUnsafeBufferPointer { (p) throws(AudioError) in
                try LoudnessMeter.meanSquareLoudness(of: p, frames: frames, channels: channels, sampleRate: sampleRate)
            }
            let promptLevel = try clip.withUnsafeBufferPointer { (p) throws(AudioError) in
                try LoudnessMeter.meanSquareLoudness(of: p, frames: clip.count / channels, channels: channels, sampleRate: sampleRate)
            }
            let needed = bedLevel.isFinite && promptLevel.isFinite ? 20 + bedLevel - promptLevel : 0
            depths.append((max(12, needed) * 100).rounded() / 100)
        }
        return depths
    }
}
