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

    struct AACCase: CustomTestStringConvertible, Sendable {
        var rate: Int
        var channels: Int
        var testDescription: String { "\(rate) Hz, \(channels) channel\(channels == 1 ? "" : "s")" }
    }

    /// QuickTime's explicit-delay layout. Media3 trims (media duration − edit end) frames at the
    /// end: with the last packet shortened to end at the edit's end, that was 0 and Android
    /// played up to 1023 frames of padding. FFmpeg 5.1 never trims an M4A's end, so its decode
    /// length says nothing here: the layout is checked instead.
    @Test(
        "AAC in M4A: every packet 1024 frames, the edit list cuts delay and padding to the cue sheet's frames, roll groups, and iTunSMPB says the same",
        .enabled(if: which("ffprobe") != nil, "needs ffprobe"),
        arguments: [AACCase(rate: 48000, channels: 2), AACCase(rate: 44100, channels: 1)])
    func aacExplicitDelay(_ c: AACCase) throws {
        let folder = try TempFolder("m4a-gapless")
        let recipe = try folder.write(M4AOutputTests.recipe(format: "m4a", rate: c.rate, channels: c.channels), to: "g.yml")
        let output = folder.file("out/g.m4a")
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let frames = sheet.audio.frames
        let delay: Int64 = 1024
        let file = try MP4File(path: output)
        #expect(file.movieTimescale == c.rate)
        let edits = file.audioEdits ?? []
        #expect(edits.count == 1 && edits.first?.duration == frames && edits.first?.mediaTime == delay, "\(edits)")
        // one stts entry: every packet lasts 1024 frames, the last one too
        let stts = file.audioTimeToSample
        #expect(stts.count == 1 && stts.first?[1] == 1024, "stts \(stts)")
        let packets = stts.first?[0] ?? 0
        #expect(file.audioMediaDuration == packets * 1024)
        // Media3's gapless condition: the last packet starts before the edit's end, and the media reaches it
        #expect((packets - 1) * 1024 < delay + frames && delay + frames <= packets * 1024, "\(packets) packets for \(frames) frames")
        let padding = packets * 1024 - delay - frames
        #expect(padding > 0 && padding < 1024)
        // the track's and the movie's durations are the edit's, not the media's
        #expect(file.audioTrackDuration == frames && file.movieDuration == frames, "tkhd \(file.audioTrackDuration), mvhd \(file.movieDuration)")
        #expect(file.audioSampleGroups.contains("sgpd roll") && file.audioSampleGroups.contains("sbgp roll"), "\(file.audioSampleGroups)")

        // iTunSMPB: the delay, the padding and the frames, as mutagen and ffprobe read it
        func hex(_ v: Int64, _ digits: Int) -> String {
            let text = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: digits - text.count) + text
        }
        let smpb = " 00000000 \(hex(delay, 8)) \(hex(padding, 8)) \(hex(frames, 16))" + String(repeating: " 00000000", count: 8)
        let probe = try run(
            try #require(which("ffprobe")), ["-v", "error", "-show_entries", "format_tags", "-of", "json", output])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let tags = ((json["format"] as? [String: Any])?["tags"] as? [String: String]) ?? [:]
        #expect(tags["iTunSMPB"] == smpb, "\(tags)")
        #expect(tags["lyrics"] == nil && tags["title"] == "M4A case", "\(tags)")
        // mutagen too (scripts/setup.sh installs python3-mutagen; the pyenv python3 on PATH may lack it)
        let python = try #require(mutagenPython, "no python3 with mutagen: run scripts/setup.sh")
        let script = "import sys\nfrom mutagen.mp4 import MP4\nprint(MP4(sys.argv[1]).tags['----:com.apple.iTunes:iTunSMPB'][0].decode())"
        let read = try run(python, ["-c", script, output])
        #expect(read.status == 0 && read.stdout == smpb + "\n", "\(read)")

        // Cadence's own reader honours the edit list: exactly the frames
        let fd = open(output, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(try M4AReader.frames(descriptor: fd, path: output) == frames)
        #expect(try M4AReader.decode(descriptor: fd, path: output) { _, _ in } == frames)
    }
}
