import AudioCore
import Foundation
import Testing

// Helpers of the schema tests: the repository's folders, temporary folders,
// and running scripts/validate-schema.py (python3 with python3-jsonschema and
// python3-yaml, which scripts/setup.sh installs).

// MARK: - The repository

/// The repository's root folder, found from this file's own path.
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // Support.swift, SchemaTests, Tests
    return url.path
}()

/// A path inside the repository.
func repositoryPath(_ relative: String) -> String {
    (repositoryRoot as NSString).appendingPathComponent(relative)
}

let recipeSchema = repositoryPath("schema/recipe.schema.json")
let cueSheetSchema = repositoryPath("schema/cues.schema.json")
let validatorScript = repositoryPath("scripts/validate-schema.py")

/// Every `*.yml` / `*.yaml` under `recipes/`, sorted.
func starterRecipes() -> [String] {
    let folder = repositoryPath("recipes")
    let names = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    return names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted().map { (folder as NSString).appendingPathComponent($0) }
}

// MARK: - Temporary folders

/// A fresh folder under the system's temporary directory, removed when released.
final class TempFolder {
    let path: String

    init(_ label: String = "schema") throws {
        let base = (NSTemporaryDirectory() as NSString).appendingPathComponent("cadence-\(label)-XXXXXX")
        var template = Array(base.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("mkdtemp failed for \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` in the folder.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `text` to `name`; returns the path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let full = file(name)
        guard FileManager.default.createFile(atPath: full, contents: Data(text.utf8)) else {
            throw TestFailure("cannot write \(full)")
        }
        return full
    }
}

/// A helper's own failure (a fixture that cannot be written, a tool that is missing).
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Processes

struct ProcessResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit status \(status); stdout: \(stdout.prefix(2000)); stderr: \(stderr.prefix(600))" }
}

/// Runs `executable` with `arguments` (stdout and stderr through files, so no pipe can fill up).
func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
    let scratch = try TempFolder("proc")
    let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let stdout = String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self)
    let stderr = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
    return ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

/// An executable on PATH, or nil.
func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

// MARK: - The schema validator

/// python3 with jsonschema and yaml, or why the schema tests cannot run.
enum Python {
    /// The python3 to run the validator with; nil when it is missing or lacks a module.
    static let executable: String? = {
        guard let python = which("python3") else {
            print("⚠︎ SchemaTests: python3 is not on PATH; schema checks are skipped (scripts/setup.sh installs it)")
            return nil
        }
        guard let probe = try? run(python, ["-c", "import jsonschema, yaml"]), probe.status == 0 else {
            print("⚠︎ SchemaTests: \(python) lacks jsonschema or yaml; schema checks are skipped (apt-get install python3-jsonschema python3-yaml)")
            return nil
        }
        return python
    }()

    static var isAvailable: Bool { executable != nil }

    /// The comment shown for a test that is skipped.
    static let missing: Comment = "needs python3 with jsonschema and yaml (scripts/setup.sh installs them)"
}

/// What `validate-schema.py SCHEMA FILE...` said: exit status and per-file verdicts.
struct Validation: CustomStringConvertible {
    let result: ProcessResult

    var status: Int32 { result.status }

    /// The output lines about `file` (`ok`, or `<json path>: <message>`), without the `file: ` prefix.
    func lines(for file: String) -> [String] {
        result.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix(file + ": ") ? String(line.dropFirst(file.count + 2)) : nil
        }
    }

    /// True when the script printed `file: ok`.
    func isValid(_ file: String) -> Bool { lines(for: file) == ["ok"] }

    var description: String { result.description }
}

/// Runs the validator script on `files` against `schema`.
func validate(_ files: [String], against schema: String) throws -> Validation {
    guard let python = Python.executable else { throw TestFailure("python3 with jsonschema and yaml is missing") }
    return Validation(result: try run(python, [validatorScript, schema] + files))
}

/// Many documents validated in one run of the script: python's start-up (about 0.3 s, most of
/// a run) is paid once per table instead of once per row.
struct BatchValidation: Sendable {
    /// Row name → the path the script was given for it (the files are gone once the run is over).
    let paths: [String: String]
    let validation: Validation

    /// Writes each `(name, text)` as a file ending in `suffix` and validates them all against `schema`.
    init(_ documents: [(name: String, text: String)], suffix: String, against schema: String) throws {
        let folder = try TempFolder("batch")
        var paths: [String: String] = [:]
        for (index, document) in documents.enumerated() {
            guard paths[document.name] == nil else { throw TestFailure("two rows named '\(document.name)'") }
            paths[document.name] = try folder.write(document.text, to: "row\(index)\(suffix)")
        }
        self.paths = paths
        validation = try validate(paths.values.sorted(), against: schema)
    }

    /// What the script said about one row (`ok`, or `<json path>: <message>` lines).
    func lines(_ name: String) -> [String] { paths[name].map(validation.lines(for:)) ?? ["(no such row: \(name))"] }

    func isValid(_ name: String) -> Bool { lines(name) == ["ok"] }
}
