import AudioCore
import Foundation
import TestKit
import Testing

@testable import Recipe

extension KeySample {
    /// The canonical line key of `row` as it reads in a sample (`<i>` is 0, `<kind>` the word used).
    static func lineKey(_ key: String, row: RecipeKey) -> String {
        key.replacingOccurrences(of: "<i>", with: "0").replacingOccurrences(of: "<kind>", with: word(for: "<kind>", key: row.name))
    }
}

@Suite struct KeyTableTests {
    @Test func pathsAreUniqueAndSectionsExist() {
        var seen: Set<String> = []
        for row in RecipeKeys.all {
            #expect(seen.insert(row.path).inserted, "\(row.path) twice")
            let parent = row.parent.hasSuffix("[]") ? String(row.parent.dropLast(2)) : row.parent
            if !parent.isEmpty {
                #expect(RecipeKeys.row(parent) != nil, "\(row.path): no row for its section '\(parent)'")
            }
            if case .section = row.canonical {
                #expect(!RecipeKeys.rows(in: row.path).isEmpty, "\(row.path) enters through rows it has none of")
            }
            #expect(!row.summary.isEmpty && !row.typeText.isEmpty, "\(row.path)")
        }
    }

    @Test func everyExampleAndDefaultReads() {
        for row in RecipeKeys.all {
            for value in row.examples + (row.defaultValue.map { [$0] } ?? []) {
                let text = KeySample.recipe(row.path, value)
                #expect(problems(text).isEmpty, "\(row.path): \(value)\n\(text)\(problems(text))")
            }
        }
    }

    /// Every line a row names is written by `CanonicalLine.all`, and every line written is named by a row.
    @Test func canonicalLinesAreTheTablesLines() {
        let written = Set(CanonicalLine.all.flatMap(\.keys))
        var named: Set<String> = []
        for row in RecipeKeys.all {
            if case .line(let key, _) = row.canonical {
                named.insert(key)
                #expect(written.contains(key), "\(row.path) enters line '\(key)', which canonicalText does not write")
            }
        }
        #expect(written.subtracting(named).isEmpty, "lines no key enters: \(written.subtracting(named).sorted())")
    }

    /// A key marked canonical changes the canonical text when its value changes, in the line it names.
    @Test(arguments: RecipeKeys.all.filter { if case .line = $0.canonical { true } else { false } })
    func canonicalKeyChangesTheText(_ row: RecipeKey) throws {
        guard case .line(let key, _) = row.canonical else { return }
        #expect(row.examples.count >= 2, "\(row.path) needs two examples to be changed")
        guard row.examples.count >= 2 else { return }
        let first = try load(KeySample.recipe(row.path, row.examples[0]))
        let second = try load(KeySample.recipe(row.path, row.examples[1]))
        #expect(first.canonicalText != second.canonicalText, "\(row.path): \(row.examples[0]) and \(row.examples[1]) say the same")
        let line = KeySample.lineKey(key, row: row)
        let changed = Set(first.canonicalText.split(separator: "\n")).symmetricDifference(second.canonicalText.split(separator: "\n"))
        #expect(changed.contains { $0.hasPrefix(line + "=") }, "\(row.path): line '\(line)' unchanged; changed: \(changed.sorted())")
    }
}
