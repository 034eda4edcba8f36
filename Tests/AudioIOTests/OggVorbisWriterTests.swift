import AudioCore
import Foundation
import Testing

@testable import AudioIO

#if canImport(Glibc)
    import Glibc
#endif

/// Ogg Vorbis encoding: exact frame counts, alignment, reproducible bytes, and errors from
/// libvorbis and `write(2)`. Fixtures are generated here. Files are decoded by
/// `SoundFileReader` (libsndfile), and by FFmpeg when it is installed.
@Suite struct OggVorbisWriterTests {
    static let rate = 48_000

    // MARK: Frame counts and alignment

    @Test(arguments: [1, 1000, 48_000, 48_000 * 3 + 17], [1, 2])
    func decodesToTheFramesWritten(frames: Int, channels: Int) throws {
        let file = try VorbisFixture.encode(Signal.sine(frames: frames, channels: channels), channels: channels)
        defer { file.remove() }
        let decoded = try Decoded(path: file.path)
        #expect(decoded.frames == frames)
        #expect(decoded.channels == channels)
        #expect(decoded.sampleRate == Self.rate)
    }

    @Test(arguments: [0, 1, 1000, 4095, 4096, 24_000, 48_007], [1, 2])
    func clickDecodesAtItsFrame(at click: Int, channels: Int) throws {
        let frames = 60_000
        let file = try VorbisFixture.encode(
            Signal.click(at: click, frames: frames, channels: channels), channels: channels)
        defer { file.remove() }
        let decoded = try Decoded(path: file.path)
        #expect(decoded.frames == frames)
        for channel in 0..<channels {
            let peak = decoded.peakFrame(channel: channel)
            #expect(abs(peak - click) <= 1, "channel \(channel): click at \(click) decoded at \(peak)")
        }
    }

    @Test func sineSurvivesWithChannelsInOrder() throws {
        let frames = 48_000
        let samples = Signal.sine(frames: frames, channels: 2)
        let file = try VorbisFixture.encode(samples, channels: 2)
        defer { file.remove() }
        let decoded = try Decoded(path: file.path)
        try #require(decoded.frames == frames)
        for channel in 0..<2 {
            var error = 0.0
            var signal = 0.0
            for frame in 0..<frames {
                let reference = Double(samples[frame * 2 + channel])
                let difference = Double(decoded.samples[frame * 2 + channel]) - reference
                error += difference * difference
                signal += reference * reference
            }
            // Measured -39 dB at quality 0.5; swapped channels would give +1 dB (left) and +7 dB (right).
            let errorDecibels = 10 * log10(error / signal)
            #expect(errorDecibels < -25, "channel \(channel): error \(errorDecibels) dB")
        }
    }

    @Test(.enabled(if: FFmpeg.isInstalled), arguments: [1, 100, 128, 129, 1000, 48_000, 48_000 * 3 + 17])
    func ffmpegDecodesTheFramesWrittenAtTheirPlace(frames: Int) throws {
        let click = frames / 2
        let file = try VorbisFixture.encode(Signal.click(at: click, frames: frames, channels: 2), channels: 2)
        defer { file.remove() }
        let decoded = try FFmpeg.decodeMono(path: file.path)
        #expect(decoded.count == frames)
        let peak = decoded.indices.max { abs(decoded[$0]) < abs(decoded[$1]) } ?? -1
        #expect(abs(peak - click) <= 1, "click at \(click) decoded at \(peak)")
    }

