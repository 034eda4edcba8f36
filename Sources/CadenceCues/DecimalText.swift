/// An exact decimal number kept as its text (`5.5`), written to JSON as a number.
///
/// Decoded text is the plain decimal without trailing zeros (`4.0` reads as `4`, `1e-9` as
/// `0.000000001`), the form the renderer builds it in, so a decoded pattern equals the one written.
public struct DecimalText: Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }
    public var value: Double { Double(text) ?? .nan }
}
