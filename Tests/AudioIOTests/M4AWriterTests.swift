import AudioCore
import AudioIO
import Foundation
import TestKit
import Testing

/// The M4A writer: the edit list hides AAC's delay and padding to the frame, ALAC is
/// lossless, the bytes repeat, the bit rate holds, chapters and tags read back.
/// ffmpeg and ffprobe only read the files here (the product never runs them).
@Suite("M4A output: AAC and Apple Lossless through libavcodec")
struct M4AWriterTests {
    static let tools = which("ffmpeg") != nil && which("ffprobe") != nil

    // MARK: - Timing

    struct TimingCase: CustomTestStringConvertible, Sendable {
        var rate: Int
        var channels: Int
        var testDescription: String { "\(rate) Hz, \(channels == 1 ? "mono" : "stereo")" }
    }

    @Test(
        "AAC: the edit list skips the encoder's delay and lasts exactly the frames written; decoded onsets land on their frames",
        .enabled(if: tools, "needs ffmpeg and ffprobe to read the file back"),
        arguments: [
            TimingCase(rate: 48000, channels: 2), TimingCase(rate: 48000, channels: 1),
            TimingCase(rate: 44100, channels: 2), TimingCase(rate: 44100, channels: 1),
        ])
    func aacTiming(_ c: TimingCase) throws {
        let folder = try TempFolder("m4a-timing")
        let frames = c.rate * 3 + 517  // not a whole number of 1024-frame packets
        let onsets = [c.rate / 2 + 123, c.rate + c.rate / 2 + 77, 2 * c.rate + 1001]
        let samples = Self.bursts(frames: frames, channels: c.channels, rate: c.rate, onsets: onsets)
        let path = folder.file("t.m4a")
        let delay = try Self.write(path, .aac(bitrate: 128_000), samples, rate: c.rate, channels: c.channels)
        #expect(delay == 1024, "the native AAC encoder's initial padding")

        let file = try MP4File(path: path)
        #expect(file.movieTimescale == c.rate, "the movie timescale is the sample rate, so the edit is exact to the frame")
        let edits = try #require(file.audioEdits)
        #expect(edits.count == 1, "\(edits)")
        #expect(edits.first?.mediaTime == Int64(delay), "the edit starts after the delay: \(edits)")
        #expect(edits.first?.duration == Int64(frames), "the edit lasts the frames written: \(edits)")

        // ffmpeg honours the leading edit (5.1 still plays the trailing padding: frames are checked on the edit list)
        let decoded = try Self.decodeFloat(path, channels: c.channels, folder: folder)
        #expect(decoded.count / c.channels >= frames)
        for onset in onsets {
            let found = Self.firstLoud(decoded, channels: c.channels, from: onset - c.rate / 8, threshold: 0.125)
            #expect(found.map { abs($0 - onset) <= 16 } == true, "onset at frame \(onset) decoded at \(found.map(String.init) ?? "none")")
        }
        // silence before the first onset stays silence (no delay smeared in front)
        let before = Self.firstLoud(decoded, channels: c.channels, from: 0, threshold: 0.02)
        #expect(before.map { $0 >= onsets[0] - 64 } == true, "sound at frame \(before ?? -1) before the first onset \(onsets[0])")
    }

    // MARK: - Lossless

