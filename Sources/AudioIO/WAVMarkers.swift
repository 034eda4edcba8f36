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

    /// The bytes `append` adds for `points` (at most one more, for an odd-sized file).
    public static func size(of points: [Point]) -> Int64 {
        guard !points.isEmpty else { return 0 }
        let cue = 8 + 4 + 24 * Int64(points.count)
        let labels = points.reduce(Int64(12)) { total, point in
            let body = 4 + Int64(point.label.utf8.filter { $0 != 0 }.count) + 1
            return total + 8 + body + body % 2
        }
        return cue + labels
    }

    /// Appends `points` to the RIFF/WAVE or RF64/WAVE file open on `fd` (read and write).
    ///
    /// A RIFF file's 32-bit size is updated; an RF64 file keeps `0xFFFFFFFF` there and its
    /// 64-bit RIFF size in the `ds64` chunk that libsndfile writes first, which is updated instead.
    public static func append(_ points: [Point], fileDescriptor fd: Int32, path: String) throws(AudioError) {
        guard !points.isEmpty else { return }
        var header = [UInt8](repeating: 0, count: 28)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 28, 0) }
        let isRIFF = n >= 12 && header[0..<4] == [0x52, 0x49, 0x46, 0x46][...]
        let isRF64 = n == 28 && header[0..<4] == [0x52, 0x46, 0x36, 0x34][...] && header[12..<16] == [0x64, 0x73, 0x36, 0x34][...]
        guard isRIFF || isRF64, header[8..<12] == [0x57, 0x41, 0x56, 0x45][...] else {
            throw AudioError(file: path, operation: "WAV markers", reason: "not a RIFF/WAVE or RF64/WAVE file", kind: .software)
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
        guard isRF64 || end + Int64(bytes.count) - 8 <= Int64(UInt32.max) else {
            // the encoder chooses RF64 for files this large (TrackEncoder.needsRF64): this is the guard
            throw AudioError(file: path, operation: "WAV markers", reason: "the file would exceed the 4 GiB RIFF limit", kind: .software)
        }
        try write(bytes, at: end, fd: fd, path: path)
        end += Int64(bytes.count)
        if isRF64 {
            // ds64: riffSize (64-bit) right after the chunk's id and size
            let size = UInt64(end - 8)
            try write(le32(UInt32(size & 0xffff_ffff)) + le32(UInt32(size >> 32)), at: 20, fd: fd, path: path)
        } else {
            try write(le32(UInt32(end - 8)), at: 4, fd: fd, path: path)
        }
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
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset) + off_t(done)) }
            guard n > 0 else {
                throw AudioError(file: path, operation: "pwrite", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            done += n
        }
    }
}
