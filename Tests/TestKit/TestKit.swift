import Foundation

// What every test target needs: temporary folders, a helper's own failure, finding
// tools on PATH, the repository's root and running a process with a time limit. One
// copy here (SplitMix64.swift, Fixture.swift and Shared.swift hold the rest); the
// catalog's background runner (posix_spawn with default signal handling, for its kill
// tests) stays in CatalogTests and returns this file's ProcessResult.

/// A fresh folder under the system's temporary directory, removed when released.
public final class TempFolder {
    public let path: String

    public init(_ label: String = "test") throws {
        let base = (NSTemporaryDirectory() as NSString).appendingPathComponent("cadence-\(label)-XXXXXX")
        var template = Array(base.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("mkdtemp failed for \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` in the folder; its parent folders are created (render itself does not create folders).
    public func file(_ name: String) -> String {
        let full = (path as NSString).appendingPathComponent(name)
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return full
    }

    /// Creates `name` (and its parent folders) as a folder; returns its path.
    @discardableResult
    public func folder(_ name: String) throws -> String {
        let full = file(name)
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// Writes `text` to `name` (creating parent folders); returns the path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to `name` (creating parent folders); returns the path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        let full = file(name)
        guard FileManager.default.createFile(atPath: full, contents: Data(bytes)) else {
            throw TestFailure("cannot write \(full)")
        }
        return full
    }

    /// The text of `name`.
    public func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: file(name))), as: UTF8.self)
    }

    /// Every entry of a folder inside this one (hidden ones included), sorted.
    public func listing(_ name: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: name.isEmpty ? path : file(name)).sorted()
    }
}

/// A helper's own failure (a fixture that cannot be written, a tool that is missing).
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An executable on PATH, or nil.
public func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// A python3 that imports mutagen (the tag reader of Picard and many players): Debian's
/// `/usr/bin/python3` with python3-mutagen (scripts/setup.sh), or the first on PATH; nil without one.
public let mutagenPython: String? = {
    var candidates = ["/usr/bin/python3"]
    if let onPath = which("python3") { candidates.append(onPath) }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
        if let result = try? run(candidate, ["-c", "import mutagen"]), result.status == 0 { return candidate }
    }
    return nil
}()

/// The repository's root folder (this file is Tests/TestKit/TestKit.swift).
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The release `render` (`.build/release/render` under the repository), when it is at least as
/// new as every file under `Sources/`; nil when it is missing or older. Tests that render minutes
/// of audio (limiter passes, the golden files) use it: their DSP takes minutes a case in a debug
/// build, seconds in release. `.ci/run` builds release before `swift test`.
public let freshReleaseRender: String? = {
    let path = repositoryRoot + "/.build/release/render"
    guard let built = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
    let sources = FileManager.default.enumerator(atPath: repositoryRoot + "/Sources")?.allObjects as? [String] ?? []
    for name in sources where name.hasSuffix(".swift") || name.hasSuffix(".c") || name.hasSuffix(".h") {
        let date = (try? FileManager.default.attributesOfItem(atPath: repositoryRoot + "/Sources/" + name))?[.modificationDate] as? Date
        if let date, date > built { return nil }
    }
    return path
}()

/// How a process ended and what it printed.
public struct ProcessResult: CustomStringConvertible, Sendable {
    /// The exit status, or the signal number when `signaled`.
    public let status: Int32
    public let signaled: Bool
    /// Stopped by `run`'s time limit.
    public let timedOut: Bool
    public let stdout: String
    public let stderr: String
    /// Wall-clock seconds from launch to exit.
    public let seconds: Double

    public init(status: Int32, signaled: Bool, timedOut: Bool, stdout: String, stderr: String, seconds: Double) {
        self.status = status
        self.signaled = signaled
        self.timedOut = timedOut
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
    }

    /// stdout then stderr, split into lines.
    public var lines: [String] { (stdout + "\n" + stderr).split(separator: "\n").map(String.init) }

    public var description: String {
        (timedOut ? "timed out" : signaled ? "killed by signal \(status)" : "exit status \(status)")
            + "; stdout: " + String(stdout.prefix(2000)) + "; stderr: " + String(stderr.suffix(1500))
    }
}

/// Runs `executable` with `arguments` to the end (stdout and stderr through files, so no pipe
/// can fill up); after `timeLimit` seconds it is sent SIGTERM, and SIGKILL 5 s later.
public func run(_ executable: String, _ arguments: [String], in directory: String? = nil, timeLimit: Double = 600) throws
    -> ProcessResult
{
    let scratch = try TempFolder("proc")
    let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    let started = Date()
    try process.run()
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        process.waitUntilExit()
        finished.signal()
    }
    var timedOut = false
    if finished.wait(timeout: .now() + timeLimit) == .timedOut {
        timedOut = true
        process.terminate()
        if finished.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        finished.wait()
    }
    try out.close()
    try err.close()
    return ProcessResult(
        status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, timedOut: timedOut,
        stdout: try scratch.read("stdout"), stderr: try scratch.read("stderr"), seconds: Date().timeIntervalSince(started))
}

// MARK: - The render binary

/// The built `render` executable the end-to-end tests spawn: `CADENCE_RENDER`; else, in a test
/// run that is not sanitized, `freshReleaseRender` (the same sources, its DSP about 13× faster than
/// a debug build's: a 3-minute recipe renders in 1.1 s instead of 14.5 s), which `.ci/run` and the
/// README build first; else the one next to the running test binary (SwiftPM builds it with the
/// tests, whatever `--scratch-path` put them), found from `/proc/self/exe`,
/// `CommandLine.arguments[0]` and `Bundle.main`; nil when there is none. A sanitized run
/// (`scripts/sanitizers.sh`) always spawns the one beside it, which is sanitized like it.
public let renderExecutable: String? = {
    if let override = ProcessInfo.processInfo.environment["CADENCE_RENDER"] { return override }
    if !isSanitized, let release = freshReleaseRender { return release }
    return siblingRender
}()

/// Whether AddressSanitizer's or ThreadSanitizer's runtime is in this process.
public let isSanitized: Bool = {
    let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
    return dlsym(everywhere, "__asan_init") != nil || dlsym(everywhere, "__tsan_init") != nil
}()

/// The `render` built beside the running test binary.
public let siblingRender: String? = {
    var folders: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        folders.append((exe as NSString).deletingLastPathComponent)
    }
    if let first = CommandLine.arguments.first {
        let absolute = first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
        folders.append((absolute as NSString).deletingLastPathComponent)
    }
    folders.append(Bundle.main.bundleURL.path)
    folders.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
    for folder in folders {
        // the test bundle may sit in debug/ or in a .xctest folder inside it (Darwin)
        for candidate in ["\(folder)/render", "\(folder)/../render", "\(folder)/../../render"] {
            let standard = (candidate as NSString).standardizingPath
            if FileManager.default.isExecutableFile(atPath: standard) { return standard }
        }
    }
    return nil
}()

/// Calls `body(start, count)` for consecutive blocks covering `0..<frames`, their sizes taken from
/// `sizes` in turn (cycling; the last block cut to fit): how the tests feed a source or generator in
/// blocks of odd sizes to show that its output does not depend on them.
public func forEachBlock(frames: Int, sizes: [Int], _ body: (_ start: Int, _ count: Int) throws -> Void) rethrows {
    precondition(!sizes.isEmpty && sizes.allSatisfy { $0 > 0 }, "block sizes must be positive")
    var done = 0
    var next = 0
    while done < frames {
        let count = min(sizes[next % sizes.count], frames - done)
        next += 1
        try body(done, count)
        done += count
    }
}
