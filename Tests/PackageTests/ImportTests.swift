import Foundation
import TestKit
import Testing

// Every module a Swift file imports must be a toolchain module, its own target or a
// dependency its target declares in Package.swift. SwiftPM builds a file that imports an
// undeclared target as long as some declared dependency brings it in (and its
// `--explicit-target-dependency-import-check` misses these cases), so the layering in
// Package.swift would say less than the code does; this test reads the imports itself.

/// Modules of the toolchain and the system, which no target declares.
let toolchainModules: Set<String> = [
    "Swift", "_Concurrency", "_StringProcessing", "_Differentiation", "SwiftShims", "RegexBuilder", "Observation",
    "Synchronization", "Distributed", "Cxx", "CxxStdlib",
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    "CoreFoundation", "Dispatch",
    "Glibc", "Musl", "Bionic", "Android", "WASILibc", "Darwin", "ObjectiveC", "os", "ucrt", "WinSDK", "CRT",
    "Testing", "XCTest", "PackageDescription",
]

/// One `import` of a Swift file: the module (the first component of `import struct A.B`) and its line.
struct ImportLine: Equatable, CustomStringConvertible {
    var module: String
    var line: Int
    var description: String { "\(line): \(module)" }
}

/// Reads the imports of Swift source text.
enum SwiftImports {
    /// The words that may come before `import`: access levels (attributes start with `@`).
    static let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
    /// The declaration kinds of `import struct Module.Name` and its kin.
    static let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func", "actor", "macro"]

    /// Every import of `text`, in order. Comments and string literals are skipped, so a
    /// Python `import json` inside a `"""` string is not one.
    static func scan(_ text: String) -> [ImportLine] {
        var found: [ImportLine] = []
        let code = String(decoding: codeOnly(Array(text.utf8)), as: UTF8.self)
        for (index, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for statement in line.split(separator: ";") {
                if let module = importedModule(statement) { found.append(ImportLine(module: module, line: index + 1)) }
            }
        }
        return found
    }

    /// The module one statement imports, or nil when it is not an import.
    static func importedModule(_ statement: Substring) -> String? {
        var words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })[...]
        while let first = words.first, first.hasPrefix("@") || modifiers.contains(String(first)) { words = words.dropFirst() }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        if let kind = words.first, kinds.contains(String(kind)) { words = words.dropFirst() }
        guard let path = words.first, let module = path.split(separator: ".").first, !module.isEmpty else { return nil }
        return String(module)
    }

    /// `bytes` with every comment and string literal (interpolations included) turned into
    /// spaces; line breaks are kept, so line numbers stay.
    static func codeOnly(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var i = 0
        while i < bytes.count { i = skipToken(bytes, at: i, blanking: &out) }
        return out
    }

    private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), quote = UInt8(ascii: "\"")
    private static let hash = UInt8(ascii: "#"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
    private static let open = UInt8(ascii: "("), close = UInt8(ascii: ")")

    /// Steps over the code at `i`: a comment or string literal (blanked in `out`), or one byte.
    private static func skipToken(_ b: [UInt8], at i: Int, blanking out: inout [UInt8]) -> Int {
        let n = b.count
        if b[i] == slash, i + 1 < n, b[i + 1] == slash {
            var j = i
            while j < n, b[j] != newline { j += 1 }
            blank(&out, i, j)
            return j
        }
        if b[i] == slash, i + 1 < n, b[i + 1] == star {
            var j = i + 2, depth = 1
            while j < n, depth > 0 {
                if b[j] == slash, j + 1 < n, b[j + 1] == star {
                    depth += 1
                    j += 2
                } else if b[j] == star, j + 1 < n, b[j + 1] == slash {
                    depth -= 1
                    j += 2
                } else {
                    j += 1
                }
            }
            blank(&out, i, j)
            return j
        }
        if b[i] == quote || b[i] == hash {
            var j = i, hashes = 0
            while j < n, b[j] == hash {
                hashes += 1
                j += 1
            }
            guard j < n, b[j] == quote else { return max(j, i + 1) }  // `#if`, `#filePath`
            let end = skipString(b, quoteAt: j, hashes: hashes, blanking: &out)
            blank(&out, i, end)
            return end
        }
        return i + 1
    }

    /// The index after the string literal whose first quote is at `q`, opened with `hashes` `#`s.
    private static func skipString(_ b: [UInt8], quoteAt q: Int, hashes: Int, blanking out: inout [UInt8]) -> Int {
        let n = b.count
        let multiline = q + 2 < n && b[q + 1] == quote && b[q + 2] == quote
        let quotes = multiline ? 3 : 1
        /// Whether `count` bytes equal to `byte` start at `k`.
        func run(_ byte: UInt8, _ k: Int, _ count: Int) -> Bool { k + count <= n && b[k..<k + count].allSatisfy { $0 == byte } }
        var k = q + quotes
        while k < n {
            if b[k] == backslash, run(hash, k + 1, hashes) {
                let escaped = k + 1 + hashes
                if escaped < n, b[escaped] == open {
                    k = skipInterpolation(b, from: escaped + 1, blanking: &out)
                } else {
                    k = escaped + 1
                }
            } else if b[k] == quote, run(quote, k, quotes), run(hash, k + quotes, hashes) {
                return k + quotes + hashes
            } else if b[k] == newline, !multiline {
                return k  // an unterminated string ends with its line
            } else {
                k += 1
            }
        }
        return n
    }

    /// The index after the `)` that closes an interpolation whose body starts at `start`.
    private static func skipInterpolation(_ b: [UInt8], from start: Int, blanking out: inout [UInt8]) -> Int {
        var k = start, depth = 1
        while k < b.count {
            if b[k] == open {
                depth += 1
            } else if b[k] == close {
                depth -= 1
                if depth == 0 { return k + 1 }
            }
            k = b[k] == open || b[k] == close ? k + 1 : skipToken(b, at: k, blanking: &out)
        }
        return k
    }

    private static func blank(_ out: inout [UInt8], _ from: Int, _ to: Int) {
        for k in from..<min(to, out.count) where out[k] != newline { out[k] = UInt8(ascii: " ") }
    }
}

