import AudioCore
import Foundation
import TestKit
import Testing

@testable import AudioIO

/// `SHA256Hasher` against FIPS 180-2's vectors, and `WAVMarkers` appended to a file libsndfile wrote.
@Suite struct SHA256Tests {
    @Test(
        "digests of the standard vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func vectors(_ text: String, _ hex: String) {
        #expect(SHA256Hasher.hex(SHA256Hasher.digest(Array(text.utf8))) == hex)
    }

    @Test("a file read in 1 MiB pieces hashes as its bytes do; a missing file has no hash")
    func file() throws {
        let folder = try TempFolder("sha")
        // a million 'a's, FIPS 180-2's third vector
        let million = [UInt8](repeating: 0x61, count: 1_000_000)
        let millionPath = try folder.write(million, to: "million")
        #expect(SHA256Hasher.hex(ofFile: millionPath) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // past one 1 MiB piece, so two are read and joined
        var bytes = million + million
        for i in stride(from: 0, to: bytes.count, by: 4099) { bytes[i] = UInt8(truncatingIfNeeded: i >> 12) }
        let path = try folder.write(bytes, to: "long")
        #expect(SHA256Hasher.hex(ofFile: path) == SHA256Hasher.hex(SHA256Hasher.digest(bytes)))
        #expect(SHA256Hasher.hex(ofFile: folder.file("nothing")) == nil)
    }
}

@Suite struct WAVMarkerTests {
    @Test(
        "markers appended after the audio: the RIFF size, the cue points and labels, and the audio still reads",
        arguments: [(SoundFileWriter.Format.wav16, 2), (.wav24, 1)])
    func append(format: SoundFileWriter.Format, channels: Int) throws {
        let folder = try TempFolder("markers")
        let path = folder.file("a.wav")
        // 4801 frames of 24-bit mono make an odd-sized data chunk
        let frames = 4801
        let samples = (0..<(frames * channels)).map { Int32(truncatingIfNeeded: $0 * 37) << 16 }
        try UnitFixture.write(samples, channels: channels, rate: 48_000, format: format, to: path)
        let before = try UnitFixture.bytes(path).count
        let points = [
            WAVMarkers.Point(frame: 0, label: "intro"), WAVMarkers.Point(frame: 1200, label: "inhale"), WAVMarkers.Point(frame: 4800, label: "é"),
        ]
        let fd = open(path, O_RDWR | O_CLOEXEC)
        try #require(fd >= 0)
        try WAVMarkers.append(points, fileDescriptor: fd, path: path)
        close(fd)
        let bytes = try UnitFixture.bytes(path)
        #expect(Int64(bytes.count - before) == WAVMarkers.size(of: points) + Int64(before % 2))
        #expect(UnitFixture.le32(bytes, 4) == bytes.count - 8)
        let chunks = UnitFixture.riffChunks(bytes)
        let cue = try #require(chunks.first { $0.id == "cue " })
        #expect(UnitFixture.le32(bytes, cue.body) == points.count)
        for (i, point) in points.enumerated() {
            let at = cue.body + 4 + 24 * i
            #expect(UnitFixture.le32(bytes, at) == i + 1)
            #expect(UnitFixture.le32(bytes, at + 4) == Int(point.frame))
            #expect(String(decoding: bytes[(at + 8)..<(at + 12)], as: UTF8.self) == "data")
            #expect(UnitFixture.le32(bytes, at + 20) == Int(point.frame))
        }
        let list = try #require(chunks.first { $0.id == "LIST" })
        #expect(String(decoding: bytes[list.body..<(list.body + 4)], as: UTF8.self) == "adtl")
        var labels: [String] = []
        var at = list.body + 4
        while at < list.body + list.size {
            let size = UnitFixture.le32(bytes, at + 4)
            #expect(UnitFixture.le32(bytes, at + 8) == labels.count + 1)
            labels.append(String(decoding: bytes[(at + 12)..<(at + 8 + size - 1)], as: UTF8.self))
            at += 8 + size + size % 2
        }
        #expect(labels == points.map(\.label))
        let read = try UnitFixture.read(path)
        #expect(read.frames == frames && read.channels == channels)
    }

    @Test("a file that is not RIFF/WAVE is refused and left as it was")
    func notWAV() throws {
        let folder = try TempFolder("markersbad")
        let path = try folder.write("not a wave file at all, only text", to: "a.wav")
        let fd = open(path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        let error = UnitFixture.audioError { try WAVMarkers.append([.init(frame: 1, label: "x")], fileDescriptor: fd, path: path) }
        #expect(error?.reason == "not a RIFF/WAVE or RF64/WAVE file")
        #expect(try folder.read("a.wav") == "not a wave file at all, only text")
    }
}
