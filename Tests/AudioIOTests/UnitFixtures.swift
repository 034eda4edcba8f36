import AudioCore
import Foundation
import TestKit

@testable import AudioIO

/// Known signals, and files written and read with the product's own writers and reader, for the
/// unit tests of AudioIO (no `render` binary).
enum UnitFixture {
    /// `amplitude · sin(2π · hertz · n / rate)` on every channel, interleaved (TestKit's `Fixture.sine`).
    static func sine(hertz: Double, amplitude: Double, frames: Int, channels: Int = 1, rate: Int) -> [Float] {
        Fixture.sine(frequency: hertz, amplitude: amplitude, sampleRate: rate, channels: channels, frames: frames)
    }

    /// Opens `path` for a writer (created or emptied), runs `body` with its descriptor, closes it.
    static func withDescriptor(_ path: String, _ body: (Int32) throws -> Void) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try body(fd)
    }

    /// Writes with a `SoundFileWriter` made for `path`: `body` writes the samples, then the file is finished.
    private static func write(
        channels: Int, rate: Int, format: SoundFileWriter.Format, to path: String, _ body: (SoundFileWriter) throws -> Void
    ) throws {
        try withDescriptor(path) { fd in
            let writer = try SoundFileWriter(fileDescriptor: fd, path: path, format: format, sampleRate: rate, channels: channels)
            try body(writer)
            try writer.finish()
        }
    }

    /// Writes interleaved floats with `SoundFileWriter`.
    static func write(_ samples: [Float], channels: Int, rate: Int, format: SoundFileWriter.Format, to path: String) throws {
        try write(channels: channels, rate: rate, format: format, to: path) { writer in
            try samples.withUnsafeBufferPointer { try writer.write($0, frames: samples.count / channels) }
        }
    }

    /// Writes interleaved 16-bit samples with `SoundFileWriter`.
    static func write(_ samples: [Int16], channels: Int, rate: Int, format: SoundFileWriter.Format, to path: String) throws {
        try write(channels: channels, rate: rate, format: format, to: path) { writer in
            try samples.withUnsafeBufferPointer { try writer.write($0, frames: samples.count / channels) }
        }
    }

    /// Writes interleaved left-justified 32-bit samples with `SoundFileWriter`.
    static func write(_ samples: [Int32], channels: Int, rate: Int, format: SoundFileWriter.Format, to path: String) throws {
        try write(channels: channels, rate: rate, format: format, to: path) { writer in
            try samples.withUnsafeBufferPointer { try writer.write($0, frames: samples.count / channels) }
        }
    }

    /// A whole file as `SoundFileReader` reads it, in blocks of `block` frames.
    struct Read {
        var sampleRate: Int
        var channels: Int
        var claimedFrames: Int64
        var samples: [Float]
        var frames: Int { samples.count / channels }
    }

    static func read(_ path: String, block: Int = 4096) throws -> Read {
        let reader = try SoundFileReader(path: path)
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: block * reader.channels)
        while true {
            let got = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0, frames: block) }
            if got == 0 { break }
            samples += buffer[0..<(got * reader.channels)]
        }
        return Read(sampleRate: reader.sampleRate, channels: reader.channels, claimedFrames: reader.frames, samples: samples)
    }

    /// Every frame `AudioDecoder.decode` hands its sink.
    static func decode(
        _ path: String, rate: Int, channels: Int, maximumFrames: Int64 = 1 << 40, input: Range<Int64>? = nil
    ) throws -> (produced: Int64, samples: [Float]) {
        var samples: [Float] = []
        let produced = try AudioDecoder.decode(
            path: path, sampleRate: rate, channels: channels, maximumFrames: maximumFrames, input: input
        ) { block, frames in
            samples += block[0..<(frames * channels)]
        }
        return (produced, samples)
    }

    /// The AudioError `body` throws, or nil.
    static func audioError(_ body: () throws -> Void) -> AudioError? {
        do {
            try body()
            return nil
        } catch let error as AudioError {
            return error
        } catch {
            return AudioError(file: "?", operation: "unexpected", reason: "\(error)", kind: .software)
        }
    }

    /// Little-endian integers in a file's bytes.
    static func le16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    static func le32(_ bytes: [UInt8], _ at: Int) -> Int { le16(bytes, at) | le16(bytes, at + 2) << 16 }

    /// The chunks of a RIFF/WAVE file: (id, offset of the body, body size), in order.
    static func riffChunks(_ bytes: [UInt8]) -> [(id: String, body: Int, size: Int)] {
        var chunks: [(id: String, body: Int, size: Int)] = []
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let size = le32(bytes, at + 4)
            chunks.append((id, at + 8, size))
            at += 8 + size + size % 2
        }
        return chunks
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
}
