import AudioCore
import AudioIO
import CadenceCues
import Foundation
import Recipe
import Sidecars
import Timeline

/// `render --check`: a recipe's timeline and assets, without rendering.
extension TrackRenderer {
    /// Checks a loaded recipe without rendering: its timeline, the haptics limit when the track
    /// writes haptics (by `haptics: on`, `output.sidecars`, or `sidecars`: the command line's), and
    /// every asset it names (found inside the assets folder, and readable as sound by libsndfile).
    /// Returns the asset files it uses, resolved, and the timeline it laid out (a job checks every
    /// rendition before the first renders, and renders each with the timeline its check laid out).
    /// `headers` keeps what opening each file told, for the next recipe that names the same version of it.
    /// With `drafts`, every draft prompt's text is spoken too (once per voice and text in `drafts`),
    /// so that a text espeak-ng cannot speak is found before the render.
    @discardableResult
    public static func checked(
        recipe: Recipe, assets override: String?, headers: AssetHeaders = AssetHeaders(), drafts: DraftChecks? = nil,
        sidecars: Set<SidecarKind> = []
    ) throws(DiagnosticList) -> (assets: [String], timeline: Timeline) {
        var problems: [Diagnostic] = []
        var timeline: Timeline?
        do { timeline = try Timeline(recipe: recipe) } catch { problems += error.diagnostics }
        // the haptics the track writes (`haptics: on`, `output.sidecars`, `sidecars`): the render's own limit
        if let timeline {
            do { _ = try hapticSteps(recipe: recipe, timeline: timeline, sidecars: recipe.sidecarKinds(adding: sidecars)) } catch {
                problems += error.diagnostics
            }
        }
        // what the output's format decides (a bit rate libvorbis has no mode for, CAF's defect);
        // a format that comes from `-o` is planned when the track renders
        if recipe.output.format != nil {
            do { _ = try OutputPlan(recipe: recipe, outputPath: nil) } catch { problems += error.diagnostics }
        }
        if let voice = recipe.voice, voice.prompts.contains(where: \.isDraft) {
            if let problem = VoicePrompts.unknownDraftVoice(voice, recipe: recipe) {
                problems.append(problem)
            } else if let drafts {
                for (number, prompt) in voice.prompts.enumerated() where prompt.isDraft {
                    guard let failure = drafts.failure(text: prompt.text ?? "", language: voice.draftVoice) else { continue }
                    problems.append(
                        PromptClips.draftDiagnostic(failure, key: "voice.prompts.\(number).text", language: voice.draftVoice, recipe: recipe))
                }
            }
        }
        var used: [String] = []
        var clipHeaders: [String: AssetHeaders.Header] = [:]
        var headersByPath: [String: AssetHeaders.Header] = [:]
        var folder: AssetFolder?
        do { folder = try AssetFolder.locate(recipePath: recipe.file, override: override) } catch { problems.append(error) }
        for (key, path) in recipe.assetPaths {
            guard let folder else {
                problems.append(AssetFolder.notFound(key: key, in: recipe))
                continue
            }
            do {
                let resolved = try folder.resolve(path, key: key, in: recipe)
                do {
                    let header = try headers.header(of: resolved)
                    try Self.checkHeader(of: header, path: resolved, key: key, outputRate: recipe.output.sampleRate)
                    used.append(resolved)
                    clipHeaders[key] = header
                    headersByPath[path] = header
                } catch {
                    problems.append(
                        Diagnostic(
                            "\(key): \(path): \(error.operation) failed: \(error.reason)",
                            at: recipe.location(of: key), kind: error.kind))
                }
            } catch {
                problems.append(error)
            }
        }
        if problems.isEmpty, let timeline {
            problems += promptProblems(timeline: timeline, clipHeaders: clipHeaders, recipe: recipe)
            if let problem = cueSoundProblem(timeline: timeline, headers: headersByPath, recipe: recipe) { problems.append(problem) }
        }
        guard problems.isEmpty, let timeline else { throw DiagnosticList(problems) }
        return (used, timeline)
    }

