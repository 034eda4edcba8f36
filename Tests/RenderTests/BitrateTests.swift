import AudioCore
import AudioIO
import Foundation
import Recipe
import Render
import TestKit
import Testing

/// `output.bitrate` (recipe-v1.1 § Output) through the encoders: the file's audio comes out at
/// the asked rate, the defaults are the spec's, and what a codec cannot do is refused before
/// anything is written.
@Suite("Bit rate of lossy output")
struct BitrateTests {
    /// `seconds` of pink noise under bells: a bed keeps every encoder busy, so its average rate
    /// is the one it was asked for (silence would let the VBR encoders spend far less). 15 s
    /// is enough: the largest fixed overhead, Vorbis's codebooks, is about 2 % of it at 96k.
    static func recipe(format: String, bitrate: String?, rate: Int = 48000, channels: Int = 2, seconds: Int = 15) -> String {
        """
        title: Bit rate case
        pattern:
          name: Bit rate
          phases:
            - inhale: 2s
            - exhale: 3s
        duration: \(seconds)s
        intro: 0s
        outro: 0s
        bed: { synth: pink-noise, gain: -20 dB }
        output:
          format: \(format)
          sample_rate: \(rate)
          channels: \(channels)
        \(bitrate.map { "  bitrate: \($0)\n" } ?? "")
        """
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var bitrate: String?
        /// What the file's size over its length must come to, in bits per second.
        var expected: Int
        var rate = 48000
        var channels = 2
        var testDescription: String { "\(format) \(bitrate ?? "default") at \(rate) Hz × \(channels)" }
    }

    static let cases: [Case] = [
        Case(format: "m4a", bitrate: "96k", expected: 96_000),
        Case(format: "m4a", bitrate: "256 kbps", expected: 256_000),
        Case(format: "m4a", bitrate: nil, expected: 128_000, rate: 44100, channels: 1),
        Case(format: "ogg", bitrate: "96k", expected: 96_000),
        Case(format: "ogg", bitrate: "192k", expected: 192_000, rate: 44100, channels: 1),
        Case(format: "opus", bitrate: "64k", expected: 64_000),
        Case(format: "opus", bitrate: nil, expected: 96_000),
        Case(format: "mp3", bitrate: "128k", expected: 128_000),
        Case(format: "mp3", bitrate: nil, expected: 192_000, rate: 44100),
    ]

    @Test("the file's size over its length is the asked bit rate within ±15 %", arguments: cases)
    func rate(_ c: Case) throws {
        let folder = try TempFolder("bitrate")
        let path = try folder.write(Self.recipe(format: c.format, bitrate: c.bitrate, rate: c.rate, channels: c.channels), to: "t.yml")
        let (track, sheet) = try renderInProcess(path, to: folder.file("t.\(c.format)"))
        let seconds = Double(sheet.audio.frames) / Double(sheet.audio.sampleRate)
        #expect(seconds == 15)
        let measured = Double(track.bytes) * 8 / seconds
        let off = measured / Double(c.expected) - 1
        #expect(abs(off) <= 0.15, "\(Int(measured)) bits/s against \(c.expected) (\(String(format: "%+.1f", off * 100)) %)")
    }

    @Test("a higher bit rate gives a larger file: the setting reaches the encoder", arguments: ["m4a", "ogg", "opus", "mp3"])
    func ordered(_ format: String) throws {
        let folder = try TempFolder("bitrate-order")
        var sizes: [Int64] = []
        for bitrate in ["64k", "160k"] {
            let path = try folder.write(Self.recipe(format: format, bitrate: bitrate, seconds: 5), to: "\(bitrate).yml")
            sizes.append(try renderInProcess(path, to: folder.file("\(bitrate).\(format)")).track.bytes)
        }
        #expect(Double(sizes[1]) > Double(sizes[0]) * 2, "\(sizes)")
    }

    @Test("a bit rate with a lossless format from -o is refused at its line, and nothing is written", arguments: ["flac", "wav", "caf"])
    func losslessFromExtension(_ ext: String) throws {
        let folder = try TempFolder("bitrate-lossless")
        let text = "pattern: box\ncycles: 1\noutput:\n  bitrate: 128k\n"
        let path = try folder.write(text, to: "t.yml")
        let refused = try #require(renderFailure(path, to: folder.file("t.\(ext)")))
        #expect(refused.description.contains("t.yml:4:12: error: output.bitrate: \(ext) is lossless"), "\(refused)")
        #expect(try folder.listing() == ["t.yml"])
    }

    @Test("a bit rate libvorbis has no mode for is refused by --check and by the render, naming the range it takes")
    func vorbisRange() throws {
        let folder = try TempFolder("bitrate-vorbis")
        let path = try folder.write("pattern: box\ncycles: 1\noutput:\n  format: ogg\n  bitrate: 32k\n", to: "t.yml")
        let recipe = try RecipeLoader.load(path: path)
        #expect(throws: DiagnosticList.self) { try TrackRenderer.checked(recipe: recipe, assets: nil) }
        let refused = try #require(renderFailure(path, to: folder.file("t.ogg")))
        #expect(refused.description.contains("t.yml:5:12: error: output.bitrate: libvorbis cannot encode 32k at 48000 Hz stereo"), "\(refused)")
        #expect(refused.description.contains("it takes 45k to 320k there"), "\(refused)")
        #expect(try folder.listing() == ["t.yml"])
        #expect(OggVorbisWriter.accepts(bitrate: 45_000, sampleRate: 48000, channels: 2))
        #expect(!OggVorbisWriter.accepts(bitrate: 44_000, sampleRate: 48000, channels: 2))
    }