    /// ogginfo (vorbis-tools) reads the whole stream and names what it finds wrong: a page that
    /// completes packets at granule position 0 ("Negative or zero granulepos (0) … created by a
    /// buggy encoder") was on every file before.
    @Test(
        .enabled(if: Tool.ogginfo != nil, "ogginfo is not installed (scripts/setup.sh installs vorbis-tools)"),
        arguments: [129, 1000, 48_000, 48_000 * 3 + 17])
    func ogginfoFindsNothingWrong(frames: Int) throws {
        let file = try VorbisFixture.encode(Signal.sine(frames: frames, channels: 2), channels: 2)
        defer { file.remove() }
        let (status, output) = try Tool.run(try #require(Tool.ogginfo), [file.path])
        #expect(status == 0, "\(output)")
        let complaints = output.split(separator: "\n").filter {
            $0.localizedCaseInsensitiveContains("warning") || $0.localizedCaseInsensitiveContains("error")
                || $0.localizedCaseInsensitiveContains("granulepos") || $0.localizedCaseInsensitiveContains("buggy")
        }
        #expect(complaints.isEmpty, "ogginfo: \(complaints)")
        #expect(output.contains("Logical stream 1 ended"), "\(output)")
    }

    /// Below 32 kHz libvorbis's short block is 512 frames, so a stream of up to 256 frames has
    /// only two audio packets: the writer must see that from the second packet, not from a count.
    @Test(.enabled(if: FFmpeg.isInstalled), arguments: [1, 200, 256, 257, 1000, 30_001])
    func ffmpegDecodesTheFramesWrittenAt22050Hz(frames: Int) throws {
        let file = try VorbisFixture.encode(Signal.sine(frames: frames, channels: 2), channels: 2, sampleRate: 22050)
        defer { file.remove() }
        #expect(try FFmpeg.decodeMono(path: file.path).count == frames)
        if frames > 256, let ogginfo = Tool.ogginfo {
            let (status, output) = try Tool.run(ogginfo, [file.path])
            #expect(status == 0 && !output.contains("granulepos"), "\(output)")
        }
    }

    // MARK: Reproducible bytes and the stream layout

    @Test func sameInputGivesSameBytes() throws {
        let samples = Signal.sine(frames: 30_017, channels: 2)
        let first = try VorbisFixture.encode(samples, channels: 2)
        let second = try VorbisFixture.encode(samples, channels: 2)
        defer {
            first.remove()
            second.remove()
        }
        #expect(first.bytes == second.bytes)
        #expect(first.bytes.count > 1000)
    }

    @Test func bytesDoNotDependOnHowWritesAreSplit() throws {
        let samples = Signal.sine(frames: 30_017, channels: 2)
        let whole = try VorbisFixture.encode(samples, channels: 2, writeFrames: .max)
        defer { whole.remove() }
        for writeFrames in [1, 7, 1000, 4096, 4097] {
            let split = try VorbisFixture.encode(samples, channels: 2, writeFrames: writeFrames)
            defer { split.remove() }
            #expect(split.bytes == whole.bytes, "writes of \(writeFrames) frames")
        }
    }

    @Test(arguments: [Int32(0), 1, 0x1234_5678, -1, .min, .max])
    func serialIsInEveryPageHeader(serial: Int32) throws {
        let file = try VorbisFixture.encode(Signal.sine(frames: 1000, channels: 1), channels: 1, serial: serial)
        defer { file.remove() }
        #expect(Array(file.bytes[0..<4]) == Array("OggS".utf8))
        let first = file.bytes[14..<18].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * $1.offset) }
        #expect(Int32(bitPattern: first) == serial)
        let pages = try OggPage.parse(file.bytes)
        #expect(pages.allSatisfy { $0.serial == serial })
    }

    @Test(arguments: [1, 128, 129, 1000, 48_000 * 3 + 17])
    func pagesAreLaidOutForExactDecoding(frames: Int) throws {
        let file = try VorbisFixture.encode(Signal.sine(frames: frames, channels: 2), channels: 2)
        defer { file.remove() }
        let pages = try OggPage.parse(file.bytes)
        try #require(pages.count >= 4)
        // The identification header alone, then the comment and codebook headers.
        #expect(pages[0].flags == 0x02 && pages[0].packets == 1 && pages[0].granule == 0)
        #expect(pages[1].flags == 0 && pages[1].packets == 2 && pages[1].granule == 0)
        if frames > 128 {
            // The first two audio packets (the first has no samples) on a page of their own: its
            // granule position is positive (ogginfo) and no stream is a single audio page (FFmpeg).
            #expect(pages[2].flags == 0 && pages[2].packets == 2 && pages[2].granule > 0)
        } else {
            // Two audio packets in all: the first alone, the second on the last page.
            #expect(pages.count == 4 && pages[2].flags == 0 && pages[2].packets == 1 && pages[2].granule == 0)
        }
        // No page but the headers' completes packets at granule position 0 or less.
        #expect(pages.dropFirst(2).allSatisfy { $0.granule > 0 || $0.packets == 0 } || frames <= 128)
        // The end: its granule position is the frame count.
        #expect(pages.last?.flags == 0x04)
        #expect(pages.last?.granule == Int64(frames))
        #expect(pages.dropLast().allSatisfy { $0.flags & 0x04 == 0 })
        #expect(pages.map(\.sequence) == Array(0..<UInt32(pages.count)))
    }

    @Test func commentsAreWrittenInOrder() throws {
        let comments = [("TITLE", "Box Breathing"), ("ALBUM", "Cadence"), ("COMMENT", "Atem – Ruhe 4·4·4·4")]
        let file = try VorbisFixture.encode(Signal.sine(frames: 100, channels: 1), channels: 1, comments: comments)
        defer { file.remove() }
        let offsets = comments.map { file.bytes.firstRange(of: Array("\($0.0)=\($0.1)".utf8))?.lowerBound }
        #expect(offsets.allSatisfy { $0 != nil })
        #expect(offsets.compactMap { $0 } == offsets.compactMap { $0 }.sorted())
    }

    @Test func emptyStreamAndRepeatedFinish() throws {
        let file = try VorbisFixture.encode([], channels: 2, finishTwice: true)
        defer { file.remove() }
        let pages = try OggPage.parse(file.bytes)
        #expect(pages.last?.flags == 0x04)
        #expect(pages.last?.granule == 0)
    }

    // MARK: Errors

    @Test(arguments: ["", "TI=TLE", "TÍTLE", "TITLE\n"])
    func invalidTagNameThrows(name: String) throws {
        let error = try #require(throws: AudioError.self) {
            _ = try OggVorbisWriter(
                fileDescriptor: -1, path: "out.ogg", sampleRate: Self.rate, channels: 2, rate: .quality(0.5), serial: 1,
                comments: [(name, "x")])
        }
        #expect(error.file == "out.ogg")
        #expect(error.operation == "vorbis_comment_add_tag")
        #expect(error.kind == .cannotCreate)
    }

    @Test(arguments: [
        (0, 48_000, Float(0.5)), (256, 48_000, 0.5), (2, 0, 0.5), (2, 384_000, 0.5), (2, 48_000, 1.5),
        (2, 48_000, -0.2),
    ])
    func unsupportedFormatThrows(channels: Int, sampleRate: Int, quality: Float) throws {
        let error = try #require(throws: AudioError.self) {
            _ = try OggVorbisWriter(
                fileDescriptor: -1, path: "out.ogg", sampleRate: sampleRate, channels: channels, rate: .quality(quality),
                serial: 1, comments: [])
        }
        #expect(error.operation == "vorbis_encode_init_vbr")
        #expect(error.kind == .cannotCreate)
        #expect(error.description.hasPrefix("out.ogg: vorbis_encode_init_vbr failed: "))
    }

    @Test func readOnlyDescriptorThrows() throws {
        let file = try VorbisFixture.encode(Signal.sine(frames: 10, channels: 1), channels: 1)
        defer { file.remove() }
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let error = try #require(throws: AudioError.self) {
            _ = try OggVorbisWriter(
                fileDescriptor: fd, path: file.path, sampleRate: Self.rate, channels: 1, rate: .quality(0.5), serial: 1,
                comments: [])
        }
        #expect(error.description == "\(file.path): write failed: \(String(cString: strerror(EBADF)))")
        #expect(error.kind == .cannotCreate)
    }

    @Test func closedDescriptorThrows() throws {
        // Not a just-closed descriptor: tests run in parallel and its number could be reused.
        let unused = Int32(getdtablesize() - 1)
        try #require(fcntl(unused, F_GETFD) == -1)
        for fd in [-1, unused] {
            let error = try #require(throws: AudioError.self) {
                _ = try OggVorbisWriter(
                    fileDescriptor: fd, path: "closed.ogg", sampleRate: Self.rate, channels: 2, rate: .quality(0.5),
                    serial: 1, comments: [])
            }
            #expect(error.operation == "write")
            #expect(error.reason == String(cString: strerror(EBADF)))
        }
    }

    @Test func fullDeviceThrows() throws {
        let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let error = try #require(throws: AudioError.self) {
            _ = try OggVorbisWriter(
                fileDescriptor: fd, path: "/dev/full", sampleRate: Self.rate, channels: 2, rate: .quality(0.5), serial: 1,
                comments: [])
        }
        #expect(error.description == "/dev/full: write failed: \(String(cString: strerror(ENOSPC)))")
    }

    @Test func shortWritesAndInterruptionsGiveTheSameBytes() throws {
        let samples = Signal.sine(frames: 20_000, channels: 2)
        let reference = try VorbisFixture.encode(samples, channels: 2)
        defer { reference.remove() }
        let sink = FakeDescriptor()
        sink.maximumWrite = 7
        sink.interruptEveryOtherCall = true
        let writer = try sink.writer(channels: 2)
        try VorbisFixture.feed(samples, to: writer, channels: 2)
        try writer.finish()
        #expect(sink.bytes == reference.bytes)
        #expect(sink.interruptions > 100)
    }

    @Test func failureMidStreamThrowsAndSticks() throws {
        let sink = FakeDescriptor()
        let writer = try sink.writer(channels: 2)
        sink.failAfter = sink.bytes.count + 1000
        let samples = Signal.sine(frames: 48_000 * 3, channels: 2)
        let error = try #require(throws: AudioError.self) {
            try VorbisFixture.feed(samples, to: writer, channels: 2)
            try writer.finish()
        }
        #expect(error.file == "fake.ogg")
        #expect(error.operation == "write")
        #expect(error.reason == String(cString: strerror(ENOSPC)))
        #expect(error.kind == .ioError)
        let calls = sink.calls
        let again = try #require(throws: AudioError.self) { try writer.finish() }
        #expect(again.description == error.description)
        #expect(sink.calls == calls, "nothing more is written after a failure")
    }

    @Test func droppedWriterWritesNothingMore() throws {
        let sink = FakeDescriptor()
        var written = 0
        do {
            let writer = try sink.writer(channels: 1)
            try VorbisFixture.feed(Signal.sine(frames: 48_000, channels: 1), to: writer, channels: 1)
            withExtendedLifetime(writer) { written = sink.bytes.count }
        }  // dropped here without finish()
        #expect(written > 0)
        #expect(sink.bytes.count == written)
        let pages = try OggPage.parse(sink.bytes)
        #expect(pages.allSatisfy { $0.flags & 0x04 == 0 }, "no end-of-stream page")
    }
}

