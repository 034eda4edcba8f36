import Foundation
import Testing

/// An `id:` that tries to steer where a file goes, as YAML scalar text.
struct HostileID: Sendable, CustomTestStringConvertible {
    let label: String
    /// The scalar as written in the recipe (double-quoted ones use YAML escapes).
    let yaml: String

    var testDescription: String { label }

    static let all: [HostileID] = [
        HostileID(label: "../../escape", yaml: "\"../../escape\""),
        HostileID(label: "an absolute path", yaml: "\"/tmp/cadence-confinement-escape\""),
        HostileID(label: "a/b", yaml: "\"a/b\""),
        HostileID(label: "..", yaml: "\"..\""),
        HostileID(label: ".", yaml: "\".\""),
        HostileID(label: ".hidden", yaml: "\".hidden\""),
        HostileID(label: "empty", yaml: "\"\""),
        HostileID(label: "NUL", yaml: "\"a\\0b\""),
        HostileID(label: "newline", yaml: "\"a\\nb\""),
        HostileID(label: "escape", yaml: "\"a\\eb\""),
        HostileID(label: "tab", yaml: "\"a\\tb\""),
        HostileID(label: "DEL", yaml: "\"a\\x7Fb\""),
        HostileID(label: "101 characters", yaml: String(repeating: "x", count: 101)),
        HostileID(label: "division slash lookalike", yaml: "\"a\u{2215}b\""),
        HostileID(label: "fraction slash lookalike", yaml: "\"a\u{2044}b\""),
        HostileID(label: "fullwidth solidus and dots", yaml: "\"\u{FF0E}\u{FF0E}\u{FF0F}x\""),
        HostileID(label: "right-to-left override", yaml: "\"a\\u202Eb\""),
        // valid ids: they render, inside the output folder
        HostileID(label: "a..b (valid)", yaml: "a..b"),
        HostileID(label: "100 characters (valid)", yaml: String(repeating: "y", count: 100)),
    ]
}

/// Author text (title, category, pattern name, a phase label) that output formats must carry safely.
struct HostileText: Sendable, CustomTestStringConvertible {
    let label: String
    let titleYAML: String, title: String
    let categoryYAML: String, category: String
    let patternYAML: String, pattern: String
    let labelYAML: String, phaseLabel: String

    var testDescription: String { label }
    var hasControls: Bool { [title, category, pattern, phaseLabel].contains { $0.unicodeScalars.contains(where: isControl) } }
    /// A title or category that a catalog's manifest may not hold: over 256 bytes of UTF-8, or with a control character.
    var breaksManifestLimits: Bool {
        [title, category].contains { $0.utf8.count > 256 || $0.unicodeScalars.contains(where: isControl) }
    }

