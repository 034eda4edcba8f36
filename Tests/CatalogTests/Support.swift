import AudioIO
import CadenceCues
import Foundation
@_exported import TestKit
import Testing

// Helpers of the catalog tests (folders, processes, sound fixtures, exact decimal
// time and cue sheets come from TestKit): running `render` in the background with
// default signal handling, file identities, folder snapshots and the catalog
// manifest's model. Every expectation is computed from the recipes' own text,
// never copied from a render.

// MARK: - Reading outputs back

/// The frame count, rate and channels of a sound file, by decoding every frame with libsndfile.
func decodedShape(_ path: String) throws -> (frames: Int64, sampleRate: Int, channels: Int) {
    let reader = try SoundFileReader(path: path)
    defer { reader.close() }
    var block = [Float](repeating: 0, count: 8192 * reader.channels)
    var frames: Int64 = 0
    while true {
        let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0, frames: 8192) }
        if n == 0 { break }
        frames += Int64(n)
    }
    return (frames, reader.sampleRate, reader.channels)
}

/// The frame count of an M4A file (AAC or ALAC), decoded by `M4AReader` up to its edit list's duration.
func decodedM4AFrames(_ path: String) throws -> Int64 {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw TestFailure("\(path): open failed: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    return try M4AReader.decode(descriptor: fd, path: path) { _, _ in }
}

// MARK: - File identities and folder snapshots

/// What tells a rewritten file from an untouched one: inode, modification time (ns), size.
struct FileIdentity: Equatable, CustomStringConvertible {
    let inode: UInt64
    let modified: Int64
    let size: Int64

    init(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw TestFailure("stat \(path): \(String(cString: strerror(errno)))") }
        inode = UInt64(info.st_ino)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        size = Int64(info.st_size)
    }

    var description: String { "inode \(inode), mtime \(modified) ns, \(size) bytes" }
}

/// Every regular file under `root` (hidden ones included), by path relative to `root`.
func filesUnder(_ root: String) throws -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
    var out: [String] = []
    while let relative = enumerator.nextObject() as? String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
            out.append(relative)
        }
    }
    return out.sorted()
}

/// The identity of every file in a folder, by relative path.
func identities(_ root: String) throws -> [String: FileIdentity] {
    var out: [String: FileIdentity] = [:]
    for name in try filesUnder(root) { out[name] = try FileIdentity(root + "/" + name) }
    return out
}

/// The names (relative paths) whose identity differs between two snapshots, or that appear in one only.
func changedNames(_ before: [String: FileIdentity], _ after: [String: FileIdentity]) -> Set<String> {
    Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
}

/// Differences between two folders, file by file and byte by byte (empty when identical).
func folderDifferences(_ a: String, _ b: String) throws -> [String] {
    let left = try filesUnder(a), right = try filesUnder(b)
    var problems: [String] = []
    for name in Set(left).symmetricDifference(right).sorted() {
        problems.append("\(name) only in \(left.contains(name) ? a : b)")
    }
    for name in Set(left).intersection(right).sorted() where try bytes(a + "/" + name) != bytes(b + "/" + name) {
        problems.append("\(name) differs")
    }
    return problems
}

// MARK: - The catalog manifest

/// catalog.json as the issue describes it.
struct CatalogManifest: Decodable {
    let format: String
    let version: Int
    let sessions: [Session]
    let tracks: [Entry]

    struct Session: Decodable, Equatable {
        let id: String
        let title: String
        let category: String?
        let premium: Bool
        let sortOrder: Int?
        let tracks: [String]

        enum CodingKeys: String, CodingKey {
            case id, title, category, premium, tracks
            case sortOrder = "sort_order"
        }
    }

    struct Entry: Decodable {
        let id: String
        let title: String
        let category: String?
        let duration: Double
        let file: String
        let cues: String
        let premium: Bool
        let sortOrder: Int?
        let frames: Int64
        let sampleRate: Int
        let sha256: String
        let bytes: Int64
        let loudnessLUFS: Double?
        let truePeakDBTP: Double?
        let fingerprint: String
        let session: String
        let locale: String?
        let drafts: Int

        enum CodingKeys: String, CodingKey {
            case id, title, category, duration, file, cues, premium, frames, sha256, bytes, fingerprint, session, locale, drafts
            case sortOrder = "sort_order", sampleRate = "sample_rate", loudnessLUFS = "loudness_lufs", truePeakDBTP = "true_peak_dbtp"
        }
    }

