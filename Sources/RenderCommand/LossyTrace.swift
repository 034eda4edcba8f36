import Foundation
import Render

/// With `CADENCE_STAGES=1` (the benchmark's runs), what the lossy encodings measured, on
/// stderr as `cadence-lossy: …` lines (`cadence-bench` reads them).
struct LossyTrace: RenderObserver {
    func lossy(_ line: String) {
        FileHandle.standardError.write(Data(("cadence-lossy: " + line + "\n").utf8))
    }

    /// The observer `environment` asks for: a `LossyTrace` with `CADENCE_STAGES=1`, else none.
    static func observer(environment: [String: String]) -> (any RenderObserver)? {
        environment["CADENCE_STAGES"] == "1" ? LossyTrace() : nil
    }
}
