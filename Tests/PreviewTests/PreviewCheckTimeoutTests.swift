import Foundation
import Testing

/// A page that makes scripts/preview-check.py wait, the `--timeout` it is checked with, and what
/// the check must then say.
struct SlowPage: Sendable, CustomTestStringConvertible {
    var name: String
    var body: String
    var timeout: Int
    var arguments: [String] = []
    /// The check's exit status.
    var status: Int32
    /// A text one of the report's errors holds (nil: not checked).
    var errorHolds: String? = nil
    /// The report has no error at all.
    var errorFree = false
    /// Texts the first probe's error holds.
    var probeErrorHolds: [String] = []
    /// The least time the page must have held the check.
    var leastSeconds = 0.0

    var testDescription: String { name }

    /// The end of a wait's error when it ran out.
    static func ranOut(_ timeout: Int) -> String { "nothing within --timeout \(timeout) s, the whole check's time limit" }

    static let all = [
        // An inline script that never ends: the load event never comes.
        SlowPage(
            name: "neverLoads", body: "<script>while (true) {}</script>", timeout: 6, status: 1,
            errorHolds: "Timeout: waiting for the page to load (Page.loadEventFired): " + ranOut(6)),
        // The page loads, then its script never yields: no evaluation is answered.
        SlowPage(
            name: "neverAnswers", body: #"<script>addEventListener("load", () => setTimeout(() => { while (true) {} }, 0));</script>"#,
            timeout: 6, status: 1, errorHolds: "(Runtime.evaluate): " + ranOut(6)),
        // A track whose audio file is missing: a probe's `loadedmetadata` never comes.
        SlowPage(
            name: "probeNeverSeeks", body: #"<div data-track-id="gone"><audio preload="none" src="gone.wav"></audio></div>"#, timeout: 6,
            arguments: ["--probe", "gone=1"], status: 1, probeErrorHolds: ["no 'loadedmetadata' event within the ", " ms left of --timeout"]),
        // Held 16 s before its load event and 13 s after it: longer than the old fixed waits
        // (15 s for the load, 12 s for an evaluation), well within `--timeout`.
        SlowPage(
            name: "slowerThanTheOldFixedWaits",
            body: """
                <script>
                const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
                addEventListener("load", () => setTimeout(() => busy(13000), 0));
                busy(16000);
                </script>
                """,
            timeout: 90, status: 0, errorFree: true, leastSeconds: 29),
    ]
}

/// scripts/preview-check.py's `--timeout`: it governs every wait, and a wait that runs out says so.
@Suite("preview-check.py --timeout", .serialized)
struct PreviewCheckTimeoutTests {
    /// Writes `body` as a page and runs the check on it; returns the result and its JSON report.
    static func check(_ body: String, _ arguments: [String], timeLimit: Double) throws -> (result: ProcessResult, report: [String: Any]) {
        let folder = try TempFolder("preview-timeout")
        let page = try folder.write("<!DOCTYPE html>\n<html><head><title>Slow</title></head><body>\n\(body)\n</body></html>\n", to: "index.html")
        let result = try run(try BrowserTests.python(), [repositoryRoot + "/scripts/preview-check.py", page] + arguments, timeLimit: timeLimit)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not JSON: \(result)")
        return (result, report)
    }

    static var hasChromium: Bool { which("chromium") != nil || which("chromium-browser") != nil }

    @Test("every wait lasts what is left of --timeout, and one that runs out names the wait and the --timeout", arguments: SlowPage.all)
    func waits(_ c: SlowPage) throws {
        guard Self.hasChromium else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let started = Date()
        let (result, report) = try Self.check(c.body, ["--timeout", "\(c.timeout)"] + c.arguments, timeLimit: Double(c.timeout) + 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(!result.timedOut, "\(result)")
        #expect(report["timeout"] as? Double == Double(c.timeout))
        let errors = (report["errors"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(result.status == c.status, "\(result)")
        if let text = c.errorHolds { #expect(errors.contains { $0.contains(text) }, "\(errors)") }
        if c.errorFree { #expect(errors.isEmpty, "\(errors)") }
        let probes = report["probes"] as? [[String: Any]] ?? []
        let probeError = probes.first?["error"] as? String ?? ""
        #expect(c.probeErrorHolds.allSatisfy { probeError.contains($0) }, "\(probes)")
        #expect(elapsed >= c.leastSeconds, "the page held the check only \(elapsed) s")
        if c.timeout < 10 {
            // the check ends at its deadline (Chromium is stopped within a few seconds after it)
            #expect(elapsed < Double(c.timeout) + 10, "took \(elapsed) s with --timeout \(c.timeout)")
        }
    }

    @Test("without --timeout the limit is 60 s plus 0.4 s per track card; --timeout 0 is a bad argument")
    func defaultGrowsWithThePage() throws {
        guard Self.hasChromium else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let cards = String(repeating: "<div data-track-id=\"t\"></div>\n", count: 10)
        let (result, report) = try Self.check(cards, [], timeLimit: 120)
        #expect(result.status == 0, "\(result)")
        #expect(report["timeout"] as? Double == 64, "\(report)")

        let folder = try TempFolder("preview-timeout-zero")
        let page = try folder.write("<html></html>\n", to: "index.html")
        let zero = try run(try BrowserTests.python(), [repositoryRoot + "/scripts/preview-check.py", page, "--timeout", "0"], timeLimit: 60)
        #expect(zero.status == 2 && zero.stderr.contains("--timeout wants a number of seconds above 0"), "\(zero)")
    }
}
