import AudioCore
import Foundation
import TestKit
import Testing

@testable import AudioIO

/// `SoundFileReader` and `AudioDecoder`, in process: files written with the product's writer are
/// read back sample for sample; damaged, empty, missing and non-audio files fail with the right kind.
@Suite struct SoundFileReaderTests {
    /// Distinct values on every channel: frame n, channel c holds a value no other sample holds.
    static func ramp16(frames: Int, channels: Int) -> [Int16] {
        var out: [Int16] = []
        for n in 0..<frames {
            for c in 0..<channels { out.append(Int16(truncatingIfNeeded: (n * 7 + c * 11_003) % 65_536 - 32_768)) }
        }
        out[0] = .min
        out[out.count - 1] = .max
        return out
    }

    @Test(
        "16-bit PCM reads back exactly (x / 32768), channels in order",
        arguments: [(SoundFileWriter.Format.wav16, 1), (.wav16, 2), (.flac16, 2), (.wav16, 3)])
    func pcm16(format: SoundFileWriter.Format, channels: Int) throws {
        let folder = try TempFolder("reader16")
        let path = folder.file("a" + (format == .flac16 ? ".flac" : ".wav"))
        let samples = Self.ramp16(frames: 10_007, channels: channels)
        try UnitFixture.write(samples, channels: channels, rate: 44_100, format: format, to: path)
        let read = try UnitFixture.read(path)
        #expect(read.sampleRate == 44_100)
        #expect(read.channels == channels)
        #expect(read.claimedFrames == 10_007)
        try #require(read.samples.count == samples.count)
        let mismatches = (0..<samples.count).filter { read.samples[$0] * 32_768 != Float(samples[$0]) }
        #expect(mismatches.isEmpty, "first at \(mismatches.first ?? 0)")
    }

    @Test("24-bit FLAC reads back exactly (x / 2^23), the extremes included")
    func flac24() throws {
        let folder = try TempFolder("reader24")
        let path = folder.file("a.flac")
        var values: [Int32] = (0..<9000).map { Int32(($0 * 1_864_135) % 16_777_216 - 8_388_608) }
        values[0] = -8_388_608
        values[1] = 8_388_607
        try UnitFixture.write(values.map { $0 << 8 }, channels: 2, rate: 96_000, format: .flac24, to: path)
        let read = try UnitFixture.read(path, block: 1000)
        #expect(read.sampleRate == 96_000 && read.channels == 2 && read.frames == 4500)
        try #require(read.samples.count == values.count)
        #expect((0..<values.count).allSatisfy { read.samples[$0] * 8_388_608 == Float(values[$0]) })
    }

    @Test("float WAV reads back bit for bit, values past ±1 included")
    func float32() throws {
        let folder = try TempFolder("readerf")
        let path = folder.file("a.wav")
        var samples = UnitFixture.sine(hertz: 997, amplitude: 0.8, frames: 5003, channels: 2, rate: 48_000)
        samples[10] = 1.5
        samples[11] = -999.5
        samples[12] = .leastNonzeroMagnitude
        try UnitFixture.write(samples, channels: 2, rate: 48_000, format: .wavFloat, to: path)
        let read = try UnitFixture.read(path, block: 333)
        #expect(read.samples.map(\.bitPattern) == samples.map(\.bitPattern))
    }

    @Test("a NaN or a sample past ±1000 is refused, naming its frame and channel across block boundaries")
    func damagedSamples() throws {
        let folder = try TempFolder("readernan")
        for (value, words) in [(Float.nan, "a NaN"), (1001, "the sample value 1001")] {
            let path = folder.file("a.wav")
            var samples = [Float](repeating: 0.25, count: 6000 * 2)
            samples[5000 * 2 + 1] = value
            try UnitFixture.write(samples, channels: 2, rate: 48_000, format: .wavFloat, to: path)
            let error = UnitFixture.audioError { _ = try UnitFixture.read(path, block: 4096) }
            #expect(error?.kind == .data)
            #expect(error?.reason.contains("frame 5000 (0.104167 s), channel 2, holds \(words)") == true, "\(String(describing: error))")
        }
    }

