import Testing

@testable import RenderCommand

/// The command line, not Render, reads `CADENCE_STAGES`: it passes the renderer an observer
/// that writes `cadence-lossy: …` lines (cadence-bench reads them) only when it is `1`.
@Suite struct LossyTraceTests {
    @Test(
        "CADENCE_STAGES=1 gives the renderer a lossy trace; unset, 0 or anything else gives none",
        arguments: [
            (["CADENCE_STAGES": "1"], true), ([:], false), (["CADENCE_STAGES": "0"], false), (["CADENCE_STAGES": "yes"], false),
        ])
    func observerFromEnvironment(_ environment: [String: String], traced: Bool) {
        #expect((LossyTrace.observer(environment: environment) != nil) == traced)
    }
}