// MARK: - Fixtures

// Nested in the suite, so their names cannot clash with other test files of this target.
extension OggVorbisWriterTests {
    /// Generated test signals, computed from the frame index so they are the same on every run.
    enum Signal {
        /// Channel c is a sine at 440·(c+1) Hz, amplitude 0.5/(c+1).
        static func sine(frames: Int, channels: Int) -> [Float] {
            var samples = [Float](repeating: 0, count: frames * channels)
            for frame in 0..<frames {
                for channel in 0..<channels {
                    let phase =
                        2 * Double.pi * 440 * Double(channel + 1) * Double(frame) / Double(OggVorbisWriterTests.rate)
                    samples[frame * channels + channel] = Float(0.5 / Double(channel + 1) * sin(phase))
                }
            }
            return samples
        }

        /// Silence with a single 0.9 sample at frame `at` in every channel.
        static func click(at frame: Int, frames: Int, channels: Int) -> [Float] {
            var samples = [Float](repeating: 0, count: frames * channels)
            for channel in 0..<channels { samples[frame * channels + channel] = 0.9 }
            return samples
        }
    }

    /// An encoded temporary file and its bytes.
    struct VorbisFixture {
        let path: String
        let bytes: [UInt8]

        static func encode(
            _ samples: [Float], channels: Int, serial: Int32 = 0x0C0F_FEE0,
            comments: [(String, String)] = [("TITLE", "Box Breathing")], writeFrames: Int = Block.frames,
            finishTwice: Bool = false, sampleRate: Int = OggVorbisWriterTests.rate
        ) throws -> VorbisFixture {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-vorbis-\(UUID()).ogg")
                .path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            try #require(fd >= 0)
            defer { close(fd) }
            let writer = try OggVorbisWriter(
                fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels, rate: .quality(0.5),
                serial: serial, comments: comments)
            try feed(samples, to: writer, channels: channels, writeFrames: writeFrames)
            try writer.finish()
            if finishTwice { try writer.finish() }
            let data = try #require(FileManager.default.contents(atPath: path))
            return VorbisFixture(path: path, bytes: [UInt8](data))
        }

