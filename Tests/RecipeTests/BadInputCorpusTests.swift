import AudioCore
import Foundation
import TestKit
import Testing

@testable import Recipe

// The bad-input corpus (TestKit's BadInputCorpus reads Tests/RecipeTests/BadInput and
// its expected.tsv): here every case is parsed in-process, timed and measured; RenderCommandTests/BadInputCommandLineTests.swift runs the same corpus
// through the `render` binary (exit statuses, `render --check`, links on disk).

extension BadInputCorpus {
    /// The categories of the corpus, each of which it must hold: the requirement's own (syntax,
    /// keys, units, ranges, paths, aliases, nesting, size, encoding, duplicates, limits) and the
    /// issue's further kinds of mistake.
    static let requiredCategories = [
        "syntax", "keys", "units", "ranges", "paths", "aliases", "nesting", "size", "encoding", "duplicates", "limits",
        "tags", "types", "documents", "patterns", "cues", "output", "ids",
    ]
}

/// The kernel's account of this process's memory (Linux `/proc/self/status`), for bounded-memory checks.
enum ProcessMemory {
    /// A `/proc/self/status` field in bytes (`VmRSS`, `VmHWM`), or nil where there is none.
    static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Resets the peak (`VmHWM`) to the current resident size; false where the kernel does not allow it.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// How far the resident size rose above its level at the start while `body` ran, in bytes
    /// (nil without `/proc`). With the peak reset this is the rise during `body` alone;
    /// without it, only a rise past the process's earlier peak counts.
    static func peakGrowth(during body: () -> Void) -> Int? {
        let reset = resetPeak()
        guard let before = status(reset ? "VmRSS" : "VmHWM") else {
            body()
            return nil
        }
        body()
        return status("VmHWM").map { max(0, $0 - before) }
    }
}

@Suite("Bad-input corpus", .serialized)
struct BadInputCorpusTests {
    /// Each case must answer within this, in-process (the requirement's "under a second").
    static let timeLimit = Duration.seconds(1)
    /// …and raise the resident size by less than this. An expanded alias bomb or a
    /// recipe read past its size limit would take far more; the margin covers the
    /// other suites of this target running beside this one.
    static let memoryLimit = 64 << 20

    @Test("reported where expected, fast, in bounded memory", arguments: BadInputCorpus.cases)
    func reported(_ corpusCase: BadInputCorpus.Case) throws {
        let bytes = try BadInputCorpus.bytes(of: corpusCase.file)
        let file = "BadInput/" + corpusCase.name + ".yml"
        var found: [Diagnostic] = []
        let parse = { found = Self.problems(bytes, file: file, defaultID: corpusCase.name) }

        // Timed and measured twice at most: a pause of a busy machine, or another suite's
        // allocation, can spoil one measurement, but not a real cost, which comes back.
        var elapsed = Duration.zero
        var growth: Int?
        for _ in 0..<2 {
            growth = nil
            elapsed = ContinuousClock().measure { growth = ProcessMemory.peakGrowth(during: parse) }
            if elapsed < Self.timeLimit, (growth ?? 0) < Self.memoryLimit { break }
        }
        #expect(elapsed < Self.timeLimit, "took \(elapsed)")
        #expect((growth ?? 0) < Self.memoryLimit, "resident size grew by \((growth ?? 0) >> 20) MiB")

        switch corpusCase.stage {
        case .timeline, .render:
            // Only the timeline (a phase shorter than a frame) or the disk (a link pointing out, a
            // missing file) can tell: the text is a good recipe. RenderCommandTests checks the error.
            #expect(found.isEmpty, "expected to load, got:\n\(DiagnosticList(found))")
        case .recipe:
            #expect(!found.isEmpty, "accepted")
            let match = found.first { diagnostic in
                diagnostic.location?.line == corpusCase.line && (corpusCase.column.map { diagnostic.location?.column == $0 } ?? true)
                    && corpusCase.words.allSatisfy { diagnostic.message.contains($0) }
            }
            let place = "\(corpusCase.line)" + (corpusCase.column.map { ":\($0)" } ?? "")
            #expect(match != nil, "expected \(place) with \(corpusCase.words), got:\n\(DiagnosticList(found))")
            // a data error, whose exit status (the row's) RenderCommandTests' ExitStatusTests checks
            #expect(found.allSatisfy { $0.location?.file == file && $0.kind == .data })
            #expect(found.count <= RecipeLimits.maxDiagnostics + 1)
        }
    }

