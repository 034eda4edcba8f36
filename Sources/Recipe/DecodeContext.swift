import AudioCore

/// The keys of one mapping the decoder read: value and key node of each, by key.
struct Fields {
    var values: [String: NodeID] = [:]
    var keys: [String: NodeID] = [:]
    /// The accepted keys in document order.
    var order: [String] = []

    subscript(key: String) -> NodeID? { values[key] }
    /// True when the mapping gave `key` (and it is allowed).
    func has(_ key: String) -> Bool { values[key] != nil }
}

/// Shared state while decoding one recipe: the document, diagnostics collected so far, locations.
///
/// Every reader here reports its own problems (naming the key path, what was
/// expected and what was found) and returns nil, so decoding goes on and an
/// author sees every problem at once.
struct DecodeContext {
    let file: String
    let document: YAMLDocument
    private(set) var diagnostics: [Diagnostic] = []
    private var seen: Set<Diagnostic> = []
    private(set) var isFull = false
    /// Every problem reported, counted even when dropped as a repeat: a reader failed if this grew.
    private(set) var problemCount = 0
    var locations: [String: SourceLocation] = [:]
    /// What was noticed and let pass: `Recipe.warnings`.
    private(set) var warnings: [Diagnostic] = []
    /// For each mapping read, the keys its misspelt keys were taken for (`durration` → `duration`).
    private var misspelt: [NodeID: Set<String>] = [:]
    /// The lengths written as a bare number (`fade_in: 4000`), by key path: an error at one of
    /// these keys says that a bare number is seconds (`bareSecondsNote`).
    private(set) var bareSeconds: [String: (text: String, value: ExactSeconds)] = [:]
    /// `locales:` as read (recipe-v1.2 § Locales): `.none` without the key, `.failed` when it could not
    /// be read (texts per locale are then not checked against it).
    var locales: LocaleList = .none
    /// The paths written with `{locale}`, as written, by key path: `Recipe.localizedPaths`.
    var localizedPaths: [String: String] = [:]

    init(file: String, document: YAMLDocument) {
        self.file = file
        self.document = document
    }

    // MARK: - Reporting

    /// Records a problem at a node (once, however many aliases lead to it).
    mutating func error(_ message: String, at node: NodeID) {
        error(message, at: location(node))
    }

    mutating func error(_ message: String, at location: SourceLocation) {
        problemCount += 1
        guard !isFull else { return }
        // an error at a length written as a bare number says how it was read (4000 is 1h6m40s, not 4 s)
        var message = message
        if let colon = message.firstIndex(of: ":"), let note = bareSecondsNote([String(message[..<colon])]) {
            message += "; " + note
        }
        // Key paths repeat keys as written (`cues.<key>`, `pattern.phases.0.<key>`): escape what they may carry.
        let diagnostic = Diagnostic(DiagnosticText.printable(message), at: location)
        guard seen.insert(diagnostic).inserted else { return }
        if diagnostics.count == RecipeLimits.maxDiagnostics {
            diagnostics.append(Diagnostic("too many problems; stopped after \(RecipeLimits.maxDiagnostics)", at: location))
            isFull = true
            return
        }
        diagnostics.append(diagnostic)
    }

    /// Notes something the author likely did not mean that does not stop the render.
    mutating func warn(_ message: String, at node: NodeID) {
        let warning = Diagnostic(DiagnosticText.printable(message), at: location(node)).asWarning()
        if !warnings.contains(warning) { warnings.append(warning) }
    }

    /// A required key (one of `keys`) is missing from the mapping `node`: the error, unless a
    /// misspelt key of that mapping was taken for one of them. Then "unknown key 'durration' (did
    /// you mean 'duration'?)" already says it, and "found neither" would be a second, spurious
    /// error (it still counts as a problem).
    mutating func missing(_ keys: [String], in node: NodeID, _ message: String, at location: SourceLocation) {
        if let meant = misspelt[node], keys.contains(where: meant.contains) {
            problemCount += 1
            return
        }
        error(message, at: location)
    }

    mutating func missing(_ keys: [String], in node: NodeID, _ message: String) {
        missing(keys, in: node, message, at: self.location(node))
    }

    /// `path: expected …, found '…' (reason)`.
    mutating func expected(_ what: String, at node: NodeID, path: String, reason: String? = nil) {
        error("\(path): expected \(what), found \(describe(node))" + (reason.map { " (\($0))" } ?? ""), at: node)
    }

