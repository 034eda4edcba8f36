import AudioIO
import CSndfile
import CadenceCues
import Foundation
import Recipe
import TestKit
import Testing

@testable import Render

/// An output format and bit depth to render twice.
struct FormatCase: CustomTestStringConvertible, Sendable {
    let fileExtension: String
    let bitDepth: String?
    var testDescription: String { ".\(fileExtension)" + (bitDepth.map { " \($0)" } ?? "") }
}

@Suite("Reproducible renders")
struct ReproducibilityTests {
    static func recipe(bitDepth: String?) -> String {
        """
        id: same-bytes
        title: Same Bytes
        duration: 5s
        intro: 0.5s
        \(inlinePattern([TestPhase(kind: "inhale", length: "1.5s"), TestPhase(kind: "exhale", length: "2.5s")]))bed:
          synth: pink-noise
          gain: -10 dB
          fade_in: 0.5s
          fade_out: 1s
        output:
          sample_rate: 48000
          channels: 2
        \(bitDepth.map { "  bit_depth: \($0)\n" } ?? "")  loudness: -18 LUFS
        """
    }

    @Test(
        "the same recipe renders to the same bytes, and audio.sha256 is the file's hash",
        arguments: [
            FormatCase(fileExtension: "flac", bitDepth: "24"),
            FormatCase(fileExtension: "wav", bitDepth: "16"),
            FormatCase(fileExtension: "wav", bitDepth: "32f"),
            FormatCase(fileExtension: "ogg", bitDepth: nil),
            // libsndfile's Ogg Opus serial came from the clock; MP3 gets its ID3v2 tag from us
            FormatCase(fileExtension: "opus", bitDepth: nil),
            FormatCase(fileExtension: "mp3", bitDepth: nil),
            FormatCase(fileExtension: "m4a", bitDepth: nil),
        ])
    func sameBytes(_ c: FormatCase) throws {
        let folder = try TempFolder("repro")
        let recipe = try folder.write(Self.recipe(bitDepth: c.bitDepth), to: "same-bytes.yml")
        let first = folder.file("one/same-bytes.\(c.fileExtension)")
        let second = folder.file("two/same-bytes.\(c.fileExtension)")
        let (_, sheet) = try renderInProcess(recipe, to: first)
        try renderInProcess(recipe, to: second)

        let a = try bytes(first), b = try bytes(second)
        #expect(a.count > 1000)
        #expect(
            a == b,
            "two renders differ (\(a.count) vs \(b.count) bytes, first difference at byte \(zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)))"
        )
        #expect(try bytes(cueSheetPath(for: first)) == bytes(cueSheetPath(for: second)), "the cue sheets differ")

        #expect(sheet.audio.sha256 == (try sha256(ofFile: first)), "audio.sha256 is not the hash of the file")
        #expect(sheet.audio.sha256.count == 64)
        #expect(sheet.audio.file == "same-bytes.\(c.fileExtension)")

