import AudioCore
import Glibc

/// Labelled cue points in a finished WAV file: a `cue ` chunk and a `LIST`/`adtl` chunk of
/// `labl` entries, appended after the audio, with the RIFF size updated.
///
/// libsndfile writes `cue ` chunks (SFC_SET_CUE) but not their labels, and 1.2.0
/// writes a corrupt file past about 2,700 points (its header buffer is 64 KiB);
/// DAWs (Audacity, Reaper) and `sndfile-info` read markers after the data chunk
/// as well, so they are appended here once libsndfile has closed the file.
public enum WAVMarkers {
    /// A marker: a frame and its label.
    public struct Point: Sendable, Equatable {
        public var frame: Int64
        public var label: String
        public init(frame: Int64, label: String) {
            self.frame = frame
            self.label = label
        }
    }

    /// Appends `points` to the RIFF/WAVE file open on `fd` (read and write).
    public static func append(_ points: [Point], fileDescriptor fd: Int32, path: String) throws(AudioError) {
        guard !points.isEmpty else { return }
        var header = [UInt8](repeating: 0, count: 12)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 12, 0) }
        guard n == 12, header[0..<4] == [0x52, 0x49, 0x46, 0x46][...], header[8..<12] == [0x57, 0x41, 0x56, 0x45][...] else {
            throw AudioError(file: path, operation: "WAV markers", reason: "not a RIFF/WAVE file", kind: .software)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw AudioError(file: path, operation: "fstat", reason: String(cString: strerror(errno)), kind: .ioError)
        }
        var end = Int64(info.st_size)
        var bytes: [UInt8] = []
        if end % 2 == 1 { bytes.append(0) }  // chunks start on even offsets
        bytes += chunk("cue ", cueBody(points))
        var list = Array("adtl".utf8)
        for (i, point) in points.enumerated() {
            list += chunk("labl", le32(UInt32(i + 1)) + Array(point.label.utf8.filter { $0 != 0 }) + [0])
        }
        bytes += chunk("LIST", list)
        guard end + Int64(bytes.count) - 8 <= Int64(UInt32.max) else {
            throw AudioError(file: path, operation: "WAV markers", reason: "the file would exceed the 4 GiB RIFF limit", kind: .data)
        }
        try write(bytes, at: end, fd: fd, path: path)
        end += Int64(bytes.count)
        try write(le32(UInt32(end - 8)), at: 4, fd: fd, path: path)
    }

    private static func cueBody(_ points: [Point]) -> [UInt8] {
        var body = le32(UInt32(points.count))
        for (i, point) in points.enumerated() {
            let frame = le32(UInt32(clamping: point.frame))
            body += le32(UInt32(i + 1))  // dwName: the id its label refers to
            body += frame  // dwPosition
            body += Array("data".utf8)  // fccChunk
            body += le32(0) + le32(0)  // dwChunkStart, dwBlockStart
            body += frame  // dwSampleOffset
        }
        return body
    }

    private static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        var out = Array(id.utf8) + le32(UInt32(body.count)) + body
        if body.count % 2 == 1 { out.append(0) }
        return out
    }

    private static func le32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
    }

    private static func write(_ bytes: [UInt8], at offset: Int64, fd: Int32, path: String) throws(AudioError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else {
                throw AudioError(file: path, operation: "pwrite", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            done += n
        }
    }
}
