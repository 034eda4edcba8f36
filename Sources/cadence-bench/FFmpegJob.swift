import Foundation

/// The reference job done by ffmpeg with a filter graph and two-pass `loudnorm`.
///
/// Graph: the bed looped (`-stream_loop -1`), `aresample=48000`, `volume=-14dB`, trimmed to the
/// length, faded in 4 s and out 8 s; the bell track (one bell padded to 4 s) looped and trimmed;
/// `amix` with `normalize=0`; then `loudnorm=I=-16:TP=-1`. Pass 1 prints the measurement as
/// JSON, pass 2 applies it with `linear=true` and writes FLAC, 24 bits in s32, 48 kHz.
/// Both passes are timed together as "ffmpeg". Unlike `render`, the loop has no crossfade
/// (neither `-stream_loop` nor `aloop` can make one), and `loudnorm` falls back to riding the
/// gain (dynamic mode) when a linear gain would break the true-peak ceiling.
enum FFmpegJob {
    /// The measurement keys pass 2 needs, from pass 1's JSON.
    static let measuredKeys = [
        ("input_i", "measured_I"), ("input_tp", "measured_TP"), ("input_lra", "measured_LRA"),
        ("input_thresh", "measured_thresh"), ("target_offset", "offset"),
    ]
    static let loudnorm = "loudnorm=I=\(Int(RecipeText.targetLUFS)):TP=\(Int(RecipeText.ceilingDBTP)):LRA=11"

    /// Runs both passes; returns their summed figures and the normalization type pass 2 reports.
    static func run(
        ffmpeg: String, seconds: Int, workspace: Workspace
    ) throws(BenchError) -> (figures: RunFigures, normalization: String?) {
        let output = "\(workspace.compare)/ffmpeg.flac"
        let measure = loudnorm + ":print_format=json"
        let first = arguments(seconds: seconds, workspace: workspace, loudnorm: measure) + ["-f", "null", "-"]
        let pass1 = try ChildProcess.runChecked(
            ffmpeg, first, logPrefix: workspace.log("ffmpeg-pass1"), what: "ffmpeg pass 1 (loudnorm measurement)")
        guard let measured = lastJSONObject(in: pass1.stderr) else {
            throw BenchError("ffmpeg pass 1 printed no loudnorm JSON (log: \(workspace.log("ffmpeg-pass1")).err)")
        }
        var options: [String] = []
        for (key, option) in measuredKeys {
            guard let value = measured[key] else {
                throw BenchError("ffmpeg pass 1: the loudnorm JSON has no '\(key)' (log: \(workspace.log("ffmpeg-pass1")).err)")
            }
            options.append("\(option)=\(value)")
        }
        let second =
            arguments(
                seconds: seconds, workspace: workspace,
                loudnorm: loudnorm + ":" + options.joined(separator: ":") + ":linear=true:print_format=json")
            + ["-c:a", "flac", "-sample_fmt", "s32", "-bits_per_raw_sample", "24", "-compression_level", "5", output]
        try Workspace.remove(output)
        let pass2 = try ChildProcess.runChecked(
            ffmpeg, second, logPrefix: workspace.log("ffmpeg-pass2"), what: "ffmpeg pass 2 (loudnorm, FLAC)")
        let figures = RunFigures(
            label: "ffmpeg, 2-pass loudnorm", audioSeconds: Double(seconds), cost: pass1.cost + pass2.cost, stages: nil,
            command: RenderJobs.commandLine(ffmpeg, first) + "\n" + RenderJobs.commandLine(ffmpeg, second))
        return (figures, lastJSONObject(in: pass2.stderr)?["normalization_type"])
    }

    /// The common part of both passes' command lines, up to and including the output mapping.
    private static func arguments(seconds: Int, workspace: Workspace, loudnorm: String) -> [String] {
        let length = "\(seconds)"
        let fadeOutStart = "\(seconds - RecipeText.fadeOut)"
        let graph = [
            "[0:a]aresample=48000,volume=\(Int(RecipeText.bedGainDB))dB,atrim=0:\(length),asetpts=N/SR/TB,"
                + "afade=t=in:d=\(RecipeText.fadeIn),afade=t=out:st=\(fadeOutStart):d=\(RecipeText.fadeOut)[bed]",
            "[1:a]atrim=0:\(length),asetpts=N/SR/TB[bell]",
            "[bed][bell]amix=inputs=2:normalize=0:duration=shortest,\(loudnorm),aresample=48000[out]",
        ].joined(separator: ";")
        return [
            "-nostdin", "-hide_banner", "-nostats", "-y",
            "-stream_loop", "-1", "-i", workspace.bed(BedDesign.rain),
            "-stream_loop", "-1", "-i", workspace.bellTrack,
            "-filter_complex", graph, "-map", "[out]", "-ar", "48000",
        ]
    }

    /// The last `{…}` block in `text` as a dictionary of strings (loudnorm prints its values as
    /// strings); nil if there is none.
    static func lastJSONObject(in text: String) -> [String: String]? {
        guard let close = text.lastIndex(of: "}"), let open = text[..<close].lastIndex(of: "{") else { return nil }
        let json = text[open...close]
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        var strings: [String: String] = [:]
        for (key, value) in object { strings[key] = "\(value)" }
        return strings
    }
}
