import Foundation

/// A committed file (or part of one) written from a table in the code: the key tables of
/// docs/recipes.md, `Fuzz/recipe.dict`, the fuzz seeds copied from `recipes/`, the recipe schema.
/// `GeneratedFilesTests` fails when one is stale; `CADENCE_RECORD_GENERATED=1 swift test --filter
/// GeneratedFiles` writes them all.
public struct GeneratedFile: Sendable {
    /// Relative to the repository's root.
    public let path: String
    /// The file's text, given what it holds now (nil: it does not exist); nil: it must not exist.
    public let generate: @Sendable (_ current: String?) throws -> String?

    public init(_ path: String, generate: @escaping @Sendable (_ current: String?) throws -> String?) {
        self.path = path
        self.generate = generate
    }

    /// A whole file.
    public static func whole(_ path: String, _ text: @escaping @Sendable () throws -> String) -> GeneratedFile {
        GeneratedFile(path) { _ in try text() }
    }

    /// Blocks of a hand-written file, each between a line holding `generated: NAME (…` and one ending
    /// `end generated: NAME` (`<!-- … -->` comments in Markdown, `#` comments elsewhere); the rest is kept.
    public static func blocks(_ path: String, _ blocks: [(name: String, text: @Sendable () -> String)]) -> GeneratedFile {
        GeneratedFile(path) { current in
            guard var text = current else { throw TestFailure("\(path) is missing: it holds hand-written text around its generated blocks") }
            for block in blocks { text = try replacingBlock(block.name, in: text, with: block.text(), file: path) }
            return text
        }
    }

    /// `text` with the lines between the markers of block `name` replaced by `content`.
    static func replacingBlock(_ name: String, in text: String, with content: String, file: String) throws -> String {
        var lines = text.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.contains("generated: \(name) (") && !$0.contains("end generated:") }),
            let end = lines[begin...].firstIndex(where: { $0.hasSuffix("end generated: \(name) -->") || $0.hasSuffix("end generated: \(name)") })
        else { throw TestFailure("\(file): no markers 'generated: \(name) …' and 'end generated: \(name)'") }
        var body = content.components(separatedBy: "\n")
        if body.last == "" { body.removeLast() }
        lines.replaceSubrange((begin + 1)..<end, with: body)
        return lines.joined(separator: "\n")
    }
}

public enum GeneratedFiles {
    /// How to bring the files up to date.
    public static let howToRecord = "CADENCE_RECORD_GENERATED=1 swift test --filter GeneratedFiles"

    /// Whether this run writes the files instead of checking them.
    public static var isRecording: Bool { ProcessInfo.processInfo.environment["CADENCE_RECORD_GENERATED"] == "1" }

    /// The paths of `files` whose committed text differs from what they generate (or that exist and
    /// must not); when recording, each is written (or removed) instead.
    public static func stale(_ files: [GeneratedFile]) throws -> [String] {
        var stale: [String] = []
        for file in files {
            let path = repositoryRoot + "/" + file.path
            let current = try? String(contentsOfFile: path, encoding: .utf8)
            let wanted = try file.generate(current)
            guard wanted != current else { continue }
            stale.append(file.path)
            guard isRecording else { continue }
            if let wanted {
                try wanted.write(toFile: path, atomically: true, encoding: .utf8)
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
        }
        return stale
    }
}
