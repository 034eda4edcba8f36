import AudioCore
import AudioIO
import DSP
import Foundation

/// The voice job of issue 14: the reference recipe (FLAC 24-bit, the rain bed, bells) with a
/// prompt every minute (a 5 s recorded clip at 30 s, 1:30, 2:30, …), levelled to -18 LUFS and
/// ducking the bed by 12 dB, beside the same recipe without `voice:`, both at the reference
/// length; and the voiced recipe at 1 minute, the memory twin.
///
/// The goal: the voiced hour within 1.15 × the unvoiced hour's wall time, with the same flat memory.
enum VoiceJob {
    struct Figures {
        var voiced: RunFigures
        var unvoiced: RunFigures
        var voicedShort: RunFigures?
    }

    /// The clip: 5 s of a voice-like sound (a 140 Hz buzz with its harmonics, in syllables of
    /// 250 ms), mono 48 kHz 16-bit WAV.
    static let clipSeconds = 5

    static func run(
        seconds: Int, shortSeconds: Int, tools: Tools, workspace: Workspace, progress: (String) -> Void
    ) throws(BenchError) -> Figures {
        try writeClip(to: workspace.voiceClip)
        progress("render: reference recipe without voice, \(RenderJobs.durationText(seconds))")
        let unvoiced = try render(seconds: seconds, voiced: false, tools: tools, workspace: workspace)
        progress("render: reference recipe with a prompt every minute (ducking), \(RenderJobs.durationText(seconds))")
        let voiced = try render(seconds: seconds, voiced: true, tools: tools, workspace: workspace)
        var figures = Figures(voiced: voiced, unvoiced: unvoiced)
        if shortSeconds < seconds {
            progress("render: the voiced recipe, \(RenderJobs.durationText(shortSeconds)) (memory twin)")
            figures.voicedShort = try render(seconds: shortSeconds, voiced: true, tools: tools, workspace: workspace)
        }
        return figures
    }

    /// The `voice:` section: a prompt at 30 s into every minute that ends before the track does.
    static func voiceSection(seconds: Int) -> String {
        var lines = ["", "voice:", "  level: -18 LUFS", "  duck: 12 dB", "  prompts:"]
        var at = 30
        while at + clipSeconds < seconds {
            lines.append("    - { at: \(at)s, file: voice/prompt-5s.wav, text: \"Prompt at \(at) s\" }")
            at += 60
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func render(seconds: Int, voiced: Bool, tools: Tools, workspace: Workspace) throws(BenchError) -> RunFigures {
        let id = "\(voiced ? "voiced" : "unvoiced")-\(RenderJobs.durationName(seconds))"
        let recipe = "\(workspace.voice)/\(id).yml"
        let output = "\(workspace.voice)/\(id).flac"
        let text = RecipeText.reference(id: id, seconds: seconds, bed: BedDesign.rain.name) + (voiced ? voiceSection(seconds: seconds) : "")
        try Workspace.write(text, to: recipe)
        try Workspace.remove(output)
        let arguments = [recipe, "-o", output, "--assets", workspace.assets, "--quiet"]
        let result = try ChildProcess.runChecked(
            tools.render, arguments, environment: RenderJobs.stagesEnvironment, logPrefix: workspace.log(id), what: "render \(id).yml")
        return RunFigures(
            label: "render \(voiced ? "with a prompt a minute" : "without voice") \(RenderJobs.durationText(seconds))",
            audioSeconds: Double(seconds), cost: result.cost, stages: StageBreakdown.parse(stderr: result.stderr),
            command: RenderJobs.commandLine(tools.render, arguments), sampleRate: RecipeText.sampleRate)
    }

    private static func writeClip(to path: String) throws(BenchError) {
        let rate = 48_000
        let frames = clipSeconds * rate
        var samples = [Float](repeating: 0, count: frames)
        for i in 0..<frames {
            let t = Double(i) / Double(rate)
            var buzz = 0.0
            for h in 1...8 { buzz += sin(2 * Double.pi * 140 * Double(h) * t) / Double(h) }
            let syllable = 0.5 - 0.5 * cos(2 * Double.pi * 4 * t)  // four syllables a second
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
