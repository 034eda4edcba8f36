import AudioCore
import AudioIO
import CadenceCues
import Foundation
import Recipe
import TestKit
import Testing

/// `format: m4a` and `format: alac` through `render`: the file holds exactly the timeline's
/// frames (the edit list), cues land on their frames, AAC keeps the loudness contract,
/// ALAC decodes to the FLAC render's very samples.
@Suite("M4A output: AAC and Apple Lossless tracks")
struct M4AOutputTests {
    static let tools = which("ffmpeg") != nil && which("ffprobe") != nil

    /// 12 s of 2 s phases with a tone on each boundary, no bed: onsets stand out of silence.
    /// At -20 LUFS the limiter stays idle: a pure tone it squares off comes back from the AAC
    /// encoder's low-pass about as far over the ceiling as the limiter took it down (the
    /// render then rightly refuses the target), which is not what these tests are about.
    static func recipe(format: String, rate: Int = 48000, channels: Int = 2, depth: String = "24", loudness: String = "-20 LUFS") -> String {
        """
        title: M4A case
        category: Tests
        duration: 12s
        \(inlinePattern([TestPhase(kind: "inhale", length: "2s"), TestPhase(kind: "exhale", length: "2s")]))cues:
          inhale: { tone: 440 Hz, length: 300ms, gain: -12 dB, envelope: bell }
          exhale: { tone: 660 Hz, length: 300ms, gain: -12 dB, envelope: bell }
          start: none
          end: none
        output:
          format: \(format)
          sample_rate: \(rate)
          channels: \(channels)
          bit_depth: \(depth)
          loudness: \(loudness)
        """
    }

    /// Interleaved float samples of `path`, decoded by ffmpeg (honouring the edit list's start).
    static func decode(_ path: String, folder: TempFolder) throws -> [Float] {
        let raw = folder.file(UUID().uuidString + ".f32")
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", path, "-f", "f32le", "-acodec", "pcm_f32le", raw])
        try #require(result.status == 0, "\(result)")
        return try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The first frame from `from` on whose magnitude passes `fraction` of the loudest in the next 0.3 s.
    static func onset(_ samples: [Float], channels: Int, from: Int, rate: Int, fraction: Float = 0.25) -> Int? {
        let end = min(samples.count / channels, from + rate * 3 / 10)
        guard end > from else { return nil }
        var loudest: Float = 0
        for i in (from * channels)..<(end * channels) { loudest = max(loudest, abs(samples[i])) }
        guard loudest > 0 else { return nil }
        for f in from..<end where (0..<channels).contains(where: { abs(samples[f * channels + $0]) > loudest * fraction }) { return f }
        return nil
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var rate: Int
        var channels: Int
        var testDescription: String { "\(rate) Hz, \(channels) channel\(channels == 1 ? "" : "s")" }
    }

    @Test(
        "an AAC track: the edit list lasts the timeline's frames, onsets match the lossless render's, loudness within 0.5 LU and true peak under the ceiling",
        .enabled(if: tools, "needs ffmpeg to decode the file"),
        arguments: [Case(rate: 48000, channels: 2), Case(rate: 44100, channels: 1), Case(rate: 48000, channels: 1), Case(rate: 44100, channels: 2)])
    func aacTrack(_ c: Case) throws {
        let folder = try TempFolder("m4a-track")
        let recipe = try folder.write(Self.recipe(format: "m4a", rate: c.rate, channels: c.channels), to: "t.yml")
        let lossless = try folder.write(Self.recipe(format: "wav", rate: c.rate, channels: c.channels, depth: "32f"), to: "w.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out/t.m4a"))
        let (_, reference) = try renderInProcess(lossless, to: folder.file("out/w.wav"))
        let frames = Int(sheet.audio.frames)
        #expect(sheet.audio.file == "t.m4a")
        #expect(frames == 12 * c.rate && reference.audio.frames == sheet.audio.frames)

        let file = try MP4File(path: folder.file("out/t.m4a"))
        #expect(file.movieTimescale == c.rate)
        #expect(file.audioEdits?.first?.duration == Int64(frames), "\(String(describing: file.audioEdits))")

        let decoded = try Self.decode(folder.file("out/t.m4a"), folder: folder)
        let wav = try readAudio(folder.file("out/w.wav"))
        try #require(decoded.count >= frames * c.channels)
        let heard = Array(decoded[0..<(frames * c.channels)])
        // every cue: the AAC onset within 64 frames of the lossless one (half an AAC short block;
        // a delay left in or doubled would be 1024 frames or more); the edit list above is exact
        let starts = sheet.phases.map { Int($0.startFrame) }
        #expect(starts.count == 6)
        for start in starts {
            let a = Self.onset(heard, channels: c.channels, from: max(0, start - c.rate / 20), rate: c.rate)
            let b = Self.onset(wav.samples, channels: c.channels, from: max(0, start - c.rate / 20), rate: c.rate)
            #expect(a != nil && b != nil && abs(a! - b!) <= 64, "phase at \(start): AAC onset \(a ?? -1), lossless \(b ?? -1)")
        }
        let measured = try measureLoudness(DecodedAudio(sampleRate: c.rate, channels: c.channels, samples: heard, headerFrames: Int64(frames)))
        #expect(abs(measured.lufs + 20) <= 0.5, "decoded AAC measures \(measured.lufs) LUFS")
        #expect(measured.truePeak <= -1 + 0.05, "decoded AAC peaks at \(measured.truePeak) dBTP")
        #expect(abs((sheet.audio.loudnessLUFS ?? 0) - measured.lufs) <= 0.1, "the cue sheet says \(sheet.audio.loudnessLUFS ?? 0)")
    }

