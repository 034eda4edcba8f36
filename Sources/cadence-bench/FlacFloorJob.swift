import Foundation

/// The floor: `flac -5` encoding the very PCM `render` wrote.
///
/// The rendered FLAC is decoded to a 24-bit WAV first (untimed), then
/// `flac -5 -f -s -o floor.flac in.wav` is timed. No renderer that writes FLAC can beat it.
enum FlacFloorJob {
    static func run(flac: String, rendered: String, seconds: Int, workspace: Workspace) throws(BenchError) -> RunFigures {
        let wav = "\(workspace.compare)/floor-input.wav"
        let encoded = "\(workspace.compare)/floor.flac"
        _ = try ChildProcess.runChecked(
            flac, ["-d", "-f", "-s", "-o", wav, rendered], logPrefix: workspace.log("flac-decode"),
            what: "flac -d (decoding the render for the floor)")
        defer { try? Workspace.remove(wav) }
        let arguments = ["-5", "-f", "-s", "-o", encoded, wav]
        let result = try ChildProcess.runChecked(flac, arguments, logPrefix: workspace.log("flac-floor"), what: "flac -5")
        return RunFigures(
            label: "flac -5 of the same PCM (floor)", audioSeconds: Double(seconds), cost: result.cost, stages: nil,
            command: RenderJobs.commandLine(flac, arguments))
    }
}
