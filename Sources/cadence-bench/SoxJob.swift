import Foundation

/// The reference job done by SoX: the bed repeated to the length, `rate 48k`, `gain -14`,
/// trimmed and faded, mixed (`-m`, each input at `-v 1`) with the repeated bell track, then
/// peak-normalized to -1 dBFS (`gain -n -1`, which runs SoX's own two passes through a
/// temporary file), written as 24-bit FLAC.
///
/// It does less than `render`: the loop has no crossfade, and the normalization is to a sample
/// peak, with no loudness target and no true-peak limiting. The two inputs are `|sox …` pipes;
/// `wait4` counts their CPU time with the main process, and its peak RSS is the largest of
/// the three processes, not their sum.
enum SoxJob {
    static func run(sox: String, bedSeconds: Double, seconds: Int, workspace: Workspace) throws(BenchError) -> RunFigures {
        let output = "\(workspace.compare)/sox.flac"
        let bedRepeats = max(0, Int((Double(seconds) / bedSeconds).rounded(.up)) - 1)
        let bellRepeats = max(0, (seconds + BellTrack.periodSeconds - 1) / BellTrack.periodSeconds - 1)
        let bed =
            "|\(quoted(sox)) \(quoted(workspace.bed(BedDesign.rain))) -p repeat \(bedRepeats) rate 48k"
            + " gain \(Int(RecipeText.bedGainDB)) trim 0 \(seconds) fade t \(RecipeText.fadeIn) \(seconds) \(RecipeText.fadeOut)"
        let bell = "|\(quoted(sox)) \(quoted(workspace.bellTrack)) -p repeat \(bellRepeats) trim 0 \(seconds)"
        let arguments = [
            "--temp", workspace.compare, "-m", "-v", "1", bed, "-v", "1", bell,
            "-b", "24", "-r", "48000", output, "gain", "-n", "\(Int(RecipeText.ceilingDBTP))",
        ]
        try Workspace.remove(output)
        let result = try ChildProcess.runChecked(sox, arguments, logPrefix: workspace.log("sox"), what: "sox")
        return RunFigures(
            label: "sox, peak normalization", audioSeconds: Double(seconds), cost: result.cost, stages: nil,
            command: RenderJobs.commandLine(sox, arguments))
    }

    /// `path` in single quotes for the shell SoX runs its `|…` inputs with.
    private static func quoted(_ path: String) -> String {
        "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
