/// An exact decimal number kept as its text (`5.5`), written to JSON as a number.
///
/// The cue sheet keeps pattern lengths (`pattern.cycle`, `pattern.phases[].length`, a v1.1
/// phase's `length`) and a ramp's rates this way, so `5.5` stays 5.5 rather than the nearest
/// `Double`, and a sheet written and read back compares equal.
///
/// Only a JSON number can be held: `init(_:)` refuses any other text, and `text` cannot be set.
/// The text is always the plain decimal without trailing zeros, the form the renderer builds it
/// in and the decoder reads it as (`4.0` is held as `4`, `1e-9` as `0.000000001`, `-0` as `0`),
/// so two values are equal exactly when the numbers are.
public struct DecimalText: Sendable, Equatable, CustomStringConvertible {
    /// The number in its plain decimal form: an optional `-`, digits, and a fraction only if it is
    /// not a whole number (`16`, `5.5`, `-0.001`); never an exponent, a `+`, or a trailing zero after
    /// the point.
    public let text: String

    /// The number that `text` spells in JSON's grammar, or nil if `text` is not one.
    ///
    /// JSON's number grammar (RFC 8259 § 6) is `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, with
    /// nothing around it: `5.5`, `-0`, `1e-9`, `4.8E+5` are numbers; `1e`, `1.`, `.5`, `01`, `+1`,
    /// `0x10`, `NaN`, `Infinity`, `""` and `" 1"` are not. An exponent beyond ±10,000 is also refused
    /// (`1e10001`), as the cue sheet decoder refuses it: no cue sheet number comes near.
    ///
    /// The value is kept exactly and held in its plain form (see `text`): `DecimalText("4.0")?.text`
    /// is `"4"`, and `DecimalText("4.0") == DecimalText("4")`.
    public init?(_ text: String) {
        guard case .number(let written)? = try? JSONParser.parse(Array(text.utf8)), written == text,
            let exact = ExactDecimal(text)
        else { return nil }
        self.init(exact)
    }

    /// The decimal `units × 10^−decimalPlaces`: `DecimalText(55, decimalPlaces: 1)` is 5.5 and
    /// `DecimalText(5_500_000_000, decimalPlaces: 9)` (nanoseconds) is 5.5 too.
    ///
    /// Every value of the arguments is a number, so this never fails: for exact lengths held as
    /// integer counts (nanoseconds, micro-breaths a minute).
    public init(_ units: Int64, decimalPlaces: UInt8) {
        self.init(ExactDecimal(units: units, places: decimalPlaces))
    }

    /// An exact decimal already read (by the JSON reader or `init(_:)`), in its plain form.
    init(_ exact: ExactDecimal) { self.text = exact.plainText }

    /// `text`.
    public var description: String { text }

    /// The nearest `Double` to the number; ±infinity for one beyond `Double`'s range (`1e400`).
    public var value: Double { Double(text) ?? .nan }
}
