// Recipes written from key paths of the key table (Sources/Recipe/Keys): RecipeTests changes
// each key through them, SchemaTests checks each example against the schema.

/// A recipe holding one key of the table with a value, and whatever else that key needs to be read
/// (`bed.gain` needs a `synth:` beside it, `voice.prompts[].cycles` an `on:` prompt).
public enum KeySample {
    /// The keys written beside the key tested, by section (`cues.<kind>` is a cue's mapping).
    public static let siblings: [String: [(String, String)]] = [
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
        "guide": [],
        "swell": [("synth", "pink-noise")],
    ]
    /// Keys of a section that exclude each other: writing one leaves the others out.
    public static let exclusive: [String: [[String]]] = [
        "": [["pattern", "program"], ["cycles", "duration", "program", "variants"]],
        "program[]": [["cycles", "duration"]],
        "bed": [["file", "synth"]],
        "cues.<kind>": [["tone", "preset", "file"]],
        "voice.prompts[]": [["at", "on"]],
        "swell": [["tone", "synth"]],
    ]

    /// `placeholder` as written in a sample: a cue of the pattern, or `tick` for the keys only it takes.
    public static func word(for placeholder: String, key: String) -> String {
        ["every", "on"].contains(key) && placeholder == "<kind>" ? "tick" : "inhale"
    }

    /// The recipe's text with `path` set to `value` (nil: left out, its section still written).
    public static func recipe(_ path: String, _ value: String?) -> String {
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
}
