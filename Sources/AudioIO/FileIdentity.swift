import Glibc

/// What tells one version of a file from another: device, inode, size, modification
/// and status-change times (`fstat`).
///
/// Any write to a file moves its status-change time (`st_ctime`), which no program can
/// set back, and a file replaced by a rename has another inode. So two equal
/// identities taken at two moments mean the bytes did not change in between: a
/// fingerprint hashed at one moment describes what a decoder read at a later one.
public struct FileIdentity: Sendable, Equatable, CustomStringConvertible {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: timespec
    public var changed: timespec

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
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

    public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }

    public var description: String { "inode \(inode), \(size) bytes, changed \(changed.tv_sec).\(changed.tv_nsec)" }
}
