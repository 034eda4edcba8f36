import Foundation
import Testing

/// A command-line mistake or a bad input, and what `render` must answer.
enum CLIScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case noArguments
    case unknownOption
    case twoRecipes
    case missingRecipe
    case misspelledKey
    case missingBed
    case bedPathWithDotDot
    case bedAbsolutePath
    case bedSymlinkOutside
    case corruptBed
    case emptyBed
    case outputInProc
    case outputFolderMissing
    case outputUnderRegularFile
    case outputIsDirectory
    case outputIsDirectoryWithFormat

    var testDescription: String { rawValue }

    /// sysexits: 64 usage, 65 data, 66 no input, 73 cannot create.
    var expectedStatus: Int32 {
        switch self {
        case .noArguments, .unknownOption, .twoRecipes: 64
        case .missingRecipe, .missingBed: 66
        case .misspelledKey, .bedPathWithDotDot, .bedAbsolutePath, .bedSymlinkOutside, .corruptBed, .emptyBed: 65
        case .outputInProc, .outputFolderMissing, .outputUnderRegularFile, .outputIsDirectory, .outputIsDirectoryWithFormat: 73
        }
    }
}

@Suite("The render command line")
struct CommandLineTests {
    static let rate = 48000

    /// A recipe with a bed line; `{BED}` is replaced.
    static func recipe(bed: String?, extra: String = "") -> String {
        """
        duration: 3s
        \(inlinePattern([TestPhase(kind: "inhale", length: "1s"), TestPhase(kind: "exhale", length: "1s")]))\(bed.map { "bed:\n  file: \($0)\n" } ?? "")output:
          loudness: off
        \(extra)
        """
    }

    @Test("exit status and message", arguments: CLIScenario.allCases)
    func failure(_ scenario: CLIScenario) throws {
        let folder = try TempFolder("cli")
        let assets = try folder.folder("assets")
        let out = folder.file("out")
        let output = folder.file("out/x.flac")
        let good = try folder.write(Self.recipe(bed: nil), to: "good.yml")
        let sine = Fixture.sine(frequency: 440, amplitudes: [0.2], sampleRate: Self.rate, frames: Self.rate)
        var arguments: [String]
        var recipeText = ""
        var recipePath = ""
        var messages: [String] = []
        /// `file:line:` prefix the first diagnostic must carry.
        var located: (file: String, line: Int, column: Int?)?

        func writeRecipe(_ text: String) throws -> String {
            recipeText = text
            recipePath = try folder.write(text, to: "recipe.yml")
            return recipePath
        }

        switch scenario {
        case .noArguments:
            arguments = []
            messages = ["usage:"]
        case .unknownOption:
            arguments = [good, "--frobnicate", "-o", output]
            messages = ["usage:", "--frobnicate"]
        case .twoRecipes:
            arguments = [good, good, "-o", output]
            messages = ["usage:"]
        case .missingRecipe:
            arguments = [folder.file("nope.yml"), "-o", output]
            messages = ["nope.yml"]
        case .misspelledKey:
            let path = try writeRecipe(Self.recipe(bed: nil).replacingOccurrences(of: "duration:", with: "durration:"))
            arguments = [path, "-o", output]
            messages = ["did you mean 'duration'"]
            let at = try #require(position(of: "durration", in: recipeText))
            located = (path, at.line, at.column)
        case .missingBed:
            let path = try writeRecipe(Self.recipe(bed: "beds/absent.wav"))
            arguments = [path, "-o", output, "--assets", assets]
            messages = ["absent.wav"]
            let at = try #require(position(of: "file: beds/absent.wav", in: recipeText))
            located = (path, at.line, nil)
        case .bedPathWithDotDot:
            try Fixture.writeSound(folder.file("outside.wav"), sine, sampleRate: Self.rate, channels: 1)
            let path = try writeRecipe(Self.recipe(bed: "../outside.wav"))
            arguments = [path, "-o", output, "--assets", assets]
            messages = ["../outside.wav"]
            let at = try #require(position(of: "file: ../outside.wav", in: recipeText))
            located = (path, at.line, nil)
        case .bedAbsolutePath:
            let outside = folder.file("outside.wav")
            try Fixture.writeSound(outside, sine, sampleRate: Self.rate, channels: 1)
            let path = try writeRecipe(Self.recipe(bed: outside))
            arguments = [path, "-o", output, "--assets", assets]
            messages = ["outside.wav"]
        case .bedSymlinkOutside:
            try Fixture.writeSound(folder.file("outside.wav"), sine, sampleRate: Self.rate, channels: 1)
            try FileManager.default.createSymbolicLink(atPath: folder.file("assets/link.wav"), withDestinationPath: "../outside.wav")
            let path = try writeRecipe(Self.recipe(bed: "link.wav"))
            arguments = [path, "-o", output, "--assets", assets]
            messages = ["link.wav"]
        case .corruptBed:
            try folder.write(Fixture.randomBytes(20_000, seed: 99), to: "assets/corrupt.wav")
            let path = try writeRecipe(Self.recipe(bed: "corrupt.wav"))
            arguments = [path, "-o", output, "--assets", assets]
            messages = ["corrupt.wav"]
        case .emptyBed:
            try folder.write([UInt8](), to: "assets/empty.wav")
            let path = try writeRecipe(Self.recipe(bed: "empty.wav"))
            arguments = [path, "-o", output, "--assets", assets]
            messages = ["empty.wav"]
        case .outputInProc:
            arguments = [good, "-o", "/proc/cadence-e2e-\(getpid()).flac"]
        case .outputFolderMissing:
            // render does not invent folders: a mistyped -o is an error, not a new tree
            arguments = [good, "-o", (folder.path as NSString).appendingPathComponent("missing/deeper/x.flac")]
            messages = ["does not exist"]
        case .outputUnderRegularFile:
            try folder.write("not a folder", to: "regular.txt")
            arguments = [good, "-o", folder.file("regular.txt/x.flac")]
        case .outputIsDirectory:
            try folder.folder("out/x.flac")
            arguments = [good, "-o", output]
        case .outputIsDirectoryWithFormat:
            let path = try writeRecipe(Self.recipe(bed: nil, extra: "  format: flac\n"))
            try folder.folder("out/plain")
            arguments = [path, "-o", folder.file("out/plain")]
        }

        let entriesBefore = (try? FileManager.default.contentsOfDirectory(atPath: out).sorted()) ?? []
        let result = try runRender(arguments, in: folder.path)
        #expect(
            result.status == scenario.expectedStatus && !result.signaled,
            "\(result), expected exit status \(scenario.expectedStatus)")
        #expect(!result.stderr.isEmpty, "a failure must say why on stderr")
        for message in messages {
            #expect(result.stderr.contains(message), "stderr lacks '\(message)': \(result.stderr)")
        }
        if scenario.expectedStatus != 64 {
            #expect(result.stderr.contains("error:"), "stderr: \(result.stderr)")
        }
        if let located {
            let prefix = "\(located.file):\(located.line):" + (located.column.map { "\($0):" } ?? "")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(
                lines.contains { $0.hasPrefix(prefix) && $0.contains(" error: ") },
                "no diagnostic at \(prefix) (file:line:col: error:) in: \(result.stderr)")
            if located.column == nil {
                // line and column, gcc-style
                let pattern = "^" + NSRegularExpression.escapedPattern(for: "\(located.file):\(located.line):") + "[0-9]+: error: "
                #expect(lines.contains { $0.range(of: pattern, options: .regularExpression) != nil }, "\(result.stderr)")
            }
        }
        // no output appears for a failed render (the folders made by the scenario aside)
        let entriesAfter = (try? FileManager.default.contentsOfDirectory(atPath: out).sorted()) ?? []
        #expect(entriesAfter == entriesBefore, "the output folder changed: \(entriesBefore) → \(entriesAfter)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/x.cues.json")))
        #expect((try folder.listing("assets")).allSatisfy { !$0.hasPrefix(".") }, "hidden files in assets")
    }

    @Test("help, version and a good render exit 0")
    func success() throws {
        let help = try runRender(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("usage:"))
        let version = try runRender(["--version"])
        #expect(version.status == 0)
        #expect(!version.stdout.isEmpty)

        let folder = try TempFolder("cli-ok")
        let recipe = try folder.write(Self.recipe(bed: nil), to: "good.yml")
        let result = try runRender([recipe, "-o", folder.file("out/good.flac")], in: folder.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        let audio = try readAudio(folder.file("out/good.flac"))
        #expect(audio.frames == 3 * 48000)
        let sheet = try readCueSheet(folder.file("out/good.cues.json"))
        #expect(sheet.audio.frames == 3 * 48000)
        #expect(sheet.audio.sha256 == (try sha256(ofFile: folder.file("out/good.flac"))))

        // without -o: <id>.flac in the current folder
        let plain = try runRender([recipe, "--quiet"], in: folder.path)
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        #expect(plain.stdout.isEmpty, "--quiet printed: \(plain.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.file("good.flac")))
        #expect(FileManager.default.fileExists(atPath: folder.file("good.cues.json")))
    }
}

