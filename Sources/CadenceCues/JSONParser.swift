/// A strict JSON parser (RFC 8259) in plain Swift, so the module needs neither C nor a platform's JSONSerialization.
///
/// Numbers stay text (see `JSONValue.number`); strings must be valid UTF-8; a key
/// repeated in one object, trailing commas, comments and text after the document
/// are errors. A leading UTF-8 byte order mark is skipped. Errors point at a 1-based
/// line and column (columns count characters, not bytes).
///
/// Visible to the package's other targets (`package`), not to apps: the catalog's manifest
/// reader uses it too, and `locations(of:in:)` and `syntaxError(in:)` to place its messages.
package struct JSONParser {
    /// How deep arrays and objects may nest: a cue sheet needs 3; the limit keeps hostile input off the stack.
    package static let maximumDepth = 64

    private let bytes: [UInt8]
    private var at = 0
    private var depth = 0
    /// Only for `locations(of:in:)` and `syntaxError(in:)`: keep the key path of each value being
    /// read (`trail`, innermost last) and note the offset where each path in `targets` starts.
    private var tracking = false
    private var trail: [String] = [""]
    private var targets: Set<String> = []
    private var found: [String: Int] = [:]

    /// Parses one JSON document.
    package static func parse(_ bytes: [UInt8]) throws(CueSheetError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        do {
            return try parser.document()
        } catch {
            let (line, column) = parser.lineAndColumn(of: error.offset)
            throw .malformed(reason: error.reason, line: line, column: column)
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    struct SyntaxError: Error {
        var reason: String
        var offset: Int
    }

    private mutating func document() throws(SyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
        skipSpace()
        guard at < bytes.count else { throw SyntaxError(reason: "empty document", offset: at) }
        let value = try self.value()
        skipSpace()
        guard at == bytes.count else { throw SyntaxError(reason: "unexpected text after the document", offset: at) }
        return value
    }

    private mutating func value() throws(SyntaxError) -> JSONValue {
        guard at < bytes.count else { throw SyntaxError(reason: "unexpected end of document, expected a value", offset: at) }
        if tracking, let path = trail.last, targets.contains(path), found[path] == nil { found[path] = at }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw SyntaxError(reason: "expected a value, found \(describeByte(at))", offset: at)
        }
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        try enter()
        at += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if peek(UInt8(ascii: "}")) {
            at += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard peek(UInt8(ascii: "\"")) else {
                throw SyntaxError(reason: "expected a key in double quotes, found \(describeByte(at))", offset: at)
            }
            let keyOffset = at
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"), "':' after the key")
            skipSpace()
            if tracking { trail.append(Self.path(trail.last ?? "", key: key)) }
            let value = try self.value()
            if members.updateValue(value, forKey: key) != nil {
                throw SyntaxError(reason: "key \(JSONText.string(key)) appears twice in one object", offset: keyOffset)
            }
            if tracking { trail.removeLast() }
            skipSpace()
            if peek(UInt8(ascii: ",")) {
                at += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        try enter()
        at += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek(UInt8(ascii: "]")) {
            at += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipSpace()
            if tracking { trail.append((trail.last ?? "") + "[\(items.count)]") }
            items.append(try value())
            if tracking { trail.removeLast() }
            skipSpace()
            if peek(UInt8(ascii: ",")) {
                at += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            depth -= 1
            return .array(items)
        }
    }

    /// A string literal: escapes decoded, surrogate pairs joined, UTF-8 checked.
    private mutating func string() throws(SyntaxError) -> String {
        let start = at
        at += 1
        var utf8: [UInt8] = []
        while true {
            guard at < bytes.count else { throw SyntaxError(reason: "unterminated string", offset: start) }
            let b = bytes[at]
            switch b {
            case UInt8(ascii: "\""):
                at += 1
                let s = String(decoding: utf8, as: UTF8.self)
                guard s.utf8.elementsEqual(utf8) else { throw SyntaxError(reason: "string is not valid UTF-8", offset: start) }
                return s
            case UInt8(ascii: "\\"):
                let escapeOffset = at
                at += 1
                guard at < bytes.count else { throw SyntaxError(reason: "unterminated string", offset: start) }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(e)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try unicodeEscape(escapeOffset)
                    UTF8.encode(scalar) { utf8.append($0) }
                default:
                    // The byte itself only when printable: a line break or an escape code must not reach the message.
                    let shown = e > 0x20 && e < 0x7F ? "'\\\(Character(Unicode.Scalar(e)))'" : "'\\' followed by \(describeByte(at - 1))"
                    throw SyntaxError(reason: "invalid escape \(shown)", offset: escapeOffset)
                }
            case 0..<0x20:
                throw SyntaxError(reason: "control character U+\(hex4(UInt32(b))) in a string (write it escaped)", offset: at)
            default:
                utf8.append(b)
                at += 1
            }
        }
    }

    /// `\uXXXX` (the `\u` already read), or a surrogate pair `\uD83D\uDE00`.
    private mutating func unicodeEscape(_ escapeOffset: Int) throws(SyntaxError) -> Unicode.Scalar {
        let high = try hexQuad(escapeOffset)
        if (0xDC00...0xDFFF).contains(high) {
            throw SyntaxError(reason: "lone low surrogate \\u\(hex4(high))", offset: escapeOffset)
        }
        guard (0xD800...0xDBFF).contains(high) else {
            // Not a surrogate, so a valid scalar.
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        }
        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
            throw SyntaxError(reason: "high surrogate \\u\(hex4(high)) without a low surrogate after it", offset: escapeOffset)
        }
        at += 2
        let low = try hexQuad(at - 2)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw SyntaxError(reason: "high surrogate \\u\(hex4(high)) followed by \\u\(hex4(low))", offset: escapeOffset)
        }
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private mutating func hexQuad(_ escapeOffset: Int) throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard at < bytes.count, let digit = Self.hexValue(bytes[at]) else {
                throw SyntaxError(reason: "\\u must be followed by four hex digits", offset: escapeOffset)
            }
            value = value << 4 | digit
            at += 1
        }
        return value
    }

    /// A number, checked against JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() throws(SyntaxError) -> String {
        let start = at
        if peek(UInt8(ascii: "-")) { at += 1 }
        if peek(UInt8(ascii: "0")) {
            at += 1
            if at < bytes.count, Self.isDigit(bytes[at]) {
                throw SyntaxError(reason: "a number may not start with 0 followed by more digits", offset: start)
            }
        } else {
            guard digits() > 0 else { throw SyntaxError(reason: "expected digits in the number", offset: at) }
        }
        if peek(UInt8(ascii: ".")) {
            at += 1
            guard digits() > 0 else { throw SyntaxError(reason: "expected digits after the decimal point", offset: at) }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            at += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { at += 1 }
            guard digits() > 0 else { throw SyntaxError(reason: "expected digits in the exponent", offset: at) }
        }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = at
        while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
        return at - start
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let start = at
        let expected = Array(word.utf8)
        guard bytes.count - at >= expected.count, bytes[at..<at + expected.count].elementsEqual(expected) else {
            throw SyntaxError(reason: "expected a value, found \(describeByte(start))", offset: start)
        }
        at += expected.count
    }

    private mutating func enter() throws(SyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw SyntaxError(reason: "arrays and objects nested more than \(Self.maximumDepth) deep", offset: at)
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        guard peek(byte) else { throw SyntaxError(reason: "expected \(what), found \(describeByte(at))", offset: at) }
        at += 1
    }

    private func peek(_ byte: UInt8) -> Bool { at < bytes.count && bytes[at] == byte }

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    /// The byte at `offset` for a message: `'x'`, `end of document`, or a code for the invisible.
    private func describeByte(_ offset: Int) -> String {
        guard offset < bytes.count else { return "end of document" }
        let b = bytes[offset]
        if b >= 0x21, b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return b < 0x80 ? "U+\(hex4(UInt32(b)))" : "a non-ASCII character"
    }

    /// 1-based line and column of a byte offset; the column counts characters (UTF-8 lead bytes).
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        Self.lineAndColumn(of: [offset], in: bytes)[0]
    }

    /// 1-based lines and columns of byte offsets (in any order), in one pass over the text.
    static func lineAndColumn(of offsets: [Int], in bytes: [UInt8]) -> [(line: Int, column: Int)] {
        var answers = [(line: Int, column: Int)](repeating: (1, 1), count: offsets.count)
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var line = 1
        var column = 1
        var at = 0
        for i in order {
            let offset = min(max(offsets[i], 0), bytes.count)
            while at < offset {
                let b = bytes[at]
                if b == 0x0A {
                    line += 1
                    column = 1
                } else if b & 0xC0 != 0x80 {
                    column += 1
                }
                at += 1
            }
            answers[i] = (line, column)
        }
        return answers
    }

    /// The key path of member `key` of the value at `parent`, spelt as `JSONObjectReader.path(_:)` spells it.
    private static func path(_ parent: String, key: String) -> String { parent.isEmpty ? key : parent + "." + key }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