    /// What reading and laying out the recipe noticed and let pass (`Recipe.warnings`,
    /// `Timeline.warnings`) and its draft prompts (`draftWarnings`), in line order; printed by
    /// `render` and `render --check`.
    public static func warnings(of recipe: Recipe) -> [Diagnostic] {
        warnings(of: recipe, timeline: try? Timeline(recipe: recipe))
    }

    /// `warnings(of:)` with the recipe's timeline, when it is laid out already.
    static func warnings(of recipe: Recipe, timeline: Timeline?) -> [Diagnostic] {
        inLineOrder(recipe.warnings + (timeline?.warnings ?? []) + draftWarnings(of: recipe))
    }

    /// `diagnostics` sorted by line and column (stable: those at one place keep their order).
    public static func inLineOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            (a.element.location?.line ?? 0, a.element.location?.column ?? 0, a.offset)
                < (b.element.location?.line ?? 0, b.element.location?.column ?? 0, b.offset)
        }.map(\.element)
    }

    /// A warning per draft prompt, at the prompt: it is spoken by espeak-ng, not by a person, until
    /// it is recorded. The render goes on (a draft is how a recipe is written); a job refusing drafts makes
    /// each one an error (`Recipe.draftPrompts`).
    public static func draftWarnings(of recipe: Recipe) -> [Diagnostic] {
        guard let voice = recipe.voice else { return [] }
        return voice.prompts.enumerated().filter { $0.element.isDraft }.map { number, prompt in
            Diagnostic(
                "voice.prompts.\(number): a draft: espeak-ng (\(DiagnosticText.quoted(voice.draftVoice))) speaks "
                    + "\(DiagnosticText.quoted(prompt.text ?? "")) in place of a recording; record it and give the prompt its 'file:' (",
                .draftsCanBeRefused, ")",
                at: recipe.location(of: "voice.prompts.\(number)"), kind: .data
            ).asWarning()
        }
    }

    /// Prompts that overlap or run past the end, from the lengths their clips' headers give
    /// (a draft's is known only once it is spoken, so the render finds those). A clip at the
    /// output's rate has its exact length; a resampled one is counted up to 10 ms short, so that
    /// only what the render will also refuse is reported here.
    private static func promptProblems(timeline: Timeline, clipHeaders: [String: AssetHeaders.Header], recipe: Recipe) -> [Diagnostic] {
        guard let voice = recipe.voice else { return [] }
        let rate = Int64(timeline.sampleRate)
        var lengths: [Int: Int64] = [:]
        var margins: [Int: Int64] = [:]
        for (number, prompt) in voice.prompts.enumerated() {
            guard prompt.file != nil, let header = clipHeaders["voice.prompts.\(number).file"], let frames = header.knownFrames else { continue }
            let input = Int64(header.sampleRate)
            lengths[number] = input == rate ? frames : frames * rate / input
            if input != rate { margins[number] = rate / 100 }
        }
        return VoicePrompts.overlapsAndOverruns(timeline: timeline, lengths: lengths, margins: margins, recipe: recipe)
    }

    /// All the cue sound of the track over `RecipeLimits.maxCueSoundPerTrack` times its length, the
    /// render's own check (`TrackSources.tooMuchCueSound`) on lengths known without decoding: a tone's
    /// from the recipe (exact), a file's from its header. A file at the output's rate counts its exact
    /// length; a resampled one a frame short of its converted length (libsamplerate's count may be a
    /// frame less), and one whose header does not tell counts nothing, so that only what the render
    /// also refuses is reported here.
    private static func cueSoundProblem(timeline: Timeline, headers: [String: AssetHeaders.Header], recipe: Recipe) -> Diagnostic? {
        let rate = Int64(timeline.sampleRate)
        let lengths = timeline.cues.map { cue -> Int64 in
            let length: Int64
            switch cue.sound {
            case .tone(let tone): length = tone.length.frame(at: Int(rate))
            case .file(let path, _):
                guard let header = headers[path], let frames = header.knownFrames else { return 0 }
                let input = Int64(header.sampleRate)
                length = input == rate ? frames : max(0, frames * rate / input - 1)
            }
            return min(length, timeline.totalFrames - cue.frame)
        }
        return TrackSources.tooMuchCueSound(timeline: timeline, lengths: lengths, recipe: recipe)
    }

    /// The haptic steps of a track that writes `sidecars`: nil when none of them is a haptics file.
    /// Throws when they would hold more than `RecipeLimits.maxHapticEventsPerTrack` events, an error
    /// at `haptics`. The one check of the limit: the render calls it before any audio is written
    /// (`TrackFiles`), `render --check` and `--plan` with the sidecars the render would write (`checked`).
    static func hapticSteps(recipe: Recipe, timeline: Timeline, sidecars: [SidecarKind]) throws(DiagnosticList) -> HapticSteps? {
        guard sidecars.contains(where: \.isHaptic) else { return nil }
        let steps = HapticSteps(timeline: timeline, envelope: BreathEnvelope(timeline: timeline, guide: recipe.breathGuide))
        guard steps.eventCount <= RecipeLimits.maxHapticEventsPerTrack else {
            throw DiagnosticList([
                Diagnostic(
                    "haptics: expected a track whose haptics hold at most \(RecipeKeys.grouped(RecipeLimits.maxHapticEventsPerTrack)) events, "
                        + "found \(RecipeKeys.grouped(steps.eventCount)) (\(RecipeKeys.grouped(steps.steps.count)) steps while the breath moves, "
                        + "\(RecipeKeys.grouped(steps.transients.count)) taps at cues); shorten the track or lengthen its phases",
                    at: recipe.location(of: "haptics"))
            ])
        }
        return steps
    }

    /// What an asset's header already tells, so that `--check` finds it without decoding:
    /// a rate libsamplerate cannot convert to the output's, a cue file over its 60 s, a bed
    /// shorter than `PreparedBed.minimumSeconds`. The renderer checks the same while decoding.
    static func checkHeader(of header: AssetHeaders.Header, path: String, key: String, outputRate: Int) throws(AudioError) {
        try SampleRateConverter.checkRatio(inputRate: header.sampleRate, outputRate: outputRate, name: path)
        if key.hasPrefix("bed.") {
            if let frames = header.knownFrames { try PreparedBed.checkLength(frames: frames, rate: header.sampleRate, path: path) }
        } else {
            // a cue file or a prompt clip: both at most 60 s
            let limit = Int64(RecipeLimits.maxClipSeconds) * Int64(outputRate)
            try AudioDecoder.checkClaimedLength(
                header.knownFrames, inputRate: header.sampleRate, path: path, sampleRate: outputRate, maximumFrames: limit)
        }
    }
}

