/// Path arithmetic on plain strings: the folder and the name of a path.
///
/// Foundation's `NSString.deletingLastPathComponent` traps (SIGILL) on Linux for
/// a one-character name without a slash (`render x.yml -o a` crashed in it), so
/// every layer splits paths here instead. The results follow POSIX `dirname` and
/// `basename`, except that a path without a folder has the folder "" (callers
/// that need a directory to open use `directory(of:)`, which gives ".").
public enum PathName {
    /// The folder part of `path`: "" for `a`, `/` for `/a`, `a/b` for `a/b/c` and `a/b/c/`.
    public static func folder(of path: String) -> String {
        let bytes = Array(trimmed(path).utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        var end = slash
        while end > 0 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The folder to open for `path`: its folder, or "." when it has none.
    public static func directory(of path: String) -> String {
        let folder = folder(of: path)
        return folder.isEmpty ? "." : folder
    }

    /// The last component of `path`: `c` for `a/b/c` and `a/b/c/`, `/` for `/`, "" for "".
    public static func name(of path: String) -> String {
        let bytes = Array(trimmed(path).utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return String(decoding: bytes, as: UTF8.self) }
        if bytes.count == 1 { return "/" }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// `path` without its trailing slashes (`/` stays `/`).
    private static func trimmed(_ path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
