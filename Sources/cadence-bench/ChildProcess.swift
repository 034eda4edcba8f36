import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one child process cost, from the clock around it and from `wait4`'s rusage.
///
/// Linux's `wait4` reports the child together with the children it waited for itself
/// (SoX's `|sox …` inputs, for instance): CPU times are their sum, `maxRSSKiB` the largest
/// single process, not the sum. See `ChildProcess` for how the child's peak RSS is kept
/// apart from the benchmark's own.
struct ChildCost: Codable, Sendable {
    /// Seconds from `posix_spawn` to `wait4` returning.
    var wall: Double
    /// `ru_utime` and `ru_stime`, in seconds.
    var user: Double
    var system: Double
    /// `ru_maxrss`: the peak resident set, in KiB.
    var maxRSSKiB: Int
    /// CPU seconds the rest of the machine was busy during the run (`/proc/stat` minus the
    /// child's own): near 0 on a quiet machine; nil where `/proc/stat` cannot be read.
    var otherCPU: Double?

    var cpu: Double { user + system }

    /// Two runs back to back (ffmpeg's two loudnorm passes): times add up, memory is the larger peak.
    static func + (a: ChildCost, b: ChildCost) -> ChildCost {
        ChildCost(
            wall: a.wall + b.wall, user: a.user + b.user, system: a.system + b.system, maxRSSKiB: max(a.maxRSSKiB, b.maxRSSKiB),
            otherCPU: a.otherCPU.flatMap { x in b.otherCPU.map { x + $0 } })
    }
}

/// A finished child: its cost, exit status and what it printed.
struct ChildResult {
    var cost: ChildCost
    /// The exit status, or 128 + the signal number when a signal ended it.
    var status: Int32
    var stdout: String
    var stderr: String

    /// The last few lines of stderr, for an error message.
    var stderrTail: String {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: true).suffix(6)
        return lines.isEmpty ? "(nothing on stderr)" : lines.joined(separator: "\n  ")
    }
}

