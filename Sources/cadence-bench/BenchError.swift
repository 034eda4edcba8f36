/// A benchmark step that failed: what was being done, and why.
///
/// Printed as `cadence-bench: render ref-60m.yml exited with status 65: …`.
struct BenchError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