/// What the draft voice made of each distinct voice and text that `render --check` spoke: nothing
/// (it speaks it) or why not. One instance serves a whole check, so a text that ten recipes (or a
/// recipe's variants) share is spoken once.
public final class DraftChecks: @unchecked Sendable {
    private struct Key: Hashable {
        let language: String
        let text: String
    }
    private var outcomes: [Key: DraftVoice.Failure?] = [:]
    private var spokenCount = 0
    private let lock = NSLock()

    public init() {}

    /// How many texts were spoken (the rest came from the cache).
    public var spoken: Int {
        lock.lock()
        defer { lock.unlock() }
        return spokenCount
    }

    /// Why the draft voice cannot speak `text` in `language` (too long, a crash, no answer in
    /// time, garbage), nil when it can; spoken in its worker the first time only.
    func failure(text: String, language: String) -> DraftVoice.Failure? {
        let key = Key(language: language, text: text)
        lock.lock()
        if let known = outcomes[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        var failure: DraftVoice.Failure?
        do {
            _ = try DraftVoice.speak(
                text, language: language, maximumSeconds: RecipeLimits.maxClipSeconds, timeLimitSeconds: RecipeLimits.draftSpeechSeconds)
        } catch {
            failure = error
        }
        lock.lock()
        defer { lock.unlock() }
        outcomes[key] = failure
        spokenCount += 1
        return failure
    }
}