/// Runs a program as a child process and measures it.
///
/// `ru_maxrss` cannot simply be read from a child this process spawns: at `execve` Linux
/// folds the old address space's peak into the new program's `maxrss`, and a child made by
/// `posix_spawn` (`vfork`) or `fork` starts from this process's address space, so every
/// figure would be at least the benchmark's own peak (about 30 MB; `flac` would "use" that
/// much). So the program is started by a small `/bin/sh`, which forks it (through `env`,
/// which execs it) from its own small address space, prints its pid and exits. This process
/// is a child subreaper (`PR_SET_CHILD_SUBREAPER`): the orphaned program becomes its child,
/// and `wait4` on it gives the program's own rusage. The shell's start (about a millisecond)
/// is inside the wall time; its CPU time is not counted.
enum ChildProcess {
    /// Spawns `executable` (an absolute or relative path, not looked up in `PATH`) with
    /// `arguments`, stdin from `/dev/null` and stdout/stderr into `logPrefix.out` / `.err`,
    /// waits for it with `wait4` and returns its cost, status and output.
    ///
    /// - Parameter environment: variables set on top of this process's environment.
    /// - Throws: `BenchError` when `posix_spawn` or `wait4` fails, or the logs cannot be read.
    ///   A non-zero exit status is not an error here: the caller decides (see `runChecked`).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], logPrefix: String
    ) throws(BenchError) -> ChildResult {
        let busyBefore = machineBusySeconds()
        let start = monotonicSeconds()
        let child = try spawn(executable, arguments, environment: environment, logPrefix: logPrefix)
        let reaped = try reap(child)
        let wall = reaped.end - start
        let busyAfter = machineBusySeconds()
        var cost = reaped.cost(wall: wall)
        if let busyBefore, let busyAfter { cost.otherCPU = max(0, busyAfter - busyBefore - cost.cpu) }
        return try reaped.result(cost: cost)
    }

    /// A child `spawn` started that `reap` has not waited for yet.
    struct Running {
        var pid: pid_t
        var executable: String
        var logPrefix: String
    }

    /// A child `reap` waited for: its rusage, exit status and when `wait4` returned.
    struct Reaped {
        var running: Running
        var usage: rusage
        /// The exit status, or 128 + the signal number when a signal ended it.
        var status: Int32
        /// `monotonicSeconds()` when `wait4` returned.
        var end: Double

        /// The child's CPU times and peak RSS, with `wall` (and no other-CPU figure).
        func cost(wall: Double) -> ChildCost {
            ChildCost(
                wall: wall, user: ChildProcess.seconds(usage.ru_utime), system: ChildProcess.seconds(usage.ru_stime),
                maxRSSKiB: Int(usage.ru_maxrss))
        }

        /// The result with `cost` and the child's logs.
        func result(cost: ChildCost) throws(BenchError) -> ChildResult {
            ChildResult(
                cost: cost, status: status, stdout: try ChildProcess.readText(running.logPrefix + ".out"),
                stderr: try ChildProcess.readText(running.logPrefix + ".err"))
        }
    }

    /// Starts `executable` as `run` does (through `/bin/sh`, adopted as this subreaper's child)
    /// and returns without waiting for it.
    ///
    /// - Throws: `BenchError` when `posix_spawn` fails or the shell did not start the program.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], logPrefix: String
    ) throws(BenchError) -> Running {
        let outPath = logPrefix + ".out"
        let errPath = logPrefix + ".err"
        let pidPath = logPrefix + ".pid"
        try becomeSubreaper()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        // $0 is the pid file, "$@" the program and its arguments. A background job of a
        // non-interactive shell reads /dev/null (as the shell itself does here) and ignores
        // SIGINT and SIGQUIT; `env --default-signal` restores them, so Ctrl-C stops the job too.
        let script = "\"$@\" & echo $! > \"$0\""
        let command = ["/usr/bin/env", "--default-signal=INT,QUIT", executable] + arguments
        let argv = (["/bin/sh", "-c", script, pidPath] + command).map { strdup($0) } + [nil]
        let envp = merged.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }

        var shell: pid_t = 0
        let spawned = posix_spawn(&shell, "/bin/sh", &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchError("\(executable): posix_spawn of /bin/sh failed: \(String(cString: strerror(spawned)))")
        }
        var shellStatus: Int32 = 0
        var shellUsage = rusage()
        try wait(shell, &shellStatus, &shellUsage, what: "/bin/sh starting \(executable)")
        let pidText = (try? String(contentsOfFile: pidPath, encoding: .utf8)) ?? ""
        unlink(pidPath)
        guard shellStatus == 0, let pid = pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("\(executable): /bin/sh did not start it (status \(shellStatus), pid file '\(pidText)')")
        }
        return Running(pid: pid, executable: executable, logPrefix: logPrefix)
    }

    /// Waits for `child` with `wait4`.
    ///
    /// - Throws: `BenchError` when `wait4` fails.
    static func reap(_ child: Running) throws(BenchError) -> Reaped {
        var status: Int32 = 0
        var usage = rusage()
        try wait(child.pid, &status, &usage, what: child.executable)
        let end = monotonicSeconds()
        let signal = status & 0x7f
        let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return Reaped(running: child, usage: usage, status: exitStatus, end: end)
    }

    /// `wait4(pid)`, retried on `EINTR`.
    private static func wait(_ pid: pid_t, _ status: inout Int32, _ usage: inout rusage, what: String) throws(BenchError) {
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw BenchError("\(what): wait4 failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Makes this process a child subreaper, so orphaned descendants become its children.
    ///
    /// `prctl` is variadic and not imported into Swift; it is called through `dlsym` with its
    /// five-argument form.
    private static func becomeSubreaper() throws(BenchError) {
        #if os(Linux)
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            let PR_SET_CHILD_SUBREAPER: Int32 = 36
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "prctl") else {
                throw BenchError("prctl not found (dlsym): cannot measure children's peak memory apart from the benchmark's")
            }
            let prctl = unsafeBitCast(symbol, to: Prctl.self)
            guard prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 else {
                throw BenchError("prctl(PR_SET_CHILD_SUBREAPER) failed: \(String(cString: strerror(errno)))")
            }
        #else
            throw BenchError("cadence-bench measures children with Linux's PR_SET_CHILD_SUBREAPER; this is not Linux")
        #endif
    }

    /// `run`, throwing when the child does not exit with status 0.
    static func runChecked(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], logPrefix: String, what: String
    ) throws(BenchError) -> ChildResult {
        let result = try run(executable, arguments, environment: environment, logPrefix: logPrefix)
        guard result.status == 0 else {
            throw BenchError("\(what) exited with status \(result.status) (log: \(logPrefix).err):\n  \(result.stderrTail)")
        }
        return result
    }

    /// CPU seconds all cores have been busy since boot: the first line of `/proc/stat`
    /// (user, nice, system, irq, softirq, steal; not idle or iowait), in `USER_HZ` ticks.
    static func machineBusySeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 8 else { return nil }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `CLOCK_MONOTONIC` in seconds.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    fileprivate static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }

    fileprivate static func readText(_ path: String) throws(BenchError) -> String {
        do {
            return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        } catch {
            throw BenchError("\(path): cannot read the child's log: \(error.localizedDescription)")
        }
    }
}