/// The targets of Package.swift as `swift package dump-package` describes them.
struct PackageGraph: Sendable {
    struct Target: Sendable {
        var name: String
        /// Its folder relative to the package root: its `path:`, else `Sources/<name>` or `Tests/<name>`.
        var folder: String
        /// Folders and files under `folder` that it leaves out (`exclude:`).
        var excluded: [String]
        /// The names its `dependencies:` list (targets, or products of other packages).
        var dependencies: [String]
        /// The name `import` uses: the target's name with what is not an identifier as `_`.
        var module: String { PackageGraph.moduleName(name) }
    }

    var targets: [Target]

    static func moduleName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    }

    /// The graph of the package at `root`, from `swift package dump-package`.
    static func load(root: String) throws -> PackageGraph {
        guard let swift = which("swift") else { throw TestFailure("no swift on PATH: the import check runs `swift package dump-package`") }
        // its own scratch folder, so it never waits for the lock of the .build this test runs from
        let scratch = try TempFolder("dump-package")
        let result = try run(
            swift, ["package", "--package-path", root, "--scratch-path", scratch.path, "dump-package"], timeLimit: 300)
        guard result.status == 0, !result.signaled else { throw TestFailure("swift package dump-package: \(result)") }
        return try parse(dump: Data(result.stdout.utf8))
    }

    /// Reads dump-package's JSON: `targets[]` with `name`, `path`, `type`, `exclude` and
    /// `dependencies[]` of `byName`, `target` or `product` (each an array whose first element is the name).
    static func parse(dump: Data) throws -> PackageGraph {
        guard let top = try JSONSerialization.jsonObject(with: dump) as? [String: Any], let list = top["targets"] as? [[String: Any]]
        else { throw TestFailure("dump-package: expected an object with a targets array") }
        let targets = try list.map { t -> Target in
            guard let name = t["name"] as? String, let type = t["type"] as? String else {
                throw TestFailure("dump-package: a target without a name or type: \(t)")
            }
            let dependencies = (t["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ["byName", "target", "product"].lazy.compactMap { (dependency[$0] as? [Any])?.first as? String }.first
            }
            let folder = (t["path"] as? String) ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            return Target(
                name: name, folder: trimmed(folder), excluded: (t["exclude"] as? [String] ?? []).map(trimmed),
                dependencies: dependencies)
        }
        return PackageGraph(targets: targets)
    }

    /// A relative folder without `./` in front or `/` behind.
    private static func trimmed(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        while p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }

    /// The target that compiles `file` (relative to the root): the deepest folder holding
    /// it, unless the file is in what that target excludes. nil for a file of no target.
    func target(of file: String) -> Target? {
        func holds(_ folder: String, _ path: String) -> Bool { path == folder || path.hasPrefix(folder + "/") }
        let owner = targets.filter { holds($0.folder, file) }.max { $0.folder.count < $1.folder.count }
        guard let owner, !owner.excluded.contains(where: { holds(owner.folder + "/" + $0, file) }) else { return nil }
        return owner
    }

    /// The modules `target`'s files may import besides the toolchain's: its own and its dependencies'.
    func allowedModules(of target: Target) -> Set<String> {
        Set([target.module] + target.dependencies.map { name in targets.first { $0.name == name }?.module ?? Self.moduleName(name) })
    }
}