    static let slashes = HostileText(
        label: "paths", titleYAML: "\"../../etc/passwd\"", title: "../../etc/passwd", categoryYAML: "\"/abs/../x\"", category: "/abs/../x",
        patternYAML: "\"a/b\\\\c\"", pattern: "a/b\\c", labelYAML: "\"..\"", phaseLabel: "..")
    static let controls = HostileText(
        label: "control characters and markup",
        titleYAML: "\"T\\0i\\nt\\rl\\te\\e\\x07\\x7F\\N\\L </title><script>alert(1)</script> &amp; -->\"",
        title: "T\u{0}i\nt\rl\te\u{1B}\u{7}\u{7F}\u{85}\u{2028} </title><script>alert(1)</script> &amp; -->",
        categoryYAML: "\"Cat\\negory\\0\"", category: "Cat\negory\u{0}",
        patternYAML: "\"P\\0at\\ntern\\e\"", pattern: "P\u{0}at\ntern\u{1B}",
        labelYAML: "\"In\\0\\n\\e<b>--></b>\"", phaseLabel: "In\u{0}\n\u{1B}<b>--></b>")
    static let long = HostileText(
        label: "very long", titleYAML: "\"" + String(repeating: "Lo\u{E9}ng ", count: 36) + "\"",
        title: String(repeating: "Lo\u{E9}ng ", count: 36), categoryYAML: String(repeating: "c", count: 256),
        category: String(repeating: "c", count: 256), patternYAML: String(repeating: "p", count: 256), pattern: String(repeating: "p", count: 256),
        labelYAML: String(repeating: "l", count: 200), phaseLabel: String(repeating: "l", count: 200))
    static let lookalikes = HostileText(
        label: "lookalikes", titleYAML: "\"\u{2215}etc\u{2215}passwd \u{FF0E}\u{FF0E}\u{FF0F} \u{202E}txt.exe\"",
        title: "\u{2215}etc\u{2215}passwd \u{FF0E}\u{FF0E}\u{FF0F} \u{202E}txt.exe", categoryYAML: "\"\u{2044}x\"", category: "\u{2044}x",
        patternYAML: "\"\u{FF0F}p\"", pattern: "\u{FF0F}p", labelYAML: "\"\u{2024}\u{2024}\"", phaseLabel: "\u{2024}\u{2024}")
    /// Markup without control characters: a catalog must take it, and its page escape it.
    static let markup = HostileText(
        label: "markup", titleYAML: "\"</title><script>alert(1)</script> &amp; -->\"", title: "</title><script>alert(1)</script> &amp; -->",
        categoryYAML: "\"<i>Cat</i>\"", category: "<i>Cat</i>", patternYAML: "\"<p>at</p>\"", pattern: "<p>at</p>",
        labelYAML: "\"In<b>--></b>\"", phaseLabel: "In<b>--></b>")
    static let all = [slashes, controls, long, lookalikes, markup]
}

/// Unicode control characters (C0, DEL, C1).
private func isControl(_ u: Unicode.Scalar) -> Bool { u.properties.generalCategory == .control }

/// The one-line plain form of author text where a format has no escapes (captions, tags,
/// marker labels): line breaks and tabs become a space, other control characters U+FFFD.
private func plainLine(_ s: String) -> String {
    var out = ""
    for c in s {
        if c.isNewline || c == "\t" {
            out.append(" ")
        } else {
            for u in c.unicodeScalars { out.unicodeScalars.append(isControl(u) ? "\u{FFFD}" : u) }
        }
    }
    return out
}

/// Output stays inside the output folder whatever a recipe says, and author text is escaped in every format.
@Suite("Confinement: recipes cannot steer where files go, and text is escaped everywhere")
struct ConfinementTests {
    /// A 2 s mono recipe; the arguments are YAML scalar text.
    static func recipe(
        id: String?, title: String = "Plain", category: String = "Test", pattern: String = "Test Pattern",
        label: String = "\"Breathe In\"", format: String? = nil
    ) -> String {
        var text = id.map { "id: \($0)\n" } ?? ""
        text += """
            title: \(title)
            category: \(category)
            duration: 2s
            pattern:
              name: \(pattern)
              phases:
                - { kind: inhale, length: 1s, label: \(label) }
                - exhale: 1s
            bed:
              synth: drone 110 Hz
              gain: -14 dB
            cues:
              inhale: { tone: 528 Hz, length: 200ms, gain: -18 dB }
            output:
              sample_rate: 22050
              channels: 1
              loudness: -16 LUFS
              true_peak: -1 dBTP

            """
        if let format { text += "  format: \(format)\n" }
        return text
    }

    /// The 1-based line and column of the value of `key:` in a recipe's text.
    static func valuePosition(of key: String, in text: String) -> (line: Int, column: Int)? {
        guard let at = position(of: key + ": ", in: text) else { return nil }
        return (at.line, at.column + key.count + 2)
    }

    // MARK: - Ids

