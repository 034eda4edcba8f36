import AudioCore
import Foundation
import TestKit
import Testing

@testable import Recipe

/// Issue 30 item 17: a recipe of recipes/ with one line's indentation slipped gets an error at the
/// line the author must fix, saying which indentation its siblings have (not libyaml's words alone).
@Suite("Indentation slips in real recipes")
struct IndentationSlipTests {
    struct Slip: Sendable, CustomTestStringConvertible {
        /// The recipe under recipes/, and the line (1-based) whose indentation is changed.
        let recipe: String
        let line: Int
        let indent: Int
        /// Where the error must be, and words it must hold.
        let blamed: Int
        let words: [String]
        var testDescription: String { "\(recipe):\(line) at \(indent)" }
    }

    static let slips: [Slip] = [
        // `start: chime` between `exhale: …` and `end: chime`: libyaml stops at line 25, the slip is 24
        Slip(
            recipe: "breathing/coherent-breathing.yml", line: 24, indent: 0, blamed: 24,
            words: ["line 24 is indented 0 spaces, but its siblings (lines 23 and 25) are at 2"]),
        Slip(
            recipe: "breathing/coherent-breathing.yml", line: 24, indent: 4, blamed: 24,
            words: ["line 24 is indented 4 spaces, but its sibling above (line 23) is at 2"]),
        Slip(recipe: "breathing/coherent-breathing.yml", line: 24, indent: 1, blamed: 24, words: ["line 24 is indented 1 space"]),
        // a prompt item out of line with the one above, deeper or shallower
        Slip(
            recipe: "breathing/evening-check-in.yml", line: 26, indent: 2, blamed: 26,
            words: ["line 26 is a list item indented 2 spaces, but the item above it (line 25) is at 4"]),
        Slip(
            recipe: "breathing/evening-check-in.yml", line: 26, indent: 6, blamed: 26,
            words: ["line 26 is a list item indented 6 spaces, but the item above it (line 25) is at 4"]),
        Slip(
            recipe: "breathing/evening-check-in.yml", line: 25, indent: 3, blamed: 26,
            words: ["line 26 is a list item indented 4 spaces, but the item above it (line 25) is at 3"]),
    ]

    @Test("the error is at the slipped line and names its siblings' indentation", arguments: slips)
    func slip(_ s: Slip) throws {
        let path = repositoryRoot + "/recipes/" + s.recipe
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let original = lines[s.line - 1]
        let text = original.drop { $0 == " " }
        try #require(!text.isEmpty && original.count - text.count != s.indent, "line \(s.line) of \(s.recipe) is '\(original)'")
        lines[s.line - 1] = String(repeating: " ", count: s.indent) + text
        let found = problems(lines.joined(separator: "\n"))
        #expect(found.count == 1, "\(found)")
        let problem = try #require(found.first)
        #expect(problem.location?.line == s.blamed, "\(problem)")
        #expect(problem.message.hasPrefix("YAML syntax: "), "\(problem)")
        for word in s.words { #expect(problem.message.contains(word), "'\(word)' not in: \(problem.message)") }
    }
}
