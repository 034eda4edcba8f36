import CadenceCues
import Foundation
import TestKit
import Testing

/// `DecimalText` holds only a JSON number's text (issue 17: its initializer took any text, which
/// `jsonText()` then wrote into the sheet as invalid JSON, `"cycle": 1e.0`).
@Suite struct DecimalTextTests {
    /// JSON numbers, each with the plain form it is held in.
    static let numbers: [(written: String, held: String)] = [
        ("0", "0"), ("-0", "0"), ("0.0", "0"), ("-0.0e5", "0"),
        ("16", "16"), ("4.0", "4"), ("5.5", "5.5"), ("5.50", "5.5"), ("-0.001", "-0.001"), ("10", "10"), ("100.00", "100"),
        ("1e-9", "0.000000001"), ("1E2", "100"), ("4.8E+5", "480000"), ("4.8e5", "480000"), ("1.50e0", "1.5"), ("25e-1", "2.5"),
        ("0e0", "0"), ("-1.5E-3", "-0.0015"), ("5.454545", "5.454545"), ("0.000000001", "0.000000001"),
        ("123456789012345678901234567890.5", "123456789012345678901234567890.5"),
        ("1e10000", "1" + String(repeating: "0", count: 10_000)),
        ("1e-10000", "0." + String(repeating: "0", count: 9_999) + "1"),
    ]

    /// Texts that are not a JSON number (RFC 8259 § 6), or one with an exponent beyond the reader's ±10,000.
    static let notNumbers = [
        "", " ", " 1", "1 ", "\t1", "1\n", "\u{FEFF}1", "1e", "1E", "1e+", "1e-", "1.", "-1.", ".5", "-.5", "01", "-01", "00", "0.5.5",
        "+1", "-", "--1", "- 1", "1e+-1", "1e1.5", "1e5e5", "1.e5", "NaN", "nan", "-NaN", "Infinity", "-Infinity", "inf", "0x10",
        "1_000", "1,5", "1f", "1e999999999999999999999", "1e10001", "1e-10001", "\u{FF11}", "\u{0663}", "\"1\"", "null", "true",
        "[1]", "{}", "1 2", "1//", "1\u{0}",
    ]

    @Test(arguments: numbers)
    func acceptsAJSONNumberInItsPlainForm(written: String, held: String) throws {
        let decimal = try #require(DecimalText(written), "\(written.debugDescription) is a JSON number")
        #expect(decimal.text == held)
        #expect(decimal.description == held)
        #expect(decimal == DecimalText(held), "a number equals its plain form")
    }

    @Test(arguments: notNumbers)
    func refusesWhatIsNotAJSONNumber(text: String) {
        #expect(DecimalText(text) == nil, "\(text.debugDescription) is not a JSON number")
    }

    /// What is held is written as a JSON number and read back equal, whatever form it was given in.
    @Test(arguments: numbers)
    func writesAJSONNumberThatReadsBackEqual(written: String, held: String) throws {
        let decimal = try #require(DecimalText(written))
        var sheet = try Fixture.boxSheet()
        sheet.pattern.cycle = decimal
        sheet.pattern.phases[0].length = decimal
        let text = sheet.jsonText()
        let expected = held.contains(".") ? held : held + ".0"
        #expect(text.contains(#""cycle": \#(expected),"#), "\(text.prefix(600))")
        let back = try CueSheet.decode(from: text)
        #expect(back == sheet)
        #expect(back.pattern.cycle == decimal)
        #expect(back.jsonText() == text)
    }

    /// The decoder holds numbers exactly as `init(_:)` does: `1.50e0` in the JSON is `DecimalText("1.5")`.
    @Test func decodesInTheSameFormAsTheInitializer() throws {
        for (written, held) in Self.numbers where held.count < 40 {
            let text = try Fixture.edit(Fixture.box, [(of: #""cycle": 16.0,"#, with: #""cycle": \#(written),"#)])
            let sheet = try CueSheet.decode(from: text)
            #expect(sheet.pattern.cycle == DecimalText(written), "\(written)")
            #expect(sheet.pattern.cycle.text == held)
        }
    }

    @Test func unitsAndDecimalPlacesAreExact() throws {
        #expect(DecimalText(55, decimalPlaces: 1).text == "5.5")
        #expect(DecimalText(5_500_000_000, decimalPlaces: 9).text == "5.5")
        #expect(DecimalText(16, decimalPlaces: 0).text == "16")
        #expect(DecimalText(0, decimalPlaces: 9).text == "0")
        #expect(DecimalText(-15, decimalPlaces: 1).text == "-1.5")
        #expect(DecimalText(-5, decimalPlaces: 1).text == "-0.5")
        #expect(DecimalText(5_454_545, decimalPlaces: 6).text == "5.454545")
        #expect(DecimalText(1, decimalPlaces: 255).text == "0." + String(repeating: "0", count: 254) + "1")
        #expect(DecimalText(.max, decimalPlaces: 0).text == "9223372036854775807")
        #expect(DecimalText(.min, decimalPlaces: 0).text == "-9223372036854775808")
        #expect(DecimalText(.min, decimalPlaces: 19).text == "-0.9223372036854775808")
        // the renderer's text for exact nanoseconds (`ExactSeconds.description`), which `init(_:decimalPlaces:)` replaced
        var random = SplitMix64(seed: 17)
        for _ in 0..<2000 {
            let nanoseconds = Int64.random(in: 0...86_400_000_000_000, using: &random)
            let decimal = DecimalText(nanoseconds, decimalPlaces: 9)
            #expect(decimal.text == Synthetic.decimal(nanoseconds))
            #expect(decimal == DecimalText(Synthetic.decimal(nanoseconds)))
        }
    }

    @Test func valueIsTheNearestDouble() throws {
        #expect(try #require(DecimalText("5.5")).value == 5.5)
        #expect(try #require(DecimalText("1e-9")).value == 1e-9)
        #expect(try #require(DecimalText("-0")).value == 0)
        #expect(try #require(DecimalText("1e400")).value == .infinity)
        #expect(try #require(DecimalText("-1e400")).value == -.infinity)
        #expect(try #require(DecimalText("1e-400")).value == 0)
    }
}
