import AudioCore

/// `pattern:` — a built-in name, or `{ name: …, phases: [...] }`.
extension DecodeContext {
    /// The longest phase kind.
    static let maxKindLength = 64
    /// Cue names that can never be phase kinds.
    static let reservedKinds = ["start", "end"]
    /// The keys of an inline pattern.
    static let patternKeys = RecipeKeys.children(of: "pattern")
    /// The keys of a phase in long form (`- { kind: inhale, length: 4s, label: Top Up }`).
    static let phaseKeys = RecipeKeys.children(of: "pattern.phases[]")
    /// The display name of an inline pattern without `name:`.
    static let defaultPatternName = "Custom Pattern"

    /// Reads `pattern` (or a program segment's, at `path`: `program.1.pattern`); nil after reporting a problem.
    mutating func pattern(_ node: NodeID, path: String = "pattern") -> Pattern? {
        remember(path, node)
        let what = "a built-in pattern (\(DiagnosticText.list(BuiltinPatterns.names))) or a mapping with 'phases'"
        if let name = text(node) {
            if let builtin = BuiltinPatterns.named(name) { return builtin }
            let hint = Suggestions.closest(to: name, in: BuiltinPatterns.names).map { "; did you mean '\($0)'?" } ?? ""
            error(
                "unknown pattern \(DiagnosticText.quoted(name)) (known: \(DiagnosticText.list(BuiltinPatterns.names)))\(hint)",
                at: node)
            return nil
        }
        guard case .mapping = document[node].content else {
            let isList = if case .sequence = document[node].content { true } else { false }
            expected(what, at: node, path: path, reason: isList ? "a list of phases goes under 'phases:'" : nil)
            return nil
        }
        let before = problemCount
        guard let fields = fields(of: node, path: path, allowed: Self.patternKeys, what: what) else { return nil }
        let name = fields["name"].flatMap { string($0, path: path + ".name") } ?? Self.defaultPatternName
        guard let phasesNode = fields["phases"] else {
            missing(["phases"], in: node, "\(path): expected a list of phases under 'phases:' (like '- inhale: 4s'), found none")
            return nil
        }
        let phases = phaseList(phasesNode, path: path + ".phases")
        guard let phases, problemCount == before else { return nil }
        return Pattern(name: name, builtin: nil, phases: phases)
    }

    /// Reads `pattern.phases`: 1 to `RecipeLimits.maxPhasesPerPattern` phases.
    private mutating func phaseList(_ node: NodeID, path: String) -> [Phase]? {
        remember(path, node)
        let what = "a list of phases like '- inhale: 4s'"
        guard case .sequence(let items) = document[node].content, !items.isEmpty else {
            expected(what, at: node, path: path)
            return nil
        }
        guard items.count <= RecipeLimits.maxPhasesPerPattern else {
            expected("at most \(RecipeLimits.maxPhasesPerPattern) phases", at: node, path: path, reason: "\(items.count) phases")
            return nil
        }
        var phases: [Phase] = []
        for (index, item) in items.enumerated() {
            if isFull { return nil }
            if let phase = phase(item, path: "\(path).\(index)") { phases.append(phase) }
        }
        return phases.count == items.count ? phases : nil
    }

    /// One phase: `- inhale: 2s` or `- { kind: inhale, length: 1s, label: Top Up }`.
    private mutating func phase(_ node: NodeID, path: String) -> Phase? {
        remember(path, node)
        let what = "a phase like '- inhale: 4s' or '- { kind: inhale, length: 4s, label: Breathe In }'"
        guard case .mapping(let pairs) = document[node].content else {
            expected(what, at: node, path: path)
            return nil
        }
        let longKeys = Self.phaseKeys
        if pairs.count == 1, let kind = text(pairs[0].key), !longKeys.contains(kind) {
            // Short form: the key is the kind, the value its length.
            remember(path + ".kind", pairs[0].key)
            let validKind = phaseKind(kind, at: pairs[0].key, path: path)
            let length = duration(pairs[0].value, path: keyPath(path, validKind ?? DiagnosticText.clip(kind)), positive: true)
            remember(path + ".length", pairs[0].value)
            guard let validKind, let length else { return nil }
            return Phase(kind: validKind, length: length, label: BuiltinPatterns.defaultLabel(for: validKind))
        }
        guard let fields = fields(of: node, path: path, allowed: longKeys, what: what) else { return nil }
        var kind: String?
        if let kindNode = fields["kind"] {
            remember(path + ".kind", kindNode)
            if let text = text(kindNode) {
                kind = phaseKind(text, at: kindNode, path: path + ".kind")
            } else {
                expected("a phase kind like inhale", at: kindNode, path: path + ".kind")
            }
        } else {
            missing(["kind"], in: node, "\(path): expected a 'kind:' (like inhale), found none")
        }
        var length: ExactSeconds?
        if let lengthNode = fields["length"] {
            length = duration(lengthNode, path: path + ".length", positive: true)
        } else {
            missing(["length"], in: node, "\(path): expected a 'length:' (like 4s), found none")
        }
        var label: (text: String, byLocale: [String: String])?
        if let labelNode = fields["label"] {
            guard let read = localized(labelNode, path: path + ".label", read: { $0.string($1, path: $2) }) else { return nil }
            label = read
        }
        guard let kind, let length else { return nil }
        var phase = Phase(kind: kind, length: length, label: label?.text ?? BuiltinPatterns.defaultLabel(for: kind))
        phase.localizedLabel = label?.byLocale ?? [:]
        return phase
    }

    /// Checks a phase kind: a word `[a-z][a-z0-9_]*` of at most `maxKindLength`, not `start` or `end`.
    private mutating func phaseKind(_ kind: String, at node: NodeID, path: String) -> String? {
        let bytes = Array(kind.utf8)
        let isWord =
            !bytes.isEmpty && bytes.count <= Self.maxKindLength
            && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[0])
            && bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || DecimalNumeral.isDigit($0) || $0 == UInt8(ascii: "_") }
        guard isWord else {
            error(
                "\(path): expected a phase kind (a lowercase word: letters, digits, '_') like inhale, found \(DiagnosticText.quoted(kind))",
                at: node)
            return nil
        }
        guard !Self.reservedKinds.contains(kind) else {
            error(
                "\(path): expected a phase kind other than start and end (reserved for cues), found \(DiagnosticText.quoted(kind))",
                at: node)
            return nil
        }
        return kind
    }
}