    @Test(
        "an id with '/', '..', control characters or lookalikes: a recipe error at the id, or files only inside the output folder",
        arguments: HostileID.all)
    func hostileID(_ c: HostileID) throws {
        let folder = try TempFolder("confine-id")
        let text = Self.recipe(id: c.yaml)
        let recipe = try folder.write(text, to: "recipes/hostile.yml")
        let work = try folder.folder("work/out")
        let outside = "/tmp/cadence-confinement-escape"
        let before = treeSnapshot(folder.path)
        let outsideBefore = FileManager.default.fileExists(atPath: outside + ".flac")

        // without -o the track is written as <id>.<format> in the current folder
        let result = try runRender([recipe, "--quiet"], in: work)
        let changed = snapshotChanges(before, treeSnapshot(folder.path))
        #expect(FileManager.default.fileExists(atPath: outside + ".flac") == outsideBefore, "a file was written at \(outside).flac")
        if result.status == 0 {
            #expect(!changed.isEmpty, "a render that succeeded wrote nothing")
            #expect(
                changed.allSatisfy { $0 == "work/out" || ($0.hasPrefix("work/out/") && !$0.dropFirst("work/out/".count).contains("/")) },
                "files outside the output folder changed: \(changed)")
            let names = try FileManager.default.contentsOfDirectory(atPath: work).sorted()
            #expect(names.count == 2 && names.allSatisfy { !$0.hasPrefix(".") }, "\(names)")
        } else {
            #expect(result.status == 65 && !result.signaled, "\(result)")
            let at = try #require(Self.valuePosition(of: "id", in: text))
            #expect(hasDiagnostic(result.lines, file: "hostile.yml", line: at.line, column: at.column), "no error at the id: \(result.stderr)")
            #expect(result.stderr.contains("id:"), "the error must name the key: \(result.stderr)")
            #expect(changed == [], "a rejected recipe changed \(changed)")
            // the message shows the id safely: no raw control character reaches the terminal
            #expect(
                !result.stderr.unicodeScalars.contains { isControl($0) && $0 != "\n" }, "raw control characters in: \(result.stderr.debugDescription)"
            )
        }
    }

    @Test("a catalog of hostile ids and recipe file names renders the good ones into the bundle and nothing anywhere else")
    func hostileCatalog() throws {
        let folder = try TempFolder("confine-cat")
        var bad: [String] = []
        for (index, id) in HostileID.all.enumerated() {
            try folder.write(Self.recipe(id: id.yaml), to: "recipes/ids/case-\(index).yml")
            if !id.label.hasSuffix("(valid)") { bad.append("case-\(index).yml") }
        }
        // without id: the id is the file name
        let fileNames = ["a b", "-dash", "\u{FC}n\u{EF}", "new\nline", "esc\u{1B}ape", "tab\tbed", "\u{2215}slash", "fine.name"]
        for name in fileNames {
            try folder.write(Self.recipe(id: nil), to: "recipes/names/\(name).yml")
            if name != "fine.name" { bad.append(name + ".yml") }
        }
        // hidden files are not recipes
        try folder.write(Self.recipe(id: "\"hidden-one\""), to: "recipes/names/.hidden.yml")
        let dist = folder.file("dist")
        let before = treeSnapshot(folder.path)

        let result = try runRender([folder.file("recipes"), "-o", dist, "-j", "2", "--quiet"], in: folder.path)
        #expect(result.status == 65 && !result.signaled, "\(result)")
        let changed = snapshotChanges(before, treeSnapshot(folder.path))
        #expect(
            changed.allSatisfy { $0 == "dist" || ($0.hasPrefix("dist/") && !$0.dropFirst(5).contains("/")) },
            "files outside the bundle folder changed: \(changed.filter { !$0.hasPrefix("dist") })")
        let manifest = try CatalogManifest.read(dist + "/catalog.json")
        let good = ["a..b", String(repeating: "y", count: 100), "fine.name"]
        #expect(manifest.tracks.map(\.id) == good.sorted())
        var expected = Set(bundleFiles)
        for id in good { expected.formUnion(["\(id).flac", "\(id).cues.json", "\(id).svg"]) }
        #expect(Set(try filesUnder(dist)) == expected)
        // every bad recipe is reported, at its file, about its id
        for name in bad {
            #expect(result.stderr.contains(name + ":"), "\(name) is not reported: \(result.stderr)")
        }
        let idErrors = result.stderr.components(separatedBy: "error: id:").count - 1
        #expect(idErrors == bad.count, "\(idErrors) id errors for \(bad.count) bad recipes: \(result.stderr)")
    }

    // MARK: - Text in every format

    @Test(
        "titles, categories, pattern names and labels with paths, control characters, markup, great length or lookalikes are carried safely",
        arguments: HostileText.all)
    func hostileText(_ c: HostileText) throws {
        let folder = try TempFolder("confine-text")
        let text = Self.recipe(id: "\"text\"", title: c.titleYAML, category: c.categoryYAML, pattern: c.patternYAML, label: c.labelYAML)
        let recipe = try folder.write(text, to: "recipes/text.yml")
        let out = try folder.folder("out")
        let before = treeSnapshot(folder.path)
        for format in ["flac", "wav", "ogg"] {
            let output = out + "/text." + format
            let result = try runRender([recipe, "-o", output, "--quiet"] + (format == "flac" ? ["--sidecars", "all"] : []), in: folder.path)
            if result.status == 65 {
                // a recipe error is a fine answer too for control characters, if it points at each such text
                #expect(c.hasControls, "\(c.label) is plain text and must render: \(result)")
                let fields = [("title", c.title), ("category", c.category), ("name", c.pattern), ("label", c.phaseLabel)]
                for (key, value) in fields where value.unicodeScalars.contains(where: isControl) {
                    let at = try #require(Self.valuePosition(of: key, in: text))
                    #expect(
                        hasDiagnostic(result.lines, file: "text.yml", line: at.line, column: at.column),
                        "no error at \(key) (\(at.line):\(at.column)): \(result.stderr)")
                }
                continue
            }
            #expect(result.status == 0 && !result.signaled, "\(format): \(result)")
            guard result.status == 0 else { continue }

            // the cue sheet is JSON that gives back the exact text, with every C0 control escaped
            let cues = out + "/text.cues.json"
            let sheet = try readCueSheet(cues)
            #expect(sheet.title == c.title && sheet.category == c.category && sheet.pattern.name == c.pattern)
            #expect(sheet.phases.first?.label == c.phaseLabel)
            #expect(try bytes(cues).allSatisfy { $0 >= 0x20 || $0 == 0x0A }, "raw control characters in the cue sheet")

            let tags: [(String, String)]
            switch format {
            case "flac":
                tags = try flacComments(output)
                try checkSidecars(out, c)
            case "ogg":
                tags = try oggComments(output)
            default:
                let wav = try wavText(output)
                tags = wav.info
                #expect(wav.labels.first == plainLine(c.phaseLabel), "\(format): marker label \(wav.labels.first.debugDescription)")
            }
            // nothing in the tags is a raw control character, nothing is cut at a NUL
            let chapterNames = tags.filter { $0.0.hasPrefix("CHAPTER") && $0.0.hasSuffix("NAME") }.map(\.1)
            if format != "wav" { #expect(chapterNames == [plainLine(c.pattern)], "\(format): chapter names \(chapterNames)") }
            let wanted: [(String, String)] = [
                ("TITLE", c.title), ("ALBUM", c.category), ("COMMENT", "\(c.pattern), rendered by Cadence"),
            ].map { ($0.0, plainLine($0.1)) }
            let check = {
                for (key, value) in wanted {
                    let names = format == "wav" ? ["TITLE": "INAM", "ALBUM": "IPRD", "COMMENT": "ICMT"][key]! : key
                    let found = tags.filter { $0.0 == names }.map(\.1)
                    #expect(found == [value], "\(format): \(names) is \(found.map(\.debugDescription)), not \(value.debugDescription)")
                }
            }
            check()
            for file in try FileManager.default.contentsOfDirectory(atPath: out) { try FileManager.default.removeItem(atPath: out + "/" + file) }
        }
        let changed = snapshotChanges(before, treeSnapshot(folder.path))
        #expect(changed.allSatisfy { $0 == "out" || $0.hasPrefix("out/") }, "files outside the output folder changed: \(changed)")
    }

    /// The WebVTT captions, chapters and picture of a render: no raw control characters, text escaped.
    private func checkSidecars(_ out: String, _ c: HostileText) throws {
        let vtt = String(decoding: try bytes(out + "/text.vtt"), as: UTF8.self)
        #expect(!vtt.unicodeScalars.contains { isControl($0) && $0 != "\n" }, "raw control characters in the captions: \(vtt.debugDescription)")
        let caption = plainLine(c.phaseLabel).replacingOccurrences(of: "-->", with: "\u{2192}").replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        #expect(vtt.contains("\n" + caption + "\n"), "the caption of phase 0 is not \(caption.debugDescription): \(vtt.debugDescription)")
        #expect(vtt.hasPrefix("WEBVTT - " + plainLine(c.title).replacingOccurrences(of: "-->", with: "\u{2192}") + "\n"))
        #expect(vtt.components(separatedBy: "-->").count - 1 == 2, "a label opened a cue timing: \(vtt.debugDescription)")

        let chaptersBytes = try bytes(out + "/text.chapters.json")
        #expect(chaptersBytes.allSatisfy { $0 >= 0x20 || $0 == 0x0A }, "raw control characters in the chapters")
        let chapters = try #require(try JSONSerialization.jsonObject(with: Data(chaptersBytes)) as? [String: Any])
        #expect(chapters["title"] as? String == c.title)
        #expect((chapters["chapters"] as? [[String: Any]])?.map { $0["title"] as? String } == [c.pattern])

        let svg = String(decoding: try bytes(out + "/text.svg"), as: UTF8.self)
        #expect(!svg.unicodeScalars.contains { isControl($0) && $0 != "\n" && $0 != "\t" }, "raw control characters in the picture")
        #expect(!svg.contains("<script"), "markup from the title reached the picture")
    }

    @Test("a catalog of hostile text: catalog.json gives the text back, index.html escapes it")
    func hostileTextCatalog() throws {
        let folder = try TempFolder("confine-page")
        for (index, c) in HostileText.all.enumerated() {
            let text = Self.recipe(id: "\"text-\(index)\"", title: c.titleYAML, category: c.categoryYAML, pattern: c.patternYAML, label: c.labelYAML)
            try folder.write(text, to: "recipes/text-\(index).yml")
        }
        let dist = folder.file("dist")
        let before = treeSnapshot(folder.path)
        let result = try runRender([folder.file("recipes"), "-o", dist, "--quiet"], in: folder.path)
        let changed = snapshotChanges(before, treeSnapshot(folder.path))
        #expect(changed.allSatisfy { $0 == "dist" || $0.hasPrefix("dist/") }, "files outside the bundle changed: \(changed)")
        #expect(result.status == 0 || result.status == 65, "\(result)")
        let manifestBytes = try bytes(dist + "/catalog.json")
        #expect(manifestBytes.allSatisfy { $0 >= 0x20 || $0 == 0x0A }, "raw control characters in catalog.json")
        let manifest = try CatalogManifest.read(dist + "/catalog.json")
        for (index, c) in HostileText.all.enumerated() {
            guard let entry = manifest.entry("text-\(index)") else {
                // rejected: only a recipe with control characters may be (or with a title or category the
                // manifest cannot hold, which must be), with an error at its file
                #expect(
                    (c.hasControls || c.breaksManifestLimits) && result.stderr.contains("text-\(index).yml:"),
                    "text-\(index) (\(c.label)) is missing: \(result)")
                continue
            }
            #expect(
                !c.breaksManifestLimits, "text-\(index) (\(c.label)): a title or category over the manifest's limits was rendered into the catalog")
            #expect(entry.title == c.title && entry.category == c.category, "text-\(index): the manifest changed the text")
        }
        let page = String(decoding: try bytes(dist + "/index.html"), as: UTF8.self)
        #expect(!page.unicodeScalars.contains { isControl($0) && $0 != "\n" && $0 != "\t" }, "raw control characters in index.html")
        #expect(!page.contains("<script>alert(1)"), "the title's markup reached the page")
        // text-4, markup without control characters, renders into the catalog; the page escapes it
        #expect(manifest.entry("text-4") != nil, "the recipe of markup without control characters is missing: \(result)")
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the title is not HTML-escaped on the page")
        #expect(page.contains("\\u003cb\\u003e--\\u003e\\u003c/b\\u003e"), "the label is not escaped in the page's cue data")
    }

    // MARK: - Symbolic links in the output folder

    @Test("a symbolic link where an output goes is replaced, never written through")
    func symlinkIsReplaced() throws {
        let folder = try TempFolder("confine-link")
        let recipe = try folder.write(Self.recipe(id: "\"linked\""), to: "recipes/linked.yml")
        let victim = Fixture.randomBytes(5000, seed: 17)
        try folder.write(victim, to: "outside/victim.flac")
        try folder.write(Array("{\"victim\": true}\n".utf8), to: "outside/victim.json")
        let out = try folder.folder("out")
        try FileManager.default.createSymbolicLink(atPath: out + "/linked.flac", withDestinationPath: "../outside/victim.flac")
        try FileManager.default.createSymbolicLink(atPath: out + "/linked.cues.json", withDestinationPath: folder.file("outside/victim.json"))
        // dangling: nothing may be created at its target
        try FileManager.default.createSymbolicLink(atPath: out + "/linked.vtt", withDestinationPath: "../outside/created.vtt")
        let outsideBefore = treeSnapshot(folder.file("outside"))

        let single = try runRender([recipe, "-o", out + "/linked.flac", "--sidecars", "vtt", "--quiet"], in: folder.path)
        #expect(single.status == 0 && !single.signaled, "\(single)")
        #expect(snapshotChanges(outsideBefore, treeSnapshot(folder.file("outside"))) == [], "a file outside the output folder changed")
        #expect(try bytes(folder.file("outside/victim.flac")) == victim)
        for name in ["linked.flac", "linked.cues.json", "linked.vtt"] {
            var info = stat()
            #expect(lstat(out + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "\(name) is not a regular file now")
        }
        #expect(try readCueSheet(out + "/linked.cues.json").audio.sha256 == (try sha256(ofFile: out + "/linked.flac")))

        // a catalog: a track's file and the manifest are links out of the bundle
        let dist = try folder.folder("dist")
        try FileManager.default.createSymbolicLink(atPath: dist + "/linked.flac", withDestinationPath: "../outside/victim.flac")
        try FileManager.default.createSymbolicLink(atPath: dist + "/catalog.json", withDestinationPath: "../outside/victim.json")
        try FileManager.default.createSymbolicLink(atPath: dist + "/index.html", withDestinationPath: "../outside/created.html")
        let catalog = try runRender([folder.file("recipes"), "-o", dist, "--quiet"], in: folder.path)
        #expect(catalog.status == 0 && !catalog.signaled, "\(catalog)")
        #expect(snapshotChanges(outsideBefore, treeSnapshot(folder.file("outside"))) == [], "a file outside the bundle changed")
        for name in ["linked.flac", "catalog.json", "index.html"] {
            var info = stat()
            #expect(lstat(dist + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "\(name) is not a regular file now")
        }
        #expect(try CatalogManifest.read(dist + "/catalog.json").tracks.map(\.id) == ["linked"])
    }
}

