import Foundation
import TestKit
import Testing

// The bad-input corpus (Tests/RecipeTests/BadInput, described in its expected.tsv)
// through the `render` binary: every case's exit status and gcc-style line,
// `render --check` over the whole folder, and links out of the assets folder,
// which only the disk can show. RecipeTests/BadInputCorpusTests.swift reads the
// same corpus in-process, with its time and memory measured.

/// The corpus as the binary sees it (TestKit reads the files and their expectations): a folder to run them in.
extension BadInputCorpus {
    /// A folder with `recipes/<name>.yml` for `cases`, and `assets/` in which
    /// `beds/escape.wav` and `voice/escape.wav` link to `outside.wav`, a real sound beside the
    /// assets folder (the corpus's link cases), `beds/absent.wav` does not exist, and `voice/`
    /// holds the prompt clips of the voice cases: `two-seconds.wav` (a 2 s tone), `empty.wav`
    /// (no frames), `corrupt.wav` (not a sound file) and `long.wav` (61 s, over the clip limit).
    static func workspace(_ cases: [Case]) throws -> (folder: TempFolder, recipes: String, assets: String) {
        let folder = try TempFolder("bad-input")
        let recipes = try folder.folder("recipes")
        let assets = try folder.folder("assets/beds")
        try Fixture.writeSound(
            folder.file("outside.wav"), Fixture.sine(frequency: 440, amplitudes: [0.2], sampleRate: 48000, frames: 4800),
            sampleRate: 48000, channels: 1)
        try FileManager.default.createSymbolicLink(atPath: folder.file("assets/beds/escape.wav"), withDestinationPath: "../../outside.wav")
        _ = try folder.folder("assets/voice")
        try FileManager.default.createSymbolicLink(atPath: folder.file("assets/voice/escape.wav"), withDestinationPath: "../../outside.wav")
        try Fixture.writeSound(
            folder.file("assets/voice/two-seconds.wav"), Fixture.sine(frequency: 330, amplitudes: [0.3], sampleRate: 48000, frames: 96000),
            sampleRate: 48000, channels: 1)
        try Fixture.writeSound(folder.file("assets/voice/empty.wav"), [], sampleRate: 48000, channels: 1)
        try Fixture.writeSound(
            folder.file("assets/voice/long.wav"), Fixture.sine(frequency: 330, amplitudes: [0.3], sampleRate: 8000, frames: 61 * 8000),
            sampleRate: 8000, channels: 1)
        try folder.write(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEnot a sound file".utf8), to: "assets/voice/corrupt.wav")
        for c in cases {
            try folder.write(try bytes(of: c.file), to: "recipes/\(c.name).yml")
        }
        return (folder, recipes, (assets as NSString).deletingLastPathComponent)
    }
}

@Suite("The bad-input corpus through render")
struct BadInputCommandLineTests {
    /// Wall time a case may take through the binary, process start included: a guard against
    /// hangs, not a speed test. The 1 s requirement is checked in-process by BadInputCorpusTests;
    /// through the binary a debug or sanitizer build on a loaded 2-core machine took up to 6 s.
    static let timeLimit = 30.0

    @Test("exit status and file:line:col of each case", arguments: BadInputCorpus.cases)
    func rendered(_ corpusCase: BadInputCorpus.Case) throws {
        let (folder, _, assets) = try BadInputCorpus.workspace([corpusCase])
        let recipe = folder.file("recipes/\(corpusCase.name).yml")
        try folder.folder("out")
        let started = Date()
        let result = try runRender([recipe, "-o", folder.file("out/\(corpusCase.name).flac"), "--assets", assets], in: folder.path)
        let elapsed = Date().timeIntervalSince(started)

        #expect(result.status == corpusCase.exit && !result.signaled && !result.timedOut, "\(result)")
        #expect(elapsed < Self.timeLimit, "took \(elapsed) s")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let match = lines.first { line in
            line.hasPrefix(recipe + corpusCase.place) && line.contains(": error: ") && corpusCase.words.allSatisfy { line.contains($0) }
        }
        #expect(match != nil, "no '\(recipe)\(corpusCase.place)…' line with \(corpusCase.words) in:\n\(result.stderr)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
        #expect(try folder.listing("out") == [], "a failed render left files")
    }

