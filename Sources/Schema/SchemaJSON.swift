import CadenceCues

/// A JSON value whose objects keep their keys in the order written, for the schema files.
///
/// Written with literals (`["type": "string", "minLength": 1]` keeps that order) and printed by
/// `text` the way the schema files have always been laid out: two-space indents, and a list of
/// plain values (strings, numbers, booleans, null) on one line when that line is at most 90
/// characters.
// Not `indirect`: arrays already hold the nested values, and LeakSanitizer reports the payload boxes
// of an all-`indirect` enum kept in static lets as leaked (seen with Swift 6.3.1).
public enum SchemaJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([SchemaJSON])
    case object([(String, SchemaJSON)])

    public static func == (a: SchemaJSON, b: SchemaJSON) -> Bool { a.text == b.text }

    /// The member `key` of an object, nil for another value or a missing key.
    public subscript(key: String) -> SchemaJSON? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.0 == key }?.1
        }
        set {
            guard case .object(var members) = self else { return }
            if let index = members.firstIndex(where: { $0.0 == key }) {
                if let newValue { members[index].1 = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
            self = .object(members)
        }
    }

    /// This object with `other`'s members added: a key both have keeps its place and takes `other`'s value.
    public func merging(_ other: SchemaJSON) -> SchemaJSON {
        guard case .object(let members) = other else { return self }
        var out = self
        for (key, value) in members { out[key] = value }
        return out
    }

    /// The document as the files hold it, without the final newline.
    public var text: String {
        var out = ""
        write(to: &out, indent: 0)
        return out
    }

    private var isPlain: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private func write(to out: inout String, indent: Int) {
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .double(let x): out += "\(x)"
        case .string(let s): out += JSONText.string(s)
        case .array(let items):
            guard !items.isEmpty else { return out += "[]" }
            if items.allSatisfy(\.isPlain) {
                let line = "[" + items.map(\.text).joined(separator: ", ") + "]"
                if line.unicodeScalars.count <= 90 { return out += line }
            }
            out += "["
            for (index, item) in items.enumerated() {
                out += (index == 0 ? "\n" : ",\n") + inner
                item.write(to: &out, indent: indent + 1)
            }
            out += "\n" + String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { return out += "{}" }
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                out += (index == 0 ? "\n" : ",\n") + inner + JSONText.string(key) + ": "
                value.write(to: &out, indent: indent + 1)
            }
            out += "\n" + String(repeating: "  ", count: indent) + "}"
        }
    }

}

extension SchemaJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: SchemaJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, SchemaJSON)...) { self = .object(elements) }
}

extension SchemaJSON {
    /// Texts as a JSON list.
    static func strings(_ texts: [String]) -> SchemaJSON { .array(texts.map(SchemaJSON.string)) }
    /// Whole numbers as a JSON list.
    static func ints(_ numbers: [Int]) -> SchemaJSON { .array(numbers.map(SchemaJSON.int)) }
}