    @Test("seek lands on the frame asked for in WAV and FLAC", arguments: [SoundFileWriter.Format.wav16, .flac16])
    func seek(format: SoundFileWriter.Format) throws {
        let folder = try TempFolder("readerseek")
        let path = folder.file("a" + (format == .flac16 ? ".flac" : ".wav"))
        let samples = Self.ramp16(frames: 20_000, channels: 2)
        try UnitFixture.write(samples, channels: 2, rate: 48_000, format: format, to: path)
        let reader = try SoundFileReader(path: path)
        #expect(reader.seeksExactly)
        #expect(reader.seek(to: 12_345))
        var buffer = [Float](repeating: 0, count: 100 * 2)
        let got = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0, frames: 100) }
        #expect(got == 100 && reader.position == 12_445)
        #expect((0..<200).allSatisfy { buffer[$0] * 32_768 == Float(samples[12_345 * 2 + $0]) })
    }

    @Test("a WAV cut short reads the frames it holds, its header's claim kept; the decoder decodes as far as it goes")
    func truncated() throws {
        let folder = try TempFolder("readercut")
        let path = folder.file("a.wav")
        let samples = Self.ramp16(frames: 10_000, channels: 2)
        try UnitFixture.write(samples, channels: 2, rate: 48_000, format: .wav16, to: path)
        let bytes = try UnitFixture.bytes(path)
        let data = try #require(UnitFixture.riffChunks(bytes).first { $0.id == "data" })
        // 1000 whole frames and half of the next
        try Data(bytes[0..<(data.body + 1000 * 4 + 2)]).write(to: URL(fileURLWithPath: path))
        let read = try UnitFixture.read(path)
        #expect(read.frames == 1000)
        #expect((0..<2000).allSatisfy { read.samples[$0] * 32_768 == Float(samples[$0]) })
        let decoded = try UnitFixture.decode(path, rate: 48_000, channels: 2)
        #expect(decoded.produced == 1000)
    }

    /// What is written as bad.wav, the kind of failure reading it must give, and words of its reason.
    struct Refused: Sendable, CustomTestStringConvertible {
        let label: String
        let kind: FailureKind
        let words: String
        let make: @Sendable (_ folder: TempFolder, _ path: String) throws -> Void
        var testDescription: String { label }
    }

    static let refusedFiles: [Refused] = [
        Refused(label: "text", kind: .data, words: "not a sound file in a format libsndfile knows") { folder, _ in
            try folder.write("this is not audio, just some words in a file\n", to: "bad.wav")
        },
        Refused(label: "empty", kind: .data, words: "the file is empty (0 bytes), not a sound file") { folder, _ in
            try folder.write("", to: "bad.wav")
        },
        Refused(label: "missing", kind: .noInput, words: "no such file") { _, _ in },
        Refused(label: "folder", kind: .noInput, words: "is a directory, not a sound file") { folder, _ in try folder.folder("bad.wav") },
        Refused(label: "no frames", kind: .data, words: "the file holds no audio (0 frames)") { _, path in
            try UnitFixture.write([Int16](), channels: 2, rate: 48_000, format: .wav16, to: path)
        },
        Refused(
            label: "header only", kind: .data,
            words: "the file is damaged or cut short (libsndfile: Error in WAV/W64/RF64 file. Malformed 'fmt ' chunk)"
        ) { _, path in
            // the first 20 bytes of a good WAV: RIFF, WAVE and part of fmt
            try UnitFixture.write(SoundFileReaderTests.ramp16(frames: 10, channels: 1), channels: 1, rate: 48_000, format: .wav16, to: path)
            try Data(try UnitFixture.bytes(path)[0..<20]).write(to: URL(fileURLWithPath: path))
        },
    ]

    @Test("what is not a readable sound file is refused with its kind and the reason", arguments: refusedFiles)
    func refused(_ c: Refused) throws {
        let folder = try TempFolder("readerbad")
        let path = folder.file("bad.wav")
        try c.make(folder, path)
        let kind = c.kind
        let words = c.words
        let error = UnitFixture.audioError { _ = try SoundFileReader(path: path) }
        #expect(error?.kind == kind, "\(String(describing: error))")
        #expect(error?.reason.contains(words) == true, "\(String(describing: error))")
    }
}

/// `AudioDecoder.decode`: channel mapping, ranges, the length limit and rate conversion.
@Suite struct AudioDecoderTests {
    /// A stereo WAV whose left channel is `left` and right `right` at every frame.
    static func constantStereo(_ left: Float, _ right: Float, frames: Int, rate: Int = 48_000, in folder: TempFolder) throws -> String {
        let path = folder.file("stereo.wav")
        let samples = (0..<frames).flatMap { _ in [left, right] }
        try UnitFixture.write(samples, channels: 2, rate: rate, format: .wavFloat, to: path)
        return path
    }