// MARK: - Reading tags back

/// The Vorbis comments of a FLAC file (its VORBIS_COMMENT metadata block).
private func flacComments(_ path: String) throws -> [(String, String)] {
    let b = try bytes(path)
    guard b.count > 4, Array(b[0..<4]) == Array("fLaC".utf8) else { throw TestFailure("\(path): not FLAC") }
    var i = 4
    while i + 4 <= b.count {
        let type = b[i] & 0x7F, last = b[i] & 0x80 != 0
        let length = Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
        guard i + 4 + length <= b.count else { break }
        if type == 4 { return try vorbisComments(Array(b[(i + 4)..<(i + 4 + length)]), path: path) }
        if last { break }
        i += 4 + length
    }
    throw TestFailure("\(path): no VORBIS_COMMENT block")
}

/// The comments of an Ogg Vorbis file: the second packet of the stream (`\u{3}vorbis` + a Vorbis comment).
private func oggComments(_ path: String) throws -> [(String, String)] {
    let b = try bytes(path)
    var packets: [[UInt8]] = [[]]
    var i = 0
    while i + 27 <= b.count && packets.count < 3 {
        guard Array(b[i..<(i + 4)]) == Array("OggS".utf8) else { throw TestFailure("\(path): bad Ogg page at \(i)") }
        let segments = Int(b[i + 26])
        var offset = i + 27 + segments
        for s in 0..<segments {
            let size = Int(b[i + 27 + s])
            packets[packets.count - 1] += b[offset..<(offset + size)]
            offset += size
            if size < 255 { packets.append([]) }
        }
        i = offset
    }
    guard packets.count >= 3, packets[1].count > 7, packets[1][0] == 3 else { throw TestFailure("\(path): no comment header") }
    return try vorbisComments(Array(packets[1][7...]), path: path)
}