private func hex4(_ value: UInt32) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
}

// MARK: - Places, for messages

extension JSONParser {
    /// Where each of `paths` starts in a document that parses: its 1-based line and column.
    ///
    /// Paths are spelt as `JSONObjectReader` spells them (`tracks[3].file`, `shard.catalog[0]`;
    /// the root is `""`), so a key holding `.` or `[` cannot be named, which is no loss for
    /// messages about keys a reader asked for. A path not in the document is left out of the answer.
    /// This reads the document a second time, keeping track of paths: for messages, not the common path.
    package static func locations(of paths: Set<String>, in bytes: [UInt8]) -> [String: (line: Int, column: Int)] {
        var parser = JSONParser(bytes: bytes)
        parser.tracking = true
        parser.targets = paths
        _ = try? parser.document()
        let located = Array(parser.found)
        let places = lineAndColumn(of: located.map(\.value), in: bytes)
        var answer: [String: (line: Int, column: Int)] = [:]
        for (i, entry) in located.enumerated() { answer[entry.key] = places[i] }
        return answer
    }

    /// Why a document does not parse, where (1-based), and the key path of the innermost value being
    /// read there (`tracks[0].file` for a key given twice in `tracks[0]`; `""` at the root); nil if it parses.
    package static func syntaxError(in bytes: [UInt8]) -> (reason: String, line: Int, column: Int, path: String)? {
        var parser = JSONParser(bytes: bytes)
        parser.tracking = true
        do {
            _ = try parser.document()
            return nil
        } catch {
            let (line, column) = parser.lineAndColumn(of: error.offset)
            return (error.reason, line, column, parser.trail.last ?? "")
        }
    }
}