    /// Every key an entry must carry (even when its value is null).
    static let entryKeys = [
        "id", "title", "category", "duration", "file", "cues", "premium", "sort_order", "session", "locale", "variant", "drafts", "frames",
        "sample_rate", "sha256", "bytes", "loudness_lufs", "true_peak_dbtp", "fingerprint",
    ]

    static func read(_ path: String) throws -> CatalogManifest {
        try JSONDecoder().decode(CatalogManifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The raw entries, to see which keys are present.
    static func rawEntries(_ path: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        guard let top = object as? [String: Any], let tracks = top["tracks"] as? [[String: Any]] else {
            throw TestFailure("\(path): no 'tracks' array")
        }
        return tracks
    }

    func entry(_ id: String) -> Entry? { tracks.first { $0.id == id } }
}

// MARK: - Processes

/// The CI variables `--shard auto` reads: removed from every child's environment unless a test sets them.
let shardVariables = ["CI_NODE_INDEX", "CI_NODE_TOTAL", "JOB_COMPLETION_INDEX", "CADENCE_SHARD_TOTAL", "CADENCE_SHARD"]

/// A process started in the background with `posix_spawn`, its stdout and stderr going to files.
///
/// Not Foundation's `Process`: that passes on the spawning thread's signal mask, and
/// the test runner's threads block SIGINT and SIGTERM, so a child would never see them.
/// Here the child starts with no signal blocked and every handler at its default.
final class Running {
    let pid: pid_t
    private let scratch: TempFolder
    private let started = Date()
    private var waitStatus: Int32?

    init(_ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws {
        scratch = try TempFolder("proc")
        var env = ProcessInfo.processInfo.environment
        for name in shardVariables { env[name] = nil }
        env.merge(environment) { _, new in new }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch.file("stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.file("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // glibc's posix_spawn_file_actions_addchdir_np is not imported: a shell changes folder, then execs
        let command = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var child: pid_t = 0
        let error = posix_spawn(&child, command[0], &actions, &attributes, argv, envp)
        guard error == 0 else { throw TestFailure("posix_spawn \(executable): \(String(cString: strerror(error)))") }
        pid = child
    }

    /// Whether the child has not exited yet (reaps it if it has).
    var isRunning: Bool {
        if waitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { waitStatus = status; return false }
        return true
    }

    /// What the child has written so far, stdout then stderr.
    func outputSoFar() throws -> String { try scratch.read("stdout") + "\n" + scratch.read("stderr") }

    func wait() throws -> ProcessResult {
        if waitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 {
                guard errno == EINTR else { throw TestFailure("waitpid: \(String(cString: strerror(errno)))") }
            }
            waitStatus = status
        }
        let status = waitStatus ?? 0
        let signal = status & 0x7f
        let seconds = Date().timeIntervalSince(started)
        return ProcessResult(
            status: signal != 0 ? signal : (status >> 8) & 0xff, signaled: signal != 0, timedOut: false,
            stdout: try scratch.read("stdout"), stderr: try scratch.read("stderr"), seconds: seconds)
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// Runs `executable` to the end with posix_spawn (default signal handling, shard variables removed); TestKit's `run` for plain tools.
func run(_ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]) throws -> ProcessResult {
    try Running(executable, arguments, in: directory, environment: environment).wait()
}

/// Runs the built `render` binary to the end.
func runRender(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
    try run(try renderPath(), arguments, in: directory, environment: environment)
}

/// Starts the built `render` binary in the background.
func startRender(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> Running {
    try Running(try renderPath(), arguments, in: directory, environment: environment)
}

/// Whether some line of `lines` ends a path with `file`, then `:line:column: error:` (gcc style).
func hasDiagnostic(_ lines: [String], file: String, line: Int, column: Int? = nil) -> Bool {
    let location = NSRegularExpression.escapedPattern(for: "\(file):\(line):") + (column.map { "\($0)" } ?? "[0-9]+")
    let pattern = "(^|/)" + location + ": error: "
    return lines.contains { $0.range(of: pattern, options: .regularExpression) != nil }
}

// MARK: - Faults and confinement

/// `.NAME.PID.N.tmp`: the hidden name an output has while it is staged (see AtomicOutputFile),
/// as the output's name and the process that made it; nil for any other name.
func stagingName(_ entry: String) -> (name: String, pid: pid_t)? {
    guard entry.hasPrefix("."), entry.hasSuffix(".tmp") else { return nil }
    let parts = entry.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
    func isNumber(_ s: Substring) -> Bool { !s.isEmpty && s.utf8.allSatisfy { (48...57).contains($0) } }
    guard parts.count >= 3, isNumber(parts[parts.count - 1]), isNumber(parts[parts.count - 2]),
        let pid = pid_t(parts[parts.count - 2])
    else { return nil }
    return (parts.dropLast(2).joined(separator: "."), pid)
}

/// Whether process `pid` has a data file for `name` in `folder` open: the hidden `O_TMPFILE`
/// file (`/proc/PID/fd` shows `folder/#inode (deleted)`), its staging name `.name.PID.N.tmp`,
/// or `name` itself. (The cue sheet and sidecars are open as hidden files too, for the
/// last milliseconds of a render.)
func writesAudio(_ pid: pid_t, named name: String, in folder: String) -> Bool {
    let fds = "/proc/\(pid)/fd"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: fds) else { return false }
    let resolved = (folder as NSString).resolvingSymlinksInPath
    return entries.contains { entry in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + entry),
            target.hasPrefix(resolved + "/")
        else { return false }
        let file = String(target.dropFirst(resolved.count + 1))
        return file.hasPrefix("#") || file == name || stagingName(file)?.name == name
    }
}

/// Moments to kill a run of `duration` seconds at: one in each of `count` equal slices,
/// at a place in it drawn from `seed` (reproducible, and spread over the whole run).
func killTimes(count: Int, over duration: Double, seed: UInt64) -> [Double] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { i in duration * (Double(i) + 0.05 + 0.9 * (random.bipolar() + 1) / 2) / Double(count) }
}

/// Sleeps until `seconds` after `start`.
func sleep(until seconds: Double, after start: Date) {
    let left = seconds - Date().timeIntervalSince(start)
    if left > 0 { usleep(useconds_t(left * 1_000_000)) }
}

/// What `lstat` says of every entry under `root` (hidden ones and symbolic links included,
/// links not followed), by relative path: type, mode, size, inode and modification time.
func treeSnapshot(_ root: String) -> [String: String] {
    var out: [String: String] = [:]
    func visit(_ relative: String) {
        let full = relative.isEmpty ? root : root + "/" + relative
        var info = stat()
        guard lstat(full, &info) == 0 else { return }
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        if !relative.isEmpty {
            out[relative] = "mode \(String(info.st_mode, radix: 8)), \(info.st_size) bytes, inode \(info.st_ino), mtime \(mtime)"
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names.sorted() { visit(relative.isEmpty ? name : relative + "/" + name) }
    }
    visit("")
    return out
}

/// The paths whose entry differs between two snapshots, or that are in one only.
func snapshotChanges(_ before: [String: String], _ after: [String: String]) -> [String] {
    Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
}

/// `render` and its arguments as an unprivileged user (nobody, 65534) when the tests run as
/// root, who would pass every permission check; as another user, unchanged.
func unprivileged(_ arguments: [String]) throws -> (executable: String, arguments: [String]) {
    let render = try renderPath()
    guard geteuid() == 0 else { return (render, arguments) }
    guard let setpriv = which("setpriv") else {
        throw TestFailure("running render as an unprivileged user needs setpriv (Debian: util-linux)")
    }
    return (setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", render] + arguments)
}

/// A small tmpfs mounted on a folder for one test, and unmounted when released.
final class SmallDisk {
    /// Mounting is not permitted here (not root, or a container without CAP_SYS_ADMIN).
    struct Refused: Error { let reason: String }

    let path: String

    init(at path: String, bytes: Int) throws {
        guard let mount = which("mount") else { throw Refused(reason: "no 'mount' command") }
        let result = try run(mount, ["-t", "tmpfs", "-o", "size=\(bytes),mode=0755", "tmpfs", path], timeLimit: 30)
        guard result.status == 0, !result.signaled else {
            throw Refused(reason: "mount -t tmpfs failed (\(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        self.path = path
    }

    deinit {
        guard let umount = which("umount") else { return }
        if (try? run(umount, [path], timeLimit: 30))?.status != 0 { _ = try? run(umount, ["-l", path], timeLimit: 30) }
    }
}

/// Mounts a small disk, or cancels the test (reported as skipped, with the reason) where mounting is not permitted.
func mountSmallDisk(at path: String, bytes: Int) throws -> SmallDisk {
    do {
        return try SmallDisk(at: path, bytes: bytes)
    } catch let refused as SmallDisk.Refused {
        try Test.cancel("a full disk needs a small tmpfs, and mounting one is not permitted here: \(refused.reason)")
    }
}
