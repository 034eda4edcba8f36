import CadenceCues
import Foundation
import Sidecars
import Testing

@testable import Preview

/// The page's layout and clocks in a real browser: headless Chromium lays the page out in
/// frames of a given width and a script inside the page reports what it sees.
///
/// `chromium --headless=new` has no window narrower than 500 px, so each width is an
/// `<iframe>` of that width in a wider window: its viewport (and so `vw` and the grid) is
/// the frame's. The page inside posts its report to the window, which writes it into its
/// own DOM for `--dump-dom`. Fails, not skips, without Chromium.
@Suite("Preview page layout in Chromium")
struct LayoutBrowserTests {
    static var chromium: String? { which("chromium") ?? which("chromium-browser") }

    /// A catalog shaped like the starter one: small categories, so one category alone never fills a row.
    /// `focus` has a 25-minute work phase from frame 0, `hour` a phase of 1:02:03 from frame 0.
    static func fixture(in dist: TempFolder) throws -> [PreviewPage.Track] {
        _ = try Fixture.writeSine(dist.file("short.wav"), seconds: 10, sampleRate: 8000, channels: 1)
        let focus = testSheet(
            id: "focus", title: "Focus", category: "Work",
            pattern: [TestPhase(kind: "work", label: "Work", seconds: 1500), TestPhase(kind: "short_break", label: "Break", seconds: 300)],
            cycles: 2, intro: 0, outro: 0, rate: 8000)
        let hour = testSheet(
            id: "hour", title: "Hour", category: "Long", pattern: [TestPhase(kind: "rest", label: "Rest", seconds: 3723)], cycles: 1,
            intro: 0, outro: 0, rate: 8000)
        func box(_ id: String, _ category: String, _ order: Int) -> PreviewPage.Track {
            let sheet = testSheet(id: id, title: id.capitalized, category: category, rate: 8000)
            return PreviewPage.Track(
                id: id, title: id.capitalized, category: category, audioFile: "short.wav", pictureFile: nil, duration: sheet.audio.duration,
                cues: .sheet(sheet), sortOrder: order, premium: order % 20 == 0, bytes: 160_044, size: "160.0 kB")
        }
        return [
            box("calm-a", "Calm", 10), box("calm-b", "Calm", 12),
            PreviewPage.Track(
                id: "focus", title: "Focus", category: "Work", audioFile: "short.wav", pictureFile: nil, duration: focus.audio.duration,
                cues: .sheet(focus), sortOrder: 20, premium: true),
            box("sleep-a", "Sleep", 30), box("sleep-b", "Sleep", 31), box("sleep-c", "Sleep", 32),
            PreviewPage.Track(
                id: "hour", title: "Hour", category: "Long", audioFile: "short.wav", pictureFile: nil, duration: hour.audio.duration,
                cues: .sheet(hour), sortOrder: 40),
            box("misc", "Misc", 50),
        ]
    }

    /// Runs inside the page: the cards per row, the order of the cards, the rings' detail lines at load.
    static let probe = #"""
        <script>
        addEventListener("load", () => {
          const cards = Array.from(document.querySelectorAll("article.track"));
          const rows = [];
          for (const card of cards) {
            const top = Math.round(card.getBoundingClientRect().top);
            const row = rows.find((r) => Math.abs(r.top - top) <= 2);
            if (row) row.count += 1; else rows.push({ top, count: 1 });
          }
          rows.sort((a, b) => a.top - b.top);
          const detail = (id) => document.querySelector('[data-track-id="' + id + '"] .phase-detail').textContent;
          const report = { width: innerWidth, rows: rows.map((r) => r.count), ids: cards.map((c) => c.getAttribute("data-track-id")),
            focus: detail("focus"), hour: detail("hour") };
          parent.postMessage(JSON.stringify(report), "*");
        });
        </script>
        """#

    /// The page in frames `widths` wide (900 px high), each frame's last report by width.
    static func layout(_ html: String, in dist: TempFolder, widths: [Int]) throws -> [Int: [String: Any]] {
        let chromium = try #require(chromium, "chromium is not installed: run scripts/setup.sh (CI does)")
        try dist.write(html.replacingOccurrences(of: "</body>", with: probe + "\n</body>"), to: "probe.html")
        var frames = "<!DOCTYPE html><html><body style=\"margin:0\">\n"
        for width in widths {
            frames += "<iframe src=\"probe.html\" style=\"width:\(width)px;height:900px;border:0;display:block\"></iframe>\n"
        }
        frames += #"""
            <script>
            addEventListener("message", (event) => {
              const report = JSON.parse(event.data);
              let out = document.getElementById("report-" + report.width);
              if (!out) { out = document.createElement("pre"); out.id = "report-" + report.width; document.body.append(out); }
              out.textContent = event.data;
            });
            </script>
            </body></html>
            """#
        try dist.write(frames, to: "frames.html")
        let profile = try TempFolder("preview-layout-profile")
        let window = (widths.max() ?? 1280) + 100
        let result = try run(
            chromium,
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio", "--no-first-run",
                "--user-data-dir=" + profile.path, "--window-size=\(window),\(900 * widths.count + 100)", "--virtual-time-budget=20000",
                "--dump-dom", "file://" + dist.file("frames.html"),
            ], timeLimit: 120)
        try #require(result.status == 0 && !result.timedOut, "chromium: \(result)")
        var reports: [Int: [String: Any]] = [:]
        for width in widths {
            let text = try #require(
                result.stdout.between("<pre id=\"report-\(width)\">", "</pre>").first, "no report for \(width) px: \(result.stdout.suffix(3000))")
            let json = text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            reports[width] = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not JSON: \(json)")
        }
        return reports
    }

    @Test("a responsive grid: at least 3 cards in the first row at 1280 px, one at 400 px; tracks in the page's order")
    func grid() throws {
        let dist = try TempFolder("preview-layout")
        let html = PreviewPage.html(title: "Layout", tracks: try Self.fixture(in: dist))
        let reports = try Self.layout(html, in: dist, widths: [1280, 400])
        let wide = try #require(reports[1280]), narrow = try #require(reports[400])
        #expect(wide["width"] as? Int == 1280 && narrow["width"] as? Int == 400, "\(reports)")
        let wideRows = wide["rows"] as? [Int] ?? [], narrowRows = narrow["rows"] as? [Int] ?? []
        #expect((wideRows.first ?? 0) >= 3, "cards per row at 1280 px: \(wideRows)")
        #expect(wideRows.allSatisfy { $0 <= 4 }, "cards per row at 1280 px: \(wideRows)")
        #expect(narrowRows == Array(repeating: 1, count: 8), "cards per row at 400 px: \(narrowRows)")
        // categories by their smallest sort_order, tracks by sort_order inside
        let order = ["calm-a", "calm-b", "focus", "sleep-a", "sleep-b", "sleep-c", "hour", "misc"]
        #expect(wide["ids"] as? [String] == order)
    }

    @Test("the ring's detail line is a clock: 'cycle 1 of 2 · 25:00' and 'cycle 1 · 1:02:03' at the audio's start")
    func clocks() throws {
        let dist = try TempFolder("preview-clocks")
        let html = PreviewPage.html(title: "Clocks", tracks: try Self.fixture(in: dist))
        let report = try #require(try Self.layout(html, in: dist, widths: [1280])[1280])
        #expect(report["focus"] as? String == "cycle 1 of 2 · 25:00", "\(report)")
        #expect(report["hour"] as? String == "cycle 1 · 1:02:03", "\(report)")
    }
}
