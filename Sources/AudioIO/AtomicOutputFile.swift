import AudioCore
import CPosix
import Foundation

/// An output file that appears under its name only when complete.
///
/// The data goes to an unnamed file in the destination folder (Linux
/// `O_TMPFILE`): if the process dies, by error, signal or SIGKILL, the file
/// vanishes with it. `commit()` links it straight under its name when nothing is
/// there; to replace a file it links it under a hidden staging name
/// (`.NAME.PID.N.tmp`) and renames that over the destination, so an existing file
/// stays untouched until its replacement is whole. Where `O_TMPFILE` is
/// unsupported, the data is written to that staging name from the start, and the
/// file is deleted on error, SIGINT, SIGTERM and SIGHUP.
///
/// Only SIGKILL (or a lost machine) can leave a staging file behind: for the whole
/// render without `O_TMPFILE`, and otherwise only in the instant between the link
/// and the rename of a replacement. `removeLeftovers(in:names:)` deletes those of
/// processes that are gone; the catalog and the single render call it, so the
/// next run of the same output cleans up.
///
/// The destination is replaced, never written through: a symbolic link there is
/// replaced by the new file (its target is untouched), and a folder, device, pipe
/// or socket there is an error.
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
        try Self.checkDestination(path)
        let directory = Self.folder(of: path)
        let fd = cadence_open_tmpfile(directory)
        if fd >= 0 {
            fileDescriptor = fd
            return
        }
        let unnamedError = errno
        guard unnamedError == EOPNOTSUPP || unnamedError == EISDIR || unnamedError == EINVAL else {
            throw AudioError(
                file: path, operation: "create", reason: "cannot create a file in \(directory): \(Self.describe(unnamedError))",
                kind: .cannotCreate)
        }
        // no O_TMPFILE here: write to the staging name, deleted if a signal ends the process
        cadence_install_cleanup_handlers()
        var attempt = 0
        while true {
            let candidate = Self.stagingName(for: path, attempt: attempt)
            var named: Int32 = -1
            if cadence_stage_temp(candidate, -1, &named, &slot) == 0 {
                fileDescriptor = named
                namedTemp = candidate
                return
            }
            let failure = errno
            guard failure == EEXIST, attempt < 100 else {
                throw AudioError(
                    file: path, operation: "create", reason: "cannot create a file in \(directory): \(Self.describe(failure))",
                    kind: .cannotCreate)
            }
            attempt += 1
        }
    }

    deinit { discard() }

    /// Writes `bytes` as the whole new content of `path`, in place only when complete.
    public static func write(_ bytes: [UInt8], to path: String) throws(AudioError) {
        let file = try AtomicOutputFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Checks, before any work, that a file can be put at `path`: the name is not a
    /// folder (nor ends in `/`), not a device, pipe or socket, and its folder exists
    /// and can be written to. A symbolic link is fine: it will be replaced.
    public static func checkDestination(_ path: String) throws(AudioError) {
        func refuse(_ reason: String) -> AudioError { AudioError(file: path, operation: "create", reason: reason, kind: .cannotCreate) }
        var info = stat()
        if lstat(path, &info) == 0 {
            var target = stat()
            let isFolder =
                (info.st_mode & S_IFMT) == S_IFDIR
                || ((info.st_mode & S_IFMT) == S_IFLNK && stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFDIR)
            if isFolder { throw refuse("is a directory") }
            let type = info.st_mode & S_IFMT
            if type != S_IFREG && type != S_IFLNK {
                throw refuse("is a device, pipe or socket, not a regular file; render only writes files")
            }
        }
        if path.hasSuffix("/") { throw refuse("the name ends in '/', a folder; the output is a file") }
        let directory = folder(of: path)
        var folderInfo = stat()
        guard stat(directory, &folderInfo) == 0 else {
            throw refuse(errno == ENOENT ? "the folder \(directory) does not exist" : "cannot use the folder \(directory): \(describe(errno))")
        }
        guard (folderInfo.st_mode & S_IFMT) == S_IFDIR else { throw refuse("\(directory) is not a folder") }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw refuse("cannot create a file in \(directory): \(describe(errno))")
        }
    }

    /// Writes all of `bytes` at the current offset (for text outputs like the cue sheet).
    public func write(_ bytes: [UInt8]) throws(AudioError) {
        try Self.writeAll(bytes, to: fileDescriptor, path: path)
    }

    /// `writeAll` of an array's bytes.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(AudioError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(AudioError) in try writeAll(raw, to: fd, path: path) } }.get()
    }

    /// Writes all of `bytes` to `fd` at its offset, going on after `EINTR` and short writes; a failure is
    /// `writeError`'s (no room: `cannotCreate`, else `ioError`), naming `path`.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws(AudioError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw writeError(path: path, operation: "write", errno)
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

    /// Starts writing what is written so far to disk, without waiting: called while a long
    /// track encodes, it spreads the writeback over the encode, and the fsync of `commit`
    /// (which an hour of FLAC made wait about 3 s) finds little left. Best effort.
    public static func startWriteback(fileDescriptor: Int32) {
        _ = cadence_start_writeback(fileDescriptor)
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
            throw Self.writeError(path: path, operation: "fsync", errno)
        }
        let staged: String
        if let namedTemp {
            staged = namedTemp
        } else {
            // nothing there yet: link the whole file straight under its name (nothing staged, nothing to leave)
            if cadence_link_tmpfile(fileDescriptor, path) == 0 {
                finish()
                return
            }
            guard errno == EEXIST else {
                throw AudioError(file: path, operation: "linkat", reason: Self.describe(errno), kind: .cannotCreate)
            }
            // replacing: the staged name is visible until the rename, and a signal in between must remove it
            cadence_install_cleanup_handlers()
            var attempt = 0
            while true {
                let candidate = Self.stagingName(for: path, attempt: attempt)
                var unused: Int32 = -1
                if cadence_stage_temp(candidate, fileDescriptor, &unused, &slot) == 0 {
                    staged = candidate
                    break
                }
                let failure = errno
                guard failure == EEXIST, attempt < 100 else {
                    throw AudioError(file: path, operation: "linkat", reason: Self.describe(failure), kind: .cannotCreate)
                }
                attempt += 1
            }
        }
        guard rename(staged, path) == 0 else {
            let reason = Self.describe(errno)
            unlink(staged)
            cadence_unregister_temp(slot)
            slot = -1
            namedTemp = nil
            throw AudioError(file: path, operation: "rename", reason: reason, kind: .cannotCreate)
        }
        namedTemp = nil
        finish()
    }

    /// Commits `files` in order as one step: no other render's commit (another process's, or
    /// another worker's) interleaves with them, so an audio file and its cue sheet always
    /// come from the same render, even when two renders write the same outputs at once.
    ///
    /// The step holds an exclusive `flock` on each destination folder (in name order, so two
    /// steps never wait on each other); where the file system has no `flock` the files are
    /// committed without it.
    public static func commitTogether(_ files: [AtomicOutputFile]) throws(AudioError) {
        var locks: [Int32] = []
        defer {
            for fd in locks.reversed() {
                flock(fd, LOCK_UN)
                close(fd)
            }
        }
        for folder in Set(files.map { Self.folder(of: $0.path) }).sorted() {
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                throw AudioError(file: folder, operation: "open", reason: describe(errno), kind: .cannotCreate)
            }
            var locked = true
            while flock(fd, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                guard [EBADF, ENOLCK, EOPNOTSUPP, EINVAL].contains(errno) else {
                    let reason = describe(errno)
                    close(fd)
                    throw AudioError(file: folder, operation: "flock", reason: reason, kind: .cannotCreate)
                }
                locked = false
                break
            }
            if locked { locks.append(fd) } else { close(fd) }
        }
        for file in files { try file.commit() }
    }

    /// Throws the data away; the destination is left as it was.
    public func discard() {
        guard !done else { return }
        if let namedTemp { unlink(namedTemp) }
        finish()
    }

    private func finish() {
        done = true
        cadence_unregister_temp(slot)
        slot = -1
        close(fileDescriptor)
    }

    // MARK: - Staging names and their leftovers

    /// `.NAME.PID.N.tmp` beside `path`: hidden, and naming the process that made it.
    static func stagingName(for path: String, attempt: Int) -> String {
        let folder = PathName.folder(of: path)
        let name = PathName.name(of: path)
        return (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).\(attempt).tmp"
    }

    /// The output name and process of a staging file name, or nil for any other name.
    static func parseStagingName(_ entry: String) -> (name: String, pid: pid_t)? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp") else { return nil }
        let parts = entry.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        func isNumber(_ s: Substring) -> Bool { !s.isEmpty && s.count <= 10 && s.utf8.allSatisfy { (48...57).contains($0) } }
        guard parts.count >= 3, isNumber(parts[parts.count - 2]), isNumber(parts[parts.count - 1]),
            let pid = pid_t(parts[parts.count - 2]), pid > 0
        else { return nil }
        let name = parts.dropLast(2).joined(separator: ".")
        return name.isEmpty ? nil : (name, pid)
    }

    /// Deletes the staging files (`.NAME.PID.N.tmp`) in `folder` that a killed process left:
    /// those whose process is gone (or is this one, which must have no output of those names
    /// in progress), for the output names in `names` (every name when nil). Returns what it deleted.
    @discardableResult
    public static func removeLeftovers(in folder: String, names: Set<String>? = nil) -> [String] {
        let directory = folder.isEmpty ? "." : folder
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for entry in entries.sorted() {
            guard let (name, pid) = parseStagingName(entry), names?.contains(name) ?? true else { continue }
            let alive = pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM)
            guard !alive else { continue }
            let full = (directory as NSString).appendingPathComponent(entry)
            var info = stat()
            guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(full) == 0 { removed.append(entry) }
        }
        return removed
    }

    // MARK: - Errors

    private static func folder(of path: String) -> String { PathName.directory(of: path) }

    /// `strerror`, and for a full disk words that say so.
    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "no space left on device (the disk is full)"
        case EDQUOT: "disk quota exceeded"
        default: String(cString: strerror(code))
        }
    }

    /// Whether a write failed for want of room: a full disk, a quota, a size limit, a read-only disk.
    static func meansNoRoom(_ code: Int32) -> Bool { [ENOSPC, EDQUOT, EFBIG, EROFS].contains(code) }

    /// A failed write or fsync: a full disk, a quota or a size limit mean the output cannot
    /// be created there (`cannotCreate`); anything else is an I/O error (`ioError`).
    static func writeError(path: String, operation: String, _ code: Int32) -> AudioError {
        let kind: FailureKind = meansNoRoom(code) ? .cannotCreate : .ioError
        return AudioError(file: path, operation: operation, reason: describe(code), kind: kind)
    }
}
