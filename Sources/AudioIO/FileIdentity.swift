import AudioCore
import Glibc

/// What tells one version of a file from another: device, inode, size, modification
/// and status-change times (`fstat`).
///
/// Any write to a file moves its status-change time (`st_ctime`), which no program can
/// set back, and a file replaced by a rename has another inode. So two equal
/// identities taken at two moments mean the bytes did not change in between: a
/// fingerprint hashed at one moment describes what a decoder read at a later one.
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// `st_mtim` and `st_ctim`, as nanoseconds since the epoch.
    public var modified: Int64
    public var changed: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    /// The identity of the open file `descriptor`, or nil when `fstat` fails.
    public static func of(descriptor: Int32) -> FileIdentity? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileIdentity(info) : nil
    }

    /// The identity of the file at `path` (links followed), or nil when `stat` fails.
    public static func of(path: String) -> FileIdentity? {
        var info = stat()
        return stat(path, &info) == 0 ? FileIdentity(info) : nil
    }

    public var description: String { "inode \(inode), \(size) bytes, changed at \(changed) ns" }

    /// The error for a file that is not the version a caller expected (`why` says which moment).
    public static func changedError(path: String, _ why: String) -> AudioError {
        AudioError(
            file: path, operation: "decode",
            reason: "the file changed \(why); render again once it is written", kind: .data)
    }
}
