import CadenceCues
import Catalog
import CatalogManifest
import Foundation
import TestKit
import Testing

/// `render --format FORMAT`: FLAC masters delivered in another format, one track or a catalog.
@Suite("render --format: another delivery format than the recipe's")
struct FormatOptionTests {
    static func recipe(id: String, seconds: Int) -> String {
        """
        id: \(id)
        title: \(id)
        category: Tests
        duration: \(seconds)s
        pattern: { phases: [ { inhale: 1s }, { exhale: 1s } ] }
        bed: { synth: pink-noise, gain: -24 dB }
        output: { format: flac, bit_depth: 24, sample_rate: 44100, channels: 1 }
        """
    }

    @Test("a catalog of FLAC recipes renders as M4A: the files, the manifest and the cue sheets say m4a")
    func catalogAsM4A() throws {
        let folder = try TempFolder("format-catalog")
        _ = try folder.write(Self.recipe(id: "one", seconds: 3), to: "recipes/one.yml")
        _ = try folder.write(Self.recipe(id: "two", seconds: 4), to: "recipes/two.yml")
        let result = try runRender([folder.file("recipes"), "-o", folder.file("dist"), "--format", "m4a", "-q"])
        try #require(result.status == 0, "\(result)")
        // quiet means quiet: libavcodec's own log (the AAC encoder's "Qavg: …" on close) is silenced
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let manifest = try #require(try Manifest.read(folder: folder.file("dist")))
        #expect(manifest.tracks.map(\.file) == ["one.m4a", "two.m4a"])
        for track in manifest.tracks {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("dist/\(track.file)")))
            // an MP4 file: 'ftyp' at byte 4, the iTunes brand
            #expect(bytes.count > 8 && String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp", "\(track.file)")
            let sheet = try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: folder.file("dist/\(track.cues)"))))
            #expect(sheet.audio.file == track.file && sheet.audio.frames == track.frames)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist/one.flac")))
    }

    @Test("one recipe: --format m4a writes <id>.m4a, and -o must agree with it")
    func oneTrack() throws {
        let folder = try TempFolder("format-one")
        let path = try folder.write(Self.recipe(id: "solo", seconds: 3), to: "solo.yml")
        let written = try runRender([path, "--format", "m4a", "-q"], in: folder.path)
        try #require(written.status == 0, "\(written)")
        #expect(written.stderr.isEmpty, "\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("solo.m4a")))
        let clash = try runRender([path, "--format", "m4a", "-o", folder.file("solo.flac"), "-q"])
        #expect(clash.status == 65 && clash.stderr.contains("-o names a .flac file"), "\(clash)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("solo.flac")))
    }

    @Test(
        "-o with an extension render cannot write is a usage error naming the ones it can, whatever the recipe's format",
        arguments: [
            ("x.mp4", "(did you mean '.m4a'?)"), ("x.aiff", "it writes .wav, .flac, .ogg, .opus, .mp3, .caf or .m4a"),
            ("x.flca", "(did you mean '.flac'?)"),
        ])
    func unwritableExtension(name: String, words: String) throws {
        let folder = try TempFolder("format-extension")
        // with the recipe's output.format (flac), and without one
        for text in [Self.recipe(id: "solo", seconds: 3), Self.recipe(id: "solo", seconds: 3).replacingOccurrences(of: "format: flac, ", with: "")] {
            let path = try folder.write(text, to: "solo.yml")
            let result = try runRender([path, "-o", folder.file(name), "-q"])
            #expect(result.status == 64 && result.stderr.contains("render cannot write a .\((name as NSString).pathExtension) file"), "\(result)")
            #expect(result.stderr.contains(words), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file(name)))
        }
    }

    @Test("what the delivery format cannot take is refused at the recipe's line: 32f in FLAC-only ALAC, a bit rate in WAV")
    func refusedAtTheLine() throws {
        let folder = try TempFolder("format-refused")
        let float = try folder.write("pattern: box\ncycles: 1\noutput: { format: wav, bit_depth: 32f }\n", to: "float.yml")
        let floatRun = try runRender([float, "--format", "alac", "-o", folder.file("float.m4a")])
        #expect(
            floatRun.status == 65 && floatRun.stderr.contains("float.yml:3:35: error: output.bit_depth: alac cannot store 32-bit float"),
            "\(floatRun)")
        let lossy = try folder.write("pattern: box\ncycles: 1\noutput: { format: ogg, bitrate: 96k }\n", to: "lossy.yml")
        let lossyRun = try runRender([lossy, "--format", "wav", "-o", folder.file("lossy.wav")])
        #expect(lossyRun.status == 65 && lossyRun.stderr.contains("lossy.yml:3:33: error: output.bitrate: wav is lossless"), "\(lossyRun)")
        #expect(try folder.listing() == ["float.yml", "lossy.yml"])
    }

    @Test("an unknown --format word is a usage error", arguments: ["aac", "mp4", ""])
    func unknownWord(_ word: String) throws {
        let result = try runRender(["x.yml", "--format", word])
        #expect(result.status == 64, "\(result)")
    }
}
