import AudioCore
import Recipe
import Testing

/// `ExactSeconds.durationText`, the way messages show a length: as an author writes it, and
/// read back by the recipe's own duration reader to the same exact value.
@Suite struct DurationTextTests {
    static let cases: [(nanoseconds: Int64, text: String)] = [
        (0, "0s"), (300_000_000, "300ms"), (1_500_000, "0.0015s"), (5_500_000_000, "5.5s"), (16_000_000_000, "16s"),
        (60_000_000_000, "60s"), (90_000_000_000, "90s"), (119_999_000_000, "119.999s"), (120_000_000_000, "2m"),
        (1_380_000_000_000, "23m"), (150_500_000_000, "2m30.5s"), (7_800_000_000_000, "2h10m"), (3_600_000_000_000, "1h"),
        (86_400_000_000_000, "24h"), (3_661_000_000_001, "1h1m1.000000001s"),
    ]

    @Test("a length reads as an author writes it, and back to the same exact value", arguments: cases.indices)
    func readsBack(_ i: Int) throws {
        let (nanoseconds, text) = Self.cases[i]
        let length = ExactSeconds(nanoseconds: nanoseconds)
        #expect(length.durationText == text)
        #expect(try Units.duration(text).get() == length)
    }
}