    @Test(
        "stereo is averaged to mono, mono spread to every channel, more channels take source channel i mod n",
        arguments: [
            (2, 1, [Float(-0.125)]), (2, 2, [0.25, -0.5]), (2, 3, [0.25, -0.5, 0.25]), (2, 4, [0.25, -0.5, 0.25, -0.5]),
            (1, 3, [0.25, 0.25, 0.25]),
        ])
    func channelMapping(source: Int, channels: Int, frame: [Float]) throws {
        let folder = try TempFolder("decodemap")
        let path: String
        if source == 2 {
            path = try Self.constantStereo(0.25, -0.5, frames: 5000, in: folder)
        } else {
            path = folder.file("mono.wav")
            try UnitFixture.write([Float](repeating: 0.25, count: 5000), channels: 1, rate: 48_000, format: .wavFloat, to: path)
        }
        let decoded = try UnitFixture.decode(path, rate: 48_000, channels: channels)
        #expect(decoded.produced == 5000)
        #expect(decoded.samples == Array((0..<5000).map { _ in frame }.joined()))
    }

    @Test("an input range yields exactly those source frames, from a WAV and a FLAC", arguments: ["wav", "flac"])
    func range(_ ext: String) throws {
        let folder = try TempFolder("decoderange")
        let path = folder.file("a.\(ext)")
        let samples = SoundFileReaderTests.ramp16(frames: 12_000, channels: 2)
        try UnitFixture.write(samples, channels: 2, rate: 44_100, format: ext == "wav" ? .wav16 : .flac16, to: path)
        let decoded = try UnitFixture.decode(path, rate: 44_100, channels: 2, input: 4095..<9001)
        #expect(decoded.produced == 9001 - 4095)
        #expect(decoded.samples.map { $0 * 32_768 } == samples[(4095 * 2)..<(9001 * 2)].map(Float.init))
        // a range past the end yields nothing, and is no error
        #expect(try UnitFixture.decode(path, rate: 44_100, channels: 2, input: 20_000..<30_000).produced == 0)
    }

    @Test("a file longer than the limit is refused before decoding; one at the limit decodes")
    func limit() throws {
        let folder = try TempFolder("decodelimit")
        let path = try Self.constantStereo(0.1, 0.1, frames: 10_000, in: folder)
        #expect(try UnitFixture.decode(path, rate: 48_000, channels: 2, maximumFrames: 10_000).produced == 10_000)
        let error = UnitFixture.audioError { _ = try UnitFixture.decode(path, rate: 48_000, channels: 2, maximumFrames: 9999) }
        #expect(error?.kind == .data)
        #expect(error?.reason.contains("(10000 frames at 48000 Hz), longer than the limit") == true, "\(String(describing: error))")
        // converted to 96 kHz the same file is 20,000 frames
        #expect(UnitFixture.audioError { _ = try UnitFixture.decode(path, rate: 96_000, channels: 2, maximumFrames: 19_999) } != nil)
    }

    @Test("decoded at another rate, a file gives the samples of one whole conversion, streamed block by block, at its level")
    func resampled() throws {
        let folder = try TempFolder("decoderate")
        let path = try Self.constantStereo(0.5, -0.25, frames: 44_100, rate: 44_100, in: folder)
        let decoded = try UnitFixture.decode(path, rate: 48_000, channels: 2)
        let whole = try SampleRateConverter.convert(
            (0..<44_100).flatMap { _ -> [Float] in [0.5, -0.25] }, channels: 2, from: 44_100, to: 48_000, name: "whole")
        // libsamplerate drains one frame past n · 48000 / 44100 = 48000 when upsampling
        #expect(decoded.produced == 48_001)
        #expect(decoded.samples == whole)
        // away from the ends, where the sinc filter rings, the constant passes
        let middle = (1000..<47_000).map { (decoded.samples[2 * $0], decoded.samples[2 * $0 + 1]) }
        #expect(middle.allSatisfy { abs($0.0 - 0.5) < 1e-3 && abs($0.1 + 0.25) < 1e-3 })
    }

    static let durations: [(frames: Int64, rate: Int, text: String)] = [
        (48_000 * 60, 48_000, "60 s"), (24_000, 48_000, "0.500 s"), (48_000 * 5400, 48_000, "1 h 30 min"), (44_100 * 3600 * 432, 44_100, "432 h"),
    ]

    @Test("a file's duration in words", arguments: durations)
    func duration(_ frames: Int64, _ rate: Int, _ text: String) {
        #expect(AudioDecoder.duration(frames, rate: rate) == text)
    }
}
