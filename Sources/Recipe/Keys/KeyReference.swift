/// What is written from the key table into committed files: the key tables of docs/recipes.md and the
/// key words of `Fuzz/recipe.dict` (`GeneratedFilesTests` fails when a committed copy is stale).
extension RecipeKeys {
    /// A Markdown table of `rows`: `key | type | default | range | example | what it is`, or without
    /// the range and example columns when `brief` (the top-level table, whose sections have their own).
    public static func markdownTable(_ rows: [RecipeKey], brief: Bool = false) -> String {
        let header = brief ? ["key", "type", "default", "what it is"] : ["key", "type", "default", "range", "example", "what it is"]
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + String(repeating: " --- |", count: header.count)]
        for row in rows {
            let cells =
                brief
                ? ["`\(row.path)`", row.typeText, defaultCell(row), row.summary]
                : ["`\(row.path)`", row.typeText, defaultCell(row), row.range ?? "", row.examples.first.map { "`\($0)`" } ?? "", row.summary]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `key | default` for every row that has a default.
    public static func defaultsTable() -> String {
        var lines = ["| key | default |", "| --- | --- |"]
        for row in all {
            guard row.defaultValue != nil || row.defaultText != nil else { continue }
            lines.append("| `\(row.path)` | \(defaultCell(row)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The default as the reference states it: its words, its value, `(required)` or the rule, or `none`.
    public static func defaultCell(_ row: RecipeKey) -> String {
        if let text = row.defaultText { return text }
        if let value = row.defaultValue { return "`\(value)`" }
        switch row.presence {
        case .required: return "(required)"
        case .rule(let rule): return "(\(rule))"
        case .optional: return "none"
        }
    }

    /// The generated tables of docs/recipes.md, by name (the name its markers give).
    public static let referenceTables: [(name: String, text: @Sendable () -> String)] = [
        ("top-level keys", { markdownTable(rows(in: ""), brief: true) }),
        ("ticks", { markdownTable(["cues.<kind>.every", "cues.<kind>.on"].compactMap(row)) }),
        ("program segment", { markdownTable(rows(in: "program[]")) }),
        ("ramp", { markdownTable(rows(in: "ramp")) }),
        ("cue limits", { markdownTable(rows(in: "cues").filter { !$0.isPlaceholder }) }),
        ("inline pattern", { markdownTable(rows(in: "pattern") + rows(in: "pattern.phases[]")) }),
        ("bed", { markdownTable(rows(in: "bed")) }),
        (
            "cue",
            { markdownTable(rows(in: "cues.<kind>").filter { !["until", "cycles", "every", "on"].contains($0.name) }) }
        ),
        ("breath guidance", { markdownTable(rows(in: "guide") + rows(in: "swell")) }),
        ("voice", { markdownTable(rows(in: "voice")) }),
        ("prompt", { markdownTable(rows(in: "voice.prompts[]")) }),
        ("output", { markdownTable(rows(in: "output")) }),
        ("defaults", { defaultsTable() }),
    ]

    /// The words a fuzzer should try in a recipe: every key's name, every word a value may be, and
    /// every example value, each once, as libFuzzer dictionary lines (`"sample_rate"`).
    public static func fuzzDictionaryWords() -> [String] {
        var words: [String] = []
        func add(_ word: String) { if !word.isEmpty, !words.contains(word) { words.append(word) } }
        func addWords(of type: KeyType) {
            switch type {
            case .choice(let options), .choiceList(let options): options.forEach(add)
            case .word(let word): add(word)
            case .bool: ["true", "false"].forEach(add)
            case .loudness, .voiceLevel: add("off")
            case .duckDepth: add("wcag")
            case .list(let item, _): addWords(of: item)
            case .anyOf(let types): types.forEach(addWords)
            default: break
            }
        }
        for row in all where !row.isPlaceholder { add(row.name) }
        for row in all { addWords(of: row.type) }
        for row in all { (row.defaultValue.map { [$0] } ?? []).forEach(add) }
        for row in all { row.examples.forEach(add) }
        return words
    }

    /// `word` as a libFuzzer dictionary entry: quoted, with `"`, `\` and bytes outside printable ASCII escaped.
    public static func dictionaryEntry(_ word: String) -> String {
        var out = "\""
        for byte in word.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F: out += String(UnicodeScalar(byte))
            default: out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return out + "\""
    }
}
