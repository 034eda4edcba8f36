import Foundation
import Testing

@testable import Schema

/// The digit patterns the schema's ranges are built from (`Grammar.whole`, `Grammar.decimal`): a
/// limit changed in `RecipeLimits` changes the pattern, so the builders must be right for any range,
/// not only for today's.
@Suite struct GrammarTests {
    /// Today's ranges, the edges of the digit-count logic, and ranges drawn at random.
    static let ranges: [ClosedRange<Int>] = {
        var ranges: [ClosedRange<Int>] = [
            0...120, 0...24, 0...19, 0...39, 0...16, 5...69, 10...39, 1...59, 1...8, 1...1000, 1...100_000, 8...383, 32...319,
            8000...384_000, 32000...320_000, 0...9, 0...0, 1...1, 9...10, 99...100, 0...99, 1...99, 100...999, 7350...96000,
        ]
        var random = SplitMix64(seed: 31)
        for _ in 0..<40 {
            let low = Int(random.next() % 5000), width = Int(random.next() % 20000)
            ranges.append(low...(low + width))
        }
        return ranges
    }()

    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The numbers to try for a range: every one up to a little past it when it is small, else its
    /// edges and random ones in and around it.
    static func probes(_ range: ClosedRange<Int>) -> [Int] {
        if range.upperBound <= 3000 { return Array(0...(range.upperBound + range.upperBound / 5 + 20)) }
        var out = [0, 1, 9, 10]
        for edge in [range.lowerBound, range.upperBound] { out += (max(0, edge - 25)...(edge + 25)).map { $0 } }
        var random = SplitMix64(seed: UInt64(range.upperBound))
        for _ in 0..<3000 { out.append(Int(random.next() % UInt64(range.upperBound * 2))) }
        return out
    }

    @Test(arguments: ranges)
    func wholeMatchesExactlyTheRange(_ range: ClosedRange<Int>) {
        let pattern = "^0*" + Grammar.group(Grammar.whole(range)) + "$"
        var wrong: [Int] = []
        for number in Self.probes(range) where Self.matches(pattern, String(number)) != range.contains(number) { wrong.append(number) }
        let right = wrong.isEmpty
        #expect(right, "\(pattern) is wrong for \(wrong.count) numbers: \(wrong.prefix(10))")
        // leading zeros are the caller's 0*
        #expect(Self.matches(pattern, "00" + String(range.lowerBound)))
    }

    @Test(arguments: ranges.filter { $0.upperBound > $0.lowerBound && $0.upperBound <= 100_000 })
    func decimalMatchesExactlyTheRange(_ range: ClosedRange<Int>) {
        let pattern = "^" + Grammar.decimal(range) + "$"
        let low = range.lowerBound, high = range.upperBound
        let cases: [(String, Bool)] = [
            ("\(low)", true), ("\(high)", true), ("\(high).0", true), ("\(high).000", true), ("\(high).01", false), ("\(high + 1)", false),
            ("\(high - 1).999", true), ("\(low).5", true), ("0\(high)", true), ("\(high)0", high == 0),
        ]
        for (text, inRange) in cases { #expect(Self.matches(pattern, text) == inRange, "\(pattern) on \(text)") }
        if low > 0 { #expect(!Self.matches(pattern, "\(low - 1).9"), "\(pattern) on \(low - 1).9") }
        #expect(Self.matches(pattern, ".5") == (low == 0), "\(pattern) on .5")
    }
}
