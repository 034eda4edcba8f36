import Foundation

/// The fuzz targets' `main` when they are built without libFuzzer: a replay of input files.
///
/// `scripts/fuzz.sh` builds each target with `-sanitize=fuzzer,address -DFUZZING`: then the
/// target has no `main` of its own, and libFuzzer's `main` calls its `LLVMFuzzerTestOneInput`
/// (taking every libFuzzer flag: `-max_total_time=60 corpus/`, or a crash file to reproduce it).
///
/// In an ordinary `swift build` the same executable replays inputs instead: each file named, and
/// every file under each folder named, runs once through the same `LLVMFuzzerTestOneInput`, so
/// a crash reproduces under a debugger or in a plain debug build, and CI can replay the
/// committed corpus without the fuzzer (`fuzz-recipe Fuzz/Corpus/recipe`).
public enum FuzzDriver {
    /// libFuzzer's `LLVMFuzzerTestOneInput`: one input in, 0 out; a failed check traps.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Replays the files on the command line (see `replay(_:_:_:)`) and exits with its status.
    public static func replay(_ name: String, _ test: TestOneInput) -> Never {
        exit(replay(name, Array(CommandLine.arguments.dropFirst()), test))
    }

    /// Runs every file named in `arguments` (folders: every file under them, sorted) through `test` once.
    ///
    /// Arguments starting with `-` are libFuzzer flags, ignored here, except `-v` (name each
    /// input before running it, so that the last name printed is the one that crashed).
    /// Returns the exit status: 0 when every input ran, 64 on a bad command line, 66 when a path
    /// is missing. A failing input does not return: it traps.
    static func replay(_ name: String, _ arguments: [String], _ test: TestOneInput) -> Int32 {
        let verbose = arguments.contains("-v")
        let paths = arguments.filter { !$0.hasPrefix("-") }
        guard !paths.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    """
                    usage: \(name) [-v] FILE-OR-FOLDER…
                    This build has no libFuzzer (it was not built with -sanitize=fuzzer -DFUZZING): it runs each
                    input once through the fuzz target's checks. scripts/fuzz.sh builds and runs the fuzzer.

                    """.utf8))
            return 64
        }
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                FileHandle.standardError.write(Data("\(name): \(path): no such file or folder\n".utf8))
                return 66
            }
            if isFolder.boolValue {
                let found = (FileManager.default.subpaths(atPath: path) ?? []).sorted().map { path + "/" + $0 }
                files += found.filter { file in
                    var isSubfolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: file, isDirectory: &isSubfolder) && !isSubfolder.boolValue
                }
            } else {
                files.append(path)
            }
        }
        let clock = ContinuousClock()
        var slowest: (file: String, time: Duration) = ("", .zero)
        let total = clock.measure {
            for file in files {
                if verbose { FileHandle.standardError.write(Data("\(name): \(file)\n".utf8)) }
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(name): \(file): cannot read\n".utf8))
                    continue
                }
                let bytes = [UInt8](data)
                let time = clock.measure {
                    _ = bytes.withUnsafeBufferPointer { buffer in test(buffer.baseAddress, buffer.count) }
                }
                if time > slowest.time { slowest = (file, time) }
            }
        }
        var summary = "\(name): replayed \(files.count) input\(files.count == 1 ? "" : "s") in \(total)"
        if !files.isEmpty { summary += " (slowest \(slowest.time): \(slowest.file))" }
        print(summary)
        return 0
    }
}

/// Stops the process with a message when a fuzz check fails (a trap: libFuzzer saves the input).
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() {
        // Also on stderr before trapping, since a release build's fatalError message can be cut short.
        FileHandle.standardError.write(Data("fuzz check failed: \(message())\n".utf8))
        fatalError("fuzz check failed: \(message())", file: file, line: line)
    }
}

/// Set `FUZZ_VERBOSE=1` to have the targets print what each input gave (diagnostics, a recipe's
/// phases, a sheet's error): for looking at one input with the replay build.
public let fuzzVerbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

/// The input as bytes.
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