/// Warnings: what the reader or the layout noticed and let pass, printed located by `render` and
/// `render --check`, without changing the exit status.
@Suite("Warnings on the command line")
struct WarningTests {
    static let cases: [(name: String, recipe: String, warning: String)] = [
        (
            "true peak in dB", "id: w\ncycles: 1\npattern: box\noutput: { true_peak: -1 dB }\n",
            "w.yml:4:22: warning: output.true_peak: 'dB' read as dBTP"
        ),
        (
            "end cue with no outro", "id: w\ncycles: 1\npattern: box\ncues:\n  inhale: bell\n  end: chime\n",
            "w.yml:6:8: warning: cues.end: the practice runs to the file's last frame (no outro), so the end cue never sounds"
        ),
    ]

    @Test("a warning is printed at its line by render and --check, and the render still succeeds", arguments: cases.indices)
    func printedAndPasses(_ i: Int) throws {
        let (_, text, warning) = Self.cases[i]
        let folder = try TempFolder("warnings")
        let recipe = try folder.write(text, to: "w.yml")
        let checked = try runRender(["--check", recipe])
        #expect(checked.status == 0 && checked.stderr.contains(warning), "\(checked)")
        #expect(checked.stdout.contains("checked 1 recipe: 1 good (1 with warnings), 0 with errors"), "\(checked.stdout)")
        let rendered = try runRender([recipe, "-o", folder.file("w.wav"), "-q"])
        #expect(rendered.status == 0 && rendered.stderr.contains(warning), "\(rendered)")
        #expect(FileManager.default.fileExists(atPath: folder.file("w.wav")))
    }

    @Test("a recipe with nothing to note prints no warning, and the end cue with an outro has none")
    func noWarning() throws {
        let folder = try TempFolder("warnings-none")
        let recipe = try folder.write(
            "id: w\ncycles: 1\noutro: 5s\npattern: box\ncues:\n  inhale: bell\n  end: chime\noutput: { true_peak: -1 dBTP }\n", to: "w.yml")
        let checked = try runRender(["--check", recipe])
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
        #expect(checked.stdout.contains("checked 1 recipe: 1 good, 0 with errors"), "\(checked.stdout)")
    }
}
