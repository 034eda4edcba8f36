import Foundation
import TestKit
import Testing

/// Where a command-line case runs: its folder, a good recipe, the recipe the case writes, the
/// output it names, and the assets folder.
struct CLIPlace {
    let folder: TempFolder
    let good: String
    let recipe: String
    let output: String
    let assets: String

    /// One second of a 440 Hz sine, mono, written as `path`.
    func writeSine(_ path: String) throws {
        let sine = Fixture.sine(frequency: 440, amplitudes: [0.2], sampleRate: CommandLineTests.rate, frames: CommandLineTests.rate)
        try Fixture.writeSound(path, sine, sampleRate: CommandLineTests.rate, channels: 1)
    }
}

/// A command-line mistake or a bad input, and what `render` must answer: the exit status
/// (sysexits: 64 usage, 65 data, 66 no input, 73 cannot create), the texts stderr must hold,
/// and where in the recipe the first diagnostic must point.
struct CLIScenario: Sendable, CustomTestStringConvertible {
    let label: String
    let status: Int32
    var messages: [String] = []
    /// The text of recipe.yml, when the case writes one.
    var recipe: String?
    /// Files made before the run.
    var prepare: @Sendable (CLIPlace) throws -> Void = { _ in }
    let arguments: @Sendable (CLIPlace) -> [String]
    /// The diagnostic's place: this text in recipe.yml, and whether its column is checked too (else the line, with some column).
    var located: (text: String, column: Bool)?

    var testDescription: String { label }

    /// `CommandLineTests.recipe` with a bed file.
    static func bed(_ file: String) -> String { CommandLineTests.recipe(bed: file) }

    static let all: [CLIScenario] = [
        CLIScenario(label: "noArguments", status: 64, messages: ["usage:"], arguments: { _ in [] }),
        CLIScenario(
            label: "unknownOption", status: 64, messages: ["usage:", "--frobnicate"], arguments: { [$0.good, "--frobnicate", "-o", $0.output] }),
        CLIScenario(label: "twoRecipes", status: 64, messages: ["usage:"], arguments: { [$0.good, $0.good, "-o", $0.output] }),
        CLIScenario(label: "missingRecipe", status: 66, messages: ["nope.yml"], arguments: { [$0.folder.file("nope.yml"), "-o", $0.output] }),
        CLIScenario(
            label: "misspelledKey", status: 65, messages: ["did you mean 'duration'"],
            recipe: CommandLineTests.recipe(bed: nil).replacingOccurrences(of: "duration:", with: "durration:"),
            arguments: { [$0.recipe, "-o", $0.output] }, located: ("durration", true)),
        CLIScenario(
            label: "missingBed", status: 66, messages: ["absent.wav"], recipe: bed("beds/absent.wav"),
            arguments: { [$0.recipe, "-o", $0.output, "--assets", $0.assets] }, located: ("file: beds/absent.wav", false)),
        CLIScenario(
            label: "bedPathWithDotDot", status: 65, messages: ["../outside.wav"], recipe: bed("../outside.wav"),
            prepare: { try $0.writeSine($0.folder.file("outside.wav")) },
            arguments: { [$0.recipe, "-o", $0.output, "--assets", $0.assets] }, located: ("file: ../outside.wav", false)),
        CLIScenario(
            label: "bedAbsolutePath", status: 65, messages: ["outside.wav"], recipe: bed("/OUTSIDE/outside.wav"),
            prepare: { try $0.writeSine($0.folder.file("outside.wav")) },
            arguments: { [$0.recipe, "-o", $0.output, "--assets", $0.assets] }),
        CLIScenario(
            label: "bedSymlinkOutside", status: 65, messages: ["link.wav"], recipe: bed("link.wav"),
            prepare: {
                try $0.writeSine($0.folder.file("outside.wav"))
                try FileManager.default.createSymbolicLink(atPath: $0.folder.file("assets/link.wav"), withDestinationPath: "../outside.wav")
            },
            arguments: { [$0.recipe, "-o", $0.output, "--assets", $0.assets] }),
        CLIScenario(
            label: "corruptBed", status: 65, messages: ["corrupt.wav"], recipe: bed("corrupt.wav"),
            prepare: { try $0.folder.write(Fixture.randomBytes(20_000, seed: 99), to: "assets/corrupt.wav") },
            arguments: { [$0.recipe, "-o", $0.output, "--assets", $0.assets] }),
        CLIScenario(
            label: "emptyBed", status: 65, messages: ["empty.wav"], recipe: bed("empty.wav"),
            prepare: { try $0.folder.write([UInt8](), to: "assets/empty.wav") },
            arguments: { [$0.recipe, "-o", $0.output, "--assets", $0.assets] }),
        CLIScenario(label: "outputInProc", status: 73, arguments: { [$0.good, "-o", "/proc/cadence-e2e-\(getpid()).flac"] }),
        // render does not invent folders: a mistyped -o is an error, not a new tree (folder.file would make them)
        CLIScenario(
            label: "outputFolderMissing", status: 73, messages: ["does not exist"],
            arguments: { [$0.good, "-o", $0.folder.path + "/missing/deeper/x.flac"] }),
        CLIScenario(
            label: "outputUnderRegularFile", status: 73, prepare: { try $0.folder.write("not a folder", to: "regular.txt") },
            arguments: { [$0.good, "-o", $0.folder.file("regular.txt/x.flac")] }),
        CLIScenario(
            label: "outputIsDirectory", status: 73, prepare: { try $0.folder.folder("out/x.flac") }, arguments: { [$0.good, "-o", $0.output] }),
        CLIScenario(
            label: "outputIsDirectoryWithFormat", status: 73, recipe: CommandLineTests.recipe(bed: nil, extra: "  format: flac\n"),
            prepare: { try $0.folder.folder("out/plain") }, arguments: { [$0.recipe, "-o", $0.folder.file("out/plain")] }),
    ]
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

    @Test("exit status and message", arguments: CLIScenario.all)
    func failure(_ scenario: CLIScenario) throws {
        let folder = try TempFolder("cli")
        let out = folder.file("out")
        // an absolute bed path names a file of this folder
        let recipeText = scenario.recipe?.replacingOccurrences(of: "/OUTSIDE", with: folder.path) ?? ""
        let place = try CLIPlace(
            folder: folder, good: folder.write(Self.recipe(bed: nil), to: "good.yml"),
            recipe: scenario.recipe == nil ? folder.file("recipe.yml") : folder.write(recipeText, to: "recipe.yml"),
            output: folder.file("out/x.flac"), assets: folder.folder("assets"))
        try scenario.prepare(place)
        let arguments = scenario.arguments(place)
        let located = try scenario.located.map { located in
            let at = try #require(position(of: located.text, in: recipeText))
            return (file: place.recipe, line: at.line, column: located.column ? at.column : nil)
        }
        let expectedStatus = scenario.status
        let messages = scenario.messages

        let entriesBefore = (try? FileManager.default.contentsOfDirectory(atPath: out).sorted()) ?? []
        let result = try runRender(arguments, in: folder.path)
        #expect(
            result.status == expectedStatus && !result.signaled, "\(result), expected exit status \(expectedStatus)")
        #expect(!result.stderr.isEmpty, "a failure must say why on stderr")
        for message in messages {
            #expect(result.stderr.contains(message), "stderr lacks '\(message)': \(result.stderr)")
        }
        if expectedStatus != 64 {
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
