import CadenceCues
import Foundation
import Recipe
import Render
import Sidecars
import Testing
import Timeline

/// The chunks of a RIFF/WAVE file: id, and body bytes.
func riffChunks(_ bytes: [UInt8]) throws -> [(id: String, body: ArraySlice<UInt8>)] {
    func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
    guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" else { throw TestFailure("not RIFF") }
    guard u32(4) + 8 == bytes.count else { throw TestFailure("RIFF size \(u32(4) + 8) is not the file size \(bytes.count)") }
    var chunks: [(String, ArraySlice<UInt8>)] = []
    var i = 12
    while i + 8 <= bytes.count {
        let size = u32(i + 4)
        guard i + 8 + size <= bytes.count else { throw TestFailure("chunk at \(i) runs past the end") }
        chunks.append((String(decoding: bytes[i..<(i + 4)], as: UTF8.self), bytes[(i + 8)..<(i + 8 + size)]))
        i += 8 + size + (size & 1)
    }
    guard i == bytes.count else { throw TestFailure("\(bytes.count - i) stray bytes at the end") }
    return chunks
}

func le32(_ s: ArraySlice<UInt8>, _ at: Int) -> Int {
    let b = s.startIndex + at
    return Int(s[b]) | Int(s[b + 1]) << 8 | Int(s[b + 2]) << 16 | Int(s[b + 3]) << 24
}

@Suite("Sidecars and markers inside the audio")
struct SidecarOutputTests {
    static let recipe = """
        id: sidecars
        title: Evening <Box> & Co
        category: Sleep
        duration: 41.5s
        intro: 3.25s
        outro: 2s
        pattern: box
        bed: { synth: brown-noise, gain: -24 dB }
        output: { sample_rate: 22050, channels: 2 }
        """

