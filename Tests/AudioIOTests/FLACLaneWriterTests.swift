import AudioCore
import Foundation
import TestKit
import Testing

@testable import AudioIO

/// `FLACLaneWriter`: several libFLAC encoders, each on every `lanes`-th chunk, make the very
/// file one `FLACWriter` makes of the same samples (frame numbers, both CRCs, STREAMINFO's
/// frame sizes, sample count and MD5, the seek table's offsets).
@Suite struct FLACLaneWriterTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var channels: Int
        var rate: Int
        var bits: Int
        var frames: Int
        var lanes: Int
        var testDescription: String { "\(channels) ch, \(rate) Hz, \(bits)-bit, \(frames) frames, \(lanes) lanes" }
    }

    static let chunk = FLACLaneWriter.chunkFrames
    static let block = FLACLaneWriter.blockFrames

    @Test(
        "the lanes' file is FLACWriter's, byte for byte",
        arguments: [
            // a partial last chunk on lane 1; 48 kHz needs no rate bytes in the header
            Case(channels: 2, rate: 48_000, bits: 24, frames: 5 * chunk + 1234, lanes: 2),
            // whole chunks only; 11025 Hz is coded in 16 bits after the frame number
            Case(channels: 1, rate: 11_025, bits: 16, frames: 4 * chunk, lanes: 2),
            // shorter than a block: lane 1 gets nothing, the one frame is lane 0's last
            Case(channels: 2, rate: 44_100, bits: 16, frames: 100, lanes: 2),
            // the last chunk is whole blocks but not a whole chunk; three lanes; rate in tens of Hz
            Case(channels: 2, rate: 37_800, bits: 24, frames: 3 * chunk + 2 * block, lanes: 3),
            // frame numbers from 128 (two bytes) to past 2048 (three bytes); 8 kHz's own code
            Case(channels: 1, rate: 8_000, bits: 16, frames: 2_100 * block + 17, lanes: 2),
        ])
    func sameBytes(_ c: Case) throws {
        let folder = try TempFolder("flaclanes")
        let samples = Self.signal(frames: c.frames, channels: c.channels, bits: c.bits)
        let comments = [("TITLE", "Lanes"), ("CHAPTER001", "00:00:00.000")]
        let single = folder.file("single.flac")
        try UnitFixture.withDescriptor(single) { fd in
            let writer = try FLACWriter(
                fileDescriptor: fd, path: single, sampleRate: c.rate, channels: c.channels, bitsPerSample: c.bits,
                totalFrames: Int64(c.frames), comments: comments)
            try samples.withUnsafeBufferPointer { try writer.write($0, frames: c.frames) }
            try writer.finish()
        }
        let lanes = folder.file("lanes.flac")
        try UnitFixture.withDescriptor(lanes) { fd in
            let writer = try FLACLaneWriter(
                fileDescriptor: fd, path: lanes, sampleRate: c.rate, channels: c.channels, bitsPerSample: c.bits,
                totalFrames: Int64(c.frames), comments: comments, lanes: c.lanes)
            try Self.feed(samples, channels: c.channels, into: writer)
            try writer.finish()
        }
        let expected = try UnitFixture.bytes(single)
        let found = try UnitFixture.bytes(lanes)
        #expect(found.count == expected.count)
        let firstDifference = zip(found, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first difference at byte \(firstDifference ?? -1) of \(expected.count)")
    }

    @Test("a full disk is the render's error, named as such")
    func fullDisk() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let samples = Self.signal(frames: 40 * Self.chunk, channels: 2, bits: 24)
        let error = #expect(throws: AudioError.self) {
            let writer = try FLACLaneWriter(
                fileDescriptor: fd, path: "/dev/full", sampleRate: 48_000, channels: 2, bitsPerSample: 24,
                totalFrames: Int64(40 * Self.chunk), comments: [], lanes: 2)
            try Self.feed(samples, channels: 2, into: writer)
            try writer.finish()
        }
        #expect(error?.kind == .cannotCreate)
        #expect(error?.description.lowercased().contains(String(cString: strerror(ENOSPC)).lowercased()) == true, "\(String(describing: error))")
    }

    @Test("a renumbered frame's CRC-16 is the CRC of its bytes, for every length of number")
    func crcCorrection() throws {
        // a frame made up: header (48 kHz stereo 16-bit, 4096 a block), a body, its CRCs
        var generator = SplitMix64(seed: 34)
        for number: UInt32 in [0, 1, 127, 128, 2047, 2048, 65_535, 65_536, 2_097_152, 0x7FFF_FFFF] {
            var frame: [UInt8] = [0xFF, 0xF8, 0xCA, 0x18]
            FLACFrameNumber.appendCoded(number, to: &frame)
            frame.append(FLACFrameNumber.crc8(frame))
            let bodyLength = Int(generator.next() % 9000)
            frame += (0..<bodyLength).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let crc = FLACFrameNumber.crc16(frame)
            frame += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
            for target: UInt32 in [5, 200, 3000, 70_000, 0x7FFF_FFFE] {
                let renumbered = try #require(frame.withUnsafeBytes { FLACFrameNumber.renumbered($0, as: target) })
                var direct: [UInt8] = [0xFF, 0xF8, 0xCA, 0x18]
                FLACFrameNumber.appendCoded(target, to: &direct)
                direct.append(FLACFrameNumber.crc8(direct))
                direct += frame[(frame.count - 2 - bodyLength)..<(frame.count - 2)]
                let directCRC = FLACFrameNumber.crc16(direct)
                direct += [UInt8(directCRC >> 8), UInt8(directCRC & 0xFF)]
                #expect(renumbered == direct, "frame \(number) → \(target), body \(bodyLength)")
            }
        }
    }

    /// Noise over a slow sine, different on each channel, as right-justified integers.
    static func signal(frames: Int, channels: Int, bits: Int) -> [Int32] {
        var generator = SplitMix64(seed: UInt64(frames * 31 + channels))
        let full = Double((1 << (bits - 1)) - 1)
        var out = [Int32](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            let tone = 0.3 * sin(Double(n) * 0.01)
            for ch in 0..<channels {
                out[n * channels + ch] = Int32((tone + 0.05 * generator.bipolar() * Double(ch + 1)) * full)
            }
        }
        return out
    }

    /// Every sample to the MD5 in order, and chunk k to lane k % lanes, each lane on a thread of its own.
    static func feed(_ samples: [Int32], channels: Int, into writer: FLACLaneWriter) throws {
        let frames = samples.count / channels
        try samples.withUnsafeBufferPointer { buffer in
            writer.digest(buffer)
            nonisolated(unsafe) let all = buffer
            let failures = LockedErrors()
            DispatchQueue.concurrentPerform(iterations: writer.lanes) { lane in
                var start = lane * chunk
                while start < frames {
                    let n = min(chunk, frames - start)
                    do {
                        try writer.write(lane: lane, UnsafeBufferPointer(rebasing: all[(start * channels)..<((start + n) * channels)]), frames: n)
                    } catch let error as AudioError {
                        failures.add(error)
                        return
                    } catch {
                        return
                    }
                    start += writer.lanes * chunk
                }
            }
            if let first = failures.first { throw first }
        }
    }

    final class LockedErrors: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [AudioError] = []
        func add(_ error: AudioError) { lock.withLock { errors.append(error) } }
        var first: AudioError? { lock.withLock { errors.first } }
    }
}