    /// Where a node was written.
    func location(_ node: NodeID) -> SourceLocation {
        let mark = document[node].mark
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// Remembers where a key path's value was written.
    mutating func remember(_ path: String, _ node: NodeID) {
        locations[path] = location(node)
    }

    /// What a node is, for `found …`: `'5x'`, `nothing`, `a mapping`, `a list`, `an empty list`.
    func describe(_ node: NodeID) -> String {
        if document[node].isNull { return "nothing" }
        switch document[node].content {
        case .scalar(let text, _): return DiagnosticText.quoted(text)
        case .mapping(let pairs): return pairs.isEmpty ? "an empty mapping" : "a mapping"
        case .sequence(let items): return items.isEmpty ? "an empty list" : "a list"
        }
    }

    // MARK: - Structure

    /// A scalar's text, or nil for null and non-scalars.
    func text(_ node: NodeID) -> String? {
        guard !document[node].isNull, case .scalar(let text, _) = document[node].content else { return nil }
        return text
    }

    /// Reads a mapping's keys: reports keys that are not scalars, duplicates (naming the
    /// first one's line) and keys outside `allowed` (nil: any key, the caller checks).
    mutating func fields(of node: NodeID, path: String, allowed: [String]?, what: String) -> Fields? {
        guard case .mapping(let pairs) = document[node].content else {
            expected(what, at: node, path: path.isEmpty ? "top level" : path)
            return nil
        }
        let place = path.isEmpty ? "" : " in '\(path)'"
        var fields = Fields()
        for pair in pairs {
            if isFull { break }
            guard case .scalar(let key, _) = document[pair.key].content, !document[pair.key].isNull else {
                error("keys must be words\(place), found \(describe(pair.key)) as a key", at: pair.key)
                continue
            }
            if let first = fields.keys[key] {
                error("duplicate key \(DiagnosticText.quoted(key))\(place) (first at line \(document[first].mark.line))", at: pair.key)
                continue
            }
            fields.keys[key] = pair.key
            if key == "<<", case .plain = Self.style(of: document[pair.key]) {
                error("merge keys ('<<')\(place) are not supported: alias the whole value (*name) or repeat the keys", at: pair.key)
                continue
            }
            if let allowed, !allowed.contains(key) {
                let meant = Suggestions.closest(to: key, in: allowed)
                if let meant { misspelt[node, default: []].insert(meant) }
                let hint = meant.map { " (did you mean '\($0)'?)" } ?? " (allowed: \(DiagnosticText.list(allowed)))"
                error("unknown key \(DiagnosticText.quoted(key))\(place)\(hint)", at: pair.key)
                continue
            }
            fields.values[key] = pair.value
            fields.order.append(key)
        }
        return fields
    }

    /// A scalar's style, or nil for mappings and sequences.
    static func style(of node: YAMLNode) -> ScalarStyle? {
        guard case .scalar(_, let style) = node.content else { return nil }
        return style
    }

    // MARK: - Values

    /// A non-empty string.
    mutating func string(_ node: NodeID, path: String) -> String? {
        remember(path, node)
        guard let text = text(node), !text.isEmpty else {
            expected("text", at: node, path: path)
            return nil
        }
        guard text.utf8.count <= RecipeLimits.maxTextBytes else {
            error(
                "\(path): expected a text of at most \(RecipeLimits.maxTextBytes) bytes, found \(text.utf8.count) bytes"
                    + " (it is written into every tag, caption and cue sheet entry; shorten it)",
                at: node)
            return nil
        }
        return text
    }

    /// `true` or `false`.
    mutating func bool(_ node: NodeID, path: String) -> Bool? {
        remember(path, node)
        switch text(node) {
        case "true": return true
        case "false": return false
        default:
            expected("true or false", at: node, path: path)
            return nil
        }
    }

    /// A whole number (optional `-`, digits) within `range`.
    mutating func integer(_ node: NodeID, path: String, range: ClosedRange<Int>, what: String) -> Int? {
        remember(path, node)
        guard let text = text(node) else {
            expected(what, at: node, path: path)
            return nil
        }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy(DecimalNumeral.isDigit), let value = Int(text) else {
            expected(what, at: node, path: path)
            return nil
        }
        guard range.contains(value) else {
            expected(what, at: node, path: path, reason: "out of range")
            return nil
        }
        return value
    }

    /// One of a fixed set of words, with a near-miss suggestion.
    /// `text` replaces the node's own text (for one word of a comma list).
    mutating func choice(_ node: NodeID, path: String, options: [String], text given: String? = nil) -> String? {
        remember(path, node)
        let word = given ?? text(node)
        if let word, options.contains(word) { return word }
        let hint = word.flatMap { Suggestions.closest(to: $0, in: options) }.map { "did you mean '\($0)'?" }
        expected("one of \(DiagnosticText.list(options))", at: node, path: path, reason: hint)
        return nil
    }

    /// "a bare number is seconds: '4000' is 1h6m40s (write '4000ms' for milliseconds)" for the first
    /// of `paths` written as a bare number, or nil when none was (or it was zero).
    func bareSecondsNote(_ paths: [String]) -> String? {
        guard let (text, value) = paths.lazy.compactMap({ self.bareSeconds[$0] }).first, value != .zero else { return nil }
        let number = text.filter { $0 != " " && $0 != "\t" }
        return "a bare number is seconds: '\(DiagnosticText.clip(number))' is \(value.durationText) "
            + "(write '\(DiagnosticText.clip(number))ms' for milliseconds)"
    }

    /// A length of time (`Units.duration`); `positive` rejects zero, `max` caps it.
    mutating func duration(_ node: NodeID, path: String, positive: Bool, max: ExactSeconds? = nil) -> ExactSeconds? {
        remember(path, node)
        var what = positive ? "a length above zero like 90s, 5m30s or 05:00" : "a length like 10s, 1m30s or 01:30"
        if let max {
            // examples inside the range: a 60 s cue tone is not offered 90s
            let example = max.nanoseconds >= 10_000_000_000 ? "2s or 500ms" : "300ms or 1.5s"
            what = (positive ? "a length above zero, at most \(max.durationText)," : "a length from 0 to \(max.durationText)") + " like \(example)"
        }
        guard let text = text(node) else {
            expected(what, at: node, path: path)
            return nil
        }
        switch Units.duration(text) {
        case .failure(let error):
            // `outro: 90000` is over 24 h because a bare number is seconds
            let bare = Units.isBareNumber(text) && error.reason.hasPrefix("over") ? "; a bare number is seconds" : ""
            expected(what, at: node, path: path, reason: error.reason + bare)
            return nil
        case .success(let value):
            if Units.isBareNumber(text) { bareSeconds[path] = (text, value) }
            if positive, value == .zero {
                expected(what, at: node, path: path, reason: "zero")
                return nil
            }
            if let max, value > max {
                expected(what, at: node, path: path, reason: "longer than \(max.durationText)")
                return nil
            }
            return value
        }
    }

    /// A value read by one of the `Units` parsers.
    /// The items of the list at `node`: 1 to `limit` of them, else reported and nil. `whenEmpty` says
    /// what to write instead of an empty list (or of a value that is not a list); past the limit the
    /// message says `at most <limit> <noun>` and counts the items found as `<count> <counting>`.
    mutating func boundedList(
        _ node: NodeID, path: String, what: String, whenEmpty: String, limit: Int, noun: String, counting: String
    ) -> [NodeID]? {
        guard case .sequence(let items) = document[node].content, !items.isEmpty else {
            expected(what, at: node, path: path, reason: whenEmpty)
            return nil
        }
        guard items.count <= limit else {
            expected("at most \(limit) \(noun)", at: node, path: path, reason: "\(items.count) \(counting)")
            return nil
        }
        return items
    }

    mutating func unit<T>(_ node: NodeID, path: String, what: String, _ parse: (String) -> Result<T, UnitError>) -> T? {
        remember(path, node)
        guard let text = text(node) else {
            expected(what, at: node, path: path)
            return nil
        }
        switch parse(text) {
        case .success(let value): return value
        case .failure(let error):
            expected(what, at: node, path: path, reason: error.reason)
            return nil
        }
    }

    /// A gain in dB.
    mutating func gain(_ node: NodeID, path: String) -> Double? {
        unit(node, path: path, what: "a gain from -120 dB to +24 dB like -14 dB", Units.gain)
    }

    /// A frequency below the Nyquist frequency of `sampleRate`.
    mutating func frequency(_ node: NodeID, path: String, sampleRate: Int) -> Double? {
        guard let hertz = unit(node, path: path, what: "a frequency like 528 Hz or 1.2 kHz", Units.frequency) else { return nil }
        return checkNyquist(hertz, at: node, path: path, sampleRate: sampleRate) ? hertz : nil
    }

    /// Reports a frequency at or above half the sample rate; true when it is below.
    mutating func checkNyquist(_ hertz: Double, at node: NodeID, path: String, sampleRate: Int) -> Bool {
        let nyquist = Double(sampleRate) / 2
        guard hertz >= nyquist else { return true }
        error(
            "\(path): \(DiagnosticText.hertz(hertz)) is \(hertz > nyquist ? "above" : "at") the Nyquist frequency "
                + "(\(DiagnosticText.hertz(nyquist)) at \(sampleRate) Hz); expected a lower frequency", at: node)
        return false
    }

    /// A relative path into the assets folder. With `locales:`, `{locale}` in it is each locale's
    /// tag: the path returned is the default locale's, the one written is kept in `localizedPaths`.
    mutating func assetPath(_ node: NodeID, path: String) -> String? {
        remember(path, node)
        guard let text = text(node) else {
            expected("a path relative to the assets folder like beds/rain.ogg", at: node, path: path)
            return nil
        }
        guard let perLocale = localePath(text, at: node, path: path) else { return nil }
        for written in perLocale {
            if let problem = AssetPath.problem(written) {
                error("\(path): \(problem); expected a path relative to the assets folder", at: node)
                return nil
            }
        }
        if perLocale.count > 1 || perLocale.first != text { localizedPaths[path] = text }
        return perLocale.first ?? text
    }
}

/// Joins a dotted key path: `bed` + `gain` → `bed.gain`.
func keyPath(_ parent: String, _ key: String) -> String {
    parent.isEmpty ? key : parent + "." + key
}
