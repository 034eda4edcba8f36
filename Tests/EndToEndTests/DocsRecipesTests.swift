import Foundation
import TestKit
import Testing

// docs/recipes.md, the recipe reference, kept true: every marked recipe block of the page
// is run through the `render` binary and must behave as the page says, and every link of
// the README and docs/*.md must lead to a file (and heading) of this repository.
//
// How a block is marked (the page repeats this in an HTML comment at its top): the
// opening fence's info string is
//
//     ```yaml recipe [FILE] [render | error STATUS]
//
//   - `yaml recipe FILE`: the block is written to `mine/FILE` (default `example-N.yml`, N
//     counting the page's marked blocks from 1) in a fresh folder beside an `assets` link to
//     this repository's `assets/`, as a reader's clone has it, and `render --check mine/FILE`,
//     run in that folder, must exit 0 without an error line;
//   - `render`: it must also render: `render mine/FILE -o out/STEM.flac` writes the audio and
//     `out/STEM.cues.json`, whose duration and frames match `expect-seconds:` (as does the
//     summary line `mine/FILE → out/STEM.flac (…, N frames at R Hz, …)`); a block with a
//     `haptics: on` line also writes `out/STEM.ahap` and `out/STEM.haptics.json`; then the folder
//     as a catalog, `render mine/ -o mine-dist/`, writes `catalog.json` and `index.html` (and the
//     haptics files);
//   - `error STATUS`: `render --check mine/FILE` must exit with STATUS, naming `mine/FILE:` in
//     a `: error: ` line.
//
// An HTML comment on the line right after the closing fence adds expectations:
// `expect: "words" "more words"`: each quoted text must appear in render's output (stdout and
// stderr, where errors and warnings go); `expect-seconds: 60`: a render block's length.
// Plain ```yaml blocks are fragments and are not run. A fence that says `recipe` but cannot
// be read, or an `expect` comment not attached to a marked block, fails the page test.

/// The marked recipe blocks of docs/recipes.md.
enum DocsPage {
    static let path = repositoryRoot + "/docs/recipes.md"

    /// One marked block and what the page says it does.
    struct Block: Sendable, CustomTestStringConvertible {
        /// The 1-based line of the opening fence.
        var line: Int
        /// The name it is written under in `mine/`.
        var file: String
        /// Rendered for real, not only checked.
        var render: Bool
        /// The exit status of `render --check`.
        var status: Int32
        var yaml: String
        /// Texts that must appear in render's output.
        var words: [String]
        /// The rendered track's length in seconds (render blocks).
        var seconds: Int?

        var testDescription: String { "docs/recipes.md:\(line) \(file)" + (status == 0 ? "" : " (exit \(status))") }
        var stem: String { (file as NSString).deletingPathExtension }
    }

    /// What reading the page found: its blocks, and the problems of its marking.
    struct Reading: Sendable {
        var blocks: [Block] = []
        var problems: [String] = []
        /// `expect` comments found anywhere on the page, attached or not.
        var expectComments = 0
    }

