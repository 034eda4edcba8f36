import AudioCore
import Foundation
import TestKit
import Testing

@testable import AudioIO

/// `SoundFileWriter` and `FLACWriter`, in process: the samples written are the ones on disk and
/// read back, and the headers say what was asked for.
@Suite struct SoundFileWriterTests {
    @Test(
        "a PCM WAV's fmt chunk and data size: (format, channels, rate, bits)",
        arguments: [(SoundFileWriter.Format.wav16, 1, 8000, 16), (.wav16, 2, 44_100, 16), (.wav24, 2, 48_000, 24), (.wav24, 6, 96_000, 24)])
    func wavHeader(format: SoundFileWriter.Format, channels: Int, rate: Int, bits: Int) throws {
        let folder = try TempFolder("wavheader")
        let path = folder.file("a.wav")
        let frames = 1001
        try UnitFixture.write([Int32](repeating: 1 << 16, count: frames * channels), channels: channels, rate: rate, format: format, to: path)
        let bytes = try UnitFixture.bytes(path)
        #expect(String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" && String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE")
        #expect(UnitFixture.le32(bytes, 4) == bytes.count - 8)
        let chunks = UnitFixture.riffChunks(bytes)
        let fmt = try #require(chunks.first { $0.id == "fmt " })
        let tag = UnitFixture.le16(bytes, fmt.body)
        // 1: PCM; 0xFFFE (WAVE_FORMAT_EXTENSIBLE) is what libsndfile writes for more than two channels or 24 bits
        #expect(tag == 1 || tag == 0xFFFE)
        #expect(UnitFixture.le16(bytes, fmt.body + 2) == channels)
        #expect(UnitFixture.le32(bytes, fmt.body + 4) == rate)
        #expect(UnitFixture.le32(bytes, fmt.body + 8) == rate * channels * bits / 8)
        #expect(UnitFixture.le16(bytes, fmt.body + 12) == channels * bits / 8)
        #expect(UnitFixture.le16(bytes, fmt.body + 14) == bits)
        let data = try #require(chunks.first { $0.id == "data" })
        #expect(data.size == frames * channels * bits / 8)
    }

    @Test("16-bit samples are stored as they were given, little-endian, channels interleaved in order")
    func wav16Bytes() throws {
        let folder = try TempFolder("wav16bytes")
        let path = folder.file("a.wav")
        let samples: [Int16] = [0, 1, -1, .max, .min, 12_345, -12_345, 256]
        try UnitFixture.write(samples, channels: 2, rate: 48_000, format: .wav16, to: path)
        let bytes = try UnitFixture.bytes(path)
        let data = try #require(UnitFixture.riffChunks(bytes).first { $0.id == "data" })
        let stored = (0..<samples.count).map { Int16(truncatingIfNeeded: UnitFixture.le16(bytes, data.body + 2 * $0)) }
        #expect(stored == samples)
    }

    @Test("24-bit samples given left-justified are stored as their top 3 bytes")
    func wav24Bytes() throws {
        let folder = try TempFolder("wav24bytes")
        let path = folder.file("a.wav")
        let values: [Int32] = [0, 1, -1, 8_388_607, -8_388_608, 1_234_567, -7_654_321, 65_536]
        try UnitFixture.write(values.map { $0 << 8 }, channels: 1, rate: 48_000, format: .wav24, to: path)
        let bytes = try UnitFixture.bytes(path)
        let data = try #require(UnitFixture.riffChunks(bytes).first { $0.id == "data" })
        let stored = (0..<values.count).map { i -> Int32 in
            let at = data.body + 3 * i
            let raw = Int32(bytes[at]) | Int32(bytes[at + 1]) << 8 | Int32(bytes[at + 2]) << 16
            return (raw << 8) >> 8  // sign-extend 24 bits
        }
        #expect(stored == values)
    }

