import Foundation

/// The floor: `flac -5` encoding the very PCM `render` wrote.
///
/// The rendered FLAC is decoded to a 24-bit WAV first (untimed), then
/// `flac -5 -f -s -o <name>.flac <name>-input.wav` is timed. No renderer that writes FLAC can beat it.
/// With `sideBySide`, two `flac -5` are then started together on that same WAV (each into its own
/// file) and timed as one job: the floor of two tracks rendered at once, as `-j 2` does.
enum FlacFloorJob {
    /// The floor of `rendered` (`seconds` of audio), and with `sideBySide` the floor pair on it.
    ///
    /// - Parameter name: names the files in `DIR/compare/` and the logs (`floor`, `floor-10m`).
    static func run(
        flac: String, rendered: String, seconds: Int, name: String, label: String, sideBySide: Bool = false, workspace: Workspace
    ) throws(BenchError) -> (floor: RunFigures, pair: RunFigures?) {
        let wav = "\(workspace.compare)/\(name)-input.wav"
        _ = try ChildProcess.runChecked(
            flac, ["-d", "-f", "-s", "-o", wav, rendered], logPrefix: workspace.log("\(name)-decode"),
            what: "flac -d (decoding the render for the floor)")
        defer { try? Workspace.remove(wav) }
        let arguments = ["-5", "-f", "-s", "-o", "\(workspace.compare)/\(name).flac", wav]
        let result = try ChildProcess.runChecked(flac, arguments, logPrefix: workspace.log(name), what: "flac -5")
        let floor = RunFigures(
            label: label, audioSeconds: Double(seconds), cost: result.cost, stages: nil, command: RenderJobs.commandLine(flac, arguments))
        guard sideBySide else { return (floor, nil) }
        return (floor, try pair(flac: flac, wav: wav, seconds: seconds, name: name, workspace: workspace))
    }

    /// Two `flac -5` of `wav` started together, as one job of `2 × seconds` of audio.
    private static func pair(flac: String, wav: String, seconds: Int, name: String, workspace: Workspace) throws(BenchError) -> RunFigures {
        let jobs = ["a", "b"].map { side in
            ChildProcess.Job(
                executable: flac, arguments: ["-5", "-f", "-s", "-o", "\(workspace.compare)/\(name)-\(side).flac", wav],
                logPrefix: workspace.log("\(name)-\(side)"))
        }
        let run = try ChildProcess.runSideBySide(jobs, what: "flac -5 side by side")
        return RunFigures(
            label: "2 × flac -5 side by side, \(RenderJobs.durationText(seconds)) PCM each (floor of -j 2)",
            audioSeconds: Double(2 * seconds), cost: run.cost, stages: nil,
            command: jobs.map { RenderJobs.commandLine($0.executable, $0.arguments) }.joined(separator: " & "))
    }
}