        static func feed(_ samples: [Float], to writer: OggVorbisWriter, channels: Int, writeFrames: Int = Block.frames)
            throws
        {
            let frames = samples.count / channels
            try samples.withUnsafeBufferPointer { all in
                var done = 0
                while done < frames {
                    let count = min(writeFrames, frames - done)
                    try writer.write(UnsafeBufferPointer(rebasing: all[(done * channels)...]), frames: count)
                    done += count
                }
            }
        }

        func remove() { unlink(path) }
    }

    /// A file decoded by libsndfile through `SoundFileReader`, read to the end.
    struct Decoded {
        let samples: [Float]
        let frames: Int
        let channels: Int
        let sampleRate: Int

        init(path: String) throws {
            let reader = try SoundFileReader(path: path)
            channels = reader.channels
            sampleRate = reader.sampleRate
            var all: [Float] = []
            var block = [Float](repeating: 0, count: 4096 * channels)
            while true {
                let got = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0, frames: 4096) }
                if got == 0 { break }
                all += block[0..<(got * channels)]
            }
            samples = all
            frames = all.count / channels
        }

        /// The frame with the largest magnitude in `channel`.
        func peakFrame(channel: Int) -> Int {
            (0..<frames).max { abs(samples[$0 * channels + channel]) < abs(samples[$1 * channels + channel]) } ?? -1
        }
    }

    /// A page header of an Ogg stream.
    struct OggPage {
        let flags: UInt8
        let granule: Int64
        let serial: Int32
        let sequence: UInt32
        /// Packets that end on this page (lacing values below 255).
        let packets: Int

        struct Malformed: Error {}

        static func parse(_ bytes: [UInt8]) throws -> [OggPage] {
            func little(_ at: Int, _ count: Int) -> UInt64 {
                (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
            }
            var pages: [OggPage] = []
            var at = 0
            while at < bytes.count {
                guard at + 27 <= bytes.count, Array(bytes[at..<(at + 4)]) == Array("OggS".utf8) else {
                    throw Malformed()
                }
                let segments = Int(bytes[at + 26])
                guard at + 27 + segments <= bytes.count else { throw Malformed() }
                let lacing = bytes[(at + 27)..<(at + 27 + segments)]
                pages.append(
                    OggPage(
                        flags: bytes[at + 5], granule: Int64(bitPattern: little(at + 6, 8)),
                        serial: Int32(bitPattern: UInt32(little(at + 14, 4))), sequence: UInt32(little(at + 18, 4)),
                        packets: lacing.filter { $0 < 255 }.count))
                at += 27 + segments + lacing.reduce(0) { $0 + Int($1) }
            }
            guard at == bytes.count else { throw Malformed() }
            return pages
        }
    }

    /// A stand-in for `write(2)` that keeps the bytes and can write short, be interrupted, or fail.
    final class FakeDescriptor {
        var bytes: [UInt8] = []
        var calls = 0
        var interruptions = 0
        var maximumWrite = Int.max
        var interruptEveryOtherCall = false
        /// Fails with `ENOSPC` once this many bytes are written.
        var failAfter = Int.max

        func writer(channels: Int) throws -> OggVorbisWriter {
            try OggVorbisWriter(
                fileDescriptor: 99, path: "fake.ogg", sampleRate: OggVorbisWriterTests.rate, channels: channels,
                rate: .quality(0.5), serial: 0x0C0F_FEE0, comments: [("TITLE", "Box Breathing")],
                writeFunction: { [self] _, pointer, count in write(pointer, count) })
        }

        private func write(_ pointer: UnsafeRawPointer, _ count: Int) -> Int {
            calls += 1
            if interruptEveryOtherCall && calls % 2 == 0 {
                interruptions += 1
                errno = EINTR
                return -1
            }
            if bytes.count >= failAfter {
                errno = ENOSPC
                return -1
            }
            let n = min(count, maximumWrite, failAfter - bytes.count)
            bytes += UnsafeRawBufferPointer(start: pointer, count: n)
            return n
        }
    }

    /// A program of vorbis-tools, run when installed.
    enum Tool {
        static let ogginfo: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/ogginfo") ? "/usr/bin/ogginfo" : nil

        /// The exit status and everything the program printed (standard output and error).
        static func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// FFmpeg's decoder, run when `ffmpeg` is installed.
    enum FFmpeg {
        static let path = "/usr/bin/ffmpeg"
        static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

        /// The file decoded and mixed to mono (both channels carry the same signal in these tests).
        static func decodeMono(path file: String) throws -> [Float] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [
                "-v", "error", "-nostdin", "-i", file, "-ac", "1", "-f", "f32le", "-c:a", "pcm_f32le", "-",
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
    }
}
