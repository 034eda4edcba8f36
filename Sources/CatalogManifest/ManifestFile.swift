import AudioCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A manifest read from its file, its text kept so that problems found afterwards (a file's size,
/// a conflict with another shard) are reported at their keys' lines and columns.
public struct ManifestDocument {
    public let path: String
    public let manifest: Manifest
    public let bytes: [UInt8]

    /// `problems` (found at key paths of this manifest) as located diagnostics.
    public func diagnostics(_ problems: [ManifestProblem]) -> [Diagnostic] {
        problems.isEmpty ? [] : ManifestProblem.locate(problems, in: bytes, file: path)
    }

    /// Reads and validates `folder`'s `catalog.json`; nil when there is none.
    ///
    /// Only a regular file is read: a symbolic link, a FIFO, a device or a folder under that name is
    /// refused without reading (`noInput`), and so is a file that cannot be opened. A file over
    /// `Manifest.Limits.maxBytes` is refused by its size (`data`), and at most one byte more than the
    /// limit is ever read, should it grow meanwhile. The bytes then go to `Manifest.decode`.
    public static func read(folder: String) throws(DiagnosticList) -> ManifestDocument? {
        let path = (folder as NSString).appendingPathComponent(Manifest.fileName)
        // O_NONBLOCK: opening a FIFO without a writer must not hang (it is refused below); O_NOFOLLOW: a link is refused
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            let reason =
                code == ELOOP
                ? "is a symbolic link; expected the manifest itself, a regular file" : "cannot be read: \(String(cString: strerror(code)))"
            throw DiagnosticList([Diagnostic(reason, file: path, kind: .noInput)])
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw DiagnosticList([Diagnostic("cannot be read: \(String(cString: strerror(errno)))", file: path, kind: .noInput)])
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DiagnosticList([
                Diagnostic("is \(fileKind(info.st_mode)), not a regular file; expected a manifest written by render", file: path, kind: .noInput)
            ])
        }
        guard Int64(info.st_size) <= Int64(Manifest.Limits.maxBytes) else {
            throw ManifestProblem.tooLarge(file: path, size: "\(info.st_size) bytes")
        }
        let bytes: [UInt8]
        switch readAtMost(Manifest.Limits.maxBytes + 1, from: fd) {
        case .success(let read): bytes = read
        case .failure(let failure):
            throw DiagnosticList([Diagnostic("cannot be read: \(String(cString: strerror(failure.code)))", file: path, kind: .noInput)])
        }
        guard bytes.count <= Manifest.Limits.maxBytes else {
            throw ManifestProblem.tooLarge(file: path, size: "more than \(Manifest.Limits.maxBytes) bytes")
        }
        return ManifestDocument(path: path, manifest: try Manifest.decode(bytes, file: path), bytes: bytes)
    }
}

extension Manifest {
    /// Reads and validates `folder`'s `catalog.json` (see `Manifest.decode`); nil when there is none.
    public static func read(folder: String) throws(DiagnosticList) -> Manifest? {
        try ManifestDocument.read(folder: folder)?.manifest
    }
}

/// What a file that is not a regular file is, for messages: `a symbolic link`, `a FIFO`.
public func fileKind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFLNK: "a symbolic link"
    case S_IFIFO: "a FIFO"
    case S_IFDIR: "a folder"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFREG: "a regular file"
    default: "not a regular file"
    }
}

/// The errno of a failed `read(2)`.
public struct ReadFailure: Error {
    public let code: Int32
}

/// Up to `limit` bytes from `fd`: read in 64 KiB pieces until its end or the limit, so a small file costs little.
public func readAtMost(_ limit: Int, from fd: Int32) -> Result<[UInt8], ReadFailure> {
    var bytes: [UInt8] = []
    var piece = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < limit {
        let wanted = min(piece.count, limit - bytes.count)
        let n = piece.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
        if n > 0 {
            bytes += piece[..<n]
        } else if n == 0 {
            break
        } else if errno != EINTR {
            return .failure(ReadFailure(code: errno))
        }
    }
    return .success(bytes)
}
