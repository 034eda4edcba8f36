import Catalog
import CatalogManifest
import Testing

/// `--bundle-budget`'s limit: what `render` passes to `ByteSize.parse`.
private let budgetLimit = Manifest.Limits.maxBundleBytes

/// The bytes `text` reads as, or nil when refused (under the budget's limit).
private func parsed(_ text: String, limit: Int64 = budgetLimit) -> Int64? { try? ByteSize.parse(text, limit: limit).get() }

@Suite("ByteSize: sizes as --bundle-budget reads them and the summary shows them")
struct ByteSizeTests {
    /// Decimal units are powers of 1000, binary ones powers of 1024, read exactly (recipe-v1.1 § Catalog delivery).
    static let accepted: [(text: String, bytes: Int64)] = [
        ("80MB", 80_000_000),
        ("80 MB", 80_000_000),
        ("  80MB\t", 80_000_000),
        ("1.5GB", 1_500_000_000),
        ("80MiB", 83_886_080),
        ("500kB", 500_000),
        ("80000000", 80_000_000),
        ("0.5KiB", 512),
        ("1KiB", 1024),
        ("1GiB", 1_073_741_824),
        ("2TB", 2_000_000_000_000),
        ("1TiB", 1_099_511_627_776),
        ("1B", 1),
        ("1.0B", 1),
        ("7 B", 7),
        ("0080MB", 80_000_000),
        ("1.000001MB", 1_000_001),
        ("1.50000000000000000000GB", 1_500_000_000),
        ("0.0625KiB", 64),
        ("0.5TiB", 549_755_813_888),
        ("62.4MB", 62_400_000),
    ]

    @Test("sizes in decimal and binary units read as exact byte counts", arguments: accepted.indices)
    func accepts(_ i: Int) {
        let c = Self.accepted[i]
        #expect(parsed(c.text) == c.bytes, "'\(c.text)' read as \(String(describing: parsed(c.text))), expected \(c.bytes)")
    }

    static let refused: [(text: String, says: String)] = [
        ("0", "above zero"),
        ("0MB", "above zero"),
        ("0.0GiB", "above zero"),
        ("1.5B", "a whole number of bytes"),
        ("0.5B", "a whole number of bytes"),
        ("0.001KiB", "a whole number of bytes"),
        ("1.0000001MB", "a whole number of bytes"),
        ("80 megs", "a size like 80MB or 80MiB"),
        ("80M", "a size like 80MB or 80MiB"),
        ("-5MB", "a size like 80MB or 80MiB"),
        ("", "a size like 80MB or 80MiB"),
        ("   ", "a size like 80MB or 80MiB"),
        ("MB", "a size like 80MB or 80MiB"),
        ("1.5.5MB", "a size like 80MB or 80MiB"),
        ("1e6", "a size like 80MB or 80MiB"),
        ("80MB extra", "a size like 80MB or 80MiB"),
        ("99999999999999999999TB", "up to"),
        ("9223372036854775807", "up to"),
        ("999999999999999TB", "up to"),
        ("9999999999999TiB", "up to"),
        ("300000TB", "up to"),
    ]

    @Test("what is not a whole, positive number of bytes within the limit is refused, quoting the text", arguments: refused.indices)
    func refuses(_ i: Int) {
        let c = Self.refused[i]
        switch ByteSize.parse(c.text, limit: budgetLimit) {
        case .success(let bytes): Issue.record("'\(c.text)' was read as \(bytes) bytes")
        case .failure(let error):
            #expect(error.description.contains("found '\(c.text)'"), "'\(c.text)': \(error)")
            #expect(error.description.contains(c.says), "'\(c.text)': expected '\(c.says)' in \(error)")
        }
    }

    @Test("the limit is inclusive")
    func limit() {
        #expect(parsed("2kB", limit: 2000) == 2000)
        #expect(parsed("2000", limit: 2000) == 2000)
        #expect(parsed("2001", limit: 2000) == nil)
        #expect(parsed("2.001kB", limit: 2000) == nil)
        #expect(parsed("\(budgetLimit + 1)") == nil)
        #expect(parsed("300000TB") == nil)
    }

    /// Exact sizes within the limit that take more digits than most: 1 PB in bytes (16 digits), the
    /// limit itself in bytes (18), and 128 MiB written as a 13-digit fraction of a TiB (2^40 × 5^13 / 10^13 = 2^27).
    static let longExact: [(text: String, bytes: Int64)] = [
        ("1000000000000000", 1_000_000_000_000_000),
        ("\(budgetLimit)", budgetLimit),
        ("0.0001220703125TiB", 134_217_728),
    ]

    @Test("an exact size within the limit is read however many digits it takes", arguments: longExact.indices)
    func longDigitStrings(_ i: Int) {
        let c = Self.longExact[i]
        switch ByteSize.parse(c.text, limit: budgetLimit) {
        case .success(let bytes): #expect(bytes == c.bytes, "'\(c.text)'")
        case .failure(let error): Issue.record("'\(c.text)' (\(c.bytes) bytes, within the limit of \(budgetLimit)) was refused: \(error)")
        }
    }

    static let formatted: [(bytes: Int64, text: String)] = [
        (62_400_000, "62.4 MB"),
        (80_000_000, "80.0 MB"),
        (83_886_080, "83.9 MB"),
        (812_000, "812.0 kB"),
        (1000, "1.0 kB"),
        (1_049_999, "1.0 MB"),
        (1_050_000, "1.1 MB"),
        (1_234_567_890, "1.2 GB"),
        (2_000_000_000_000, "2.0 TB"),
        (999, "999 B"),
        (512, "512 B"),
        (1, "1 B"),
        (0, "0 B"),
    ]

    @Test("format gives decimal units with one decimal, rounded half up, and bytes under 1 kB", arguments: formatted.indices)
    func format(_ i: Int) {
        let c = Self.formatted[i]
        #expect(ByteSize.format(c.bytes) == c.text, "\(c.bytes): '\(ByteSize.format(c.bytes))', expected '\(c.text)'")
    }

    @Test("format reaches the largest budget without overflowing")
    func formatLargest() {
        #expect(ByteSize.format(budgetLimit) == "219902.3 TB")
    }
}
