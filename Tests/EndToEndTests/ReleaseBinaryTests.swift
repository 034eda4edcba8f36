import Foundation
import TestKit
import Testing

/// CI's guard against suites that skip silently: the golden files, the limiter and the AAC suites
/// need `.build/release/render` newer than every source file and skip without it. `.ci/run` sets
/// `CADENCE_REQUIRE_RELEASE=1`, and then a missing or stale release binary fails the run.
@Test(
    "with CADENCE_REQUIRE_RELEASE=1, the release render is built and newer than Sources/ (else its suites would skip)",
    .enabled(if: ProcessInfo.processInfo.environment["CADENCE_REQUIRE_RELEASE"] == "1", "set by .ci/run"))
func releaseRenderIsFresh() {
    #expect(
        freshReleaseRender != nil,
        "\(repositoryRoot)/.build/release/render is missing or older than a file under Sources/: run `swift build -c release` before `swift test`")
}
