import AudioCore
import Foundation
import TestKit
import Testing

@testable import Recipe

@Suite struct BuiltinPatternTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var key: String
        var name: String
        var kinds: [String]
        var labels: [String]
        var cycle: ExactSeconds
        var testDescription: String { key }
    }

    static let builtins: [Expectation] = [
        Expectation(
            key: "box", name: "Box Breathing", kinds: ["inhale", "hold", "exhale", "hold"],
            labels: ["Breathe In", "Hold", "Breathe Out", "Hold"], cycle: ns(16)),
        Expectation(
            key: "4-7-8", name: "4-7-8 Breathing", kinds: ["inhale", "hold", "exhale"],
            labels: ["Breathe In", "Hold", "Breathe Out"], cycle: ns(19)),
        Expectation(
            key: "coherent", name: "Coherent Breathing", kinds: ["inhale", "exhale"],
            labels: ["Breathe In", "Breathe Out"], cycle: ns(11)),
        Expectation(
            key: "relax", name: "Relax", kinds: ["inhale", "hold", "exhale", "rest"],
            labels: ["Breathe In", "Hold", "Breathe Out", "Rest"], cycle: ns(14)),
        Expectation(
            key: "pomodoro", name: "Pomodoro",
            kinds: ["work", "short_break", "work", "short_break", "work", "short_break", "work", "long_break"],
            labels: ["Work", "Short Break", "Work", "Short Break", "Work", "Short Break", "Work", "Long Break"],
            cycle: ns(130 * 60)),
    ]

    @Test(arguments: builtins)
    func expands(_ expected: Expectation) throws {
        let recipe = try load("pattern: \(expected.key)\ncycles: 2\n")
        #expect(recipe.pattern.builtin == expected.key)
        #expect(recipe.pattern.name == expected.name)
        #expect(recipe.title == expected.name)
        #expect(recipe.pattern.phases.map(\.kind) == expected.kinds)
        #expect(recipe.pattern.phases.map(\.label) == expected.labels)
        #expect(recipe.pattern.phases.count == expected.kinds.count)
        #expect(recipe.pattern.cycle == expected.cycle)
        #expect(recipe.length == .cycles(2))
    }

    /// docs/recipes.md's table of built-in patterns, row by row: the name, title, the cycle's total (the
    /// parenthesis ending the cycle column, `(2 h 10 m)`) and the labels, as the parser gives them.
    @Test("docs/recipes.md's pattern table says what each built-in is: title, cycle length and labels")
    func documentedTable() throws {
        let page = try String(contentsOfFile: repositoryRoot + "/docs/recipes.md", encoding: .utf8)
        var seen: [String] = []
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, let pattern = BuiltinPatterns.named(cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
            else { continue }
            seen.append(cells[0])
            #expect(cells[1] == pattern.name, "\(cells[0]): title")
            let total = try #require(cells[2].split(separator: "(").last?.dropLast(), "\(cells[0]): no (total) in '\(cells[2])'")
            #expect(total.replacingOccurrences(of: " ", with: "") == pattern.cycle.durationText, "\(cells[0]): cycle '\(cells[2])'")
            // the column lists each phase's label, or (pomodoro's eight phases) each label once
            let labels = pattern.phases.map(\.label)
            #expect([labels, distinct(labels)].contains(cells[3].components(separatedBy: " · ")), "\(cells[0]): labels")
        }
        #expect(seen == BuiltinPatterns.names.map { "`\($0)`" })
    }

    /// The items in their first order, each once.
    private func distinct(_ items: [String]) -> [String] { items.reduce(into: []) { if !$0.contains($1) { $0.append($1) } } }

    @Test func phaseLengths() throws {
        #expect(BuiltinPatterns.named("coherent")?.phases.map(\.length) == [ns(5, 500_000_000), ns(5, 500_000_000)])
        #expect(BuiltinPatterns.named("4-7-8")?.phases.map(\.length) == [ns(4), ns(7), ns(8)])
        #expect(
            BuiltinPatterns.named("pomodoro")?.phases.map(\.length)
                == [ns(1500), ns(300), ns(1500), ns(300), ns(1500), ns(300), ns(1500), ns(900)])
        #expect(BuiltinPatterns.named("Box") == nil)
    }

    static let labels: [(String, String)] = [
        ("inhale", "Breathe In"), ("hold", "Hold"), ("exhale", "Breathe Out"), ("rest", "Rest"), ("work", "Work"),
        ("short_break", "Short Break"), ("long_break", "Long Break"), ("slow_exhale", "Slow Exhale"),
        ("hum", "Hum"), ("box-hold", "Box Hold"), ("sigh2", "Sigh2"),
    ]

    @Test(arguments: labels)
    func defaultLabel(kind: String, label: String) {
        #expect(BuiltinPatterns.defaultLabel(for: kind) == label)
    }
}

@Suite struct InlinePatternTests {
    @Test func physiologicalSigh() throws {
        let recipe = try load(
            """
            duration: 5m
            pattern:
              name: Physiological Sigh
              phases:
                - inhale: 2s
                - { kind: inhale, length: 1s, label: Top Up }
                - exhale: 6s
                - kind: slow_exhale
                  length: 1.5s
            """)
        #expect(recipe.pattern.name == "Physiological Sigh")
        #expect(recipe.pattern.builtin == nil)
        #expect(recipe.title == "Physiological Sigh")
        #expect(
            recipe.pattern.phases == [
                Phase(kind: "inhale", length: ns(2), label: "Breathe In"),
                Phase(kind: "inhale", length: ns(1), label: "Top Up"),
                Phase(kind: "exhale", length: ns(6), label: "Breathe Out"),
                Phase(kind: "slow_exhale", length: ns(1, 500_000_000), label: "Slow Exhale"),
            ])
        #expect(recipe.pattern.cycle == ns(10, 500_000_000))
        #expect(recipe.length == .duration(ns(300)))
        #expect(recipe.locations["pattern"]?.line == 3)
        #expect(recipe.locations["pattern.phases"]?.line == 5)
        #expect(recipe.locations["pattern.phases.0"] == SourceLocation(file: testFile, line: 5, column: 7))
        #expect(recipe.locations["pattern.phases.1"] == SourceLocation(file: testFile, line: 6, column: 7))
        #expect(recipe.locations["pattern.phases.1.length"] == SourceLocation(file: testFile, line: 6, column: 31))
        #expect(recipe.locations["pattern.phases.3"]?.line == 8)
        // Without a `cues` key, the inline pattern's inhale and exhale get the default bells.
        #expect(Set(recipe.cues.keys) == ["inhale", "exhale", "start", "end"])
    }

    @Test func unnamedInlinePattern() throws {
        let recipe = try load("cycles: 3\npattern: { phases: [ { hum: 4s }, { rest: 2s } ] }\n")
        #expect(recipe.pattern.name == "Custom Pattern")
        #expect(recipe.pattern.phases.map(\.label) == ["Hum", "Rest"])
        #expect(Set(recipe.cues.keys) == ["start", "end"])
    }

    @Test func thousandPhasesAllowed() throws {
        let phases = String(repeating: "    - inhale: 1s\n", count: 1000)
        let recipe = try load("cycles: 1\npattern:\n  phases:\n" + phases)
        #expect(recipe.pattern.phases.count == 1000)
        #expect(recipe.pattern.cycle == ns(1000))
    }
}
