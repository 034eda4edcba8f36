import AudioCore
import CPosix
import Foundation

/// An output file that appears under its name only when complete.
///
/// The data goes to an unnamed file in the destination folder (Linux
/// `O_TMPFILE`): if the process dies, by error, signal or SIGKILL, the file
/// vanishes with it. `commit()` links it under a temporary name and renames
/// that over the destination, so an existing file stays untouched until its
/// replacement is whole. Where `O_TMPFILE` is unsupported, a hidden named
/// temporary file is used and deleted on error, SIGINT, SIGTERM and SIGHUP.
public final class AtomicOutputFile {
    public let path: String
    /// The open, readable and writable descriptor of the data.
    public let fileDescriptor: Int32
    private var namedTemp: String?
    private var slot: Int32 = -1
    private var done = false

    /// Creates the hidden file in `path`'s folder, which must exist.
    public init(path: String) throws(AudioError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw AudioError(file: path, operation: "create", reason: "is a directory", kind: .cannotCreate)
        }
        let fd = cadence_open_tmpfile(directory)
        if fd >= 0 {
            fileDescriptor = fd
            return
        }
        let unnamedError = errno
        guard unnamedError == EOPNOTSUPP || unnamedError == EISDIR || unnamedError == EINVAL else {
            throw AudioError(
                file: path, operation: "create", reason: "cannot create a file in \(directory): \(String(cString: strerror(unnamedError)))",
                kind: .cannotCreate)
        }
        cadence_install_cleanup_handlers()
        let name = (path as NSString).lastPathComponent
        var template = Array("\(directory)/.\(name).XXXXXX".utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else {
            throw AudioError(
                file: path, operation: "create", reason: "cannot create a file in \(directory): \(String(cString: strerror(errno)))",
                kind: .cannotCreate)
        }
        let tempPath = String(cString: template.map { UInt8(bitPattern: $0) } + [0])
        fchmod(named, 0o644)
        fileDescriptor = named
        namedTemp = tempPath
        slot = cadence_register_temp(tempPath)
    }

    deinit { discard() }

    /// Writes `bytes` as the whole new content of `path`, in place only when complete.
    public static func write(_ bytes: [UInt8], to path: String) throws(AudioError) {
        let file = try AtomicOutputFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Writes all of `bytes` at the current offset (for text outputs like the cue sheet).
    public func write(_ bytes: [UInt8]) throws(AudioError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fileDescriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AudioError(file: path, operation: "write", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            offset += n
        }
    }

    /// The SHA-256 of everything written so far, read back from the file.
    public func sha256() throws(AudioError) -> String {
        var hasher = SHA256Hasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AudioError(file: path, operation: "pread", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += off_t(n)
        }
        return SHA256Hasher.hex(hasher.finalize())
    }

    /// The file's size in bytes.
    public func size() -> Int64 {
        var info = stat()
        return fstat(fileDescriptor, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Makes the file durable and puts it in place under `path`, replacing what was there.
    public func commit() throws(AudioError) {
        guard !done else { return }
        guard fsync(fileDescriptor) == 0 else {
            throw AudioError(file: path, operation: "fsync", reason: String(cString: strerror(errno)), kind: .ioError)
        }
        let staged: String
        if let namedTemp {
            staged = namedTemp
        } else {
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            // the staged name is visible until the rename: a signal in between must remove it
            cadence_install_cleanup_handlers()
            var attempt = 0
            while true {
                let candidate = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).\(attempt).tmp"
                slot = cadence_register_temp(candidate)
                if cadence_link_tmpfile(fileDescriptor, candidate) == 0 { staged = candidate; break }
                let failure = errno
                cadence_unregister_temp(slot)
                slot = -1
                guard failure == EEXIST, attempt < 100 else {
                    throw AudioError(file: path, operation: "linkat", reason: String(cString: strerror(failure)), kind: .cannotCreate)
                }
                attempt += 1
            }
        }
        guard rename(staged, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(staged)
            throw AudioError(file: path, operation: "rename", reason: reason, kind: .cannotCreate)
        }
        done = true
        cadence_unregister_temp(slot)
        close(fileDescriptor)
    }

    /// Throws the data away; the destination is left as it was.
    public func discard() {
        guard !done else { return }
        done = true
        if let namedTemp { unlink(namedTemp) }
        cadence_unregister_temp(slot)
        close(fileDescriptor)
    }
}
