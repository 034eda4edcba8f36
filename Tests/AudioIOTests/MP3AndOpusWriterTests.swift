import AudioCore
import Foundation
import TestKit
import Testing

@testable import AudioIO

#if canImport(Glibc)
    import Glibc
#endif

/// `MP3Writer` (an ID3v2.4 tag before LAME's frames) and `OggOpusWriter` (libsndfile's Ogg Opus
/// pages again, with a chosen serial and an `OpusTags` header of ours), read back by mutagen,
/// opusinfo, ffmpeg and libsndfile.
@Suite struct MP3AndOpusWriterTests {
    static let rate = 48_000

    static let python = mutagenPython

    /// `frames` of a stereo sine, written by `make` to a new file in `folder`.
    static func encode(_ folder: TempFolder, _ name: String, frames: Int, make: (Int32, String) throws -> (Write, Finish)) throws -> String {
        let path = folder.file(name)
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let (write, finish) = try make(fd, path)
        let samples = (0..<(frames * 2)).map { Float(sin(Double($0 / 2) * 2 * .pi * 440 / Double(rate)) * 0.3) }
        try samples.withUnsafeBufferPointer { try write($0, frames) }
        try finish()
        return path
    }
    typealias Write = (UnsafeBufferPointer<Float>, Int) throws -> Void
    typealias Finish = () throws -> Void

    @Test(
        "more than 255 chapters: a top-level CTOC of child CTOCs of up to 255 CHAPs each, read by mutagen and ffprobe",
        .enabled(if: python != nil && which("ffprobe") != nil, "needs python3-mutagen and ffprobe (scripts/setup.sh)"))
    func manyChapters() throws {
        let folder = try TempFolder("id3-chapters")
        let count = 300
        let chapters = (0..<count).map { ID3v2Tag.Chapter(title: "Voice: Ánimo \($0)", start: Int64($0) * 160) }
        let path = try Self.encode(folder, "many.mp3", frames: Self.rate) { fd, path in
            let writer = try MP3Writer(
                fileDescriptor: fd, path: path, sampleRate: Self.rate, channels: 2, bitrate: 128_000,
                tags: [("TITLE", "Many"), ("COMMENT", "c")], chapters: chapters, totalFrames: Int64(Self.rate))
            return ({ try writer.write($0, frames: $1) }, { try writer.finish() })
        }
        let script = try folder.write(
            """
            import json, sys
            from mutagen.id3 import ID3
            tag = ID3(sys.argv[1])
            tocs = {f.element_id: [f.flags, list(f.child_element_ids)] for f in tag.getall("CTOC")}
            chaps = [[f.element_id, f.start_time, f.end_time, str(f.sub_frames["TIT2"].text[0])] for f in tag.getall("CHAP")]
            print(json.dumps({"version": list(tag.version), "tocs": tocs, "chaps": chaps}))
            """, to: "toc.py")
        let result = try run(try #require(Self.python), [script, path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? [Int] == [2, 4, 0])
        let tocs = try #require(object["tocs"] as? [String: [Any]])
        #expect(tocs["toc"]?[0] as? Int == 3)
        #expect(tocs["toc"]?[1] as? [String] == ["toc0", "toc1"])
        #expect((tocs["toc0"]?[1] as? [String])?.count == 255 && tocs["toc0"]?[0] as? Int == 1)
        #expect((tocs["toc1"]?[1] as? [String]) == (255..<count).map { "ch\($0)" })
        let chaps = try #require(object["chaps"] as? [[Any]])
        #expect(chaps.count == count)
        // 160 frames at 48 kHz = 3.33 ms, rounded to the nearest millisecond; the last ends at the end
        #expect(chaps[1][1] as? Int == 3 && chaps[2][1] as? Int == 7 && chaps[count - 1][2] as? Int == 1000)
        #expect(chaps[299][3] as? String == "Voice: Ánimo 299")

        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-show_chapters", "-of", "csv", path])
        #expect(probe.stdout.split(separator: "\n").count == count, "\(probe.stderr)")
    }

    @Test(
        "Opus: the serial chosen, the same bytes twice, a long OpusTags on pages of its own, an exact decode",
        .enabled(if: which("opusinfo") != nil && which("ffmpeg") != nil, "needs opusinfo and ffmpeg (scripts/setup.sh)"))
    func opusPages() throws {
        let folder = try TempFolder("opus-pages")
        let frames = Self.rate * 2 + 17
        // about 100 KB of comments: OpusTags spans two pages, so every audio page's number moves up by one
        let long = String(repeating: "Breathe in slowly. ", count: 5000)
        let comments = [("TITLE", "Calma 呼吸"), ("CHAPTER001", "00:00:00.000"), ("CHAPTER001NAME", long)]
        func encode(_ name: String, serial: Int32, comments: [(String, String)]) throws -> String {
            try Self.encode(folder, name, frames: frames) { fd, path in
                let writer = try OggOpusWriter(
                    fileDescriptor: fd, path: path, sampleRate: Self.rate, channels: 2, bitrate: 96_000, serial: serial, comments: comments)
                return ({ try writer.write($0, frames: $1) }, { try writer.finish() })
            }
        }
        let one = try bytes(try encode("one.opus", serial: 0x1234_5678, comments: comments))
        let two = try bytes(try encode("two.opus", serial: 0x1234_5678, comments: comments))
        let short = try encode("short.opus", serial: -2, comments: [("TITLE", "x")])
        #expect(one == two, "two encodes differ")
        #expect(Array(one[14..<18]) == [0x78, 0x56, 0x34, 0x12], "the first page's serial is not the one chosen")
        #expect(Array(try bytes(short)[14..<18]) == [0xFE, 0xFF, 0xFF, 0xFF])

        for path in [folder.file("one.opus"), short] {
            let info = try run(try #require(which("opusinfo")), [path])
            let said = info.stdout + info.stderr
            #expect(info.status == 0 && !said.contains("WARNING") && !said.contains("ERROR"), "\(said.prefix(3000))")
            let raw = path + ".f32"
            let decode = try run(try #require(which("ffmpeg")), ["-v", "error", "-y", "-i", path, "-f", "f32le", "-acodec", "pcm_f32le", raw])
            #expect(decode.status == 0, "\(decode.stderr)")
            #expect((try FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int) == frames * 2 * 4, "ffmpeg decodes another length")
            let reader = try SoundFileReader(path: path)
            #expect(reader.frames == Int64(frames))
            reader.close()
        }
        let info = try run(try #require(which("opusinfo")), [folder.file("one.opus")]).stdout
        #expect(info.contains("\tTITLE=Calma 呼吸\n\tCHAPTER001=00:00:00.000\n\tCHAPTER001NAME=Breathe in slowly."))
    }
}