    static let reading: Reading = {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return Reading(problems: ["cannot read \(path)"])
        }
        return read(text)
    }()

    static var blocks: [Block] { reading.blocks }

    /// Parses the page's marked blocks (see the comment at the top of this file).
    static func read(_ text: String) -> Reading {
        var reading = Reading()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        reading.expectComments = lines.filter { $0.hasPrefix("<!--") && ($0.contains("expect:") || $0.contains("expect-seconds:")) }.count
        var index = 0
        var attached = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            guard line.hasPrefix("```") else { continue }
            let info = line.dropFirst(3).split(separator: " ").map(String.init)
            // skip any other fenced block whole, so that a fence inside it is not read as an opening
            guard info.first == "yaml", info.dropFirst().first == "recipe" else {
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" { index += 1 }
                index += 1
                continue
            }
            let opening = index
            var body: [String] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            guard index < lines.count else {
                reading.problems.append("line \(opening): the recipe block is never closed")
                break
            }
            index += 1
            var block = Block(
                line: opening, file: "example-\(reading.blocks.count + 1).yml", render: false, status: 0,
                yaml: body.joined(separator: "\n") + "\n", words: [], seconds: nil)
            var words = Array(info.dropFirst(2))
            if let first = words.first, first.hasSuffix(".yml") || first.hasSuffix(".yaml") {
                block.file = first
                words.removeFirst()
            }
            switch words.count {
            case 0: break
            case 1 where words[0] == "render": block.render = true
            case 2 where words[0] == "error":
                guard let status = Int32(words[1]), status != 0 else {
                    reading.problems.append("line \(opening): 'error' needs a non-zero exit status, found '\(words[1])'")
                    continue
                }
                block.status = status
            default:
                reading.problems.append(
                    "line \(opening): cannot read the info string '\(line)' (expected 'yaml recipe [FILE] [render | error STATUS]')")
                continue
            }
            if index < lines.count, lines[index].hasPrefix("<!--") {
                var comment = lines[index]
                while !comment.contains("-->"), index + 1 < lines.count {
                    index += 1
                    comment += "\n" + lines[index]
                }
                if comment.contains("expect:") || comment.contains("expect-seconds:") { attached += 1 }
                if let range = comment.range(of: "expect:") {
                    let after = comment[range.upperBound...]
                    let end = after.range(of: "-->")?.lowerBound ?? after.endIndex
                    block.words = quotedTexts(String(after[..<end]))
                    if block.words.isEmpty { reading.problems.append("line \(opening): 'expect:' lists no quoted text") }
                }
                if let range = comment.range(of: "expect-seconds:") {
                    let digits = comment[range.upperBound...].drop(while: { $0 == " " }).prefix(while: \.isNumber)
                    block.seconds = Int(digits)
                }
            }
            if block.render && block.seconds == nil {
                reading.problems.append("line \(opening): a render block needs an 'expect-seconds:' comment after it")
            }
            reading.blocks.append(block)
        }
        if attached != reading.expectComments {
            reading.problems.append(
                "\(reading.expectComments - attached) expect comment(s) are not on the line right after a marked recipe block")
        }
        return reading
    }

    /// `"a" "b \"c\""` → ["a", "b \"c\""].
    static func quotedTexts(_ text: String) -> [String] {
        var out: [String] = []
        var current: String?
        var escaped = false
        for character in text {
            if var open = current {
                if escaped {
                    open.append(character)
                    escaped = false
                    current = open
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    out.append(open)
                    current = nil
                } else {
                    open.append(character)
                    current = open
                }
            } else if character == "\"" {
                current = ""
            }
        }
        return out
    }

    /// A folder as a reader's clone has it: `assets` (a link to this repository's) and
    /// `mine/FILE` holding the block.
    static func workspace(for block: Block) throws -> TempFolder {
        let folder = try TempFolder("docs-recipe")
        try FileManager.default.createSymbolicLink(atPath: folder.file("assets"), withDestinationPath: repositoryRoot + "/assets")
        try folder.write(block.yaml, to: "mine/\(block.file)")
        return folder
    }
}

@Suite("docs/recipes.md: its recipes behave as it says, its links stay in the repository")
struct DocsRecipesTests {
    /// The fewest marked blocks the page may have: an emptied or unmarked page fails.
    static let minimumBlocks = 20

    @Test("the page's marking can be read, and it has enough runnable blocks")
    func marking() {
        let reading = DocsPage.reading
        #expect(reading.problems.isEmpty, "\(reading.problems.joined(separator: "\n"))")
        #expect(reading.blocks.count >= Self.minimumBlocks, "only \(reading.blocks.count) marked recipe blocks")
        #expect(reading.blocks.contains { $0.render }, "no block is rendered for real")
        #expect(reading.blocks.filter { $0.status != 0 }.count >= 5, "fewer than 5 error blocks")
        // the walkthrough's first recipe is the one rendered
        #expect(reading.blocks.first?.render == true, "the first block (the walkthrough's first recipe) should be a render block")
    }

