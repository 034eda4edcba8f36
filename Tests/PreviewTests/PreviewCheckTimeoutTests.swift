import Foundation
import Testing

/// A page that makes scripts/preview-check.py wait, and the `--timeout` it is checked with.
enum SlowPage: String, CaseIterable, Sendable {
    /// An inline script that never ends: the load event never comes.
    case neverLoads
    /// The page loads, then its script never yields: no evaluation is answered.
    case neverAnswers
    /// A track whose audio file is missing: a probe's `loadedmetadata` never comes.
    case probeNeverSeeks
    /// Held 16 s before its load event and 13 s after it: longer than the old fixed waits
    /// (15 s for the load, 12 s for an evaluation), well within `--timeout`.
    case slowerThanTheOldFixedWaits

    var body: String {
        switch self {
        case .neverLoads: "<script>while (true) {}</script>"
        case .neverAnswers: #"<script>addEventListener("load", () => setTimeout(() => { while (true) {} }, 0));</script>"#
        case .probeNeverSeeks: #"<div data-track-id="gone"><audio preload="none" src="gone.wav"></audio></div>"#
        case .slowerThanTheOldFixedWaits:
            """
            <script>
            const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
            addEventListener("load", () => setTimeout(() => busy(13000), 0));
            busy(16000);
            </script>
            """
        }
    }

    var timeout: Int { self == .slowerThanTheOldFixedWaits ? 90 : 6 }
    var arguments: [String] { self == .probeNeverSeeks ? ["--probe", "gone=1"] : [] }
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

    @Test("every wait lasts what is left of --timeout, and one that runs out names the wait and the --timeout", arguments: SlowPage.allCases)
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
        let limit = "nothing within --timeout \(c.timeout) s, the whole check's time limit"
        switch c {
        case .neverLoads:
            #expect(result.status == 1, "\(result)")
            #expect(errors.contains { $0.hasPrefix("Timeout: waiting for the page to load (Page.loadEventFired): " + limit) }, "\(errors)")
        case .neverAnswers:
            #expect(result.status == 1, "\(result)")
            #expect(errors.contains { $0.contains("(Runtime.evaluate): " + limit) }, "\(errors)")
        case .probeNeverSeeks:
            #expect(result.status == 1, "\(result)")
            let probes = report["probes"] as? [[String: Any]] ?? []
            let error = probes.first?["error"] as? String ?? ""
            #expect(error.contains("no 'loadedmetadata' event within the ") && error.contains(" ms left of --timeout"), "\(probes)")
        case .slowerThanTheOldFixedWaits:
            #expect(result.status == 0, "\(result)")
            #expect(errors.isEmpty, "\(errors)")
            #expect(elapsed > 29, "the page held the check only \(elapsed) s")
        }
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