    @Test("WAV: a labelled cue point at every phase, the intro and the outro; INFO tags; still a valid WAV")
    func wavMarkers() throws {
        let folder = try TempFolder("sidecars-wav")
        let recipe = try folder.write(Self.recipe, to: "s.yml")
        let output = folder.file("s.wav")
        let (_, sheet) = try renderInProcess(recipe, to: output)
        let chunks = try riffChunks(try bytes(output))
        let cue = try #require(chunks.first { $0.id == "cue " }?.body)
        let count = le32(cue, 0)
        var expected: [(Int64, String)] = [(0, "Intro")] + sheet.phases.map { ($0.startFrame, $0.label) }
        expected.append((sheet.sections.last!.startFrame, "Outro"))
        #expect(count == expected.count)
        var positions: [Int: Int] = [:]
        for k in 0..<count {
            let id = le32(cue, 4 + 24 * k)
            #expect(le32(cue, 4 + 24 * k + 4) == le32(cue, 4 + 24 * k + 20))  // position == sample offset
            positions[id] = le32(cue, 4 + 24 * k + 20)
        }
        // labels, by cue id, from LIST/adtl
        let adtl = try #require(chunks.first { $0.id == "LIST" && String(decoding: $0.body.prefix(4), as: UTF8.self) == "adtl" }?.body)
        var labels: [Int: String] = [:]
        var i = adtl.startIndex + 4
        while i < adtl.endIndex {
            let id = String(decoding: adtl[i..<(i + 4)], as: UTF8.self)
            let size = le32(adtl, i - adtl.startIndex + 4)
            if id == "labl" {
                let body = adtl[(i + 8)..<(i + 8 + size)]
                labels[le32(body, 0)] = String(decoding: body.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
            }
            i += 8 + size + (size & 1)
        }
        let found = positions.keys.sorted().map { (Int64(positions[$0]!), labels[$0] ?? "?") }
        #expect(found.map(\.0) == expected.map(\.0))
        #expect(found.map(\.1) == expected.map(\.1))
        // title / album / comment in LIST INFO
        let info = try #require(chunks.first { $0.id == "LIST" && String(decoding: $0.body.prefix(4), as: UTF8.self) == "INFO" }?.body)
        let infoText = String(decoding: info, as: UTF8.self)
        #expect(infoText.contains("INAM") && infoText.contains("Evening <Box> & Co"))
        #expect(infoText.contains("IPRD") && infoText.contains("Sleep"))
        // the audio is untouched: libsndfile reads every frame
        let audio = try readAudio(output)
        #expect(Int64(audio.frames) == sheet.audio.frames)
        #expect(sheet.audio.sha256 == (try sha256(ofFile: output)))
    }

    @Test("FLAC and Ogg: chapter comments and tags that ffprobe and metaflac read; FLAC verifies")
    func chapterComments() throws {
        let folder = try TempFolder("sidecars-flac")
        let recipe = try folder.write(Self.recipe, to: "s.yml")
        for ext in ["flac", "ogg"] {
            let output = folder.file("s.\(ext)")
            let (_, sheet) = try renderInProcess(recipe, to: output)
            let expectedStarts = sheet.sections.map { Double($0.startFrame) / Double(sheet.audio.sampleRate) }
            guard let ffprobe = which("ffprobe") else { throw TestFailure("ffprobe is not installed: run scripts/setup.sh") }
            let result = try run(ffprobe, ["-v", "error", "-show_chapters", "-show_format", "-show_streams", "-of", "json", output])
            #expect(result.status == 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let chapters = try #require(object["chapters"] as? [[String: Any]])
            #expect(chapters.count == 3, "\(ext)")
            let titles = chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String }
            #expect(titles == ["Intro", "Box Breathing", "Outro"], "\(ext)")
            let starts = chapters.compactMap { ($0["start_time"] as? String).flatMap(Double.init) }
            #expect(starts.count == 3)
            for (a, b) in zip(starts, expectedStarts) { #expect(abs(a - b) < 0.0011, "\(ext): \(a) vs \(b)") }
            // FLAC tags are the container's, Ogg Vorbis comments the stream's
            var tags = ((object["format"] as? [String: Any])?["tags"] as? [String: Any]) ?? [:]
            for stream in object["streams"] as? [[String: Any]] ?? [] {
                tags.merge((stream["tags"] as? [String: Any]) ?? [:]) { a, _ in a }
            }
            let lower = Dictionary(tags.map { ($0.key.lowercased(), "\($0.value)") }) { a, _ in a }
            #expect(lower["title"] == "Evening <Box> & Co", "\(ext): \(tags)")
            #expect(lower["album"] == "Sleep", "\(ext)")
            #expect(Int64(try readAudio(output).frames) == sheet.audio.frames, "\(ext)")
        }
        if let flac = which("flac") {
            let test = try run(flac, ["-t", "-s", folder.file("s.flac")])
            #expect(test.status == 0, "flac -t: \(test.stderr)")
        }
        if let metaflac = which("metaflac") {
            let tags = try run(metaflac, ["--export-tags-to=-", folder.file("s.flac")]).stdout
            #expect(tags.contains("CHAPTER001=00:00:00.000\n"))
            #expect(tags.contains("CHAPTER002=00:00:03.250\nCHAPTER002NAME=Box Breathing\n"))
            let seek = try run(metaflac, ["--list", "--block-type=SEEKTABLE", folder.file("s.flac")]).stdout
            #expect(seek.contains("seek points: 5"), "a seek point every 10 s of 41.5 s: \(seek)")
        }
    }

    @Test("--sidecars writes WebVTT and chapters that match the cue sheet; recipes can ask too; same bytes twice")
    func sidecarFiles() throws {
        let folder = try TempFolder("sidecars-files")
        let recipe = try folder.write(Self.recipe, to: "s.yml")
        var digests: [[String]] = []
        for round in 0..<2 {
            let output = folder.file("r\(round)/s.flac")
            _ = try folder.folder("r\(round)")
            let result = try runRender([recipe, "-o", output, "--sidecars", "vtt,chapters", "-q"])
            #expect(result.status == 0, "\(result.stderr)")
            let sheet = try readCueSheet(folder.file("r\(round)/s.cues.json"))
            let vtt = try String(contentsOfFile: folder.file("r\(round)/s.vtt"), encoding: .utf8)
            let timings = vtt.split(separator: "\n").filter { $0.contains(" --> ") }
            #expect(timings.count == sheet.phases.count)
            #expect(timings.first == "00:00:03.250 --> 00:00:07.250")
            #expect(vtt.contains("\nBreathe In\n") && vtt.contains("\nBreathe Out\n"))
            let chapters = try readJSONObject(folder.file("r\(round)/s.chapters.json"))
            #expect((chapters["chapters"] as? [[String: Any]])?.count == 3)
            #expect(!FileManager.default.fileExists(atPath: folder.file("r\(round)/s.svg")))
            digests.append(try ["s.flac", "s.cues.json", "s.vtt", "s.chapters.json"].map { try sha256(ofFile: folder.file("r\(round)/\($0)")) })
        }
        #expect(digests[0] == digests[1])

        // a recipe's own list; a picture is an SVG with a band per phase
        let own = try folder.write(Self.recipe.replacingOccurrences(of: "channels: 2 }", with: "channels: 2, sidecars: [waveform] }"), to: "own.yml")
        let result = try runRender([own, "-o", folder.file("own.wav"), "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOfFile: folder.file("own.svg"), encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("</svg>"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("own.vtt")))
    }

    @Test("--sidecars ahap,haptics: OUT.ahap and OUT.haptics.json beside the audio, from the timeline's haptic steps (default guides)")
    func hapticsFiles() throws {
        let folder = try TempFolder("sidecars-haptics")
        let recipe = try folder.write(Self.recipe, to: "s.yml")
        let tracks = try RenderJob(recipePath: recipe, outputPath: folder.file("s.wav"), sidecars: [.ahap, .haptics]).run()
        let track = try #require(tracks.first?.rendered)
        #expect(track.sidecarPaths == [folder.file("s.ahap"), folder.file("s.haptics.json")])
        let t = try Timeline(recipe: RecipeLoader.load(path: recipe))
        let steps = HapticSteps(timeline: t, envelope: BreathEnvelope(timeline: t, guide: .defaults))
        #expect(try String(contentsOfFile: folder.file("s.ahap"), encoding: .utf8) == AHAP.text(of: steps, id: "sidecars"))
        #expect(try String(contentsOfFile: folder.file("s.haptics.json"), encoding: .utf8) == AndroidHaptics.jsonText(of: steps, id: "sidecars"))
        let waveform = try readJSONObject(folder.file("s.haptics.json"))
        let timings = try #require(waveform["timings_ms"] as? [Int])
        #expect(Int64(timings.reduce(0, +)) == HapticSteps.ms(track.frames, rate: 22050))
        #expect(!FileManager.default.fileExists(atPath: folder.file("s.vtt")))
    }

    @Test("unknown sidecar names: 64 on the command line, file:line:col in a recipe")
    func badNames() throws {
        let folder = try TempFolder("sidecars-bad")
        let recipe = try folder.write(Self.recipe, to: "s.yml")
        let cli = try runRender([recipe, "-o", folder.file("s.flac"), "--sidecars", "vtt,srt"])
        #expect(cli.status == 64)
        #expect(cli.stderr.contains("srt"))
        let bad = try folder.write(
            Self.recipe.replacingOccurrences(of: "channels: 2 }", with: "channels: 2, sidecars: [vtt, chapter] }"), to: "bad.yml")
        let result = try runRender([bad, "-o", folder.file("bad.flac")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad.yml:9:"), "\(result.stderr)")
        #expect(result.stderr.contains("output.sidecars") && result.stderr.contains("did you mean 'chapters'"), "\(result.stderr)")
        #expect(try folder.listing().sorted() == ["bad.yml", "s.yml"])
    }
}
