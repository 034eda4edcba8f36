import AudioCore
import Catalog
import Foundation
import Testing

/// One thing in a scan's temporary tree, by path relative to the tree's root.
enum TreeNode: Sendable {
    case file(String)
    case folder(String)
    /// A symbolic link at the path, saying `to` (as `ln -s TO PATH` would).
    case link(String, to: String)
    case fifo(String)

    func make(in root: String) throws {
        let path = root + "/" + name
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let made: Bool
        switch self {
        case .file: made = FileManager.default.createFile(atPath: path, contents: Data("id: x\n".utf8))
        case .folder: made = mkdir(path, 0o755) == 0
        case .link(_, let target): made = symlink(target, path) == 0
        case .fifo: made = mkfifo(path, 0o644) == 0
        }
        guard made else { throw TestFailure("cannot make \(self) at \(path): \(String(cString: strerror(errno)))") }
    }

    var name: String {
        switch self {
        case .file(let name), .folder(let name), .link(let name, _), .fifo(let name): name
        }
    }
}

/// A scan problem expected: its path (relative to the tree), words of its message, its kind.
struct ExpectedProblem: Sendable, CustomStringConvertible {
    let path: String
    let words: [String]
    let kind: FailureKind

    var description: String { "\(path): \(words) (\(kind))" }
}

/// A tree, the inputs given, and what the scan must answer.
struct ScanCase: Sendable, CustomTestStringConvertible {
    let label: String
    let tree: [TreeNode]
    /// Inputs relative to the tree's root (default: the folder `r`).
    var inputs = ["r"]
    /// The recipe files found, relative to the tree's root, in order.
    let files: [String]
    var problems: [ExpectedProblem] = []

    var testDescription: String { label }

    /// A recipe file in the tree (its content does not matter to the scan).
    static func recipe(_ name: String) -> TreeNode { .file(name) }

