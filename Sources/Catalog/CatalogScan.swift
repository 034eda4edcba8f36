import AudioCore
import Foundation

/// Finds the recipe files of a catalog, and every reason the search may have missed one.
///
/// The rule (README, "Which files are recipes"):
/// - a path given as a file is a recipe whatever its name (a FIFO or `<(…)` too: `RecipeLoader` reads it);
/// - in a folder, searched recursively, a recipe is an entry whose name ends in `.yml` or `.yaml`, in any case;
/// - names that start with `.` are skipped, files and folders alike;
/// - a symbolic link is followed when its target resolves inside the folder given; a link that
///   leads out is an error (`data`), a broken one an error (`noInput`) whatever its name, since the scan
///   cannot tell what it held;
/// - a recipe name on a FIFO, socket or device is an error (`data`): nothing waits on it;
/// - a folder that cannot be opened is an error (`noInput`), one whose listing fails midway (`ioError`);
/// - each folder is listed once (by device and inode), so link cycles end, and a file reached
///   twice is one recipe (by resolved path; the name without links wins).
///
/// Any problem means the scan is incomplete: recipes may have been missed.
public enum CatalogScan {
    /// What a scan found.
    public struct Result: Sendable {
        /// The recipe files, input by input, each sorted by path; each file once.
        public var files: [String] = []
        /// Why recipes may have been missed, in the order found; empty when the scan is complete.
        public var problems: [Diagnostic] = []
    }

    /// Scans `paths` (files and folders, as given on the command line) for recipes.
    public static func recipes(in paths: [String]) -> Result {
        var result = Result()
        var seen: Set<String> = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code = errno
                let message =
                    code == ENOENT || code == ENOTDIR
                    ? "no such recipe file or folder" : "cannot read the recipe file or folder: \(reason(code))"
                result.problems.append(Diagnostic(message, file: path, kind: .noInput))
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                if seen.insert(realPath(path) ?? path).inserted { result.files.append(path) }
                continue
            }
            var walk = FolderWalk(root: path, info: info)
            walk.run()
            result.problems += walk.problems
            for found in walk.recipes() where seen.insert(found.real).inserted { result.files.append(found.path) }
        }
        return result
    }

    /// Whether a name in a recipe folder names a recipe: `*.yml` or `*.yaml`, in any case.
    static func isRecipeName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let suffix = name[name.index(after: dot)...].lowercased()
        return suffix == "yml" || suffix == "yaml"
    }

    /// `realpath(3)`: the absolute path without links, or nil with `errno` set.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `strerror(3)` of `code`.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// One folder given on the command line, listed with everything below it.
private struct FolderWalk {
    /// A folder to list: its name as shown, its path without links, whether a link led to it, and its device and inode.
    struct Folder {
        var path: String
        var real: String
        var viaLink: Bool
        var identity: Identity
    }

    /// A recipe file found: its name as shown and its path without links.
    struct Found {
        var path: String
        var real: String
        var viaLink: Bool
    }

    /// A folder's device and inode: the same folder however it was reached.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The folder as given, without trailing slashes: the start of every name shown.
    let root: String
    /// The root without links, or nil when it cannot be resolved (then nothing below is listed).
    let rootReal: String?
    /// Why `realpath` failed on the root (its errno), when it did.
    private let rootFailure: Int32
    private let rootIdentity: Identity
    private(set) var problems: [Diagnostic] = []
    private var found: [Found] = []
    private var visited: Set<Identity> = []
    /// Folders reached by name alone, listed first, so that a folder also reached through a link keeps its own name.
    private var plain: [Folder] = []
    /// Folders reached through a link, listed once no plain folder is left.
    private var linked: [Folder] = []

    init(root: String, info: stat) {
        // `recipes/` and `recipes` give the same names; `/` stays `/`
        var trimmed = Substring(root)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        self.root = String(trimmed)
        rootReal = CatalogScan.realPath(root)
        rootFailure = rootReal == nil ? errno : 0
        rootIdentity = Self.identity(info)
    }

    /// Lists the root and every folder below it that the rule reaches.
    mutating func run() {
        guard let rootReal else {
            problem(root, "cannot resolve the folder: \(CatalogScan.reason(rootFailure))", .noInput)
            return
        }
        plain = [Folder(path: root, real: rootReal, viaLink: false, identity: rootIdentity)]
        while let folder = plain.popLast() ?? (linked.isEmpty ? nil : linked.removeFirst()) {
            // a folder listed already: reached again through a link (a cycle, or a second way in)
            guard visited.insert(folder.identity).inserted else { continue }
            list(folder)
        }
    }

