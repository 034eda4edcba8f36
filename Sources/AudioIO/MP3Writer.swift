import AudioCore
import Glibc

/// Writes an MP3: LAME's frames through libsndfile, after an ID3v2.4 tag (`ID3v2Tag`).
///
/// libsndfile asks LAME for tags in whatever ID3 version fits: a title in ASCII gets only a
/// 128-byte ID3v1 at the end, and a longer or non-ASCII one UTF-8 bytes in ID3v2.3 frames that
/// say ISO-8859-1. So libsndfile gets no tags here: it encodes (constant bit rate, LAME's Info
/// frame with the encoder delay and padding) into a scratch file beside the output, and
/// `finish()` writes the tag and then those bytes, unchanged, to the output. No ID3v1 is written.
public final class MP3Writer {
    public let path: String
    private let fileDescriptor: Int32
    private let scratch: ScratchFile
    private let encoder: SoundFileWriter
    private let tag: [UInt8]
    private var finished = false

    /// Opens LAME (through libsndfile) on a scratch file; `fd` receives the MP3 at `finish()`.
    public init(
        fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int, bitrate: Int?, tags: [(String, String)],
        chapters: [ID3v2Tag.Chapter], totalFrames: Int64
    ) throws(AudioError) {
        self.path = path
        self.fileDescriptor = fd
        scratch = try ScratchFile(channels: channels, name: path, folder: PathName.directory(of: path))
        encoder = try SoundFileWriter(
            fileDescriptor: scratch.fileDescriptor, path: path, format: .mp3, sampleRate: sampleRate, channels: channels, bitrate: bitrate)
        tag = ID3v2Tag.bytes(tags: tags, chapters: chapters, totalFrames: totalFrames, sampleRate: sampleRate)
    }

    /// Encodes `frames` frames of interleaved floats.
    public func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        try encoder.write(samples, frames: frames)
    }

    /// Completes LAME's stream (its Info frame), then writes the tag and the MPEG frames to the output.
    public func finish() throws(AudioError) {
        guard !finished else { return }
        finished = true
        try encoder.finish()
        let source = scratch.fileDescriptor
        var info = stat()
        guard fstat(source, &info) == 0 else { throw failure("fstat", errno) }
        let length = Int64(info.st_size)
        // libsndfile was given no strings: the stream is MPEG frames from its first byte
        var head: [UInt8] = [0, 0, 0]
        guard length >= 4, pread(source, &head, 3, 0) == 3, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 else {
            throw AudioError(file: path, operation: "MP3", reason: "LAME's stream does not start with an MPEG frame", kind: .software)
        }
        try writeAll(tag)
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        var offset: Int64 = 0
        while offset < length {
            let wanted = Int(min(Int64(chunk), length - offset))
            let n = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, wanted, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("pread (scratch file)", n == 0 ? EIO : errno) }
            try writeAll(buffer[0..<n])
            offset += Int64(n)
        }
    }

    private func writeAll(_ bytes: some Collection<UInt8>) throws(AudioError) {
        try AtomicOutputFile.writeAll(Array(bytes), to: fileDescriptor, path: path)
    }

    private func failure(_ operation: String, _ code: Int32) -> AudioError {
        AtomicOutputFile.writeError(path: path, operation: operation, code)
    }
}
