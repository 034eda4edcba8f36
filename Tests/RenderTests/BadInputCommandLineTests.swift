import Foundation
import Testing

// The bad-input corpus (Tests/RecipeTests/BadInput, described in its expected.tsv)
// through the `render` binary: every case's exit status and gcc-style line,
// `render --check` over the whole folder, and links out of the assets folder,
// which only the disk can show. RecipeTests/BadInputCorpusTests.swift reads the
// same corpus in-process, with its time and memory measured.

/// The corpus as the binary sees it: the files, their expectations, and a folder to run them in.
enum BadInputCorpus {
    /// One row of `expected.tsv` (see BadInputCorpusTests.swift for the format).
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var line: Int
        var column: Int?
        var exit: Int32
        var category: String
        /// `recipe`: the text alone is wrong; `timeline`: its layout in frames; `render`: only the assets on disk show it.
        var stage: String
        var words: [String]

        var testDescription: String { file }
        /// The file name without its extension: the recipe is run as `<name>.yml`.
        var name: String { (file as NSString).deletingPathExtension }
        /// `:line:column: error: ` (or `:line:` and any column), after the recipe's path.
        var place: String { ":\(line):" + (column.map { "\($0): error: " } ?? "") }
    }

    static let folder = repositoryRoot + "/Tests/RecipeTests/BadInput"

    static let cases: [Case] = (try? readCases()) ?? []

    static func readCases() throws -> [Case] {
        let text = try String(contentsOfFile: folder + "/expected.tsv", encoding: .utf8)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let place = fields.count > 1 ? fields[1].split(separator: ":").compactMap { Int($0) } : []
            guard fields.count >= 6, (1...2).contains(place.count), let exit = Int32(fields[2]) else {
                throw TestFailure("expected.tsv: cannot read '\(line)'")
            }
            return Case(
                file: fields[0], line: place[0], column: place.count == 2 ? place[1] : nil, exit: exit, category: fields[3],
                stage: fields[4], words: Array(fields[5...]))
        }
    }

    /// A case's bytes: the file, or what its `.gen` description (`bytes COUNT seed N`) makes.
    static func bytes(of file: String) throws -> [UInt8] {
        let stored = try BadInputCommandLineTests.readBytes(folder + "/" + file)
        guard file.hasSuffix(".gen") else { return stored }
        let words = String(decoding: stored, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 4, words[0] == "bytes", words[2] == "seed", let count = Int(words[1]), let seed = UInt64(words[3]) else {
            throw TestFailure("\(file): expected 'bytes COUNT seed N'")
        }
        return Fixture.randomBytes(count, seed: seed)
    }

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
        // `mix` cases (too much cue sound) show only when the cues are prepared for mixing,
        // which --check does not do: it reads recipes and opens assets, it does not render
        let checked = cases.filter { $0.stage != "mix" }
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

    /// Every byte of a file.
    static func readBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
