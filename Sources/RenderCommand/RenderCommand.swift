import AudioCore
import AudioIO
import Catalog
import Foundation
import Recipe
import Render

/// The `render` command line: arguments → render → messages and a sysexits status.
public enum RenderCommand {
    /// `flac,wav,ogg,opus,mp3,caf,m4a`: what `-o` may end in (the output-format table), the one written without `-o` first.
    static let outputExtensions =
        ([AudioFormat.standard.fileExtension] + AudioFormat.fileExtensions.filter { $0 != AudioFormat.standard.fileExtension })
        .joined(separator: ",")

    static let usage = """
        usage: render RECIPE.yml [-o OUTPUT.{\(outputExtensions)}] [--format FORMAT] [--locale TAG]… [--sidecars LIST] [--assets DIR] [--quiet]
               render RECIPES/ -o DIST/ [-j N] [--format FORMAT] [--locale TAG]… [--bundle-budget SIZE] [--shard K/N|auto] [--sidecars LIST] [--assets DIR] [--quiet]
               render --check RECIPES/…
               render --plan RECIPE.yml|RECIPES/ [-o OUTPUT]
               render merge SHARD-DIR/… -o DIST/ [--bundle-budget SIZE]
        """

    static let help = """
        \(usage)
        Renders a session recipe (recipe-v1) to an audio file and its cue sheet (cues-v1):
        OUTPUT and OUTPUT-without-extension.cues.json. Without -o: <id>.<format> here.
        A folder of recipes (searched recursively for *.yml and *.yaml in any case, skipping
        names that start with '.'; links are followed only inside it) renders into a bundle folder:
        DIST/<id>.<ext>, DIST/<id>.cues.json, DIST/<id>.svg (its picture), DIST/catalog.json
        and DIST/index.html (a preview page to open in a browser); tracks whose inputs
        have not changed since the last run are left as they are.

        options:
          -o, --output PATH   the audio file to write (its extension gives the format),
                              or the bundle folder for a folder of recipes
          --assets DIR        the folder recipe paths are relative to
                              (default: the nearest 'assets' folder above each recipe)
          -j, --jobs N        tracks rendered at once (default: the number of cores)
          --shard K/N         render only the K-th of N balanced parts of the catalog;
                              'auto' reads CADENCE_SHARD=K/N, GitLab's CI_NODE_INDEX and
                              CI_NODE_TOTAL, or JOB_COMPLETION_INDEX with CADENCE_SHARD_TOTAL
          --format FORMAT     deliver in FORMAT (\(AudioFormat.allCases.map(\.rawValue).joined(separator: ", ")))
                              instead of each recipe's output.format: --format m4a
                              renders a catalog of FLAC masters as AAC for an iOS app
          --locale TAG        render only the renditions in locale TAG (repeatable; a
                              recipe's locales: list; case-insensitive); a catalog's
                              recipes without locales: still render
          --bundle-budget SIZE
                              fail (65, after rendering) when the tracks with delivery
                              bundled weigh more than SIZE: 80MB is 80,000,000 bytes,
                              80MiB 83,886,080; catalog.json's bundle records it
          --sidecars LIST     files beside each track, from vtt (WebVTT captions),
                              chapters (Podcasting 2.0 JSON), waveform (SVG), captions (the
                              voice prompts' words as WebVTT: <stem>.captions.vtt), all, none;
                              joined with the recipe's output.sidecars
          --no-drafts         refuse (65) recipes whose voice prompts are still spoken by the
                              draft voice (text without a recorded file): for release jobs
          --check             validate recipes and their assets without rendering
          --plan              check, then print each track's layout without rendering: sections,
                              cycles, leftover time, every cue and prompt (time and frame),
                              the output's frames, format and expected size
          -q, --quiet         print errors only
          -h, --help          show this help
          --version           print the version

        exit status: 0 done, 64 bad command line, 65 bad recipe or asset, 66 missing or
        unreadable input, 73 cannot create the output, 74 a read failed midway, 70 internal error.
        """

    /// Runs with the process's arguments; returns the exit status (`ExitStatus`).
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Int32 {
        // a closed stdout (`render … | head`) must not kill a render midway
        signal(SIGPIPE, SIG_IGN)
        ProcessMemory.keepLargeAllocationsMapped()
        // a parent may hand down blocked signals; Ctrl-C and SIGTERM must still stop a render
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, s) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        let options: Options
        do {
            options = try Options.parse(arguments, environment: ProcessInfo.processInfo.environment) { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            }
        } catch {
            FileHandle.standardError.write(Data("render: \(error.message)\n\(usage)\n".utf8))
            return ExitStatus.of(.usage)
        }
        let status = ExitStatus.of(run(options))
        if ProcessInfo.processInfo.environment["CADENCE_STAGES"] == "1" {
            FileHandle.standardError.write(Data("cadence-stages: \(StageClock.shared.jsonText())\n".utf8))
        }
        return status
    }

    /// Carries out `options`; returns the failure the run ends with, nil when it succeeded.
    private static func run(_ options: Options) -> FailureKind? {
        switch options.action {
        case .help:
            print(help)
            return nil
        case .version:
            print("render (Cadence) \(CadenceVersion.string)")
            return nil
        case .render(let recipe):
            return render(recipe: recipe, options: options)
        case .catalog(let inputs):
            return CatalogCommand.render(inputs: inputs, options: options)
        case .check(let inputs):
            return CatalogCommand.check(inputs: inputs, options: options)
        case .plan(let inputs):
            return PlanCommand.plan(inputs: inputs, options: options)
        case .merge(let folders):
            return CatalogCommand.merge(folders: folders, options: options)
        }
    }

    /// `render RECIPE.yml`: runs a `RenderJob`, printing each track's files as it is written.
    private static func render(recipe: String, options: Options) -> FailureKind? {
        let job = RenderJob(
            recipePath: recipe, outputPath: options.output, assets: options.assets, format: options.format, sidecars: options.sidecars,
            refusingDrafts: options.noDrafts, locales: options.locales)
        do throws(DiagnosticList) {
            try job.run(renderer: TrackRenderer(observer: LossyTrace.observer(environment: ProcessInfo.processInfo.environment))) { track in
                for warning in track.warnings { printError(CommandText.text(warning)) }
                guard !options.quiet else { return }
                let rendered = track.rendered
                let seconds = Double(rendered.frames) / Double(rendered.sampleRate)
                var line = "\(recipe) → \(rendered.audioPath) (\(Self.clock(seconds)), \(rendered.frames) frames at \(rendered.sampleRate) Hz"
                if let l = rendered.loudness { line += String(format: ", %.2f LUFS", l) }
                if let p = rendered.truePeak { line += String(format: ", %.2f dBTP", p) }
                line += String(format: ") in %.2f s (%.0f× realtime)", track.elapsed, seconds / max(track.elapsed, 1e-6))
                print(line)
                print("\(recipe) → \(rendered.cueSheetPath)")
                for path in rendered.sidecarPaths { print("\(recipe) → \(path)") }
            }
            return nil
        } catch {
            for diagnostic in error.diagnostics { printError(CommandText.text(diagnostic)) }
            return error.kind
        }
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func clock(_ seconds: Double) -> String { clock(milliseconds: Int64((seconds * 1000).rounded())) }

    /// `1:02:03.250` or `4:42.000`.
    static func clock(milliseconds ms: Int64) -> String {
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return h > 0 ? String(format: "%d:%02d:%02d.%03d", h, m, s, f) : String(format: "%d:%02d.%03d", m, s, f)
    }
}
