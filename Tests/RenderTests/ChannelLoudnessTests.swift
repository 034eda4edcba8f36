import CadenceCues
import Foundation
import TestKit
import Testing

/// Loudness at every channel count: each channel weighted per BS.1770 in the layout the file
/// declares, as FFmpeg's `ebur128` weighs it (issue 30, item 2: channels 7 and 8 were left out).
@Suite struct ChannelLoudnessTests {
    /// (channels, the layouts ffprobe may read from a WAV or FLAC file: FFmpeg's FLAC decoder names
    /// 5 and 6 channels with side surrounds, weighed as back ones; a plain mono or stereo WAV has no mask).
    static let layouts: [(channels: Int, layouts: Set<String>)] = [
        (1, ["mono", "unknown"]), (2, ["stereo", "unknown"]), (3, ["3.0"]), (4, ["quad"]), (5, ["5.0", "5.0(side)"]),
        (6, ["5.1", "5.1(side)"]), (7, ["6.1"]), (8, ["7.1"]),
    ]

    @Test(
        "FFmpeg's ebur128 reads the cue sheet's loudness within 0.5 LU at every channel count",
        .enabled(if: which("ffmpeg") != nil && which("ffprobe") != nil, "needs ffmpeg and ffprobe"),
        arguments: ["wav", "flac"], 0..<layouts.count)
    func ffmpegAgrees(_ format: String, _ index: Int) throws {
        let (channels, layouts) = Self.layouts[index]
        let folder = try TempFolder("channel-loudness")
        let recipe = """
            duration: 4s
            \(inlinePattern([TestPhase(kind: "inhale", length: "1s"), TestPhase(kind: "exhale", length: "1s")]))cues: {}
            bed: { synth: pink-noise }
            output: { channels: \(channels), format: \(format), loudness: -16 LUFS, true_peak: -1 dBTP }
            """
        let path = try folder.write(recipe, to: "track.yml")
        let output = folder.file("track.\(format)")
        let (_, sheet) = try renderInProcess(path, to: output)
        let lufs = try #require(sheet.audio.loudnessLUFS)
        #expect(abs(lufs + 16) <= 0.5)

        let probe = try run(
            try #require(which("ffprobe")), ["-v", "error", "-show_entries", "stream=channel_layout", "-of", "csv=p=0", output])
        #expect(layouts.contains(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "ffprobe: \(probe.stdout)")
        let result = try run(
            try #require(which("ffmpeg")), ["-hide_banner", "-nostats", "-i", output, "-filter_complex", "ebur128", "-f", "null", "-"])
        let integrated = try #require(LoudnessTests.ffmpegSummary(result.stderr, label: "I:"), "\(result.stderr.suffix(600))")
        #expect(abs(integrated - lufs) <= 0.5, "\(channels) channels (\(format)): ffmpeg \(integrated) LUFS, cue sheet \(lufs)")
    }
}