    /// The recipes found, each resolved path once (its name without links if it has one), sorted by name.
    func recipes() -> [Found] {
        var best: [String: Found] = [:]
        for candidate in found {
            if let kept = best[candidate.real], (kept.viaLink ? 1 : 0, kept.path) <= (candidate.viaLink ? 1 : 0, candidate.path) { continue }
            best[candidate.real] = candidate
        }
        return best.values.sorted { $0.path < $1.path }
    }

    private mutating func list(_ folder: Folder) {
        guard let names = names(in: folder.path) else { return }
        for name in names where !name.hasPrefix(".") {
            let path = folder.path == "/" ? "/" + name : folder.path + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else {
                let code = errno
                if code == EACCES {
                    // the folder can be listed but not searched: every entry would say the same
                    problem(folder.path, "cannot look inside the folder: \(CatalogScan.reason(code))", .noInput)
                    return
                }
                problem(path, "cannot look at it (lstat): \(CatalogScan.reason(code))", .noInput)
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let real = folder.real == "/" ? "/" + name : folder.real + "/" + name
                plain.append(Folder(path: path, real: real, viaLink: folder.viaLink, identity: Self.identity(info)))
            case S_IFREG:
                guard CatalogScan.isRecipeName(name) else { continue }
                let real = folder.real == "/" ? "/" + name : folder.real + "/" + name
                found.append(Found(path: path, real: real, viaLink: folder.viaLink))
            case S_IFLNK:
                follow(link: path, name: name)
            default:
                guard CatalogScan.isRecipeName(name) else { continue }
                problem(path, "is \(Self.kindName(info.st_mode)), not a regular file", .data)
            }
        }
    }

    /// Follows a link found in a folder: into the catalog when its target is inside the root, else an error.
    private mutating func follow(link path: String, name: String) {
        let target = Self.linkText(path)
        guard let real = CatalogScan.realPath(path) else {
            let code = errno
            if code == ENOENT {
                problem(path, "broken symbolic link (it points to \(target), which does not exist)", .noInput)
            } else {
                problem(path, "cannot follow the symbolic link (it points to \(target)): \(CatalogScan.reason(code))", .noInput)
            }
            return
        }
        var info = stat()
        guard stat(real, &info) == 0 else {
            let code = errno
            problem(path, "cannot follow the symbolic link (it points to \(target)): \(CatalogScan.reason(code))", .noInput)
            return
        }
        let isFolder = info.st_mode & S_IFMT == S_IFDIR
        // a link to a file that is not named as a recipe is not a recipe: nothing to follow
        guard isFolder || CatalogScan.isRecipeName(name) else { return }
        guard let rootReal, real == rootReal || real.hasPrefix(rootReal == "/" ? "/" : rootReal + "/") else {
            problem(path, "symbolic link leaves the recipe folder \(root) (it points to \(target), which resolves to \(real))", .data)
            return
        }
        if isFolder {
            linked.append(Folder(path: path, real: real, viaLink: true, identity: Self.identity(info)))
        } else if info.st_mode & S_IFMT == S_IFREG {
            found.append(Found(path: path, real: real, viaLink: true))
        } else {
            problem(path, "is a symbolic link to \(Self.kindName(info.st_mode)) (\(real)), not to a regular file", .data)
        }
    }

    /// The names in a folder (`opendir`/`readdir`), sorted; nil when it cannot be opened. Problems are recorded.
    private mutating func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else {
            let code = errno
            problem(folder, "cannot read the folder: \(CatalogScan.reason(code))", .noInput)
            return nil
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                let code = errno
                if code != 0 { problem(folder, "reading the folder failed midway: \(CatalogScan.reason(code))", .ioError) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> (text: String?, shown: String) in
                let bytes = Array(raw.prefix { $0 != 0 })
                return (String(validating: bytes, as: UTF8.self), String(decoding: bytes, as: UTF8.self))
            }
            guard let text = name.text else {
                // a path that cannot be spelt cannot be opened, and might be a folder of recipes
                problem(folder, "holds a name that is not valid UTF-8 ('\(name.shown)'); rename it", .data)
                continue
            }
            if text != "." && text != ".." { names.append(text) }
        }
        return names.sorted()
    }

    private mutating func problem(_ path: String, _ message: String, _ kind: FailureKind) {
        problems.append(Diagnostic(message, file: path, kind: kind))
    }

    private static func identity(_ info: stat) -> Identity { Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }

    /// What a link says (`readlink(2)`), for messages.
    private static func linkText(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "?" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `a FIFO (named pipe)`, `a socket`, …: the kind of a file that is not regular.
    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a file of no known kind"
        }
    }
}
