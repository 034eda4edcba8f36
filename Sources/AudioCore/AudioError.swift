/// A failure of a C library or the file system on one file: what failed, on which file, and why.
///
/// Printed as `beds/rain.ogg: sf_open failed: File contains data in an unknown format.`
public struct AudioError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var operation: String
    public var reason: String
    public var kind: FailureKind

    public init(file: String, operation: String, reason: String, kind: FailureKind = .data) {
        self.file = file
        self.operation = operation
        self.reason = reason
        self.kind = kind
    }

    public var description: String { "\(file): \(operation) failed: \(reason)" }

    public var diagnostic: Diagnostic { Diagnostic("\(operation) failed: \(reason)", file: file, kind: kind) }
}
