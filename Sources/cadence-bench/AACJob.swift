import Foundation

/// The AAC job of issue 13: the reference recipe rendered as M4A (AAC-LC, 128k) with `-o x.m4a`,
/// beside ffmpeg's own `aac` encoder encoding the same recipe's PCM to M4A in the same run.
///
/// In order: `render` to M4A at the length (timed, with its stage line); again at a short length
/// (timed: the memory twin); the same recipe with `format: wav`, `bit_depth: 32f` (untimed:
/// the PCM); then `ffmpeg -i that.wav -c:a aac -b:a 128k out.m4a` (timed). The WAV is removed
/// at the end. Its PCM is the mix `render` encodes, normalized for a lossless file: the M4A
/// render aims its limiter 0.5 dB lower (lossy headroom) and may correct its gain after the
/// lossy check, so the levels differ by a fraction of a dB; the work of encoding does not.
enum AACJob {
    /// The bit rate both encoders use (`render`'s default for M4A, named in the recipe all the same).
    static let bitrate = "128k"

    struct Figures {
        var render: RunFigures
        var renderShort: RunFigures?
        var levels: OutputLevels
        /// nil when ffmpeg is not installed.
        var ffmpeg: RunFigures?
    }

    /// Runs the job at `seconds`, with the memory twin at `shortSeconds` when that is shorter.
    static func run(
        seconds: Int, shortSeconds: Int, tools: Tools, workspace: Workspace, progress: (String) -> Void
    ) throws(BenchError) -> Figures {
        progress("render: reference recipe as M4A (AAC \(bitrate)), \(RenderJobs.durationText(seconds))")
        let long = try render(seconds: seconds, tools: tools, workspace: workspace)
        var figures = Figures(render: long.figures, levels: long.levels)
        if shortSeconds < seconds {
            progress("render: reference recipe as M4A, \(RenderJobs.durationText(shortSeconds)) (memory twin)")
            figures.renderShort = try render(seconds: shortSeconds, tools: tools, workspace: workspace).figures
        }
        if let ffmpeg = tools.ffmpeg {
            progress("render: the same recipe as 32-bit float WAV (untimed), for ffmpeg's aac encoder")
            let wav = try pcm(seconds: seconds, tools: tools, workspace: workspace)
            defer { try? Workspace.remove(wav) }
            progress("ffmpeg: aac \(bitrate) of that PCM to M4A")
            figures.ffmpeg = try encode(ffmpeg: ffmpeg, wav: wav, seconds: seconds, workspace: workspace)
        }
        return figures
    }

    /// `render REF.yml -o DIR/aac/aac-<length>.m4a`, timed, and the levels from its cue sheet.
    private static func render(
        seconds: Int, tools: Tools, workspace: Workspace
    ) throws(BenchError) -> (figures: RunFigures, levels: OutputLevels) {
        let id = "aac-\(RenderJobs.durationName(seconds))"
        let recipe = "\(workspace.aac)/\(id).yml"
        let output = "\(workspace.aac)/\(id).m4a"
        try Workspace.write(RecipeText.reference(id: id, seconds: seconds, bed: BedDesign.rain.name, output: .byExtension), to: recipe)
        try Workspace.remove(output)
        let arguments = [recipe, "-o", output, "--assets", workspace.assets, "--quiet"]
        let result = try ChildProcess.runChecked(
            tools.render, arguments, environment: RenderJobs.stagesEnvironment, logPrefix: workspace.log(id), what: "render \(id).yml")
        let figures = RunFigures(
            label: "render M4A (AAC \(bitrate)) \(RenderJobs.durationText(seconds))", audioSeconds: Double(seconds), cost: result.cost,
            stages: StageBreakdown.parse(stderr: result.stderr), command: RenderJobs.commandLine(tools.render, arguments),
            sampleRate: RecipeText.sampleRate)
        return (figures, RenderJobs.readLevels(cueSheet: "\(workspace.aac)/\(id).cues.json"))
    }

    /// Renders the recipe as a 32-bit float WAV (untimed) and returns its path.
    private static func pcm(seconds: Int, tools: Tools, workspace: Workspace) throws(BenchError) -> String {
        let id = "aac-pcm-\(RenderJobs.durationName(seconds))"
        let recipe = "\(workspace.aac)/\(id).yml"
        let wav = "\(workspace.aac)/\(id).wav"
        try Workspace.write(RecipeText.reference(id: id, seconds: seconds, bed: BedDesign.rain.name, output: .wavFloat), to: recipe)
        _ = try ChildProcess.runChecked(
            tools.render, [recipe, "-o", wav, "--assets", workspace.assets, "--quiet"], logPrefix: workspace.log(id),
            what: "render \(id).yml (the PCM for ffmpeg)")
        return wav
    }

    /// `ffmpeg -i WAV -c:a aac -b:a 128k DIR/aac/ffmpeg-aac.m4a`, timed.
    private static func encode(ffmpeg: String, wav: String, seconds: Int, workspace: Workspace) throws(BenchError) -> RunFigures {
        let output = "\(workspace.aac)/ffmpeg-aac.m4a"
        let arguments = ["-nostdin", "-hide_banner", "-nostats", "-y", "-i", wav, "-c:a", "aac", "-b:a", bitrate, output]
        try Workspace.remove(output)
        let result = try ChildProcess.runChecked(ffmpeg, arguments, logPrefix: workspace.log("ffmpeg-aac"), what: "ffmpeg aac")
        return RunFigures(
            label: "ffmpeg aac \(bitrate) of the same PCM to M4A", audioSeconds: Double(seconds), cost: result.cost, stages: nil,
            command: RenderJobs.commandLine(ffmpeg, arguments))
    }
}
