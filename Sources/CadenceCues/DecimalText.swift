/// An exact decimal number kept as its text (`5.5`), written to JSON as a number.
///
/// Decoded text is the plain decimal without trailing zeros (`4.0` reads as `4`, `1e-9` as
/// `0.000000001`), the form the renderer builds it in, so a decoded pattern equals the one written.
/// `CueSheet.decode(from:)` keeps every digit as written; `Decodable` goes through `Double`.
public struct DecimalText: Sendable, Equatable, Codable, CustomStringConvertible {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }
    public var value: Double { Double(text) ?? .nan }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let number = try container.decode(Double.self)
        let shortest = JSONText.number(number)
        self.text = ExactDecimal(shortest)?.plainText ?? shortest
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
