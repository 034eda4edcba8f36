import AudioCore
import Foundation
@_exported import TestKit
import Testing

// Helpers of the schema tests: the repository's folders, temporary folders,
// and running scripts/validate-schema.py (python3 with python3-jsonschema and
// python3-yaml, which scripts/setup.sh installs).

// MARK: - The repository

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
