import Foundation
import Testing

/// A link case through `render`: the tree under `r/` (and `outside/`), the command, and what it
/// must answer (`{r}` in `stderrHolds` stands for the recipe folder).
struct LinkCase: Sendable, CustomTestStringConvertible {
    let label: String
    /// Recipes written, by path under the test's folder, with their ids.
    let recipes: [(path: String, id: String)]
    /// Symbolic links made, by path, with their targets as written.
    let links: [(path: String, target: String)]
    /// `render r -o dist` (a catalog is written) rather than `render --check r`.
    var renders = false
    let status: Int32
    var stderrHolds: String?
    let stdoutHolds: [String]
    /// The ids of the catalog written (only when `renders`).
    var catalog: [String]?

    var testDescription: String { label }

    /// The recipe beside a bad link is still checked, and the one outside is not.
    static let oneChecked = "checked 1 recipe: 1 good"

    static let all: [LinkCase] = [
        LinkCase(
            label: "links/same.yml -> ../real/one.yml beside real/one.yml, and three.yml -> .drafts/three.yml",
            recipes: [("r/real/one.yml", "one"), ("r/.drafts/three.yml", "three")],
            links: [("r/links/same.yml", "../real/one.yml"), ("r/three.yml", ".drafts/three.yml")], renders: true, status: 0,
            stdoutHolds: ["rendered     2\n"], catalog: ["one", "three"]),
        LinkCase(
            label: "leak.yml -> ../outside/secret.yml", recipes: [("r/a.yml", "a")], links: [("r/leak.yml", "../outside/secret.yml")], status: 65,
            stderrHolds: "{r}/leak.yml: error: symbolic link leaves the recipe folder {r} (it points to ../outside/secret.yml, which resolves to ",
            stdoutHolds: [oneChecked]),
        LinkCase(
            label: "shared -> ../outside, a folder with a recipe in it", recipes: [("r/a.yml", "a")], links: [("r/shared", "../outside")],
            status: 65, stderrHolds: "{r}/shared: error: symbolic link leaves the recipe folder {r} (it points to ../outside, ",
            stdoutHolds: [oneChecked]),
        LinkCase(
            label: "gone.yml -> missing.yml", recipes: [("r/a.yml", "a")], links: [("r/gone.yml", "missing.yml")], status: 66,
            stderrHolds: "{r}/gone.yml: error: broken symbolic link (it points to missing.yml, which does not exist)", stdoutHolds: [oneChecked]),
        LinkCase(
            label: "sub/loop -> ..", recipes: [("r/a.yml", "a"), ("r/sub/b.yml", "b")], links: [("r/sub/loop", "..")], status: 0,
            stdoutHolds: ["checked 2 recipes: 2 good, 0 with errors"]),
    ]
}

/// What the scan does with unreadable folders, FIFOs, links and extensions, through `render` and `render --check`.
@Suite("Recipe folder scan, through render", .serialized)
struct ScanEndToEndTests {
    /// Wall time a run may take before it counts as hung (as in BadInputCommandLineTests: a guard, not a speed test).
    static let hangLimit = 30.0

    /// A 2 s mono recipe with this id.
    static func recipe(_ id: String) -> String { ConfinementTests.recipe(id: id) }

    // MARK: - An unreadable folder