    static let all: [ScanCase] = [
        ScanCase(
            label: "extensions in any case; other names are not recipes",
            tree: ["r/a.yml", "r/B.YML", "r/c.Yaml", "r/d.yaml", "r/e.YAML.bak", "r/f.txt", "r/g.ymlx", "r/yml", "r/README.md"].map(recipe),
            files: ["r/B.YML", "r/a.yml", "r/c.Yaml", "r/d.yaml"]),
        ScanCase(
            label: "hidden files and folders are skipped",
            tree: ["r/.hidden.yml", "r/.drafts/x.yml", "r/sub/.y.yml", "r/sub/z.yml", "r/.yml"].map(recipe),
            files: ["r/sub/z.yml"]),
        ScanCase(
            label: "folders are searched recursively, the files sorted by path",
            tree: ["r/b/2.yml", "r/a/1.yml", "r/a/c/3.yml", "r/0.yml"].map(recipe),
            files: ["r/0.yml", "r/a/1.yml", "r/a/c/3.yml", "r/b/2.yml"]),
        ScanCase(
            label: "a link to a recipe inside the folder, also found by its own name, is one recipe under that name",
            tree: [recipe("r/real/one.yml"), .link("r/links/same.yml", to: "../real/one.yml"), .link("r/alias.yml", to: "real/one.yml")],
            files: ["r/real/one.yml"]),
        ScanCase(
            label: "a link is the only way to a recipe inside the folder: found under the link's name",
            tree: [recipe("r/.drafts/t.yml"), .link("r/t.yml", to: ".drafts/t.yml"), recipe("r/notes.txt"), .link("r/n.yml", to: "notes.txt")],
            files: ["r/n.yml", "r/t.yml"]),
        ScanCase(
            label: "a link to a folder inside the folder is followed, and its files keep their own names",
            tree: [recipe("r/real/one.yml"), recipe("r/real/deep/two.yml"), .link("r/alias", to: "real"), .link("r/zz", to: "real/deep")],
            files: ["r/real/deep/two.yml", "r/real/one.yml"]),
        ScanCase(
            label: "a link to a hidden folder inside the folder is followed (the link's name decides)",
            tree: [recipe("r/.hidden/x.yml"), .link("r/shown", to: ".hidden")],
            files: ["r/shown/x.yml"]),
        ScanCase(
            label: "a link cycle ends: each folder is listed once",
            tree: [
                recipe("r/a.yml"), recipe("r/sub/b.yml"), .link("r/sub/loop", to: ".."), .link("r/sub/here", to: "."),
                .link("r/sub/again", to: "../sub"),
            ],
            files: ["r/a.yml", "r/sub/b.yml"]),
        ScanCase(
            label: "a link to a recipe outside the folder is an error naming the link and its target",
            tree: [recipe("r/a.yml"), recipe("outside/o.yml"), .link("r/out.yml", to: "../outside/o.yml")],
            files: ["r/a.yml"],
            problems: [
                ExpectedProblem(
                    path: "r/out.yml", words: ["symbolic link leaves the recipe folder", "it points to ../outside/o.yml", "/outside/o.yml)"],
                    kind: .data)
            ]),
        ScanCase(
            label: "a link to a folder outside is an error, whatever its name",
            tree: [recipe("r/a.yml"), recipe("outside/o.yml"), .link("r/ext", to: "../outside"), .link("r/up", to: "..")],
            files: ["r/a.yml"],
            problems: [
                ExpectedProblem(path: "r/ext", words: ["symbolic link leaves the recipe folder", "it points to ../outside"], kind: .data),
                ExpectedProblem(path: "r/up", words: ["symbolic link leaves the recipe folder", "it points to .."], kind: .data),
            ]),
        ScanCase(
            label: "a link to a file outside that is not named as a recipe is not a recipe: ignored",
            tree: [recipe("r/a.yml"), recipe("outside/o.yml"), .link("r/notes.txt", to: "../outside/o.yml")],
            files: ["r/a.yml"]),
        ScanCase(
            label: "a broken link is an error, whatever its name; a link loop too",
            tree: [recipe("r/a.yml"), .link("r/gone.yml", to: "nothing.yml"), .link("r/gone", to: "nowhere"), .link("r/me.yml", to: "me.yml")],
            files: ["r/a.yml"],
            problems: [
                ExpectedProblem(path: "r/gone", words: ["broken symbolic link (it points to nowhere, which does not exist)"], kind: .noInput),
                ExpectedProblem(path: "r/gone.yml", words: ["broken symbolic link (it points to nothing.yml, which does not exist)"], kind: .noInput),
                ExpectedProblem(
                    path: "r/me.yml", words: ["cannot follow the symbolic link (it points to me.yml)", "Too many levels"], kind: .noInput),
            ]),
        ScanCase(
            label: "a FIFO with a recipe's name is an error; one with another name is not a recipe",
            tree: [recipe("r/a.yml"), .fifo("r/x.yml"), .fifo("r/sub/Y.YAML"), .fifo("r/pipe"), .fifo("r/.hidden.yml")],
            files: ["r/a.yml"],
            problems: [
                ExpectedProblem(path: "r/sub/Y.YAML", words: ["is a FIFO (named pipe), not a regular file"], kind: .data),
                ExpectedProblem(path: "r/x.yml", words: ["is a FIFO (named pipe), not a regular file"], kind: .data),
            ]),
        ScanCase(
            label: "a link inside to a FIFO is an error",
            tree: [.fifo("r/.f"), .link("r/p.yml", to: ".f")],
            files: [],
            problems: [ExpectedProblem(path: "r/p.yml", words: ["is a symbolic link to a FIFO (named pipe)", "not to a regular file"], kind: .data)]),
        ScanCase(
            label: "a folder given through a link: its files under the link's name, links inside judged against its target",
            tree: [recipe("r/a.yml"), .link("alias", to: "r"), .link("r/b.yml", to: "a.yml")],
            inputs: ["alias"],
            files: ["alias/a.yml"]),
        ScanCase(
            label: "a file named twice, or through a folder and by name, is one recipe",
            tree: [recipe("r/a.yml"), recipe("r/sub/b.yml"), recipe("loose.txt")],
            inputs: ["r/sub", "r", "r/a.yml", "r/sub/../a.yml", "loose.txt", "./loose.txt"],
            files: ["r/sub/b.yml", "r/a.yml", "loose.txt"]),
        ScanCase(
            label: "a missing input is an error, the other inputs are scanned",
            tree: [recipe("r/a.yml")],
            inputs: ["nothere", "r", "nothere.yml"],
            files: ["r/a.yml"],
            problems: [
                ExpectedProblem(path: "nothere", words: ["no such recipe file or folder"], kind: .noInput),
                ExpectedProblem(path: "nothere.yml", words: ["no such recipe file or folder"], kind: .noInput),
            ]),
        ScanCase(label: "a trailing slash changes no name", tree: [recipe("r/a.yml")], inputs: ["r//"], files: ["r/a.yml"]),
    ]
}

