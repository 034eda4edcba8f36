import AudioCore
import Foundation
import Recipe
import TestKit
import Testing

/// Issue 30 item 7: every channel count a recipe accepts for a format renders through its real
/// encoder, and the ones the encoder cannot open are refused at `output.channels`, by `--check` too,
/// never as an exit 70 from `avcodec_open2`.
@Suite("Channel counts per format")
struct ChannelCountTests {
    @Test(
        "each count 1 to 8 renders (and reads back with that many channels) or is refused at output.channels by --check and render",
        arguments: ["alac", "m4a", "flac"])
    func everyCount(format: String) throws {
        let audioFormat = try #require(AudioFormat(rawValue: format))
        let folder = try TempFolder("channels-\(format)")
        for channels in RecipeLimits.channelCounts {
            let recipe = try folder.write(
                "id: c\(channels)\nduration: 1s\nend_on: phase\npattern: { phases: [ { inhale: 1s } ] }\n"
                    + "output: { format: \(format), channels: \(channels), loudness: off }\n",
                to: "recipes/c\(channels).yml")
            let output = folder.file("c\(channels).\(audioFormat.fileExtension)")
            let checked = try runRender(["--check", recipe])
            let rendered = try runRender([recipe, "-o", output, "-q"])
            if RecipeLimits.fixedChannelCounts(of: audioFormat)?.contains(channels) ?? true {
                #expect(checked.status == 0, "\(format) × \(channels): \(checked)")
                #expect(rendered.status == 0, "\(format) × \(channels): \(rendered)")
                if let ffprobe = which("ffprobe"), rendered.status == 0 {
                    // the count, in a layout the reader knows (a player must know where each channel goes)
                    let probed = try run(ffprobe, ["-v", "error", "-show_entries", "stream=channels,channel_layout", "-of", "csv=p=0", output])
                    let fields = probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
                    #expect(fields.first == "\(channels)", "\(format) × \(channels): \(probed)")
                    #expect(fields.count == 2 && !["", "unknown"].contains(fields[1]), "\(format) × \(channels): layout \(probed)")
                }
            } else {
                for result in [checked, rendered] {
                    #expect(result.status == 65, "\(format) × \(channels): \(result)")
                    #expect(
                        result.stderr.contains("c\(channels).yml:5:") && result.stderr.contains("output.channels")
                            && result.stderr.contains(
                                "it takes \(RecipeLimits.fixedChannelCounts(of: audioFormat)?.map(String.init).joined(separator: ", ") ?? "")"),
                        "\(format) × \(channels): \(result.stderr)")
                }
                #expect(!FileManager.default.fileExists(atPath: output))
            }
        }
    }
}