    /// Every file has a row and every row a file; the requirement's categories are all there.
    @Test func corpusIsComplete() throws {
        let cases = try BadInputCorpus.expectations()
        let files = try BadInputCorpus.files()
        let listed = cases.map(\.file)
        #expect(Set(listed).count == listed.count, "a file listed twice in expected.tsv")
        #expect(Set(files).subtracting(listed).sorted() == [], "files without a row in expected.tsv")
        #expect(Set(listed).subtracting(files).sorted() == [], "rows of expected.tsv without a file")
        for file in files {
            let isNamed = file.range(of: "^[a-z0-9]+(-[a-z0-9]+)*\\.(yml|gen)$", options: .regularExpression) != nil
            #expect(isNamed, "\(file): name cases in lowercase words joined by '-', ending .yml (or .gen when generated)")
        }
        let categories = Set(cases.map(\.category))
        #expect(categories.subtracting(BadInputCorpus.requiredCategories).sorted() == [], "categories not in BadInputCorpus.requiredCategories")
        for category in BadInputCorpus.requiredCategories {
            #expect(categories.contains(category), "no case of category '\(category)'")
        }
        #expect((50...300).contains(cases.count), "\(cases.count) cases")

        // The requirement's own examples, each present.
        let loaded = try cases.map { ($0, try BadInputCorpus.bytes(of: $0.file)) }
        func has(_ what: String, _ test: (BadInputCorpus.Case, [UInt8]) -> Bool) {
            #expect(loaded.contains { test($0.0, $0.1) }, "the corpus has no case of \(what)")
        }
        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
        func words(_ c: BadInputCorpus.Case) -> String { c.words.joined(separator: " ") }
        has("a misspelt key with a suggestion") { c, _ in c.category == "keys" && words(c).contains("did you mean") }
        has("a path with '..'") { c, _ in c.category == "paths" && words(c).contains("('..')") }
        has("an absolute path") { c, _ in c.category == "paths" && words(c).contains("(it is absolute)") }
        has("a link out of the assets folder") { c, _ in c.category == "paths" && c.stage == .render && words(c).contains("resolves to") }
        has("a billion-laughs alias bomb") { c, b in c.category == "aliases" && text(b).components(separatedBy: "*").count > 100 }
        has("10,000-deep nesting") { c, b in c.category == "nesting" && b.filter { $0 == UInt8(ascii: "[") }.count >= 10_000 }
        has("5 MB of garbage") { c, b in c.category == "size" && b.count >= 5_000_000 }
        has("bytes that are not UTF-8") { c, b in c.category == "encoding" && String(validating: b, as: UTF8.self) == nil }
        has("a duplicate key") { c, _ in c.category == "duplicates" && words(c).contains("duplicate key") }
        has("tabs for indentation") { c, b in c.category == "syntax" && b.contains(0x09) }
        has("an empty file") { _, b in b.isEmpty }
        has("a '<<' merge key") { _, b in text(b).contains("<<:") }
        has("a !!python/object tag") { _, b in text(b).contains("!!python/object") }
        has("the phases-per-track ceiling") { c, _ in c.category == "limits" && words(c).contains("\(RecipeLimits.maxPhasesPerTrack)") }
    }

    /// `RecipeLoader.read` stops one byte past the size limit: a file of garbage far over
    /// it, or an endless device, costs no more than a 1 MiB recipe.
    @Test func readingAFileIsBounded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-corpus-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let garbage = folder + "/garbage.yml"
        try Data(try BadInputCorpus.bytes(of: "garbage-5mb.gen")).write(to: URL(fileURLWithPath: garbage))
        for (path, size) in [(garbage, "5242880 bytes"), ("/dev/zero", "more than 1048576 bytes")] {
            var failure: DiagnosticList?
            var growth: Int?
            let elapsed = ContinuousClock().measure {
                growth = ProcessMemory.peakGrowth {
                    do throws(DiagnosticList) { _ = try RecipeLoader.load(path: path) } catch { failure = error }
                }
            }
            #expect(failure?.description == "\(path):1:1: error: the recipe is \(size); expected at most 1 MiB (1048576 bytes)")
            #expect(failure?.kind == .data)
            #expect(elapsed < Self.timeLimit)
            #expect((growth ?? 0) < Self.memoryLimit)
        }

        let good = folder + "/calm-5m.yml"
        try Data("pattern: box\nduration: 5m\n".utf8).write(to: URL(fileURLWithPath: good))
        #expect(try RecipeLoader.load(path: good).id == "calm-5m")

        // a FIFO nobody writes to reads as empty, at once: it must not hang a catalog check
        let fifo = folder + "/fifo.yml"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: DiagnosticList.self) { try RecipeLoader.load(path: fifo) }
        do {
            _ = try RecipeLoader.load(path: fifo)
        } catch {
            #expect(error.diagnostics.map(\.message) == ["the recipe is empty: expected a mapping of recipe keys (pattern, duration, …)"])
        }

        for (path, message) in [(folder + "/absent.yml", "no such recipe file"), (folder, "is a folder, not a recipe file")] {
            #expect(throws: DiagnosticList.self) { try RecipeLoader.load(path: path) }
            do {
                _ = try RecipeLoader.load(path: path)
            } catch {
                #expect(error.description == "\(path): error: \(message)")
                #expect(error.kind == .noInput)
            }
        }
    }

    /// The diagnostics of a recipe, empty when it loads.
    static func problems(_ bytes: [UInt8], file: String, defaultID: String) -> [Diagnostic] {
        do {
            _ = try RecipeLoader.parse(bytes, file: file, defaultID: defaultID)
            return []
        } catch {
            return error.diagnostics
        }
    }
}
