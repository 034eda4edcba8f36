import CadenceCues
import Foundation
import Testing

/// MP3 and Opus tags and chapters as players and tag tools read them (issue 30, items 10 and 11):
/// mutagen, ffprobe, mp3val and opusinfo, and the exact decode in ffmpeg and libsndfile.
@Suite("MP3 and Opus: tags and chapters that players read")
struct PlayerTagTests {
    static let tools = ["ffprobe", "ffmpeg", "mp3val", "opusinfo"].allSatisfy { which($0) != nil }
    static let toolsMissing: Comment = "needs ffprobe, ffmpeg, mp3val and opusinfo (scripts/setup.sh installs them)"

    static let python = mutagenPython

    static func recipe(title: String) -> String {
        """
        id: tags
        title: \(title)
        category: Sleep
        duration: 30s
        intro: 3.25s
        outro: 2s
        pattern: box
        bed: { synth: brown-noise, gain: -24 dB }
        output: { sample_rate: 48000, channels: 2 }
        """
    }

    /// A title that needs UTF-8, and one that fits ID3v1 (LAME then wrote only an ID3v1 at the end).
    static let titles = ["Respiración 呼吸 – Calma", "Box Breathing"]

    /// The ID3 frames as mutagen reads them, as JSON: version, and per frame its ID, encoding and texts.
    static let mutagenScript = """
        import json, sys
        from mutagen.id3 import ID3
        tag = ID3(sys.argv[1])
        out = {"version": list(tag.version), "frames": []}
        for frame in tag.values():
            item = {"id": frame.FrameID, "encoding": int(getattr(frame, "encoding", -1))}
            if frame.FrameID in ("TIT2", "TALB", "COMM"):
                item["text"] = [str(t) for t in frame.text]
            if frame.FrameID == "COMM":
                item["lang"] = frame.lang
            if frame.FrameID == "CTOC":
                item["element"] = frame.element_id
                item["children"] = list(frame.child_element_ids)
                item["flags"] = int(frame.flags)
            if frame.FrameID == "CHAP":
                item["element"] = frame.element_id
                item["start"] = frame.start_time
                item["end"] = frame.end_time
                title = frame.sub_frames.get("TIT2")
                item["title"] = str(title.text[0]) if title else None
                item["titleEncoding"] = int(title.encoding) if title else -1
            out["frames"].append(item)
        print(json.dumps(out))
        """

