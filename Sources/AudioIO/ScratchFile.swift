import AudioCore
import CPosix
import Foundation

/// An unnamed temporary file of float frames: written once, then read at any frame.
///
/// Holds decoded, resampled beds so that memory does not grow with a bed's
/// length. The file has no name (`O_TMPFILE`, or unlinked at once), so it
/// vanishes with the process whatever happens.
public final class ScratchFile {
    public let channels: Int
    public private(set) var frames: Int64 = 0
    private let fd: Int32
    private let name: String

    /// Creates the file in `folder` (an encoder's scratch beside its output), by default the system's temporary folder.
    public init(channels: Int, name: String, folder: String? = nil) throws(AudioError) {
        self.channels = channels
        self.name = name
        let chosen = folder
        let folder = folder ?? FileManager.default.temporaryDirectory.path
        var fd = cadence_open_tmpfile(folder)
        if fd < 0 {
            var template = Array("\(folder)/cadence-scratch.XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
            if fd >= 0 { template.withUnsafeBufferPointer { name in _ = name.baseAddress.map { unlink($0) } } }
        }
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if chosen != nil {
                throw AudioError(
                    file: name, operation: "open (scratch file)", reason: "cannot create a scratch file in \(folder): \(reason)", kind: .cannotCreate)
            }
            let source = ProcessInfo.processInfo.environment["TMPDIR"].map { _ in "TMPDIR" } ?? "the system's temporary folder"
            throw AudioError(
                file: name, operation: "open (scratch file)",
                reason: "cannot create a scratch file for the decoded sound in \(folder) (\(source)): \(reason); set TMPDIR to a writable folder",
                kind: .cannotCreate)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// The descriptor, for a writer that writes the file itself (a probe's M4A); the file owns it.
    public var fileDescriptor: Int32 { fd }

    /// Appends `count` frames.
    public func append(_ samples: UnsafeBufferPointer<Float>, frames count: Int) throws(AudioError) {
        let bytes = count * channels * MemoryLayout<Float>.size
        let offset = off_t(frames) * off_t(channels * MemoryLayout<Float>.size)
        var done = 0
        while done < bytes {
            let n = pwrite(fd, UnsafeRawPointer(samples.baseAddress)?.advanced(by: done), bytes - done, offset + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw AudioError(file: name, operation: "pwrite (scratch file)", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            done += n
        }
        frames += Int64(count)
    }

    /// Reads `count` frames starting at `frame` into `out`.
    /// Writes frames at `frame`, leaving `frames` as it is: for several threads filling
    /// disjoint ranges at once; `finish(frames:)` then sets the length.
    public func write(_ samples: UnsafeBufferPointer<Float>, frames count: Int, at frame: Int64) throws(AudioError) {
        let bytes = count * channels * MemoryLayout<Float>.size
        let offset = off_t(frame) * off_t(channels * MemoryLayout<Float>.size)
        var done = 0
        while done < bytes {
            let n = pwrite(fd, UnsafeRawPointer(samples.baseAddress)?.advanced(by: done), bytes - done, offset + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw AudioError(file: name, operation: "pwrite (scratch file)", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            done += n
        }
    }

    /// The length once `write(_:frames:at:)` has filled [0, frames).
    public func finish(frames: Int64) { self.frames = frames }

    public func read(frame: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws(AudioError) {
        precondition(frame >= 0 && frame + Int64(count) <= frames)
        let bytes = count * channels * MemoryLayout<Float>.size
        let offset = off_t(frame) * off_t(channels * MemoryLayout<Float>.size)
        var done = 0
        while done < bytes {
            let n = pread(fd, UnsafeMutableRawPointer(out) + done, bytes - done, offset + off_t(done))
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                throw AudioError(
                    file: name, operation: "pread (scratch file)",
                    reason: n == 0 ? "unexpected end" : String(cString: strerror(errno)), kind: .ioError)
            }
            done += n
        }
    }
}