    @Test("render --check on each block: its exit status and words", arguments: DocsPage.blocks)
    func check(_ block: DocsPage.Block) throws {
        let folder = try DocsPage.workspace(for: block)
        let result = try runRender(["--check", "mine/\(block.file)"], in: folder.path)
        let output = result.stdout + "\n" + result.stderr
        #expect(
            result.status == block.status && !result.signaled && !result.timedOut,
            "docs/recipes.md:\(block.line): expected exit \(block.status), got \(result)")
        for words in block.words {
            #expect(output.contains(words), "docs/recipes.md:\(block.line): '\(words)' is not in render's output:\n\(output)")
        }
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        if block.status == 0 {
            #expect(errors.isEmpty, "docs/recipes.md:\(block.line): a block the page says is good has errors:\n\(output)")
        } else {
            #expect(
                errors.contains { $0.hasPrefix("mine/\(block.file):") },
                "docs/recipes.md:\(block.line): no 'mine/\(block.file):line:col: error:' line:\n\(output)")
        }
    }

    @Test(
        "render blocks render: the audio, a cue sheet of the page's length, and a catalog with its preview page",
        arguments: DocsPage.blocks.filter(\.render))
    func render(_ block: DocsPage.Block) throws {
        let folder = try DocsPage.workspace(for: block)
        try folder.folder("out")
        let audio = "out/\(block.stem).flac"
        // (renderPath is the release binary when it is fresh, as in CI: minutes of audio, rendered twice,
        // take seconds there and minutes in a debug build)
        let render = try renderPath()
        let result = try run(render, ["mine/\(block.file)", "-o", audio], in: folder.path)
        #expect(result.status == 0 && !result.signaled, "docs/recipes.md:\(block.line): \(result)")
        let size = (try? FileManager.default.attributesOfItem(atPath: folder.file(audio)))?[.size] as? Int ?? 0
        #expect(size > 0, "\(audio) was not written")
        let sheet = try readJSONObject(folder.file("out/\(block.stem).cues.json"))
        let info = try #require(sheet["audio"] as? [String: Any], "the cue sheet has no 'audio'")
        let seconds = try #require(block.seconds)
        let rate = try #require(info["sample_rate"] as? Int)
        #expect(info["duration"] as? Double == Double(seconds), "cue sheet duration \(info["duration"] ?? "none"), the page says \(seconds) s")
        #expect(info["frames"] as? Int == seconds * rate, "cue sheet frames \(info["frames"] ?? "none") at \(rate) Hz")
        #expect(info["file"] as? String == "\(block.stem).flac")
        #expect(sheet["id"] as? String == block.stem, "the id is the file name")
        // the summary line the page shows: `mine/x.yml → out/x.flac (1:00.000, 2880000 frames at 48000 Hz, …`
        let summary = "mine/\(block.file) → \(audio) ("
        let frames = "\(seconds * rate) frames at \(rate) Hz"
        #expect(result.lines.contains { $0.hasPrefix(summary) && $0.contains(frames) }, "no '\(summary)… \(frames)' line:\n\(result)")
        // `haptics: on` (the page's end-to-end guidance example): the two haptics files beside the audio, each on its own line
        let hapticsFiles =
            block.yaml.split(separator: "\n").contains { $0.hasPrefix("haptics: on") } ? [".ahap", ".haptics.json"].map { block.stem + $0 } : []
        for name in hapticsFiles {
            #expect(FileManager.default.fileExists(atPath: folder.file("out/" + name)), "out/\(name) was not written")
            #expect(result.lines.contains("mine/\(block.file) → out/\(name)"), "no 'mine/\(block.file) → out/\(name)' line:\n\(result)")
        }

        // the walkthrough's preview: the folder as a catalog
        let catalog = try run(render, ["mine/", "-o", "mine-dist/"], in: folder.path)
        #expect(catalog.status == 0 && !catalog.signaled, "render mine/ -o mine-dist/: \(catalog)")
        let listing = try folder.listing("mine-dist")
        for name in ["index.html", "catalog.json", "\(block.stem).flac", "\(block.stem).cues.json"] + hapticsFiles {
            #expect(listing.contains(name), "mine-dist/ lacks \(name): \(listing)")
        }
    }

    // MARK: - Links

    /// The documents whose links are checked.
    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/docs")) ?? []
        return ["README.md", "recipes/README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// Links out of the repository a page may keep: the published formats Cadence writes,
    /// which the repository cannot hold. docs/recipes.md may have none.
    static let allowedExternal: [String: Set<String>] = [
        "docs/sidecars.md": ["https://github.com/Podcastindex-org/podcast-namespace/blob/main/chapters/jsonChapters.md"]
    ]

    @Test("every link in the README and docs/*.md leads to a file (and heading) of the repository")
    func links() throws {
        var external: [String] = []
        for document in Self.documents {
            let text = try String(contentsOfFile: repositoryRoot + "/" + document, encoding: .utf8)
            let folder = (document as NSString).deletingLastPathComponent
            for link in Markdown.links(in: text) {
                if link.target.contains("://") || link.target.hasPrefix("mailto:") || link.target.hasPrefix("//") {
                    external.append("\(document):\(link.line): \(link.target)")
                    #expect(
                        Self.allowedExternal[document]?.contains(link.target) == true,
                        "\(document):\(link.line): '\(link.target)' leaves the repository")
                    continue
                }
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let relative = parts[0], anchor = parts.count > 1 ? parts[1] : nil
                let target = relative.isEmpty ? document : ((folder as NSString).appendingPathComponent(relative) as NSString).standardizingPath
                guard !target.hasPrefix("..") && !target.hasPrefix("/") else {
                    Issue.record("\(document):\(link.line): '\(link.target)' leaves the repository")
                    continue
                }
                let full = repositoryRoot + "/" + target
                guard FileManager.default.fileExists(atPath: full) else {
                    Issue.record("\(document):\(link.line): '\(link.target)': \(target) does not exist")
                    continue
                }
                if let anchor, target.hasSuffix(".md") {
                    let headings = Markdown.anchors(in: try String(contentsOfFile: full, encoding: .utf8))
                    #expect(headings.contains(anchor), "\(document):\(link.line): '\(link.target)': \(target) has no heading '#\(anchor)'")
                }
            }
        }
        if !external.isEmpty { print("links out of the repository (allowed):\n" + external.joined(separator: "\n")) }
    }

    @Test("the recipe contract for readers is docs/recipes.md: no document points at a spec outside the repository")
    func noSpecOutside() throws {
        for document in ["README.md", "recipes/README.md", "docs/recipes.md"] {
            let text = try String(contentsOfFile: repositoryRoot + "/" + document, encoding: .utf8)
            #expect(!text.contains("shared/spec/recipe"), "\(document) names the recipe spec outside the repository")
        }
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("](docs/recipes.md)"), "the README does not link docs/recipes.md")
    }

    @Test("the link reader: headings become GitHub's anchors, code is not read for links")
    func linkReader() {
        let text = """
            # Preview page: `dist/index.html`
            ## Length: duration, cycles, end_on
            ## Length: duration, cycles, end_on
            ```sh
            # not a heading
            [not](a-link.md)
            ```
            See [the `x` key](other.md#x) and [two
            lines](#length-duration-cycles-end_on), not `[code](c.md)`.
            """
        #expect(Markdown.anchors(in: text) == ["preview-page-distindexhtml", "length-duration-cycles-end_on", "length-duration-cycles-end_on-1"])
        #expect(Markdown.links(in: text).map(\.target) == ["other.md#x", "#length-duration-cycles-end_on"])
        #expect(Markdown.links(in: text).map(\.line) == [8, 8])
    }
}