    @Test(
        "an ALAC track decodes to the 24-bit FLAC render's very samples, frame count included (16 bits differ only by the dither, seeded from the recipe, format included)",
        .enabled(if: tools, "needs ffmpeg to decode the files"), arguments: ["24"])
    func alacMatchesFlac(_ depth: String) throws {
        let folder = try TempFolder("m4a-alac")
        let alac = try folder.write(Self.recipe(format: "alac", depth: depth), to: "a.yml")
        let flac = try folder.write(Self.recipe(format: "flac", depth: depth), to: "f.yml")
        let (_, sheet) = try renderInProcess(alac, to: folder.file("out/a.m4a"))
        _ = try renderInProcess(flac, to: folder.file("out/f.flac"))
        let probe = try run(
            try #require(which("ffprobe")), ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", folder.file("out/a.m4a")])
        #expect(probe.stdout.split(separator: "\n").first == "alac", "\(probe)")
        var decoded: [[Int32]] = []
        for name in ["out/a.m4a", "out/f.flac"] {
            let raw = folder.file(name + ".s32")
            let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", folder.file(name), "-f", "s32le", "-acodec", "pcm_s32le", raw])
            try #require(result.status == 0, "\(result)")
            decoded.append(try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) })
        }
        #expect(decoded[0].count == Int(sheet.audio.frames) * 2, "ALAC decodes to \(decoded[0].count / 2) frames")
        #expect(decoded[0] == decoded[1], "ALAC and FLAC renders differ")
    }

    @Test(
        "-o x.m4a is AAC unless the recipe says alac; a recipe saying flac does not agree with it; the same recipe gives the same bytes",
        .enabled(if: tools, "needs ffprobe"))
    func extensionAndBytes() throws {
        let folder = try TempFolder("m4a-ext")
        let plain = try folder.write(Self.recipe(format: "m4a").replacingOccurrences(of: "  format: m4a\n", with: ""), to: "p.yml")
        let first = try renderInProcess(plain, to: folder.file("out/p.m4a"))
        let second = try renderInProcess(plain, to: folder.file("out/q.m4a"))
        let probe = try run(
            try #require(which("ffprobe")), ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", folder.file("out/p.m4a")])
        #expect(probe.stdout.split(separator: "\n").first == "aac", "\(probe)")
        #expect(first.sheet.audio.sha256 == second.sheet.audio.sha256, "two renders of one recipe differ")
        #expect(try bytes(folder.file("out/p.m4a")) == bytes(folder.file("out/q.m4a")))
        let flac = try folder.write(Self.recipe(format: "flac"), to: "f.yml")
        let refused = renderFailure(flac, to: folder.file("out/f.m4a"))
        // the library names the setting; the command line prints `-o` there (CommandTextTests)
        #expect(
            refused?.diagnostics.first?.message.contains("output.format is 'flac' but the output path names a .m4a file") == true,
            "\(String(describing: refused))")
        #expect(refused?.diagnostics.first?.setting == SettingMention(words: .outputPath, occurrence: 0))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/f.m4a")))
    }

    @Test("-o x.m4a at a rate AAC cannot take is refused at output.sample_rate, naming the rates it takes")
    func rateRefused() throws {
        let folder = try TempFolder("m4a-rate")
        let recipe = try folder.write(Self.recipe(format: "m4a", rate: 37800).replacingOccurrences(of: "  format: m4a\n", with: ""), to: "r.yml")
        let refused = try #require(renderFailure(recipe, to: folder.file("out/r.m4a")))
        let message = refused.diagnostics.first?.message ?? ""
        #expect(message.contains("output.sample_rate") && message.contains("37800") && message.contains("44100, 48000"), "\(message)")
        #expect(refused.diagnostics.first?.location?.line == 15, "\(refused)")
    }

    @Test("the output-format table's AAC rates are libavcodec's encoder's, from the lowest rate Cadence renders")
    func aacRatesAgree() throws {
        let rates = try #require(RecipeLimits.fixedSampleRates(of: .m4a))
        #expect(rates == M4AWriter.encoderSampleRates().filter(RecipeLimits.sampleRates.contains))
        #expect(M4AWriter.encoderSampleRates().contains(7350) && !rates.contains(7350))
    }
}
