/// A small JSON writer with keys in the order they are written, for byte-stable output.
public struct JSONText {
    private(set) var out: String = ""
    private var indent = 0
    private var needsComma: [Bool] = [false]

    public init() {}

    /// A number as JSON: integers-valued doubles keep a `.0`, others the shortest text that reads back the same.
    public static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) + ".0" }
        return "\(x)"
    }

    /// A JSON string literal.
    public static func string(_ s: String) -> String {
        var r = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": r += "\\\""
            case "\\": r += "\\\\"
            case "\n": r += "\\n"
            case "\r": r += "\\r"
            case "\t": r += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                r += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: r.unicodeScalars.append(u)
            }
        }
        return r + "\""
    }

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { out += "," }
        needsComma[needsComma.count - 1] = true
        if indent > 0 { out += "\n" + String(repeating: "  ", count: indent) }
    }

    private mutating func key(_ k: String?) {
        separator()
        if let k { out += JSONText.string(k) + ": " }
    }

    public mutating func open(_ k: String? = nil, array: Bool = false) {
        key(k)
        out += array ? "[" : "{"
        indent += 1
        needsComma.append(false)
    }

    public mutating func close(array: Bool = false) {
        let hadItems = needsComma.removeLast()
        indent -= 1
        if hadItems { out += "\n" + String(repeating: "  ", count: indent) }
        out += array ? "]" : "}"
    }

    /// A one-line object, for the rows of long arrays.
    public mutating func inlineObject(_ fields: [(String, String)]) {
        key(nil)
        out += "{ " + fields.map { JSONText.string($0.0) + ": " + $0.1 }.joined(separator: ", ") + " }"
    }

    /// A bare value in an array.
    public mutating func inlineValue(_ value: String) {
        key(nil)
        out += value
    }

    public mutating func raw(_ k: String, _ value: String) {
        key(k)
        out += value
    }

    public mutating func field(_ k: String, _ s: String?) { raw(k, s.map(JSONText.string) ?? "null") }
    public mutating func field(_ k: String, _ n: Int64) { raw(k, String(n)) }
    public mutating func field(_ k: String, _ n: Int) { raw(k, String(n)) }
    public mutating func field(_ k: String, _ x: Double?) { raw(k, x.map(JSONText.number) ?? "null") }
    public mutating func field(_ k: String, _ b: Bool) { raw(k, b ? "true" : "false") }

    /// The document with a final newline.
    public var text: String { out + "\n" }
}
