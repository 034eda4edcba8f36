import AudioCore
import Testing

@testable import Recipe

/// A recipe holding one key of the table with a value, and whatever else that key needs to be read
/// (`bed.gain` needs a `synth:` beside it, `voice.prompts[].cycles` an `on:` prompt).
enum KeySample {
    /// The keys written beside the key tested, by section (`cues.<kind>` is a cue's mapping).
    static let siblings: [String: [(String, String)]] = [
        "": [("pattern", "box"), ("cycles", "12")],
        "pattern": [("phases", "[inhale: 4s, exhale: 6s]")],
        "pattern.phases[]": [("kind", "inhale"), ("length", "4s")],
        "program[]": [("pattern", "box"), ("duration", "3m")],
        "ramp": [("to", "4.5 bpm")],
        "variants": [],
        "bed": [("synth", "pink-noise")],
        "cues": [("inhale", "bell")],
        "cues.<kind>": [("tone", "440 Hz")],
        "voice": [("prompts", "[ { at: 3s, text: Welcome } ]")],
        "voice.prompts[]": [("on", "inhale"), ("text", "Hi")],
        "output": [],
    ]
    /// Keys of a section that exclude each other: writing one leaves the others out.
    static let exclusive: [String: [[String]]] = [
        "": [["pattern", "program"], ["cycles", "duration", "program", "variants"]],
        "program[]": [["cycles", "duration"]],
        "bed": [["file", "synth"]],
        "cues.<kind>": [["tone", "preset", "file"]],
        "voice.prompts[]": [["at", "on"]],
    ]

    /// `placeholder` as written in a sample: a cue of the pattern, or `tick` for the keys only it takes.
    static func word(for placeholder: String, key: String) -> String {
        ["every", "on"].contains(key) && placeholder == "<kind>" ? "tick" : "inhale"
    }

    /// The recipe's text with `path` set to `value` (nil: left out, its section still written).
    static func recipe(_ path: String, _ value: String?) -> String {
        let parts = path.split(separator: ".").map(String.init)
        var inner = value
        var key = parts.last ?? path
        for depth in stride(from: parts.count - 1, through: 0, by: -1) {
            let section = parts[..<depth].joined(separator: ".")
            let written = key.hasPrefix("<") ? word(for: key, key: parts.last ?? "") : (key.hasSuffix("[]") ? String(key.dropLast(2)) : key)
            // in a short-form phase the key is the kind, alone
            let shortForm = section == "pattern.phases[]" && key.hasPrefix("<")
            let name = key.hasSuffix("[]") ? String(key.dropLast(2)) : key
            var pairs = shortForm ? [] : (siblings[section] ?? []).filter { $0.0 != written }
            for group in exclusive[section] ?? [] where group.contains(name) { pairs.removeAll { group.contains($0.0) } }
            if let inner { pairs.append((written, key.hasSuffix("[]") ? "[ \(inner) ]" : inner)) }
            let body = pairs.map { "\($0.0): \($0.1)" }
            if depth == 0 { return body.joined(separator: "\n") + "\n" }
            inner = "{ " + body.joined(separator: ", ") + " }"
            key = parts[depth - 1]
        }
        return ""
    }

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
        for row in RecipeKeys.all where row.path != "variants.duration" {
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

    /// Writing a key's default changes nothing: the table's default is the model's.
    @Test(arguments: RecipeKeys.all.filter { $0.defaultValue != nil })
    func defaultIsTheModels(_ row: RecipeKey) throws {
        guard let value = row.defaultValue else { return }
        let written = try load(KeySample.recipe(row.path, value))
        let left = try load(KeySample.recipe(row.path, nil))
        #expect(written.canonicalText == left.canonicalText, "\(row.path): \(value)")
        if row.path == "delivery" { #expect(written.delivery == left.delivery) }
    }
}
