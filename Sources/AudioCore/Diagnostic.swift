/// A place in a text file: 1-based line and column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
    public var description: String { "\(file):\(line):\(column)" }
}

/// What kind of failure a diagnostic reports; decides the exit status (sysexits).
public enum FailureKind: Int32, Sendable, Comparable {
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: the recipe or an asset's content is wrong.
    case data = 65
    /// EX_NOINPUT: a recipe or asset file is missing or unreadable.
    case noInput = 66
    /// EX_SOFTWARE: a bug or a library failing in a way input cannot explain.
    case software = 70
    /// EX_CANTCREAT: an output file cannot be created or written.
    case cannotCreate = 73
    /// EX_IOERR: reading or writing failed midway.
    case ioError = 74

    public static func < (a: FailureKind, b: FailureKind) -> Bool { a.rawValue < b.rawValue }
}

/// One problem found in an input, printed gcc-style: `file:line:col: error: message`.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var location: SourceLocation?
    /// A file the problem is in when no line applies (an asset, an output path).
    public var file: String?
    public var message: String
    public var kind: FailureKind

    public init(_ message: String, at location: SourceLocation?, kind: FailureKind = .data) {
        self.location = location
        self.file = location?.file
        self.message = message
        self.kind = kind
    }

    public init(_ message: String, file: String?, kind: FailureKind) {
        self.location = nil
        self.file = file
        self.message = message
        self.kind = kind
    }

    public var description: String {
        if let location { return "\(location): error: \(message)" }
        if let file { return "\(file): error: \(message)" }
        return "error: \(message)"
    }
}

/// Several diagnostics at once: every problem of a recipe, so an author fixes them in one go.
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    /// The exit status: the most specific failure (no input beats bad data).
    public var kind: FailureKind {
        if diagnostics.contains(where: { $0.kind == .noInput }) { return .noInput }
        return diagnostics.map(\.kind).max() ?? .data
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