    @Test("libsndfile's compression level lands on the asked rate after its truncation")
    func compressionLevels() throws {
        // MP3 at 32 kHz and above: 320 − level × 288, truncated
        for kbps in [32, 96, 128, 192, 256, 320] {
            let level = try #require(SoundFileWriter.compressionLevel(bitrate: kbps * 1000, format: .mp3, sampleRate: 48000, channels: 2))
            #expect(Int(320.0 - level * 288.0) == kbps)
        }
        // below 32 kHz: 160 − level × 152
        let low = try #require(SoundFileWriter.compressionLevel(bitrate: 64_000, format: .mp3, sampleRate: 22050, channels: 2))
        #expect(Int(160.0 - low * 152.0) == 64)
        // Opus: ((1 − level) × 250000 + 6000) per channel, truncated
        for bits in [32_000, 64_000, 96_000, 320_000] {
            let level = try #require(SoundFileWriter.compressionLevel(bitrate: bits, format: .opus, sampleRate: 48000, channels: 2))
            #expect(Int((1.0 - level) * 250_000.0 + 6000.0) * 2 == bits)
        }
        #expect(SoundFileWriter.compressionLevel(bitrate: 128_000, format: .wav16, sampleRate: 48000, channels: 2) == nil)
    }
}

/// The sample rates each lossy format can be written at, as `--check` states them without an
/// encoder, against what the encoders themselves accept (issue 15: Opus at 44.1 kHz passed
/// `--check` and then failed with libsndfile's raw message, exit 73).
@Suite("Sample rates of lossy output")
struct LossyRateTests {
    @Test("Ogg Vorbis: libvorbis has a mode up to the format table's highest rate and none above, at every channel count")
    func vorbisLimitIsLibvorbis() throws {
        let highest = try #require(AudioFormat.ogg.facts.highestSampleRate)
        for channels in 1...8 {
            for rate in [8000, 11025, 22050, 44100, 48000, 96000, 192_000, highest] {
                #expect(OggVorbisWriter.accepts(quality: 0.5, sampleRate: rate, channels: channels), "\(channels) ch at \(rate) Hz")
            }
            #expect(!OggVorbisWriter.accepts(quality: 0.5, sampleRate: highest + 1, channels: channels))
        }
    }

    @Test(
        "a rate the format cannot take is refused by --check at output.sample_rate (65), naming the rates it takes",
        arguments: [
            ("opus", 44100, "Opus cannot be written at 44100 Hz"), ("mp3", 96000, "MP3 cannot be written at 96000 Hz"),
            ("ogg", 384_000, "Ogg Vorbis cannot be written at 384000 Hz"), ("m4a", 37800, "AAC (format m4a) cannot be written"),
        ])
    func refusedByCheck(format: String, rate: Int, words: String) throws {
        let folder = try TempFolder("lossy-rate")
        let recipe = try folder.write(
            "id: r\ncycles: 1\npattern: box\noutput: { format: \(format), sample_rate: \(rate) }\n", to: "recipes/r.yml")
        let checked = try runRender(["--check", recipe])
        #expect(checked.status == 65 && checked.stderr.contains("r.yml:4:") && checked.stderr.contains(words), "\(checked)")
        // and a recipe without a format, written to that extension, is refused the same way, before any file
        let plain = try folder.write("id: p\ncycles: 1\npattern: box\noutput: { sample_rate: \(rate) }\n", to: "recipes/p.yml")
        let rendered = try runRender([plain, "-o", folder.file("p.\(format)"), "-q"])
        #expect(rendered.status == 65 && rendered.stderr.contains(words), "\(rendered)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("p.\(format)")))
    }

    @Test("every rate a fixed-rate format lists is one its encoder opens", arguments: ["opus", "mp3", "m4a"])
    func listedRatesOpen(format: String) throws {
        let folder = try TempFolder("lossy-rate-ok")
        let audioFormat = try #require(AudioFormat(rawValue: format))
        let rates = try #require(RecipeLimits.fixedSampleRates(of: audioFormat))
        for rate in rates {
            let recipe = try folder.write(
                "id: r\nduration: 1s\nend_on: phase\npattern: { phases: [ { inhale: 1s } ] }\noutput: { format: \(format), sample_rate: \(rate), loudness: off }\n",
                to: "recipes/r\(rate).yml")
            let result = try runRender([recipe, "-o", folder.file("r\(rate).\(format)"), "-q"])
            #expect(result.status == 0, "\(format) at \(rate) Hz: \(result)")
        }
    }
}