/// `CatalogScan.recipes(in:)` in-process, on temporary trees: which files are recipes, and every problem.
@Suite("Recipe folder scan, in-process")
struct CatalogScanTests {
    @Test("the scan finds these files and reports these problems", arguments: ScanCase.all)
    func scan(_ c: ScanCase) throws {
        let folder = try TempFolder("scan")
        for node in c.tree { try node.make(in: folder.path) }
        let result = CatalogScan.recipes(in: c.inputs.map { folder.path + "/" + $0 })
        let prefix = folder.path + "/"
        func relative(_ path: String?) -> String { path.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 } ?? "" }

        #expect(result.files.map(relative) == c.files)
        let got = result.problems.sorted { ($0.file ?? "") < ($1.file ?? "") }
        #expect(got.map { relative($0.file) } == c.problems.map(\.path), "problems: \(got)")
        for (problem, expected) in zip(got, c.problems) {
            #expect(problem.kind == expected.kind, "\(problem)")
            #expect(problem.location == nil, "\(problem)")
            for word in expected.words {
                #expect(problem.message.contains(word), "'\(problem.message)' lacks '\(word)'")
            }
        }
    }

    @Test("a device with a recipe's name is an error, as a FIFO is", .enabled(if: geteuid() == 0, "mknod of a device needs root"))
    func device() throws {
        let folder = try TempFolder("scan-dev")
        let path = try folder.folder("r") + "/null.yml"
        // the same device as /dev/null
        var null = stat()
        try #require(stat("/dev/null", &null) == 0)
        try #require(mknod(path, S_IFCHR | 0o644, null.st_rdev) == 0, "mknod: \(String(cString: strerror(errno)))")
        let result = CatalogScan.recipes(in: [folder.file("r")])
        #expect(result.files.isEmpty)
        #expect(result.problems.map(\.description) == ["\(path): error: is a character device, not a regular file"])
        #expect(result.problems.map(\.kind) == [.data])
    }

    @Test(
        "a folder that cannot be listed is an error naming it (66), and the rest is scanned",
        .enabled(if: geteuid() != 0, "root reads every folder; ScanEndToEndTests runs this case as nobody"))
    func unreadableFolder() throws {
        let folder = try TempFolder("scan-locked")
        try folder.write("id: a\n", to: "r/a/one.yml")
        try folder.write("id: b\n", to: "r/b/two.yml")
        let locked = folder.file("r/b")
        chmod(locked, 0)
        defer { chmod(locked, 0o755) }
        let result = CatalogScan.recipes(in: [folder.file("r")])
        #expect(result.files == [folder.file("r/a/one.yml")])
        #expect(result.problems.map(\.description) == ["\(locked): error: cannot read the folder: Permission denied"])
        #expect(result.problems.map(\.kind) == [.noInput])
    }
}