        // and the file is what its extension says (libsndfile does not read M4A)
        guard c.fileExtension != "m4a" else { return }
        let format = try #require(soundFormat(first), "libsndfile cannot open the render")
        let expectedMajor: Int32 =
            switch c.fileExtension {
            case "flac": SoundFileWriter.Format.flac24.major
            case "wav": SoundFileWriter.Format.wav16.major
            case "mp3": SoundFileWriter.Format.mp3.major
            default: SoundFileWriter.Format.opus.major  // Ogg container
            }
        #expect(format.major == expectedMajor)
        switch c.bitDepth {
        case "16": #expect(format.subtype == SoundFileWriter.Format.wav16.subtype)
        case "24": #expect(format.subtype == SoundFileWriter.Format.flac24.subtype)
        case "32f": #expect(format.subtype == SoundFileWriter.Format.wavFloat.subtype)
        default: break
        }
    }

    /// A float WAV past RIFF's 4 GiB is RF64 (`TrackEncoder.needsRF64`). The encoder is told the
    /// track is 9 hours long, which chooses RF64, and given one second: the same file without
    /// writing 10 GB. libsndfile 1.2 stamps the clock into the PEAK chunk it adds to RF64 float
    /// files, so two encodings a second apart differed in 4 bytes.
    @Test("an RF64 float WAV is the same bytes every time: no PEAK chunk with the clock in it")
    func rf64SameBytes() throws {
        let folder = try TempFolder("repro-rf64")
        let rate = 48000
        let samples = Fixture.sine(frequency: 440, amplitudes: [0.5, 0.25], sampleRate: rate, frames: rate)
        let metadata = EmbeddedMetadata(
            tags: [("TITLE", "Sleep")], chapterComments: [], chapterPoints: [], chapters: [], markers: [.init(frame: 0, label: "Intro")])
        func encode(_ name: String) throws -> [UInt8] {
            let path = folder.file(name)
            let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
            defer { close(fd) }
            let encoder = try TrackEncoder(
                format: .wav, bitDepth: .float32, bitrate: nil, fileDescriptor: fd, path: path, sampleRate: rate, channels: 2,
                totalFrames: Int64(9 * 3600 * rate), seed: 1, serial: 1, metadata: metadata)
            try samples.withUnsafeBufferPointer { try encoder.write($0, frames: rate, channels: 2) }
            try encoder.finish()
            return try bytes(path)
        }
        let first = try encode("one.wav")
        let second = try encode("two.wav")
        #expect(Array(first[0..<4]) == Array("RF64".utf8))
        #expect(
            first == second, "two encodings differ at byte \(zip(first, second).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        // the chunks: none is PEAK (a plain RIFF float WAV has none either)
        var ids: [String] = []
        var at = 12
        while at + 8 <= first.count {
            ids.append(String(decoding: first[at..<(at + 4)], as: UTF8.self))
            var size = (0..<4).reduce(0) { $0 | Int(first[at + 4 + $1]) << (8 * $1) }
            if ids.last == "data" { size = 2 * 4 * rate }  // RF64 keeps data's size in ds64
            at += 8 + size + size % 2
        }
        #expect(!ids.contains("PEAK"), "\(ids)")
        #expect(ids.first == "ds64" && ids.contains("data") && ids.contains("cue "), "\(ids)")
        // and the readers take it whole: libsndfile, sndfile-info, and ffprobe
        if let info = which("sndfile-info") {
            let listed = try run(info, [folder.file("one.wav")])
            // (its RF64 parser calls the markers' `cue ` chunk after the data an unknown marker, and skips it)
            #expect(listed.stdout.contains("JUNK : 24") && !listed.stdout.contains("PEAK"), "\(listed)")
            #expect(listed.stdout.contains("Frames      : \(rate)"), "\(listed)")
        }
        #expect(soundFormat(folder.file("one.wav"))?.major == Int32(SF_FORMAT_RF64))
        #expect(try readAudio(folder.file("one.wav")).frames == rate)
        if let ffprobe = which("ffprobe") {
            let probe = try run(
                ffprobe,
                ["-v", "error", "-count_packets", "-show_entries", "stream=codec_name,duration_ts", "-of", "csv=p=0", folder.file("one.wav")])
            #expect(probe.status == 0 && probe.stderr.isEmpty, "\(probe)")
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_f32le,\(rate)", "\(probe)")
        }
    }

    @Test("16-bit output is TPDF-dithered, and digital silence stays exactly 0")
    func dither() throws {
        let folder = try TempFolder("dither")
        let rate = 48000
        // 1 s of digital silence, 3 s of a quiet 440 Hz sine (-40 dBFS), 1 s of silence
        let silent = rate, tone = 3 * rate
        let sine = Fixture.sine(frequency: 440, amplitudes: [0.01], sampleRate: rate, frames: tone)
        let bed = [Float](repeating: 0, count: silent) + sine + [Float](repeating: 0, count: silent)
        try Fixture.writeSound(folder.file("assets/quiet.wav"), bed, sampleRate: rate, channels: 1)
        func recipe(_ depth: String) -> String {
            """
            duration: 5s
            \(inlinePattern([TestPhase(kind: "inhale", length: "2s"), TestPhase(kind: "exhale", length: "2s")]))cues: {}
            bed:
              file: quiet.wav
            output:
              sample_rate: \(rate)
              channels: 2
              bit_depth: \(depth)
              loudness: off
            """
        }
        let path16 = try folder.write(recipe("16"), to: "q16.yml")
        let path24 = try folder.write(recipe("24"), to: "q24.yml")
        try renderInProcess(path16, to: folder.file("out/q16.wav"), assets: folder.file("assets"))
        try renderInProcess(path24, to: folder.file("out/q24.wav"), assets: folder.file("assets"))
        let a16 = try readAudio(folder.file("out/q16.wav"))
        let a24 = try readAudio(folder.file("out/q24.wav"))
        try #require(a16.frames == 5 * rate && a24.frames == 5 * rate)

        // silence is silence, on every channel
        #expect(a16.peak(0..<silent) == 0, "dither noise in the leading silence")
        #expect(a16.peak((silent + tone)..<a16.frames) == 0, "dither noise in the trailing silence")

        // within the tone: the error against the exact value is dither plus rounding, not rounding alone
        var differing = 0, count = 0
        var sum = 0.0, sumSquares = 0.0, worst = 0.0
        for n in silent..<(silent + tone) {
            for c in 0..<2 {
                let exact = Double(sine[n - silent]) * 32767  // the float mix, in 16-bit steps
                let got = Double(a16[n, c]) * 32768  // libsndfile reads 16-bit as k / 32768
                let plain = exact.rounded()
                if got != plain { differing += 1 }
                let error = got - exact
                sum += error
                sumSquares += error * error
                worst = max(worst, abs(error))
                count += 1
            }
        }
        let mean = sum / Double(count)
        let variance = sumSquares / Double(count) - mean * mean
        // rounding alone: variance 1/12 LSB², no sample off the nearest step;
        // TPDF of ±1 LSB adds 1/6: about 1/4 in all
        #expect(Double(differing) / Double(count) > 0.2, "only \(differing) of \(count) samples differ from plain rounding: no dither?")
        #expect(variance > 0.15 && variance < 0.4, "error variance \(variance) LSB², TPDF dither gives about 0.25")
        #expect(abs(mean) < 0.05, "dither error is biased: mean \(mean) LSB")
        #expect(worst <= 1.5 + 1e-6, "error of \(worst) LSB: more than ±1 LSB of TPDF plus rounding")

        // the 24-bit render of the same mix is the plain rounding of it (no dither there);
        // a float product may round the other way on a rare half step
        var off24 = 0, worst24 = 0.0
        for n in silent..<(silent + tone) {
            let difference = abs(Double(a24[n, 0]) * 8_388_608 - (Double(sine[n - silent]) * 8_388_607).rounded())
            if difference != 0 { off24 += 1 }
            worst24 = max(worst24, difference)
        }
        #expect(
            Double(off24) / Double(tone) < 0.01 && worst24 <= 1,
            "24-bit output should be rounded, not dithered (\(off24) of \(tone) off, by up to \(worst24))")
    }
}
