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

/// What kind of failure a diagnostic reports. The command line chooses the exit status from
/// it (`ExitStatus` in RenderCommand); this layer knows no exit numbers.
///
/// The cases are declared in rising precedence (`Comparable` follows that order): when a
/// run fails in several ways, `DiagnosticList.kind` reports `noInput` if any, else the
/// highest of them.
public enum FailureKind: Sendable, Comparable, CaseIterable {
    /// The command line is wrong.
    case usage
    /// A setting the job was given is wrong: an output path render cannot write, a folder given
    /// twice. The command line reports it as it reports its own mistakes (a usage error).
    case setting
    /// The recipe or an asset's content is wrong.
    case data
    /// A recipe or asset file is missing or unreadable.
    case noInput
    /// A bug, or a library failing in a way input cannot explain.
    case software
    /// An output file cannot be created or written.
    case cannotCreate
    /// Reading or writing failed midway.
    case ioError
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

    /// True for a warning: something the author likely did not mean, that does not stop the render.
    public var isWarning = false

    /// The setting of the job the message names, in words (`SettingWords`), if any: a front end
    /// prints it its own way (`message(spelling:)`).
    public var setting: SettingMention?

    /// The same message as a warning.
    public func asWarning() -> Diagnostic {
        var warning = self
        warning.isWarning = true
        return warning
    }

    public var description: String {
        let label = isWarning ? "warning" : "error"
        if let location { return "\(location): \(label): \(message)" }
        if let file { return "\(file): \(label): \(message)" }
        return "\(label): \(message)"
    }
}

/// Several diagnostics at once: every problem of a recipe, so an author fixes them in one go.
public struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    /// The failure they report: the most specific one (no input beats the rest, then the
    /// highest in `FailureKind`'s order); `data` for an empty list.
    public var kind: FailureKind {
        if diagnostics.contains(where: { $0.kind == .noInput }) { return .noInput }
        return diagnostics.map(\.kind).max() ?? .data
    }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
