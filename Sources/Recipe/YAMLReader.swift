import AudioCore
import CYAML

/// Owns one libyaml parser: initialized on creation, deleted on every path out.
private final class YAMLParserHandle {
    let parser: UnsafeMutablePointer<yaml_parser_t>

    private init(_ parser: UnsafeMutablePointer<yaml_parser_t>) { self.parser = parser }

    /// Calls `yaml_parser_initialize`; nil when libyaml cannot allocate its buffers.
    static func make() -> YAMLParserHandle? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) != 0 else {
            parser.deallocate()
            return nil
        }
        return YAMLParserHandle(parser)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }
}

/// Reads YAML text into a `YAMLDocument` with libyaml's event API, enforcing `RecipeLimits`' `maxDepth`, `maxAliases` and `maxNodes`.
///
/// The node tree is built with an explicit stack, never by recursion, and the
/// event loop stops at the first event past a limit, so libyaml never reads
/// further into a hostile document than it has to.
enum YAMLReader {
    /// Parses `bytes` (UTF-8) into one document; throws the first problem, located.
    static func read(_ bytes: [UInt8], file: String) throws(Diagnostic) -> YAMLDocument {
        let result: Result<YAMLDocument, Diagnostic> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return .failure(Diagnostic(TreeBuilder.emptyMessage, at: SourceLocation(file: file, line: 1, column: 1)))
            }
            guard let handle = YAMLParserHandle.make() else {
                return .failure(Diagnostic("YAML: libyaml could not allocate a parser", file: file, kind: .software))
            }
            // A UTF-8 byte order mark is skipped here: with the encoding forced to UTF-8
            // (so that UTF-16 is an error, not silently read), libyaml would count it as a column.
            let bom: Int = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let text = UnsafeBufferPointer(rebasing: buffer[bom...])
            // libyaml keeps this pointer: `buffer` outlives the parser, which dies inside this closure.
            yaml_parser_set_input_string(handle.parser, base + bom, text.count)
            yaml_parser_set_encoding(handle.parser, YAML_UTF8_ENCODING)
            var builder = TreeBuilder(file: file, byteOffset: bom)
            return builder.run(handle.parser, bytes: text)
        }
        return try result.get()
    }
}

/// The event loop's state: the node arena, the stack of open containers, anchors.
private struct TreeBuilder {
    /// A mapping or sequence whose end event has not come yet.
    struct Frame {
        var node: NodeID
        var isMapping: Bool
        var items: [NodeID] = []
        var anchor: String?
    }

    /// Reported for input with no document, or nothing but comments.
    static let emptyMessage = "the recipe is empty: expected a mapping of recipe keys (pattern, duration, …)"

    let file: String
    var nodes: [YAMLNode] = []
    var stack: [Frame] = []
    var anchors: [String: NodeID] = [:]
    var aliasCount = 0
    var documentCount = 0
    var root: NodeID?

    /// Bytes before the text libyaml reads (a byte order mark), added to offsets shown.
    let byteOffset: Int

    init(file: String, byteOffset: Int = 0) {
        self.file = file
        self.byteOffset = byteOffset
    }