    @Test(
        "MP3: an ID3v2.4 tag at the start in UTF-8, with title, album, comment and CHAP/CTOC chapters; no ID3v1",
        .enabled(if: tools, toolsMissing), arguments: titles)
    func mp3(title: String) throws {
        let python = try #require(Self.python, "no python3 with mutagen: run scripts/setup.sh (python3-mutagen)")
        let folder = try TempFolder("tags-mp3")
        let recipe = try folder.write(Self.recipe(title: title), to: "tags.yml")
        let output = folder.file("tags.mp3")
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let file = try bytes(output)
        #expect(Array(file.prefix(5)) == Array("ID3".utf8) + [4, 0], "the file does not start with an ID3v2.4 header")
        #expect(file.count > 128 && Array(file.suffix(128).prefix(3)) != Array("TAG".utf8), "an ID3v1 tag at the end")

        // mutagen: version, frames, encodings
        let script = try folder.write(Self.mutagenScript, to: "id3.py")
        let read = try run(python, [script, output])
        #expect(read.status == 0, "mutagen: \(read.stderr)")
        let tag = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(tag["version"] as? [Int] == [2, 4, 0])
        let frames = try #require(tag["frames"] as? [[String: Any]])
        func frame(_ id: String) -> [String: Any]? { frames.first { $0["id"] as? String == id } }
        #expect(frame("TIT2")?["text"] as? [String] == [title])
        #expect(frame("TALB")?["text"] as? [String] == ["Sleep"])
        #expect(frame("COMM")?["text"] as? [String] == ["Box Breathing, rendered by Cadence"])
        for id in ["TIT2", "TALB", "COMM"] { #expect(frame(id)?["encoding"] as? Int == 3, "\(id) is not UTF-8") }
        let rate = Int64(sheet.audio.sampleRate)
        func ms(_ frame: Int64) -> Int { Int((frame * 1000 + rate / 2) / rate) }
        let chapters = frames.filter { $0["id"] as? String == "CHAP" }
        #expect(chapters.map { $0["title"] as? String } == sheet.chapters.map(\.title))
        #expect(chapters.map { $0["start"] as? Int } == sheet.chapters.map { ms($0.startFrame) })
        #expect(chapters.map { $0["end"] as? Int } == sheet.chapters.map { ms($0.endFrame) })
        #expect(chapters.allSatisfy { $0["titleEncoding"] as? Int == 3 })
        let toc = try #require(frame("CTOC"), "no CTOC frame")
        #expect(toc["flags"] as? Int == 3, "the table of contents is not top-level and ordered")
        #expect(toc["children"] as? [String] == chapters.compactMap { $0["element"] as? String })

        // ffprobe: the title as written, the chapters in milliseconds
        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-show_chapters", "-show_format", "-of", "json", output])
        #expect(probe.status == 0, "\(probe.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let tags = (object["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        #expect(tags["title"] as? String == title)
        #expect(tags["album"] as? String == "Sleep")
        #expect(tags["comment"] as? String == "Box Breathing, rendered by Cadence")
        let probed = object["chapters"] as? [[String: Any]] ?? []
        #expect(probed.map { ($0["tags"] as? [String: Any])?["title"] as? String } == sheet.chapters.map(\.title))
        #expect(probed.map { $0["start"] as? Int } == sheet.chapters.map { ms($0.startFrame) })

        // mp3val: an ID3v2 tag, no ID3v1, nothing wrong
        let check = try run(try #require(which("mp3val")), [output])
        #expect(check.stdout.contains("+ID3v2"), "\(check.stdout)")
        #expect(!check.stdout.contains("ID3v1"), "\(check.stdout)")
        #expect(!check.stdout.contains("WARNING") && !check.stdout.contains("PROBLEM"), "\(check.stdout)")

        // the audio: LAME's delay and padding still trim it to the cue sheet's frames
        #expect(try ffmpegFrames(output, channels: 2) == sheet.audio.frames, "ffmpeg decodes another length")
        #expect(Int64(try readAudio(output).frames) == sheet.audio.frames, "libsndfile decodes another length")
        #expect(sheet.audio.sha256 == (try sha256(ofFile: output)))
    }

    @Test(
        "Opus: chapter comments and tags that opusinfo and ffprobe read, the exact length in ffmpeg",
        .enabled(if: tools && canWrite(.opus), toolsMissing), arguments: titles)
    func opus(title: String) throws {
        let folder = try TempFolder("tags-opus")
        let recipe = try folder.write(Self.recipe(title: title), to: "tags.yml")
        let output = folder.file("tags.opus")
        let (_, sheet) = try renderInProcess(recipe, to: output)

        let info = try run(try #require(which("opusinfo")), [output])
        #expect(info.status == 0, "\(info.stdout)\(info.stderr)")
        let said = info.stdout + info.stderr
        #expect(!said.contains("WARNING") && !said.contains("ERROR"), "\(said)")
        #expect(said.contains("\tTITLE=\(title)\n"), "\(said)")
        #expect(said.contains("\tCHAPTER001=00:00:00.000\n\tCHAPTER001NAME=Intro\n"), "\(said)")
        #expect(said.contains("\tCHAPTER002=00:00:03.250\n\tCHAPTER002NAME=Box Breathing\n"), "\(said)")

        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-show_chapters", "-show_streams", "-of", "json", output])
        #expect(probe.status == 0, "\(probe.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let chapters = object["chapters"] as? [[String: Any]] ?? []
        #expect(chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == sheet.chapters.map(\.title))
        let rate = Int64(sheet.audio.sampleRate)
        #expect(chapters.map { $0["start"] as? Int } == sheet.chapters.map { Int(($0.startFrame * 1000 + rate / 2) / rate) })
        let tags = ((object["streams"] as? [[String: Any]])?.first?["tags"] as? [String: Any]) ?? [:]
        let lower = Dictionary(tags.map { ($0.key.lowercased(), "\($0.value)") }) { a, _ in a }
        #expect(lower["title"] == title && lower["album"] == "Sleep", "\(tags)")

        #expect(try ffmpegFrames(output, channels: 2) == sheet.audio.frames, "ffmpeg decodes another length")
        #expect(Int64(try readAudio(output).frames) == sheet.audio.frames, "libsndfile decodes another length")
        #expect(sheet.audio.sha256 == (try sha256(ofFile: output)))
    }

    /// The frames ffmpeg decodes from `path` (as 32-bit floats).
    func ffmpegFrames(_ path: String, channels: Int) throws -> Int64 {
        let raw = path + ".f32"
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-y", "-i", path, "-f", "f32le", "-acodec", "pcm_f32le", raw])
        #expect(result.status == 0, "ffmpeg: \(result.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int ?? 0
        return Int64(size / (4 * channels))
    }
}