    @Test(
        "ALAC decodes to the very integers written, frame count included (16 and 24 bits)",
        .enabled(if: tools, "needs ffmpeg to decode the file"), arguments: [16, 24])
    func alacBitExact(_ depth: Int) throws {
        let folder = try TempFolder("m4a-alac")
        let (rate, channels, frames) = (48000, 2, 48000 * 2 + 333)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let limit = Int32(1) << Int32(depth - 1)
        let ints: [Int32] = (0..<(frames * channels)).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // a sine plus noise, with full-scale extremes now and then
            let base = Int32(Double(limit - 1) * 0.5 * sin(Double(i / channels) * 0.01))
            let noise = Int32(truncatingIfNeeded: Int64(state >> 40) % Int64(limit / 4))
            return i % 9973 == 0 ? (i % 2 == 0 ? limit - 1 : -limit) : base + noise
        }
        let path = folder.file("t.m4a")
        let writer = try Self.openWriter(path, .alac(bitDepth: depth), rate: rate, channels: channels, frames: Int64(frames))
        #expect(writer.delay == 0)
        try Self.inBlocks(ints, channels: channels, of: 3000) { try writer.write($0, frames: $1) }
        try writer.finish()
        let raw = folder.file("t.s32")
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", path, "-f", "s32le", "-acodec", "pcm_s32le", raw])
        #expect(result.status == 0, "\(result)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        let decoded: [Int32] = stride(from: 0, to: data.count, by: 4).map { k in
            Int32(bitPattern: UInt32(data[k]) | UInt32(data[k + 1]) << 8 | UInt32(data[k + 2]) << 16 | UInt32(data[k + 3]) << 24)
        }
        try #require(decoded.count == ints.count, "decoded \(decoded.count / channels) frames, wrote \(frames)")
        // pcm_s32le holds the samples left-justified
        let shift = Int32(32 - depth)
        let mismatch = ints.indices.first { decoded[$0] >> shift != ints[$0] }
        #expect(mismatch == nil, "first different sample at \(mismatch ?? -1)")
    }

    // MARK: - Reproducible, tagged, chaptered

    @Test("the same samples give the same bytes; no encoder version or creation time; the moov box comes first")
    func sameBytes() throws {
        let folder = try TempFolder("m4a-bytes")
        let samples = Self.bursts(frames: 48000 * 2, channels: 2, rate: 48000, onsets: [1000, 50000])
        var files: [[UInt8]] = []
        for name in ["a.m4a", "b.m4a"] {
            _ = try Self.write(
                folder.file(name), .aac(bitrate: 128_000), samples, rate: 48000, channels: 2,
                metadata: [("title", "Box Breathing"), ("album", "Breathing")])
            files.append(try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file(name)))))
        }
        #expect(files[0] == files[1], "two writes of the same samples differ")
        #expect(!Self.contains(files[0], "Lavf") && !Self.contains(files[0], "Lavc"), "an encoder version string is stamped in")
        let file = try MP4File(path: folder.file("a.m4a"))
        #expect(
            file.topLevel.firstIndex(of: "moov").map { m in file.topLevel.firstIndex(of: "mdat").map { m < $0 } ?? false } == true,
            "top-level boxes \(file.topLevel): moov must precede mdat (+faststart)")
        #expect(file.creationTime == 0, "mvhd creation time \(file.creationTime)")
    }

    @Test(
        "chapters read back with ffprobe at their frames, with the title and album tags",
        .enabled(if: tools, "needs ffprobe"))
    func chapters() throws {
        let folder = try TempFolder("m4a-chapters")
        let rate = 44100
        let frames = rate * 6
        let samples = Self.bursts(frames: frames, channels: 2, rate: rate, onsets: [100, rate * 2, rate * 4])
        let chapters = [
            M4AWriter.Chapter(title: "Settle", start: 0), M4AWriter.Chapter(title: "Breathe", start: 88200),
            M4AWriter.Chapter(title: "Return", start: 176_400),
        ]
        let path = folder.file("c.m4a")
        _ = try Self.write(
            path, .aac(bitrate: 96_000), samples, rate: rate, channels: 2,
            metadata: [("title", "Évening Wind-down"), ("album", "Meditation"), ("comment", "rendered by Cadence")],
            chapters: chapters)
        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-show_chapters", "-show_format", "-of", "json", path])
        #expect(probe.status == 0, "\(probe)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let read = try #require(json["chapters"] as? [[String: Any]])
        #expect(read.count == 3, "\(read)")
        for (chapter, got) in zip(chapters, read) {
            #expect((got["tags"] as? [String: Any])?["title"] as? String == chapter.title, "\(got)")
            let start = Double(got["start_time"] as? String ?? "") ?? -1
            #expect(abs(start - Double(chapter.start) / Double(rate)) < 0.001, "\(chapter.title) starts at \(start) s")
        }
        let tags = ((json["format"] as? [String: Any])?["tags"] as? [String: Any]) ?? [:]
        #expect(tags["title"] as? String == "Évening Wind-down" && tags["album"] as? String == "Meditation", "\(tags)")
    }

    // MARK: - Bit rate and refusals

    @Test("the AAC bit rate is the one asked for within 15 %", arguments: [96_000, 128_000, 256_000])
    func bitrate(_ bitrate: Int) throws {
        let folder = try TempFolder("m4a-rate")
        let (rate, seconds) = (48000, 20)
        var state: UInt64 = 7
        // noise shaped by a slow swell: it takes every bit the encoder is given
        let samples: [Float] = (0..<(rate * seconds * 2)).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Float(Int64(bitPattern: state) >> 11) / Float(1 << 52)
            return noise * 0.2 * Float(0.6 + 0.4 * sin(Double(i) / Double(rate * 2)))
        }
        let path = folder.file("r.m4a")
        _ = try Self.write(path, .aac(bitrate: bitrate), samples, rate: rate, channels: 2)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let measured = Double(bytes * 8) / Double(seconds)
        #expect(abs(measured / Double(bitrate) - 1) <= 0.15, "\(Int(measured)) bit/s for \(bitrate)")
    }

    @Test("rates AAC cannot take (7350 Hz too), bit rates out of range, channel counts without a layout and ALAC depths other than 16/24 are refused")
    func refusals() throws {
        let folder = try TempFolder("m4a-refuse")
        let cases: [(M4AWriter.Codec, Int, Int, String)] = [
            (.aac(bitrate: 128_000), 37800, 2, "44100"), (.aac(bitrate: 128_000), 192_000, 2, "96000"),
            (.aac(bitrate: 128_000), 7350, 2, "it takes 8000, 11025"),
            (.aac(bitrate: 16000), 48000, 2, "32k–320k"), (.aac(bitrate: 400_000), 48000, 2, "32k–320k"),
            (.alac(bitDepth: 32), 48000, 2, "16 or 24"),
            (.alac(bitDepth: 16), 48000, 3, "it takes 1, 2, 4, 5, 6"), (.alac(bitDepth: 24), 48000, 8, "it takes 1, 2, 4, 5, 6"),
            (.aac(bitrate: 128_000), 48000, 7, "it takes 1, 2, 3, 4, 5, 6, 8"),
        ]
        for (codec, rate, channels, words) in cases {
            do {
                _ = try Self.openWriter(folder.file("x.m4a"), codec, rate: rate, channels: channels, frames: 1000)
                Issue.record("\(codec) at \(rate) Hz, \(channels) channels was accepted")
            } catch {
                #expect(error.kind == .data && error.reason.contains(words), "\(codec) at \(rate) Hz, \(channels) channels: \(error.reason)")
            }
        }
    }

    // MARK: - Helpers

    static func openWriter(
        _ path: String, _ codec: M4AWriter.Codec, rate: Int, channels: Int, frames: Int64, metadata: [(String, String)] = [],
        chapters: [M4AWriter.Chapter] = []
    ) throws(AudioError) -> M4AWriter {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw AudioError(file: path, operation: "open", reason: String(cString: strerror(errno)), kind: .cannotCreate) }
        // the writer writes through its own positioned calls; the descriptor stays open for the test's lifetime
        return try M4AWriter(
            fileDescriptor: fd, path: path, codec: codec, sampleRate: rate, channels: channels, totalFrames: frames,
            metadata: metadata, chapters: chapters)
    }

    /// Writes float samples in 4096-frame blocks (not the encoder's 1024); returns the encoder's delay.
    static func write(
        _ path: String, _ codec: M4AWriter.Codec, _ samples: [Float], rate: Int, channels: Int, metadata: [(String, String)] = [],
        chapters: [M4AWriter.Chapter] = []
    ) throws -> Int {
        let frames = samples.count / channels
        let writer = try openWriter(path, codec, rate: rate, channels: channels, frames: Int64(frames), metadata: metadata, chapters: chapters)
        try inBlocks(samples, channels: channels, of: 4096) { try writer.write($0, frames: $1) }
        try writer.finish()
        return writer.delay
    }

    /// Hands `samples` on in blocks of `size` frames (not the encoder's packet size), the last shorter.
    static func inBlocks<T>(
        _ samples: [T], channels: Int, of size: Int, _ body: (UnsafeBufferPointer<T>, Int) throws -> Void
    ) throws {
        let frames = samples.count / channels
        try samples.withUnsafeBufferPointer { all in
            var done = 0
            while done < frames {
                let n = min(size, frames - done)
                try body(UnsafeBufferPointer(rebasing: all[(done * channels)..<((done + n) * channels)]), n)
                done += n
            }
        }
    }

    /// Silence with 150 ms bursts of a 1 kHz cosine (starting at its peak, 0.25) at `onsets`.
    static func bursts(frames: Int, channels: Int, rate: Int, onsets: [Int]) -> [Float] {
        var out = [Float](repeating: 0, count: frames * channels)
        for onset in onsets {
            for n in 0..<(rate * 15 / 100) where onset + n < frames {
                let v = Float(0.25 * cos(2 * Double.pi * 1000 * Double(n) / Double(rate)))
                for c in 0..<channels { out[(onset + n) * channels + c] = v }
            }
        }
        return out
    }

    static func decodeFloat(_ path: String, channels: Int, folder: TempFolder) throws -> [Float] {
        let raw = folder.file("decoded.f32")
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", path, "-f", "f32le", "-acodec", "pcm_f32le", raw])
        #expect(result.status == 0, "\(result)")
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The first frame at or after `from` where any channel's magnitude passes `threshold`.
    static func firstLoud(_ samples: [Float], channels: Int, from: Int, threshold: Float) -> Int? {
        var i = max(0, from) * channels
        while i < samples.count {
            if abs(samples[i]) > threshold { return i / channels }
            i += 1
        }
        return nil
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