/// A Vorbis comment structure: vendor, then `NAME=value` entries, little-endian lengths.
private func vorbisComments(_ body: [UInt8], path: String) throws -> [(String, String)] {
    var i = 0
    func u32() throws -> Int {
        guard i + 4 <= body.count else { throw TestFailure("\(path): truncated comments") }
        defer { i += 4 }
        return Int(body[i]) | Int(body[i + 1]) << 8 | Int(body[i + 2]) << 16 | Int(body[i + 3]) << 24
    }
    i += try u32()
    let count = try u32()
    var out: [(String, String)] = []
    for _ in 0..<count {
        let length = try u32()
        guard i + length <= body.count else { throw TestFailure("\(path): truncated comment") }
        let text = String(decoding: body[i..<(i + length)], as: UTF8.self)
        i += length
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        out.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
    }
    return out
}

/// A WAV file's INFO strings (`INAM`, `IPRD`, `ICMT`, … without their terminating NUL) and its `labl` marker labels.
private func wavText(_ path: String) throws -> (info: [(String, String)], labels: [String]) {
    let b = try bytes(path)
    guard b.count > 12, Array(b[0..<4]) == Array("RIFF".utf8) else { throw TestFailure("\(path): not RIFF") }
    func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
    func text(_ slice: ArraySlice<UInt8>) -> String {
        // one terminating NUL (and a pad byte) belong to the chunk; anything after a NUL inside is lost to readers
        var s = Array(slice)
        while s.last == 0 { s.removeLast() }
        return String(decoding: s, as: UTF8.self)
    }
    var info: [(String, String)] = []
    var labels: [String] = []
    var i = 12
    while i + 8 <= b.count {
        let id = String(decoding: b[i..<(i + 4)], as: UTF8.self), size = u32(i + 4)
        let start = i + 8, end = min(b.count, start + size)
        if id == "LIST", end - start >= 4 {
            let kind = String(decoding: b[start..<(start + 4)], as: UTF8.self)
            var j = start + 4
            while j + 8 <= end {
                let sub = String(decoding: b[j..<(j + 4)], as: UTF8.self), subSize = u32(j + 4)
                let body = b[(j + 8)..<min(end, j + 8 + subSize)]
                if kind == "INFO" { info.append((sub, text(body))) }
                if kind == "adtl" && sub == "labl" && body.count >= 4 { labels.append(text(body.dropFirst(4))) }
                j += 8 + subSize + (subSize & 1)
            }
        }
        i = start + size + (size & 1)
    }
    return (info, labels)
}
