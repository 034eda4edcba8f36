import AudioCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RecipeLoader {
    /// Reads and validates a recipe file: `read(path:)`, then `parse`; its id defaults to the file's name.
    public static func load(path: String) throws(DiagnosticList) -> Recipe {
        let bytes = try read(path: path)
        var name = Substring(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path))
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return try parse(bytes, file: path, defaultID: String(name))
    }

    /// The bytes of a recipe file, reading at most `RecipeLimits.maxBytes` + 1 of them.
    ///
    /// A file over the limit is reported by its size without being read whole,
    /// so a 5 GB file, a FIFO or `/dev/zero` costs no more memory or time than
    /// a 1 MiB recipe. Missing, unreadable or folder: `noInput`; too large: `data`.
    public static func read(path: String) throws(DiagnosticList) -> [UInt8] {
        // O_NONBLOCK only for the open: a FIFO without a writer must not hang it. Reads block
        // again, so a pipe (`render <(…)`) is read to its end.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            let message = code == ENOENT ? "no such recipe file" : "cannot read the recipe: \(String(cString: strerror(code)))"
            throw DiagnosticList([Diagnostic(message, file: path, kind: .noInput)])
        }
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        var info = stat()
        if fstat(fd, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw DiagnosticList([Diagnostic("is a folder, not a recipe file", file: path, kind: .noInput)])
            }
            if info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) > Int64(RecipeLimits.maxBytes) {
                throw tooLarge(path: path, size: "\(info.st_size) bytes")
            }
        }
        var bytes = [UInt8](repeating: 0, count: RecipeLimits.maxBytes + 1)
        var failure: Int32 = 0
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var count = 0
            while count < buffer.count {
                let n = systemRead(fd, base + count, buffer.count - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
            return count
        }
        if failure != 0 {
            let reason = String(cString: strerror(failure))
            throw DiagnosticList([Diagnostic("cannot read the recipe: \(reason)", file: path, kind: .noInput)])
        }
        if count > RecipeLimits.maxBytes { throw tooLarge(path: path, size: "more than \(RecipeLimits.maxBytes) bytes") }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The size error, at the file's first line as `parse` reports it.
    static func tooLarge(path: String, size: String) -> DiagnosticList {
        DiagnosticList([sizeDiagnostic(size: size, at: SourceLocation(file: path, line: 1, column: 1))])
    }

    /// `the recipe is N bytes; expected at most 1 MiB (1048576 bytes)`.
    static func sizeDiagnostic(size: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic("the recipe is \(size); expected at most 1 MiB (\(RecipeLimits.maxBytes) bytes)", at: location)
    }
}

/// `read(2)`, under a name that the static `read(path:)` does not hide.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
    #else
        Darwin.read(fd, buffer, count)
    #endif
}
