import AudioIO
import CadenceCues
import Foundation

// Exact decimal time, reading files back, and the `render` binary: what the end-to-end
// targets (RenderTests, RenderCommandTests, EndToEndTests, CatalogTests) share beyond folders and processes.

// MARK: - Exact decimal time (independent of the renderer's ExactSeconds)

/// A non-negative decimal number of seconds held exactly as picoseconds.
///
/// Parses the plain forms the tests write in recipes (`10.00001`, `1.23456s`,
/// `800ms`, `0:12.3456789`) so that expected frames come from the recipe's
/// text by integer arithmetic alone.
public struct Seconds: Equatable, Comparable, CustomStringConvertible, Sendable {
    public static let scale: Int128 = 1_000_000_000_000
    public var picoseconds: Int128

    public init(picoseconds: Int128) { self.picoseconds = picoseconds }

    public init(_ text: String) {
        var t = text.trimmingCharacters(in: .whitespaces)
        var unit: Int128 = Self.scale
        if t.hasSuffix("ms") { t.removeLast(2); unit = Self.scale / 1000 } else if t.hasSuffix("s") { t.removeLast() }
        if t.contains(":") {
            let parts = t.split(separator: ":").map(String.init)
            precondition(parts.count == 2 || parts.count == 3, "not m:s or h:m:s: \(text)")
            let weights: [Int128] = parts.count == 3 ? [3600, 60, 1] : [60, 1]
            var total = Seconds(picoseconds: 0)
            for (part, weight) in zip(parts, weights) {
                total.picoseconds += Seconds(part).picoseconds * weight
            }
            self = total
            return
        }
        let pieces = t.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        precondition(pieces.count <= 2, "not a decimal: \(text)")
        let whole = Int128(pieces[0].isEmpty ? "0" : pieces[0])!
        var value = whole * Self.scale
        if pieces.count == 2 {
            let digits = pieces[1]
            precondition(digits.count <= 12, "too many digits: \(text)")
            let padded = digits + String(repeating: "0", count: 12 - digits.count)
            value += Int128(padded)!
        }
        picoseconds = value * unit / Self.scale
    }

    /// `floor(self × rate + 1/2)`, the spec's boundary rule, in integers.
    public func frame(at rate: Int) -> Int64 {
        Int64((2 * picoseconds * Int128(rate) + Self.scale) / (2 * Self.scale))
    }

    public var double: Double { Double(picoseconds) / Double(Self.scale) }
    public var description: String { "\(double)s" }

    public static func + (a: Seconds, b: Seconds) -> Seconds { Seconds(picoseconds: a.picoseconds + b.picoseconds) }
    public static func - (a: Seconds, b: Seconds) -> Seconds { Seconds(picoseconds: a.picoseconds - b.picoseconds) }
    public static func * (a: Seconds, n: Int) -> Seconds { Seconds(picoseconds: a.picoseconds * Int128(n)) }
    public static func < (a: Seconds, b: Seconds) -> Bool { a.picoseconds < b.picoseconds }
    public static let zero = Seconds(picoseconds: 0)
}

// MARK: - Files

/// Every byte of a file.
public func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// SHA-256 of a file as lower-case hex: `sha256sum` when installed, else OpenSSL through AudioIO.
public func sha256(ofFile path: String) throws -> String {
    if let tool = which("sha256sum") {
        let result = try run(tool, [path])
        guard result.status == 0, let hex = result.stdout.split(separator: " ").first else {
            throw TestFailure("sha256sum \(path) failed: \(result.stderr)")
        }
        return String(hex)
    }
    return SHA256Hasher.hex(SHA256Hasher.digest(try bytes(path)))
}

/// Reads and validates a cue sheet with CadenceCues' reader, as a player app would.
public func readCueSheet(_ path: String) throws -> CueSheet {
    try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The 1-based line and column of the `occurrence`th `needle` in `text` (the first by default); nil when there are fewer.
public func position(of needle: String, in text: String, occurrence: Int = 1) -> (line: Int, column: Int)? {
    var from = text.startIndex
    var found: String.Index?
    for _ in 0..<occurrence {
        guard let range = text.range(of: needle, range: from..<text.endIndex) else { return nil }
        found = range.lowerBound
        from = range.upperBound
    }
    guard let found else { return nil }
    let before = text[..<found]
    let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
    return (before.filter { $0 == "\n" }.count + 1, before.distance(from: lineStart, to: before.endIndex) + 1)
}

// MARK: - The render binary

/// `renderExecutable`, or a failure that says how to provide it.
public func renderPath() throws -> String {
    guard let executable = renderExecutable else {
        throw TestFailure(
            "the 'render' executable was not found next to the test binary (\(CommandLine.arguments.first ?? "?")); build it or set CADENCE_RENDER")
    }
    return executable
}