    @Test("a float WAV has format 3, 32 bits, and no PEAK chunk (which would stamp the time into the file)")
    func floatHasNoPeakChunk() throws {
        let folder = try TempFolder("wavfloat")
        let first = folder.file("a.wav")
        let samples = UnitFixture.sine(hertz: 440, amplitude: 0.5, frames: 4800, channels: 2, rate: 48_000)
        try UnitFixture.write(samples, channels: 2, rate: 48_000, format: .wavFloat, to: first)
        let bytes = try UnitFixture.bytes(first)
        let chunks = UnitFixture.riffChunks(bytes)
        #expect(!chunks.contains { $0.id == "PEAK" }, "\(chunks.map(\.id))")
        let fmt = try #require(chunks.first { $0.id == "fmt " })
        #expect(UnitFixture.le16(bytes, fmt.body) == 3 && UnitFixture.le16(bytes, fmt.body + 14) == 32)
    }

    @Test("writing after finish is a software error; finishing twice is harmless")
    func afterFinish() throws {
        let folder = try TempFolder("wavfinish")
        let path = folder.file("a.wav")
        try UnitFixture.withDescriptor(path) { fd in
            let writer = try SoundFileWriter(fileDescriptor: fd, path: path, format: .wav16, sampleRate: 48_000, channels: 1)
            try writer.finish()
            try writer.finish()
            let error = UnitFixture.audioError { try [Int16(1)].withUnsafeBufferPointer { try writer.write($0, frames: 1) } }
            #expect(error?.kind == .software)
        }
    }

    @Test(
        "a format libsndfile cannot write is refused before anything is written",
        arguments: [(SoundFileWriter.Format.flac16, 48_000, 0), (.wav24, 48_000, 2000)])
    func refused(format: SoundFileWriter.Format, rate: Int, channels: Int) throws {
        let folder = try TempFolder("wavrefused")
        let path = folder.file("a.out")
        try UnitFixture.withDescriptor(path) { fd in
            let error = UnitFixture.audioError {
                _ = try SoundFileWriter(fileDescriptor: fd, path: path, format: format, sampleRate: rate, channels: channels)
            }
            #expect(error?.kind == .data && error?.operation == "sf_format_check")
        }
        #expect(try UnitFixture.bytes(path).isEmpty)
    }

    @Test(
        "MP3 and Opus bit rates map to libsndfile's compression level; other formats have none",
        arguments: [
            (SoundFileWriter.Format.mp3, 128_000, 48_000, 2, 0.66493), (.mp3, 320_000, 48_000, 2, 0.0),
            (.mp3, 64_000, 22_050, 1, 0.62829), (.opus, 96_000, 48_000, 2, 0.83200), (.opus, 8000, 48_000, 2, 1.0),
        ])
    func compressionLevel(format: SoundFileWriter.Format, bitrate: Int, rate: Int, channels: Int, level: Double) throws {
        let found = try #require(SoundFileWriter.compressionLevel(bitrate: bitrate, format: format, sampleRate: rate, channels: channels))
        #expect(abs(found - level) < 1e-4, "\(found)")
        #expect(SoundFileWriter.compressionLevel(bitrate: bitrate, format: .flac16, sampleRate: rate, channels: channels) == nil)
    }
}

/// `FLACWriter` (libFLAC): right-justified integers in, the same integers out, STREAMINFO, the
/// Vorbis comments in order and a seek point every 10 s.
@Suite struct FLACWriterTests {
    static func write(
        _ values: [Int32], channels: Int, rate: Int, bits: Int, comments: [(String, String)] = [], to path: String
    ) throws {
        try UnitFixture.withDescriptor(path) { fd in
            let writer = try FLACWriter(
                fileDescriptor: fd, path: path, sampleRate: rate, channels: channels, bitsPerSample: bits,
                totalFrames: Int64(values.count / channels), comments: comments)
            // in uneven pieces, as a render's blocks end where they end
            var done = 0
            for piece in [1, 4095, 4097, 333] + Array(repeating: 10_000, count: values.count / channels / 10_000 + 1) {
                let frames = min(piece, values.count / channels - done)
                guard frames > 0 else { break }
                try values.withUnsafeBufferPointer {
                    try writer.write(UnsafeBufferPointer(rebasing: $0[(done * channels)..<((done + frames) * channels)]), frames: frames)
                }
                done += frames
            }
            try writer.finish()
            try writer.finish()
        }
    }