/// Just enough Markdown for the link check: inline links and GitHub's heading anchors,
/// outside fenced code and code spans.
enum Markdown {
    struct Link: Equatable {
        var line: Int
        var target: String
    }

    /// The text with fenced blocks blanked (their lines kept, so line numbers stay).
    static func prose(_ text: String) -> [String] {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                return ""
            }
            return inFence ? "" : String(line)
        }
    }

    /// A line without its code spans.
    static func withoutCode(_ line: String) -> String {
        var out = "", inCode = false
        for character in line {
            if character == "`" { inCode.toggle(); continue }
            if !inCode { out.append(character) }
        }
        return out
    }

    /// Inline links `[text](target)` (the text may run over lines) and reference definitions `[x]: target`.
    static func links(in text: String) -> [Link] {
        let lines = prose(text).map(withoutCode)
        var links: [Link] = []
        // the whole prose as one string, with each character's line
        var characters: [Character] = [], lineOf: [Int] = []
        for (index, line) in lines.enumerated() {
            if let match = line.firstMatch(of: /^\s*\[[^\]]+\]:\s*(\S+)/) { links.append(Link(line: index + 1, target: String(match.1))) }
            for character in line + "\n" {
                characters.append(character)
                lineOf.append(index + 1)
            }
        }
        var i = 0
        while i < characters.count {
            guard characters[i] == "]", i + 1 < characters.count, characters[i + 1] == "(" else { i += 1; continue }
            var j = i + 2, target = ""
            while j < characters.count, characters[j] != ")", characters[j] != "\n", characters[j] != " " {
                target.append(characters[j])
                j += 1
            }
            if j < characters.count, characters[j] == ")" || characters[j] == " ", !target.isEmpty {
                // the line of the link's opening bracket
                var k = i, depth = 0
                while k > 0 {
                    if characters[k] == "]" { depth += 1 }
                    if characters[k] == "[" { depth -= 1; if depth == 0 { break } }
                    k -= 1
                }
                links.append(Link(line: lineOf[k], target: target))
            }
            i = j
        }
        return links
    }

    /// GitHub's anchors for the headings: lower case, spaces to '-', punctuation other than
    /// '-' and '_' dropped; a repeated heading gets '-1', '-2', ….
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var out: [String] = []
        for line in prose(text) {
            guard let match = line.firstMatch(of: /^#{1,6}\s+(.+?)\s*#*\s*$/) else { continue }
            var title = String(match.1)
            title.replace(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }
            var slug = ""
            for character in title.lowercased() {
                if character == " " {
                    slug.append("-")
                } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                    slug.append(character)
                }
            }
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            out.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return out
    }
}
