import AudioCore
import Foundation

/// Where the programs the benchmark runs are: `render` and the optional reference tools.
struct Tools {
    /// The `render` binary: `--render PATH`, or the one next to this executable.
    var render: String
    /// `flac`, `ffmpeg` and `sox` from `PATH`; nil when not installed.
    var flac: String?
    var ffmpeg: String?
    var sox: String?

    /// Finds the tools; `renderOverride` is `--render PATH`.
    ///
    /// - Throws: `BenchError` when `render` is not an executable file.
    static func locate(renderOverride: String?) throws(BenchError) -> Tools {
        let render = renderOverride ?? siblingOfSelf("render")
        guard FileManager.default.isExecutableFile(atPath: render) else {
            throw BenchError(
                "\(render): no executable render there (build it with `swift build -c release`, or pass --render PATH)")
        }
        return Tools(render: render, flac: inPath("flac"), ffmpeg: inPath("ffmpeg"), sox: inPath("sox"))
    }

    /// `name` in the folder of this executable (`/proc/self/exe`, else `argv[0]`).
    private static func siblingOfSelf(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = PathName.folder(of: me)
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// The first executable `name` in `PATH`, or nil.
    static func inPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
