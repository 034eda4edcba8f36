import AudioIO
import Foundation
import TestKit
import Testing

/// What third-party tools find in the containers Cadence writes (issue 30): the FLAC padding a
/// tag editor fills in place, and the Ogg Vorbis and M4A layouts players read.
@Suite("Container layouts, as third-party tools read them")
struct ContainerLayoutTests {
    /// The metadata blocks `metaflac --list` names: (type, is last, length).
    static func flacBlocks(_ path: String) throws -> [(type: String, last: Bool, length: Int)] {
        let listing = try run(try #require(which("metaflac")), ["--list", path])
        try #require(listing.status == 0, "\(listing)")
        var blocks: [(type: String, last: Bool, length: Int)] = []
        for line in listing.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("type: ") {
                blocks.append((String(line.split(separator: "(").last?.dropLast() ?? ""), false, -1))
            } else if line.hasPrefix("is last: "), !blocks.isEmpty {
                blocks[blocks.count - 1].last = line.hasSuffix("true")
            } else if line.hasPrefix("length: "), !blocks.isEmpty {
                blocks[blocks.count - 1].length = Int(line.dropFirst(8)) ?? -1
            }
        }
        return blocks
    }

    @Test(
        "FLAC ends its metadata with 8 KiB of PADDING, as the flac tool does: metaflac edits tags in place",
        .enabled(if: which("metaflac") != nil, "metaflac is not installed (scripts/setup.sh installs flac)"))
    func flacPadding() throws {
        let folder = try TempFolder("flac-padding")
        let recipe = try folder.write(ReproducibilityTests.recipe(bitDepth: "16"), to: "pad.yml")
        let output = folder.file("out/pad.flac")
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let blocks = try Self.flacBlocks(output)
        #expect(blocks.map(\.type) == ["STREAMINFO", "VORBIS_COMMENT", "SEEKTABLE", "PADDING"], "\(blocks)")
        #expect(blocks.last?.last == true && blocks.last?.length == FLACWriter.paddingBytes && FLACWriter.paddingBytes == 8192, "\(blocks)")

        // a tag editor's change fits in the padding: the file keeps its size, the audio its frames
        let size = try bytes(output).count
        let edit = try run(
            try #require(which("metaflac")),
            ["--set-tag=ARTIST=Cadence Test Artist", "--set-tag=COMMENT=\(String(repeating: "edited in place ", count: 40))", output])
        #expect(edit.status == 0, "\(edit)")
        #expect(try bytes(output).count == size, "metaflac rewrote the file: the padding did not take the new tags")
        let padding = try Self.flacBlocks(output).last
        #expect(padding?.type == "PADDING" && (padding?.length ?? 0) < 8192 && (padding?.length ?? 0) > 7000, "\(String(describing: padding))")
        #expect(Int64(try readAudio(output).frames) == sheet.audio.frames)
        if let flac = which("flac") {
            let test = try run(flac, ["-t", "-s", output])
            #expect(test.status == 0, "flac -t: \(test.stderr)")
        }
    }

    @Test(
        "Ogg Vorbis renders pass ogginfo with nothing to say: no page completes packets at granule position 0",
        .enabled(if: which("ogginfo") != nil, "ogginfo is not installed (scripts/setup.sh installs vorbis-tools)"))
    func ogginfoClean() throws {
        let folder = try TempFolder("ogginfo")
        let recipe = try folder.write(ReproducibilityTests.recipe(bitDepth: nil), to: "clean.yml")
        let output = folder.file("out/clean.ogg")
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let info = try run(try #require(which("ogginfo")), [output])
        #expect(info.status == 0, "\(info)")
        let text = info.stdout + info.stderr
        let complaints = text.split(separator: "\n").filter {
            $0.localizedCaseInsensitiveContains("warning") || $0.localizedCaseInsensitiveContains("error")
                || $0.localizedCaseInsensitiveContains("granulepos") || $0.localizedCaseInsensitiveContains("buggy")
        }
        #expect(complaints.isEmpty, "ogginfo: \(complaints)")
        // and FFmpeg still decodes exactly the frames of the cue sheet
        if let ffmpeg = which("ffmpeg") {
            let decoded = try run(ffmpeg, ["-v", "error", "-nostdin", "-i", output, "-f", "s16le", "-ac", "1", "-y", folder.file("pcm.raw")])
            #expect(decoded.status == 0, "\(decoded)")
            #expect(Int64(try bytes(folder.file("pcm.raw")).count / 2) == sheet.audio.frames)
        }
    }
}