    /// FLAC's metadata blocks: (type, body bytes).
    static func metadata(_ bytes: [UInt8]) -> [(type: Int, body: ArraySlice<UInt8>)] {
        guard bytes.count > 4, bytes[0..<4] == [0x66, 0x4C, 0x61, 0x43][...] else { return [] }
        var blocks: [(type: Int, body: ArraySlice<UInt8>)] = []
        var at = 4
        while at + 4 <= bytes.count {
            let last = bytes[at] & 0x80 != 0
            let length = Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            blocks.append((Int(bytes[at] & 0x7F), bytes[(at + 4)..<(at + 4 + length)]))
            at += 4 + length
            if last { break }
        }
        return blocks
    }

    @Test("the integers written are the ones decoded, at 16 and 24 bits, extremes included", arguments: [(16, 1), (16, 2), (24, 2)])
    func samples(bits: Int, channels: Int) throws {
        let folder = try TempFolder("flacsamples")
        let path = folder.file("a.flac")
        let top = Int32(1) << (bits - 1)
        let frames = 25_003
        var values = (0..<(frames * channels)).map { i in Int32((i * 2_654_435) % Int(2 * top)) - top }
        values[0] = -top
        values[1] = top - 1
        try Self.write(values, channels: channels, rate: 44_100, bits: bits, to: path)
        let read = try UnitFixture.read(path)
        #expect(read.sampleRate == 44_100 && read.channels == channels && read.claimedFrames == Int64(frames))
        try #require(read.samples.count == values.count)
        #expect((0..<values.count).allSatisfy { read.samples[$0] * Float(top) == Float(values[$0]) })
    }

    @Test("STREAMINFO holds the rate, channels, bits and frames; the comments come in order; a seek point every 10 s")
    func headers() throws {
        let folder = try TempFolder("flacheaders")
        let path = folder.file("a.flac")
        let rate = 8000
        let frames = 25 * rate + 17
        let comments = [("TITLE", "Box breathing"), ("CHAPTER001", "00:00:00.000"), ("CHAPTER001NAME", "Intro"), ("TITLE", "again")]
        try Self.write([Int32](repeating: 7, count: frames * 2), channels: 2, rate: rate, bits: 24, comments: comments, to: path)
        let blocks = Self.metadata(try UnitFixture.bytes(path))
        try #require(blocks.first?.type == 0)
        let info = Array(blocks[0].body)
        #expect(info.count == 34)
        let packed = info[10..<18].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(Int(packed >> 44) == rate)
        #expect(Int(packed >> 41 & 0x7) + 1 == 2)
        #expect(Int(packed >> 36 & 0x1F) + 1 == 24)
        #expect(Int(packed & 0xF_FFFF_FFFF) == frames)

        let comment = Array(try #require(blocks.first { $0.type == 4 }).body)
        var at = 4 + UnitFixture.le32(comment, 0)
        let count = UnitFixture.le32(comment, at)
        at += 4
        var found: [String] = []
        for _ in 0..<count {
            let length = UnitFixture.le32(comment, at)
            found.append(String(decoding: comment[(at + 4)..<(at + 4 + length)], as: UTF8.self))
            at += 4 + length
        }
        #expect(found == comments.map { "\($0.0)=\($0.1)" })

        let table = Array(try #require(blocks.first { $0.type == 3 }).body)
        let points = stride(from: 0, to: table.count, by: 18).map { table[$0..<($0 + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        // a point for 0 s, 10 s and 20 s, each filled with the first sample of the frame holding it
        #expect(points.count == 3, "\(points)")
        for (k, sample) in points.enumerated() {
            #expect(sample <= UInt64(k * 10 * rate) && sample + 4096 > UInt64(k * 10 * rate), "point \(k): \(sample)")
        }
    }
}
