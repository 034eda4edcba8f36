import AudioCore
import AudioIO

extension DiagnosticList {
    /// Runs `body`, turning what it throws (an asset's `AudioError`, a `Diagnostic`, a list)
    /// into the render's diagnostics; anything else is a software failure of `file`.
    static func collecting<T>(file: String, _ body: () throws -> T) throws(DiagnosticList) -> T {
        do {
            return try body()
        } catch let error as AudioError {
            throw DiagnosticList([error.diagnostic])
        } catch let error as DiagnosticList {
            throw error
        } catch let error as Diagnostic {
            throw DiagnosticList([error])
        } catch {
            throw DiagnosticList([Diagnostic("\(error)", file: file, kind: .software)])
        }
    }
}
