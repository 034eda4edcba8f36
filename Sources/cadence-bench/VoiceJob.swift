import AudioCore
import AudioIO
import DSP
import Foundation

/// The voice job of issue 14: the reference recipe (box breathing over the rain bed, bells,
/// -16 LUFS, FLAC 24-bit) with a recorded prompt every minute, levelled to -18 LUFS and ducking
/// the bed by 12 dB, beside the same recipe without `voice:`.
///
/// In order: without voice at the length; with voice at the length; then both at a short length
/// (the memory twins), all timed with their stage lines. The goal: the voiced hour within 1.15 ×
/// the unvoiced hour's wall time, with the same flat memory (its peak RSS the unvoiced hour's,
/// and no more above its own 1-minute twin's than the unvoiced hour is above its twin's).
enum VoiceJob {
    /// Depth of the ducking, dB (the spec's default, named in the recipe all the same).
    static let duckDB = 12
    /// Length of the prompt clip, seconds.
    static let clipSeconds = 5
    /// Where in each minute a prompt starts, seconds: 0:30, 1:30, 2:30, …
    static let promptOffset = 30
    /// The clip's path in the assets folder, as the recipe names it.
    static let clipAsset = "voice/prompt-5s.wav"

    struct Figures {
        var voiced: RunFigures
        var unvoiced: RunFigures
        var voicedShort: RunFigures?
        var unvoicedShort: RunFigures?
        /// What the voiced long render's cue sheet says it placed.
        var prompts: PromptSummary
    }

    /// Runs the job at `seconds`, with the memory twins at `shortSeconds` when that is shorter.
    static func run(
        seconds: Int, shortSeconds: Int, tools: Tools, workspace: Workspace, progress: (String) -> Void
    ) throws(BenchError) -> Figures {
        try writeClip(to: workspace.voiceClip)
        let count = promptTimes(seconds: seconds).count
        progress("render: reference recipe without voice, \(RenderJobs.durationText(seconds))")
        let unvoiced = try render(seconds: seconds, voiced: false, tools: tools, workspace: workspace)
        progress("render: the same with \(count) prompts of \(clipSeconds) s (ducking \(duckDB) dB), \(RenderJobs.durationText(seconds))")
        let voiced = try render(seconds: seconds, voiced: true, tools: tools, workspace: workspace)
        var figures = Figures(voiced: voiced.figures, unvoiced: unvoiced.figures, prompts: voiced.prompts)
        if shortSeconds < seconds {
            let length = RenderJobs.durationText(shortSeconds)
            progress("render: without and with voice, \(length) (memory twins)")
            figures.unvoicedShort = try render(seconds: shortSeconds, voiced: false, tools: tools, workspace: workspace).figures
            figures.voicedShort = try render(seconds: shortSeconds, voiced: true, tools: tools, workspace: workspace).figures
        }
        return figures
    }

    /// Prompt start times in whole seconds: 30 s into every minute, each prompt ending before the
    /// track does; in a track too short for that, one prompt in its middle.
    static func promptTimes(seconds: Int) -> [Int] {
        let times = Array(stride(from: promptOffset, to: seconds - clipSeconds, by: 60))
        return times.isEmpty ? [max(0, (seconds - clipSeconds) / 2)] : times
    }

    /// The `voice:` section, appended to the reference recipe.
    static func voiceSection(seconds: Int) -> String {
        var lines = ["", "voice:", "  level: -18 LUFS", "  duck: \(duckDB) dB", "  prompts:"]
        for at in promptTimes(seconds: seconds) {
            lines.append("    - { at: \(at)s, file: \(clipAsset), text: \"Prompt at \(RenderJobs.durationName(at))\" }")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `render DIR/voice/<id>.yml -o DIR/voice/<id>.flac`, timed, and the prompts its cue sheet lists.
    private static func render(
        seconds: Int, voiced: Bool, tools: Tools, workspace: Workspace
    ) throws(BenchError) -> (figures: RunFigures, prompts: PromptSummary) {
        let id = "\(voiced ? "voiced" : "unvoiced")-\(RenderJobs.durationName(seconds))"
        let recipe = "\(workspace.voice)/\(id).yml"
        let output = "\(workspace.voice)/\(id).flac"
        let text = RecipeText.reference(id: id, seconds: seconds, bed: BedDesign.rain.name) + (voiced ? voiceSection(seconds: seconds) : "")
        try Workspace.write(text, to: recipe)
        try Workspace.remove(output)
        let arguments = [recipe, "-o", output, "--assets", workspace.assets, "--quiet"]
        let result = try ChildProcess.runChecked(
            tools.render, arguments, environment: RenderJobs.stagesEnvironment, logPrefix: workspace.log(id), what: "render \(id).yml")
        let figures = RunFigures(
            label: "render \(voiced ? "with a prompt a minute" : "without voice") \(RenderJobs.durationText(seconds))",
            audioSeconds: Double(seconds), cost: result.cost, stages: StageBreakdown.parse(stderr: result.stderr),
            command: RenderJobs.commandLine(tools.render, arguments), sampleRate: RecipeText.sampleRate)
        // An hour of FLAC is hundreds of MB: only the short renders stay to be listened to (the cue sheets all stay).
        if seconds > 60 { try Workspace.remove(output) }
        return (figures, PromptSummary(cueSheet: "\(workspace.voice)/\(id).cues.json"))
    }

    /// Writes the clip: 5 s of a voice-like sound (a 140 Hz buzz with seven harmonics, in four
    /// syllables a second), mono 48 kHz 16-bit WAV, the same bytes on every run.
    private static func writeClip(to path: String) throws(BenchError) {
        let rate = RecipeText.sampleRate
        let frames = clipSeconds * rate
        var samples = [Float](repeating: 0, count: frames)
        for i in 0..<frames {
            let t = Double(i) / Double(rate)
            var buzz = 0.0
            for h in 1...8 { buzz += sin(2 * Double.pi * 140 * Double(h) * t) / Double(h) }
            let syllable = 0.5 - 0.5 * cos(2 * Double.pi * 4 * t)
            samples[i] = Float(0.2 * buzz * syllable)
        }
        do {
            let file = try AtomicOutputFile(path: path)
            let writer = try SoundFileWriter(fileDescriptor: file.fileDescriptor, path: path, format: .wav16, sampleRate: rate, channels: 1)
            try samples.withUnsafeBufferPointer { (p) throws(AudioError) in try writer.write(p, frames: p.count) }
            try writer.finish()
            try file.commit()
        } catch {
            throw BenchError("\(path): writing the voice clip failed: \(error)")
        }
    }
}

/// The `voice` entries of a rendered track's cue sheet: how many prompts it placed, and the
/// ducking depths it reports (`duck_db`), so the report shows the voice really sounded.
struct PromptSummary: Codable, Sendable {
    var count: Int?
    var duckDB: [Double] = []

    /// Reads `path`; a sheet that is missing or has no `voice` list gives a nil count.
    init(cueSheet path: String) {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let voice = object["voice"] as? [[String: Any]]
        else { return }
        count = voice.count
        duckDB = Array(Set(voice.compactMap { ($0["duck_db"] as? NSNumber)?.doubleValue })).sorted()
    }
}