/// What the import check found.
struct ImportReport {
    /// `file:line: imports X, which target T does not declare`.
    var undeclared: [String] = []
    /// Swift files that belong to no target (so their imports are not checked).
    var orphans: [String] = []

    /// Checks every `.swift` file under `folders` of `root`.
    static func check(root: String, folders: [String], graph: PackageGraph) throws -> ImportReport {
        var report = ImportReport()
        for file in try swiftFiles(root: root, folders: folders) {
            guard let target = graph.target(of: file) else {
                report.orphans.append(file)
                continue
            }
            let allowed = graph.allowedModules(of: target)
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: root + "/" + file)), as: UTF8.self)
            for found in SwiftImports.scan(text) where !toolchainModules.contains(found.module) && !allowed.contains(found.module) {
                report.undeclared.append("\(file):\(found.line): imports \(found.module), which target \(target.name) does not declare")
            }
        }
        return report
    }

    /// The `.swift` files under `folders` of `root`, relative to `root`, sorted; hidden entries are skipped.
    static func swiftFiles(root: String, folders: [String]) throws -> [String] {
        var files: [String] = []
        for folder in folders {
            guard let walk = FileManager.default.enumerator(atPath: root + "/" + folder) else {
                throw TestFailure("cannot list \(root)/\(folder)")
            }
            while let entry = walk.nextObject() as? String {
                if entry.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                if entry.hasSuffix(".swift") { files.append(folder + "/" + entry) }
            }
        }
        return files.sorted()
    }
}

@Suite struct ImportTests {
    /// The package's graph, read once for the suite.
    static let graph = Result { try PackageGraph.load(root: repositoryRoot) }

    @Test func everyImportIsDeclaredInPackageSwift() throws {
        let graph = try Self.graph.get()
        #expect(graph.targets.contains { $0.name == "AudioCore" } && graph.target(of: "Fuzz/Recipe/FuzzRecipe.swift")?.name == "fuzz-recipe")
        let report = try ImportReport.check(root: repositoryRoot, folders: ["Sources", "Fuzz", "Tests"], graph: graph)
        let undeclared = report.undeclared.joined(separator: "\n")
        #expect(
            report.undeclared.isEmpty,
            "\(report.undeclared.count) imports of modules the file's target does not declare in Package.swift:\n\(undeclared)")
        let orphans = report.orphans.joined(separator: "\n")
        #expect(report.orphans.isEmpty, "Swift files of no target (not compiled, or a target's folder is missing):\n\(orphans)")
    }

    @Test func scannerReadsEveryFormOfImport() {
        let text = #"""
            import Foundation
            @testable import Recipe
            @_implementationOnly import CYAML
            @preconcurrency public import Dispatch
            import struct AudioCore.Block
            import func Timeline.layout; import DSP
            #if canImport(Glibc)
                import Glibc
            #endif
            // import NotInAComment
            /* import NotInABlock /* nested */ import StillNot */
            let script = """
                import json, sys
                \("import NotInAnInterpolation")
                """
            let raw = #"a " import NotInARawString"#
            let important = "x" ; let imports = 1
            func importer() {}
            import Last
            """#
        #expect(
            SwiftImports.scan(text).map(\.description) == [
                "1: Foundation", "2: Recipe", "3: CYAML", "4: Dispatch", "5: AudioCore", "6: Timeline", "6: DSP", "8: Glibc", "19: Last",
            ])
    }

    @Test func filesMapToTheirTargets() throws {
        let dump = #"""
            {"targets": [
              {"name": "Core", "path": null, "type": "regular", "exclude": [], "dependencies": []},
              {"name": "fuzz-core", "path": "Fuzz/Core", "type": "executable", "dependencies": [{"byName": ["Core", null]}]},
              {"name": "CoreTests", "path": null, "type": "test", "exclude": ["Data"],
               "dependencies": [{"target": ["Core", null]}, {"product": ["Kit", "kit", null, null]}]}
            ]}
            """#
        let graph = try PackageGraph.parse(dump: Data(dump.utf8))
        #expect(graph.target(of: "Sources/Core/A.swift")?.name == "Core")
        #expect(graph.target(of: "Sources/CoreX/A.swift") == nil)
        #expect(graph.target(of: "Fuzz/Core/main.swift")?.name == "fuzz-core")
        #expect(graph.target(of: "Tests/CoreTests/Sub/T.swift")?.name == "CoreTests")
        #expect(graph.target(of: "Tests/CoreTests/Data/skip.swift") == nil)
        #expect(graph.target(of: "Fuzz/Core/main.swift").map(graph.allowedModules) == ["fuzz_core", "Core"])
        #expect(graph.target(of: "Tests/CoreTests/T.swift").map(graph.allowedModules) == ["CoreTests", "Core", "Kit"])
    }
}