    @Test("render --check on the corpus lists every file's error")
    func checkListsEveryFile() throws {
        let cases = BadInputCorpus.cases
        #expect(cases.count >= 50)
        let (folder, recipes, assets) = try BadInputCorpus.workspace(cases)
        let started = Date()
        let result = try runRender(["--check", recipes, "--assets", assets], in: folder.path)
        let elapsed = Date().timeIntervalSince(started)

        // 65 for bad data, 66 when some file is missing (README: "Checking pull requests")
        let expected: Int32 = cases.contains { $0.exit == 66 } ? 66 : 65
        #expect(result.status == expected && !result.signaled, "\(result)")
        #expect(elapsed < Self.timeLimit * 2, "took \(elapsed) s")
        let lines = result.lines
        // every case, too much cue sound included (issue 30 item 8): --check refuses what render refuses
        let checked = cases
        for c in checked {
            let prefix = recipes + "/\(c.name).yml" + c.place
            let found = lines.contains { line in
                (line.hasPrefix(prefix) || line.contains("/\(c.name).yml" + c.place)) && c.words.allSatisfy { line.contains($0) }
            }
            #expect(found, "\(c.file): no '\(c.name).yml\(c.place)…' line with \(c.words)")
        }
        // every file is named at least once, and nothing was written beside the recipes
        let named = Set(checked.map(\.name).filter { name in lines.contains { $0.contains("/\(name).yml:") } })
        #expect(named.count == checked.count)
        #expect(try folder.listing("recipes").count == cases.count)
    }

    /// Links that leave the assets folder, in the shapes they come in: a file link, a
    /// folder link, an absolute link, and a link to nothing.
    enum LinkShape: String, CaseIterable, Sendable {
        case fileLinkOut, folderLinkOut, absoluteLink, danglingLink

        /// sysexits: a path out of the folder is bad data (65), a link to nothing a missing asset (66).
        var status: Int32 { self == .danglingLink ? 66 : 65 }
        var words: [String] {
            self == .danglingLink
                ? ["bed.file: asset 'beds/escape.wav' is a broken link"]
                : ["bed.file: path 'beds/escape.wav' leaves the assets folder (it resolves to "]
        }
    }

    @Test("links out of the assets folder are refused at render time", arguments: LinkShape.allCases)
    func linkOut(_ shape: LinkShape) throws {
        let corpusCase = try #require(BadInputCorpus.cases.first { $0.file == "path-symlink-escape.yml" })
        let (folder, _, assets) = try BadInputCorpus.workspace([corpusCase])
        let link = folder.file("assets/beds/escape.wav")
        try FileManager.default.removeItem(atPath: link)
        switch shape {
        case .fileLinkOut:
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../outside.wav")
        case .folderLinkOut:
            // the folder itself is a link: beds → ../elsewhere, which holds a real escape.wav
            try FileManager.default.removeItem(atPath: folder.file("assets/beds"))
            try folder.folder("elsewhere")
            try FileManager.default.copyItem(atPath: folder.file("outside.wav"), toPath: folder.file("elsewhere/escape.wav"))
            try FileManager.default.createSymbolicLink(atPath: folder.file("assets/beds"), withDestinationPath: "../elsewhere")
        case .absoluteLink:
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.file("outside.wav"))
        case .danglingLink:
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../nowhere.wav")
        }
        let recipe = folder.file("recipes/\(corpusCase.name).yml")
        try folder.folder("out")
        for arguments in [[recipe, "-o", folder.file("out/x.flac")], ["--check", recipe]] {
            let result = try runRender(arguments + ["--assets", assets], in: folder.path)
            #expect(result.status == shape.status && !result.signaled, "\(arguments.first ?? ""): \(result)")
            let located = result.stderr.split(separator: "\n").contains { line in
                line.hasPrefix(recipe + corpusCase.place) && shape.words.allSatisfy { line.contains($0) }
            }
            #expect(located, "\(arguments.first ?? ""): expected \(recipe)\(corpusCase.place) with \(shape.words) in:\n\(result.stderr)")
        }
        #expect(try folder.listing("out") == [], "a refused render left files")
    }
}