    @Test("a folder the user cannot read: exit 66 naming it, and not one file of the bundle changed (render, --check, --shard 1/2)")
    func unreadableFolder() throws {
        let folder = try TempFolder("scan-locked")
        // the unprivileged user must reach the recipes and the render binary
        chmod(folder.path, 0o755)
        for (path, id) in [("a/alpha.yml", "alpha"), ("a/bravo.yml", "bravo"), ("b/charlie.yml", "charlie"), ("b/delta.yml", "delta")] {
            try folder.write(Self.recipe(id), to: "recipes/\(path)")
        }
        let recipes = folder.file("recipes")
        let locked = recipes + "/b"
        let runs: [(what: String, dist: String, extra: [String], check: Bool)] = [
            ("a catalog render", folder.file("dist"), [], false),
            ("render --check", folder.file("dist"), [], true),
            ("a --shard 1/2 render", folder.file("dist-shard"), ["--shard", "1/2"], false),
        ]
        for dist in Set(runs.map(\.dist)).sorted() {
            let extra = runs.first { $0.dist == dist }?.extra ?? []
            let made = try guarded(try renderPath(), [recipes, "-o", dist, "--quiet"] + extra)
            try #require(made.result.status == 0 && !made.hung, "\(made.result)")
            try handToNobody(dist)
        }
        let before = try Dictionary(uniqueKeysWithValues: Set(runs.map(\.dist)).map { dist in (dist, try contents(dist)) })
        try #require(before[folder.file("dist")]?.keys.contains("charlie.flac") == true, "the first render made no charlie.flac")

        chmod(locked, 0)
        defer { chmod(locked, 0o755) }
        for run in runs {
            let arguments = run.check ? ["--check", recipes] : [recipes, "-o", run.dist] + run.extra
            let command = try unprivileged(arguments)
            let (result, hung) = try guarded(command.executable, command.arguments)
            #expect(!hung, "\(run.what) hung")
            #expect(result.status == 66 && !result.signaled, "\(run.what): \(result)")
            #expect(
                result.stderr.contains("\(locked): error: cannot read the folder: Permission denied"),
                "\(run.what): the folder is not named: \(result.stderr)")
            #expect(try contents(run.dist) == before[run.dist], "\(run.what) changed the bundle")
        }

