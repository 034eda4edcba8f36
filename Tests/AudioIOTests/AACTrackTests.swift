import AudioCore
import AudioIO
import Dispatch
import Foundation
import TestKit
import Testing

/// An AAC track in parts: where it is cut, how parts join, that the track decodes as its
/// file does (any range as the whole), that a patch changes the decoding only between its
/// joins, and that the bytes do not depend on how the parts were scheduled.
@Suite("AAC tracks encoded in parts, joined and patched")
struct AACTrackTests {
    static let rate = 48000
    static let channels = 2
    /// 30 s cut in parts of 10 s: joins near 10 s and 20 s.
    static let frames = 30 * rate
    static let partSeconds: Int64 = 10
    static let tools = which("ffprobe") != nil

    // MARK: - Layout

    @Test("parts: one below twice the part length, at most four, each boundary on the packet grid, inputs inside the track")
    func layout() {
        let minute = Int64(Self.rate) * 60
        let cases: [(Int64, Int)] = [
            (minute, 1), (9 * minute + 59 * Int64(Self.rate), 1), (10 * minute, 2), (20 * minute, 4), (60 * minute, 4),
            (8 * 60 * minute, 4),
        ]
        for (total, parts) in cases {
            let layout = AACPartLayout(totalFrames: total, sampleRate: Self.rate)
            #expect(layout.count == parts, "\(total) frames")
            #expect(layout.boundaries.first == 0 && layout.boundaries.last == total)
            for k in 1..<layout.boundaries.count - 1 {
                #expect(layout.boundaries[k] % AACPartLayout.packetFrames == 0)
                #expect(layout.boundaries[k] > layout.boundaries[k - 1])
            }
            for k in 0..<layout.count {
                let input = layout.input(k)
                #expect(input.lowerBound >= 0 && input.upperBound <= total)
                // every join candidate has a settled packet before it in both neighbours
                if k > 0 { #expect(input.lowerBound <= layout.boundaries[k] - AACPartLayout.reach - AACPartLayout.settle) }
                if k < layout.count - 1 { #expect(input.upperBound >= layout.boundaries[k + 1] + AACPartLayout.reach + AACPartLayout.lookAhead) }
            }
        }
    }

    // MARK: - Windows

    @Test(
        "the window read from each packet follows AAC's grammar: eight-short only after long-start or eight-short, long-stop only after eight-short",
        .enabled(if: tools, "needs ffprobe to list the packets"))
    func windows() throws {
        let folder = try TempFolder("aac-windows")
        let (track, _) = try Self.encode(Self.signal(), folder: folder)
        let path = folder.file("track.m4a")
        try Self.mux(track, to: path)
        let listed = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "a", "-show_packets", "-show_data", path])
        let windows = Self.packetBytes(listed.stdout).map { bytes in bytes.withUnsafeBytes { AACWindow(packet: $0) } }
        #expect(windows.count > 1000)
        // a stereo pair may have windows of its own per channel: then nothing is read
        let read = windows.compactMap { $0 }
        #expect(read.count * 10 >= windows.count * 9, "windows read from \(read.count) of \(windows.count) packets")
        let sequences = windows.map { $0?.sequence }
        #expect(sequences.contains(2), "the clicks should need short windows")
        #expect(sequences.contains(0))
        for i in 1..<sequences.count {
            guard let now = sequences[i], let before = sequences[i - 1] else { continue }
            if now == 2 { #expect(before == 1 || before == 2, "packet \(i): eight-short after \(before)") }
            if now == 3 { #expect(before == 2, "packet \(i): long-stop after \(before)") }
            if now == 1 { #expect(before == 0 || before == 3, "packet \(i): long-start after \(before)") }
        }
    }

    // MARK: - Joins and decoding

    @Test("the track decodes as its muxed file does, sample for sample, and any range as that range of the whole")
    func decodesAsTheFile() throws {
        let folder = try TempFolder("aac-decode")
        let input = Self.signal()
        let (track, _) = try Self.encode(input, folder: folder)
        let whole = try Self.decode(track, 0..<Int64(Self.frames))
        #expect(whole.count == Self.frames * Self.channels)
        let path = folder.file("track.m4a")
        try Self.mux(track, to: path)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var file: [Float] = []
        let decoded = try M4AReader.decode(descriptor: fd, path: path) { (p, n) throws(AudioError) in file += p.prefix(n * Self.channels) }
        #expect(decoded == Int64(Self.frames))
        #expect(file == whole, "the file decodes differently from AACTrack.decode")
        for range in [
            Int64(0)..<1000, 12_345..<67_890, Int64(10 * Self.rate - 3000)..<Int64(10 * Self.rate + 5000),
            Int64(Self.frames - 777)..<Int64(Self.frames),
        ] {
            let part = try Self.decode(track, range)
            let slice = Array(whole[(Int(range.lowerBound) * Self.channels)..<(Int(range.upperBound) * Self.channels)])
            #expect(part == slice, "frames \(range) decode differently alone")
        }
    }

    @Test("around each join the track decodes as cleanly as elsewhere (no click, no lost or repeated packet)")
    func joinsAreClean() throws {
        let folder = try TempFolder("aac-joins")
        let input = Self.signal()
        let (track, _) = try Self.encode(input, folder: folder)
        #expect(track.layout.count == 3)
        let decoded = try Self.decode(track, 0..<Int64(Self.frames))
        let window = 2048
        var snrs: [(frame: Int, snr: Double)] = []
        for start in stride(from: window, to: Self.frames - window, by: window) {
            var signal = 0.0, error = 0.0
            for i in (start * Self.channels)..<((start + window) * Self.channels) {
                signal += Double(input[i]) * Double(input[i])
                error += Double(decoded[i] - input[i]) * Double(decoded[i] - input[i])
            }
            snrs.append((start, 10 * log10(signal / max(error, 1e-30))))
        }
        let reach = Int(AACPartLayout.reach) + window
        let nearJoins = snrs.filter { s in track.layout.boundaries.dropFirst().dropLast().contains { abs(Int($0) - s.frame) <= reach } }
        let elsewhere = snrs.filter { s in !nearJoins.contains { $0.frame == s.frame } }.map(\.snr).sorted()
        let floor = elsewhere[elsewhere.count / 20]  // the 5th percentile
        #expect(nearJoins.count >= 10)
        for s in nearJoins { #expect(s.snr >= floor - 3, "at frame \(s.frame): \(s.snr) dB against \(floor) dB elsewhere (5th percentile)") }
    }

    @Test("parts encoded one after another, side by side or in another order give the same bytes")
    func scheduling() throws {
        let folder = try TempFolder("aac-scheduling")
        let input = Self.signal()
        var files: [[UInt8]] = []
        for order in [[0, 1, 2], [2, 0, 1], nil] {
            let (track, _) = try Self.encode(input, folder: folder, order: order)
            let path = folder.file("track.m4a")
            try Self.mux(track, to: path)
            files.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        #expect(files[0] == files[1])
        #expect(files[0] == files[2])
    }

    @Test("a patch changes the decoded track only between its joins, and there it is what the patch encoded")
    func patchIsLocal() throws {
        let folder = try TempFolder("aac-patch")
        let input = Self.signal()
        let (track, _) = try Self.encode(input, folder: folder)
        let before = try Self.decode(track, 0..<Int64(Self.frames))
        // the frames 15.0-15.2 s, halved (-6 dB), with everything around them as it was
        let dip = Int64(15 * Self.rate)..<Int64(15 * Self.rate + Self.rate / 5)
        let patch = try track.patchEncoder(for: dip)
        #expect(patch.input.lowerBound <= dip.lowerBound - AACPartLayout.settle && patch.input.upperBound >= dip.upperBound)
        try Self.feed(input, range: patch.input, into: patch) { frame in dip.contains(frame) ? 0.5 : 1 }
        try patch.finish()
        let changed = try track.install(patch)
        #expect(changed.lowerBound < dip.lowerBound && changed.upperBound > dip.upperBound)
        #expect(changed.count < Self.rate, "a 0.2 s patch changed \(changed.count) frames")
        let after = try Self.decode(track, 0..<Int64(Self.frames))
        let c = Self.channels
        #expect(Array(before[..<(Int(changed.lowerBound) * c)]) == Array(after[..<(Int(changed.lowerBound) * c)]))
        #expect(Array(before[(Int(changed.upperBound) * c)...]) == Array(after[(Int(changed.upperBound) * c)...]))
        func rms(_ x: [Float]) -> Double {
            let part = x[(Int(dip.lowerBound) * c)..<(Int(dip.upperBound) * c)]
            return sqrt(part.reduce(0) { $0 + Double($1) * Double($1) } / Double(part.count))
        }
        let drop = 20 * log10(rms(after) / rms(before))
        #expect(abs(drop + 6.02) < 1, "the patched stretch dropped \(drop) dB, not 6")
    }

    // MARK: - Helpers

    /// 30 s of stereo: inharmonic partials, slowly beating, with a click every 0.37 s (short windows).
    static func signal() -> [Float] {
        var out = [Float](repeating: 0, count: frames * channels)
        let partials: [Double] = [97, 431, 1210, 3333, 7919]
        for n in 0..<frames {
            let t = Double(n) / Double(rate)
            for c in 0..<channels {
                var v = 0.0
                for (k, f) in partials.enumerated() {
                    v += 0.06 * sin(2 * .pi * f * t * (1 + 0.003 * Double(c)) + Double(k)) * (0.6 + 0.4 * sin(2 * .pi * 0.3 * t + Double(k)))
                }
                let sinceClick = n % (rate * 37 / 100)
                if sinceClick < 96 { v += 0.5 * exp(-Double(sinceClick) / 16) * (sinceClick % 2 == 0 ? 1 : -1) }
                out[n * channels + c] = Float(v)
            }
        }
        return out
    }

    /// Encodes `input` in parts of `partSeconds`: in `order` on this thread, or all side by side (nil).
    static func encode(_ input: [Float], folder: TempFolder, order: [Int]? = nil) throws -> (AACTrack, Int) {
        let track = try AACTrack(
            bitrate: 128_000, sampleRate: rate, channels: channels, totalFrames: Int64(frames), path: folder.file("track.m4a"),
            partSeconds: partSeconds)
        let count = track.layout.count
        let work: @Sendable (Int) throws -> Void = { k in
            let encoder = try track.partEncoder(k)
            try feed(input, range: encoder.input, into: encoder) { _ in 1 }
            try encoder.finish()
        }
        if let order {
            for k in order { try work(k) }
        } else {
            let failures = Failures(count: count)
            DispatchQueue.concurrentPerform(iterations: count) { k in
                do { try work(k) } catch { failures.set(k, error) }
            }
            if let failure = failures.first { throw failure }
        }
        try track.joinParts()
        return (track, count)
    }

    /// Each slot written by one iteration only.
    final class Failures: @unchecked Sendable {
        private var slots: [Error?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ error: Error) { lock.withLock { slots[k] = error } }
        var first: Error? { lock.withLock { slots.compactMap { $0 }.first } }
    }

    /// The frames `range` of `input` × `gain(frame)`, in blocks of 3000 frames (not the packet size).
    static func feed(_ input: [Float], range: Range<Int64>, into encoder: AACPartEncoder, gain: (Int64) -> Float) throws {
        var block = [Float](repeating: 0, count: 3000 * channels)
        var at = range.lowerBound
        while at < range.upperBound {
            let n = Int(min(3000, range.upperBound - at))
            for f in 0..<n {
                let g = gain(at + Int64(f))
                for c in 0..<channels { block[f * channels + c] = input[(Int(at) + f) * channels + c] * g }
            }
            try block.withUnsafeBufferPointer { p in try encoder.write(UnsafeBufferPointer(rebasing: p[0..<(n * channels)]), frames: n) }
            at += Int64(n)
        }
    }

    static func decode(_ track: AACTrack, _ range: Range<Int64>) throws -> [Float] {
        var out: [Float] = []
        try track.decode(range) { (p, n) throws(AudioError) -> Bool in
            out += p.prefix(n * channels)
            return true
        }
        return out
    }

    static func mux(_ track: AACTrack, to path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        try track.mux(fileDescriptor: fd, path: path)
    }

    /// The bytes of each packet in ffprobe's `-show_packets -show_data` listing.
    static func packetBytes(_ listing: String) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var current: [UInt8]?
        for line in listing.split(separator: "\n") {
            if line == "[PACKET]" {
                current = []
            } else if line == "[/PACKET]" {
                if let current { packets.append(current) }
                current = nil
            } else if current != nil, let colon = line.firstIndex(of: ":"), line.first?.isHexDigit == true {
                // "00000000: 2100 4900 ...  text": the hex groups between the offset and the text
                let hex = line[line.index(after: colon)...].prefix(41).split(separator: " ").joined()
                var i = hex.startIndex
                while let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex), i < hex.endIndex {
                    if let byte = UInt8(hex[i..<j], radix: 16) { current?.append(byte) }
                    i = j
                }
            }
        }
        return packets
    }
}