    /// Pulls events until the stream ends or a problem stops it; frees every event.
    mutating func run(_ parser: UnsafeMutablePointer<yaml_parser_t>, bytes: UnsafeBufferPointer<UInt8>) -> Result<YAMLDocument, Diagnostic> {
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) != 0 else {
                return .failure(parserError(parser.pointee, bytes: bytes))
            }
            let outcome = handle(event)
            yaml_event_delete(&event)
            switch outcome {
            case .next: continue
            case .failed(let diagnostic): return .failure(diagnostic)
            case .finished:
                guard let root else {
                    return .failure(Diagnostic(Self.emptyMessage, at: SourceLocation(file: file, line: 1, column: 1)))
                }
                return .success(YAMLDocument(nodes: nodes, root: root))
            }
        }
    }

    /// What the event loop does after one event.
    enum Outcome {
        case next, finished
        case failed(Diagnostic)
    }

    /// Applies one event to the tree.
    mutating func handle(_ event: yaml_event_t) -> Outcome {
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return .finished
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                return .failed(error("a recipe is one YAML document; found a second one", at: mark))
            }
            return .next
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            if let tag = Self.string(scalar.tag) { return .failed(tagged(tag, at: mark)) }
            let text = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
            let style: ScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            guard let id = newNode(.scalar(text, style), at: mark) else { return .failed(tooManyNodes(at: mark)) }
            if let anchor = Self.string(scalar.anchor) { anchors[anchor] = id }
            attach(id)
            return .next
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            if stack.count >= RecipeLimits.maxDepth {
                return .failed(error("nesting deeper than \(RecipeLimits.maxDepth) levels", at: mark))
            }
            let anchorPointer = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            if let tag = Self.string(isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag) {
                return .failed(tagged(tag, at: mark))
            }
            guard let id = newNode(isMapping ? .mapping([]) : .sequence([]), at: mark) else {
                return .failed(tooManyNodes(at: mark))
            }
            stack.append(Frame(node: id, isMapping: isMapping, anchor: Self.string(anchorPointer)))
            return .next
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return .next }
            if frame.isMapping {
                var pairs: [YAMLPair] = []
                pairs.reserveCapacity(frame.items.count / 2)
                var index = 0
                while index + 1 < frame.items.count {
                    pairs.append(YAMLPair(key: frame.items[index], value: frame.items[index + 1]))
                    index += 2
                }
                nodes[frame.node].content = .mapping(pairs)
            } else {
                nodes[frame.node].content = .sequence(frame.items)
            }
            if let anchor = frame.anchor { anchors[anchor] = frame.node }
            attach(frame.node)
            return .next
        case YAML_ALIAS_EVENT:
            aliasCount += 1
            if aliasCount > RecipeLimits.maxAliases {
                return .failed(error("more than \(RecipeLimits.maxAliases) aliases (*name); a recipe needs far fewer", at: mark))
            }
            let name = Self.string(event.data.alias.anchor) ?? ""
            if stack.contains(where: { $0.anchor == name }) {
                return .failed(error("alias '*\(DiagnosticText.clip(name))' refers to a node that contains it", at: mark))
            }
            guard let target = anchors[name] else {
                return .failed(error("alias '*\(DiagnosticText.clip(name))' has no anchor '&\(DiagnosticText.clip(name))' before it", at: mark))
            }
            // The alias gets its own node header, so that problems with the value as a
            // whole point where `*name` was written; the content (children, text) is
            // shared copy-on-write, never expanded.
            var reference = nodes[target]
            reference.mark = mark
            guard let id = newNode(reference.content, at: mark) else { return .failed(tooManyNodes(at: mark)) }
            attach(id)
            return .next
        default:
            return .next
        }
    }

    /// Adds a node to the arena, or nil past the node limit.
    mutating func newNode(_ content: YAMLNode.Content, at mark: YAMLMark) -> NodeID? {
        guard nodes.count < RecipeLimits.maxNodes else { return nil }
        nodes.append(YAMLNode(content: content, mark: mark))
        return nodes.count - 1
    }

    /// Hands a finished node to the open container, or makes it the document's root.
    mutating func attach(_ id: NodeID) {
        if stack.isEmpty {
            root = id
        } else {
            stack[stack.count - 1].items.append(id)
        }
    }

    /// The diagnostic for a node with an explicit tag (`!!python/object:…`, `!include`, even `!!str`).
    ///
    /// A recipe is plain text, lists and mappings: a tag can only be a mistake or an
    /// attempt to make a YAML library build objects, so it is refused, not ignored.
    func tagged(_ tag: String, at mark: YAMLMark) -> Diagnostic {
        let standard = "tag:yaml.org,2002:"
        let shown = tag.hasPrefix(standard) ? "!!" + tag.dropFirst(standard.count) : tag
        let (path, isKey) = currentPath()
        let subject = isKey ? "a key in '\(path.isEmpty ? "top level" : path)'" : (path.isEmpty ? "top level" : path)
        return error(
            "\(subject): expected a plain value, found the tag \(DiagnosticText.quoted(shown)) (YAML tags are not supported; remove it)",
            at: mark)
    }

    /// The dotted key path of the node being read (`cues.inhale`, `pattern.phases.0`), and whether it is a key.
    func currentPath() -> (path: String, isKey: Bool) {
        var parts: [String] = []
        for (index, frame) in stack.enumerated() {
            let isInnermost = index == stack.count - 1
            if !frame.isMapping {
                parts.append(String(frame.items.count))
            } else if frame.items.count % 2 == 1 {
                if let key = frame.items.last, case .scalar(let text, _) = nodes[key].content {
                    parts.append(DiagnosticText.clip(text))
                } else {
                    parts.append("?")  // the value of a key that is a list or mapping
                }
            } else if isInnermost {
                return (parts.joined(separator: "."), true)
            } else {
                parts.append("?")  // inside a mapping used as a key
            }
        }
        return (parts.joined(separator: "."), false)
    }

    /// The diagnostic for one node past `maxNodes`.
    func tooManyNodes(at mark: YAMLMark) -> Diagnostic {
        error("more than \(RecipeLimits.maxNodes) YAML nodes; a recipe needs far fewer", at: mark)
    }

    /// A diagnostic at a mark of this file.
    func error(_ message: String, at mark: YAMLMark) -> Diagnostic {
        Diagnostic(message, at: SourceLocation(file: file, line: mark.line, column: mark.column))
    }

    /// Turns libyaml's error state into a located diagnostic with its problem text.
    func parserError(_ parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        switch parser.error {
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset, not a mark.
            let offset = min(parser.problem_offset, bytes.count)
            let mark = Self.mark(ofByte: offset, in: bytes)
            let value = Int(parser.problem_value)
            var what = ""
            if problem.contains("UTF-8"), offset < bytes.count {
                what = " (0x\(Self.hex(Int(bytes[offset]), digits: 2)) at byte \(offset + byteOffset))"
            } else if value >= 0 {
                what = " (U+\(Self.hex(value, digits: 4)) at byte \(offset + byteOffset))"
            }
            return error("not valid UTF-8 YAML text: \(problem)\(what)", at: mark)
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            var mark = Self.withinText(
                YAMLMark(line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1), bytes: bytes)
            var message = "YAML syntax: \(problem)"
            let index = Int(parser.problem_mark.index)
            let isTab = index < bytes.count && bytes[index] == 0x09
            if isTab { message += " (a tab: tabs cannot indent YAML, use spaces)" }
            if let context = parser.context.map({ String(cString: $0) }) {
                message += " (\(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
            }
            if !isTab, let slip = Self.indentationSlip(line: mark.line, bytes: bytes) {
                // the line the author must fix, which may be the one above where libyaml stopped
                message += "; " + slip.hint
                if slip.line != mark.line { mark = YAMLMark(line: slip.line, column: slip.column) }
            } else if !isTab, let hint = Self.indentationHint(line: mark.line, bytes: bytes) {
                message += "; " + hint
            }
            return error(message, at: mark)
        case YAML_MEMORY_ERROR:
            return Diagnostic("YAML: libyaml ran out of memory", file: file, kind: .software)
        default:
            return error(
                "YAML: \(problem)",
                at: YAMLMark(
                    line: Int(parser.problem_mark.line) + 1,
                    column: Int(parser.problem_mark.column) + 1))
        }
    }

    /// The text's lines (split at LF, a CR before it dropped), as bytes.
    private static func lines(_ bytes: UnsafeBufferPointer<UInt8>) -> [ArraySlice<UInt8>] {
        Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false).map { $0.last == 0x0D ? $0.dropLast() : $0 }
    }

    /// libyaml puts an error at the end of the text on the line after the last one (the empty
    /// "line" after the final line break): it belongs at the end of the last line that has text.
    static func withinText(_ mark: YAMLMark, bytes: UnsafeBufferPointer<UInt8>) -> YAMLMark {
        let lines = lines(bytes)
        guard mark.line > 1, mark.line - 1 < lines.count, lines[mark.line - 1].isEmpty, mark.line == lines.count else { return mark }
        guard let last = lines.indices.last(where: { !lines[$0].allSatisfy { $0 == 0x20 } }) else { return mark }
        let characters = lines[last].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
        return YAMLMark(line: last + 1, column: characters + 1)
    }

    /// The indentation slip of two lines written as siblings, when libyaml stopped at line `number`:
    /// - a line between two siblings indented alike, at another indentation (`start: chime` at 0
    ///   between `exhale: …` and `end: chime` at 2): that line, though libyaml stops at the next;
    /// - a list item not lined up with the item above it (`- {…}` at 2 or 5 under one at 4);
    /// - a `key: value` line indented deeper than a `key: value` above it (which opens no block).
    /// Returns the line to fix (1-based), its first character's column and the explanation.
    static func indentationSlip(line number: Int, bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int, hint: String)? {
        let lines = lines(bytes)
        guard number >= 2, number <= lines.count else { return nil }
        func indent(_ line: ArraySlice<UInt8>) -> Int { line.prefix { $0 == 0x20 }.count }
        func isContent(_ line: ArraySlice<UInt8>) -> Bool {
            let rest = line.drop { $0 == 0x20 }
            return !rest.isEmpty && rest.first != 0x23  // not blank, not a comment
        }
        func isItem(_ line: ArraySlice<UInt8>) -> Bool {
            let rest = line.drop { $0 == 0x20 }
            return rest.first == 0x2D && (rest.count == 1 || rest.dropFirst().first == 0x20)  // `- …` or `-`
        }
        /// Ends in `:` (a key whose value is the block below), `-`, `|` or `>` (a block scalar), comments aside.
        func opensBlock(_ line: ArraySlice<UInt8>) -> Bool {
            var text = Array(line)
            if let hash = (1..<max(1, text.count)).first(where: { text[$0] == 0x23 && text[$0 - 1] == 0x20 }) { text = Array(text[..<hash]) }
            let last = text.reversed().first { $0 != 0x20 }
            return last == 0x3A || last == 0x2D || last == 0x7C || last == 0x3E
        }
        func spaces(_ n: Int) -> String { n == 1 ? "1 space" : "\(n) spaces" }
        let content = lines.indices.filter { $0 < number && isContent(lines[$0]) }  // 0-based, up to the error's line
        guard let here = content.last, here == number - 1, content.count >= 2 else { return nil }
        let above = content[content.count - 2]
        let (l, p) = (lines[here], lines[above])
        // the odd one out: the line above sits between two siblings indented alike
        if content.count >= 3 {
            let before = content[content.count - 3]
            let b = lines[before]
            if indent(b) == indent(l), indent(p) != indent(l), !opensBlock(b), !opensBlock(p), isItem(b) == isItem(l), isItem(p) == isItem(l) {
                return (
                    above + 1, indent(p) + 1,
                    "line \(above + 1) is indented \(spaces(indent(p))), but its siblings (lines \(before + 1) and \(here + 1)) are at "
                        + "\(indent(l)): indent it as they are"
                )
            }
        }
        if isItem(l), isItem(p), indent(l) != indent(p), !opensBlock(p) {
            return (
                here + 1, indent(l) + 1,
                "line \(here + 1) is a list item indented \(spaces(indent(l))), but the item above it (line \(above + 1)) is at "
                    + "\(indent(p)): items of one list line up"
            )
        }
        if !isItem(l), !isItem(p), indent(l) > indent(p), !opensBlock(p) {
            return (
                here + 1, indent(l) + 1,
                "line \(here + 1) is indented \(spaces(indent(l))), but its sibling above (line \(above + 1)) is at \(indent(p)), "
                    + "and that line's value is already written: indent it as line \(above + 1) is"
            )
        }
        return nil
    }

    /// "line 6 is indented 1 space, but the lines around it are at 0 or 2": when the line of a
    /// syntax error starts at an indentation that no enclosing block has (and it does not open
    /// a new block under a key ending in ':' or a list item), the indentation is the likely slip.
    static func indentationHint(line number: Int, bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let lines = lines(bytes)
        guard number >= 2, number <= lines.count else { return nil }
        func indent(_ line: ArraySlice<UInt8>) -> Int { line.prefix { $0 == 0x20 }.count }
        func isContent(_ line: ArraySlice<UInt8>) -> Bool {
            let rest = line.drop { $0 == 0x20 }
            return !rest.isEmpty && rest.first != 0x23  // not blank, not a comment
        }
        let here = lines[number - 1]
        guard isContent(here) else { return nil }
        let column = indent(here)
        // the enclosing levels: the line above, then each earlier line indented less
        var levels: [Int] = []
        var opensBlock = false
        for line in lines[..<(number - 1)].reversed() where isContent(line) {
            let level = indent(line)
            if levels.isEmpty {
                let trimmed = line.reversed().drop { $0 == 0x20 }
                opensBlock = trimmed.first == 0x3A || line.dropFirst(level).first == 0x2D  // `key:` or `- item`
            }
            if levels.last.map({ level < $0 }) ?? true { levels.append(level) }
            if level == 0 { break }
        }
        guard let above = levels.first, !levels.contains(column), !(opensBlock && column > above) else { return nil }
        let spaces = column == 1 ? "1 space" : "\(column) spaces"
        let around = levels.reversed().map(String.init).joined(separator: " or ")
        return "line \(number) is indented \(spaces), but the lines above it are at \(around): check its indentation"
    }

    /// The 1-based line and column (in characters) of a byte offset, counting line breaks as libyaml does.
    static func mark(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> YAMLMark {
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != 0x0D {
                column += 1
            }
            index += 1
        }
        return YAMLMark(line: line, column: column)
    }

    /// Upper-case hexadecimal, zero-padded to `digits`.
    static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A libyaml NUL-terminated string (anchor names), or nil.
    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
