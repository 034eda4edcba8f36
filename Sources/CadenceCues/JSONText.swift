/// A small JSON writer with keys in the order they are written, for byte-stable output.
///
/// `CueSheet.jsonText()` and the renderer's other JSON files are written with it: objects and
/// arrays are opened and closed in order, each member on its own line indented by two spaces,
/// or a whole object on one line (`inlineObject(_:)`). Values are given as JSON text, made by
/// `number(_:)` and `string(_:)`; nothing checks that a `raw` value is JSON.
public struct JSONText {
    private(set) var out: String = ""
    private var indent = 0
    private var needsComma: [Bool] = [false]

    /// An empty document.
    public init() {}

    /// A number as JSON: integer-valued doubles below 10¹⁵ keep a `.0` (`4.0`), others the shortest
    /// text that reads back the same (`0.1`, `2.0833333333333333e-05`); `null` for NaN and infinities.
    public static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) + ".0" }
        return "\(x)"
    }

    /// A JSON string literal: quotes, backslash and control characters escaped (`\n`, `\u001b`),
    /// everything else as it is.
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

    /// Opens an object (or, with `array`, an array): as the member `k` of the enclosing object, or
    /// as a value (the document, an array's item) when `k` is nil.
    public mutating func open(_ k: String? = nil, array: Bool = false) {
        key(k)
        out += array ? "[" : "{"
        indent += 1
        needsComma.append(false)
    }

    /// Closes the object (or, with `array`, the array) opened last.
    public mutating func close(array: Bool = false) {
        let hadItems = needsComma.removeLast()
        indent -= 1
        if hadItems { out += "\n" + String(repeating: "  ", count: indent) }
        out += array ? "]" : "}"
    }

    /// A one-line object, for the rows of long arrays: each field a key and its value's JSON text.
    public mutating func inlineObject(_ fields: [(String, String)]) {
        key(nil)
        out += "{ " + fields.map { JSONText.string($0.0) + ": " + $0.1 }.joined(separator: ", ") + " }"
    }

    /// A bare value in an array, as JSON text.
    public mutating func inlineValue(_ value: String) {
        key(nil)
        out += value
    }

    /// The member `k` with `value`, JSON text written as it is.
    public mutating func raw(_ k: String, _ value: String) {
        key(k)
        out += value
    }

    /// The member `k` with a string, or `null` for nil.
    public mutating func field(_ k: String, _ s: String?) { raw(k, s.map(JSONText.string) ?? "null") }
    /// The member `k` with an integer.
    public mutating func field(_ k: String, _ n: Int64) { raw(k, String(n)) }
    /// The member `k` with an integer.
    public mutating func field(_ k: String, _ n: Int) { raw(k, String(n)) }
    /// The member `k` with a number (see `number(_:)`), or `null` for nil.
    public mutating func field(_ k: String, _ x: Double?) { raw(k, x.map(JSONText.number) ?? "null") }
    /// The member `k` with `true` or `false`.
    public mutating func field(_ k: String, _ b: Bool) { raw(k, b ? "true" : "false") }

    /// The document with a final newline.
    public var text: String { out + "\n" }

    /// The text written since the last `take`, handed over and forgotten (a writer that streams a
    /// long document empties it now and then; the document's end, `text`, follows the last take).
    public mutating func take() -> String {
        defer { out = "" }
        return out
    }

    /// The UTF-8 bytes waiting to be taken.
    public var pendingBytes: Int { out.utf8.count }
}