        // the readable recipes still render and are recorded; the unreadable folder's tracks stay
        try folder.write(Self.recipe("alpha").replacingOccurrences(of: "gain: -14 dB", with: "gain: -12 dB"), to: "recipes/a/alpha.yml")
        let dist = folder.file("dist")
        let command = try unprivileged([recipes, "-o", dist])
        let (result, hung) = try guarded(command.executable, command.arguments)
        #expect(!hung && result.status == 66, "\(result)")
        #expect(result.stdout.contains("rendered: \(recipes)/a/alpha.yml"), "\(result)")
        #expect(result.stderr.contains("no track is removed from \(dist)"), "\(result.stderr)")
        let after = try contents(dist)
        let old = try #require(before[dist])
        #expect(after["alpha.flac"] != nil && after["alpha.flac"] != old["alpha.flac"], "alpha was not rendered again")
        for name in old.keys where !name.hasPrefix("alpha.") && name != "catalog.json" && name != "index.html" {
            #expect(after[name] == old[name], "\(name) changed")
        }
        let manifest = try CatalogManifest.read(dist + "/catalog.json")
        #expect(manifest.tracks.map(\.id) == ["alpha", "bravo", "charlie", "delta"])
        #expect(try manifest.entry("alpha")?.sha256 == sha256(ofFile: dist + "/alpha.flac"))
    }

    // MARK: - A FIFO named like a recipe

    @Test("a FIFO named x.yml, held open by a writer: --check and a render end at once, exit 65, naming it; the other recipes render")
    func fifo() throws {
        let folder = try TempFolder("scan-fifo")
        try folder.write(Self.recipe("good"), to: "recipes/good.yml")
        let fifo = try folder.folder("recipes/sub") + "/x.yml"
        try #require(mkfifo(fifo, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        // a writer that never writes: whoever reads the FIFO waits forever
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        try #require(writer >= 0, "open: \(String(cString: strerror(errno)))")
        defer { close(writer) }
        let dist = folder.file("dist")
        for (what, arguments) in [("--check", ["--check", folder.file("recipes")]), ("a render", [folder.file("recipes"), "-o", dist])] {
            let started = Date()
            let (result, hung) = try guarded(try renderPath(), arguments)
            #expect(!hung, "\(what) hung on the FIFO")
            #expect(Date().timeIntervalSince(started) < Self.hangLimit)
            #expect(result.status == 65 && !result.signaled, "\(what): \(result)")
            #expect(result.stderr.contains("\(fifo): error: is a FIFO (named pipe), not a regular file"), "\(what): \(result.stderr)")
        }
        #expect(try filesUnder(dist).filter { $0.hasPrefix("good.") } == ["good.cues.json", "good.flac", "good.svg"])
        #expect(try CatalogManifest.read(dist + "/catalog.json").tracks.map(\.id) == ["good"])
    }

    // MARK: - Extensions

    @Test("A.YML and b.Yaml are recipes, found and rendered")
    func extensionsInAnyCase() throws {
        let folder = try TempFolder("scan-case")
        try folder.write(Self.recipe("upper"), to: "recipes/A.YML")
        try folder.write(Self.recipe("mixed"), to: "recipes/sub/b.Yaml")
        try folder.write(Self.recipe("lower"), to: "recipes/c.yml")
        let dist = folder.file("dist")
        let (result, hung) = try guarded(try renderPath(), [folder.file("recipes"), "-o", dist])
        #expect(!hung && result.status == 0, "\(result)")
        #expect(try CatalogManifest.read(dist + "/catalog.json").tracks.map(\.id) == ["lower", "mixed", "upper"])
        for id in ["lower", "mixed", "upper"] {
            #expect(FileManager.default.fileExists(atPath: dist + "/\(id).flac"), "no \(id).flac")
        }
    }

    // MARK: - Links

    @Test(
        "symbolic links: followed inside the folder (each recipe once), an error when they leave it or are broken, cycles end",
        arguments: LinkCase.all)
    func links(_ c: LinkCase) throws {
        let folder = try TempFolder("scan-link")
        let r = folder.file("r")
        try folder.write(Self.recipe("secret"), to: "outside/secret.yml")
        for recipe in c.recipes { try folder.write(Self.recipe(recipe.id), to: recipe.path) }
        for made in c.links { try link(folder.file(made.path), to: made.target) }
        let arguments = c.renders ? [r, "-o", folder.file("dist")] : ["--check", r]
        let (result, hung) = try guarded(try renderPath(), arguments)
        #expect(!hung, "render hung")
        #expect(result.status == c.status, "\(result)")
        if let text = c.stderrHolds?.replacingOccurrences(of: "{r}", with: r) {
            #expect(result.stderr.contains(text), "\(result.stderr)")
        }
        for text in c.stdoutHolds { #expect(result.stdout.contains(text), "\(result)") }
        if let ids = c.catalog {
            #expect(try CatalogManifest.read(folder.file("dist/catalog.json")).tracks.map(\.id) == ids)
        }
    }

    // MARK: - Helpers

    /// Runs `executable` and waits at most `hangLimit` seconds; one still running then is killed and reported hung.
    private func guarded(_ executable: String, _ arguments: [String]) throws -> (result: ProcessResult, hung: Bool) {
        let running = try Running(executable, arguments)
        let deadline = Date().addingTimeInterval(Self.hangLimit)
        while running.isRunning && Date() < deadline { usleep(20_000) }
        let hung = running.isRunning
        if hung { kill(running.pid, SIGKILL) }
        return (try running.wait(), hung)
    }

    /// `ln -s target path` (`TempFolder.file` has made the folder it goes in).
    private func link(_ path: String, to target: String) throws {
        guard symlink(target, path) == 0 else { throw TestFailure("symlink \(path): \(String(cString: strerror(errno)))") }
    }

    /// Every file of a folder and its bytes, by relative path.
    private func contents(_ root: String) throws -> [String: [UInt8]] {
        try Dictionary(uniqueKeysWithValues: filesUnder(root).map { ($0, try bytes(root + "/" + $0)) })
    }

    /// Gives a folder and everything in it to nobody (65534), who runs the renders; as another user, nothing to do.
    private func handToNobody(_ root: String) throws {
        guard geteuid() == 0 else { return }
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        for path in [root] + names.map({ root + "/" + $0 }) where lchown(path, 65534, 65534) != 0 {
            throw TestFailure("chown \(path): \(String(cString: strerror(errno)))")
        }
    }
}
