/// A parsed JSON document, numbers kept as their text so that integers and exact decimals read back exactly.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's text as written (`480000`, `4.0`, `2.0833333333333333e-05`): valid JSON number syntax.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members by key; keys are unique (the parser rejects a repeated key).
    case object([String: JSONValue])

    /// What a message calls this kind of value: `a string`, `an array`.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A short picture of the value for messages: numbers and short strings as written, others by kind.
    package var found: String {
        switch self {
        case .number(let text): text
        case .string(let s) where s.unicodeScalars.count <= 40: JSONText.string(s)
        case .bool(let b): b ? "true" : "false"
        default: kindName
        }
    }
}
