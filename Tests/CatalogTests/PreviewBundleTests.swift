import CadenceCues
import Foundation
import Testing

/// `render recipes/ -o dist/` writes `dist/index.html`; here it is opened in headless Chromium
/// (scripts/preview-check.py over the DevTools protocol) and its rings are read at known moments.
@Suite("Catalog preview page, rendered and opened in Chromium")
struct PreviewBundleTests {

    /// A Python 3 that can import `websocket` (Debian: python3-websocket, installed by scripts/setup.sh).
    static func python() throws -> String {
        var candidates = ["/usr/bin/python3"]
        if let chosen = ProcessInfo.processInfo.environment["CADENCE_PYTHON"] { candidates.insert(chosen, at: 0) }
        if let onPath = which("python3") { candidates.append(onPath) }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if let result = try? run(candidate, ["-c", "import websocket"]), result.status == 0 { return candidate }
        }
        throw TestFailure("no python3 with the 'websocket' module: run scripts/setup.sh (installs chromium and python3-websocket; CI does)")
    }

    static func recipe(id: String, title: String, category: String, pattern: String, extra: String = "") -> String {
        """
        id: \(id)
        title: \(title)
        category: \(category)
        duration: 45s
        intro: 5s
        outro: 4s
        pattern: \(pattern)
        bed: { synth: pink-noise, gain: -26 dB }\(extra)
        output: { sample_rate: 8000, channels: 1, format: flac }
        """
    }

    /// Runs the checker on `page` with probes; returns its JSON report.
    static func check(_ page: String, choose: [String] = [], probes: [(String, Double)]) throws -> (
        status: Int32, report: [String: Any], raw: String
    ) {
        let script = repositoryRoot + "/scripts/preview-check.py"
        var arguments = [script, page]
        for id in choose { arguments += ["--choose", id] }
        for (id, t) in probes { arguments += ["--probe", "\(id)=\(t)"] }
        let result = try run(try python(), arguments)
        let report = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return (result.status, report, "\(result)")
    }

    @Test("labels and rings follow the audio at known moments; a broken cue sheet shows its problem; no console errors")
    func renderedBundle() throws {
        guard which("chromium") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh (CI does)")
            return
        }
        let folder = try TempFolder("preview-bundle")
        try folder.write(Self.recipe(id: "calm-box", title: "Calm <Box>", category: "Breathe", pattern: "box"), to: "recipes/a.yml")
        try folder.write(Self.recipe(id: "sigh-478", title: "4-7-8 & Rest", category: "Sleep", pattern: "4-7-8"), to: "recipes/b.yml")
        try folder.write("", to: "assets/.keep")
        let dist = folder.file("dist")
        let first = try runRender([folder.file("recipes"), "-o", dist, "-q"], in: folder.path)
        try #require(first.status == 0, "\(first)")
        let page = dist + "/index.html"
        try #require(FileManager.default.fileExists(atPath: page))

        // moments chosen from the cue sheets: the middle of phase 5 of the box, a quarter into phase 1 of 4-7-8, the intro
        let box = try readCueSheet(dist + "/calm-box.cues.json")
        let sigh = try readCueSheet(dist + "/sigh-478.cues.json")
        func time(_ sheet: CueSheet, phase i: Int, at fraction: Double) -> Double {
            let p = sheet.phases[i]
            return (Double(p.startFrame) + fraction * Double(p.endFrame - p.startFrame)) / Double(sheet.audio.sampleRate)
        }
        let probes = [("calm-box", time(box, phase: 5, at: 0.5)), ("sigh-478", time(sigh, phase: 1, at: 0.25)), ("calm-box", 2.0)]
        let (status, report, raw) = try Self.check(page, probes: probes)
        #expect(status == 0, "\(raw)")
        #expect((report["errors"] as? [Any])?.isEmpty == true, "console errors: \(report["errors"] ?? "?")")
        #expect((report["missing_files"] as? [Any])?.isEmpty == true, "missing: \(report["missing_files"] ?? "?")")
        let seen = try #require(report["probes"] as? [[String: Any]])
        try #require(seen.count == 3, "\(raw)")
        #expect(seen[0]["label"] as? String == box.phases[5].label)
        #expect(seen[0]["phase_kind"] as? String == box.phases[5].kind)
        #expect(seen[0]["phase_index"] as? String == "5")
        #expect(abs((Double(seen[0]["progress"] as? String ?? "") ?? -1) - 0.5) < 0.02)
        #expect(seen[1]["label"] as? String == "Hold" && seen[1]["phase_kind"] as? String == "hold")
        #expect(abs((Double(seen[1]["progress"] as? String ?? "") ?? -1) - 0.25) < 0.02)
        #expect(seen[2]["section"] as? String == "intro" && seen[2]["phase_index"] as? String == "-1")
        #expect(seen.allSatisfy { $0["cue_status"] as? String == "ok" })

        // every file the page names exists, and the page lists both tracks under their categories
        let html = try folder.read("dist/index.html")
        for name in ["calm-box.flac", "calm-box.svg", "sigh-478.flac", "sigh-478.svg"] { #expect(html.contains("\"\(name)\"")) }
        #expect(html.contains("Calm &lt;Box&gt;"))

        // a cue sheet damaged on disk: the next (up-to-date) run rewrites the page, which shows the problem
        try folder.write("{ \"format\": \"session-cues\", \"version\": 2 }", to: "dist/sigh-478.cues.json")
        let second = try runRender([folder.file("recipes"), "-o", dist, "-q"], in: folder.path)
        #expect(second.status == 0, "\(second)")
        let (status2, report2, raw2) = try Self.check(page, probes: [("sigh-478", 10.0), ("calm-box", time(box, phase: 2, at: 0.5))])
        #expect(status2 == 0, "\(raw2)")
        #expect((report2["errors"] as? [Any])?.isEmpty == true, "console errors: \(report2["errors"] ?? "?")")
        let after = try #require(report2["probes"] as? [[String: Any]])
        try #require(after.count == 2, "\(raw2)")
        #expect(after[0]["cue_status"] as? String == "error")
        #expect((after[0]["cue_error"] as? String)?.contains("version 2") == true, "\(after[0])")
        #expect(after[1]["cue_status"] as? String == "ok" && after[1]["label"] as? String == "Breathe Out")
    }

    /// recipe-v1.2 § Sessions in the catalog: a recipe's lengths share one card; picking a length in Chromium shows that
    /// rendition, whose audio loads (its file, its length) and whose ring follows its own cue sheet.
    @Test("a session's card: switching length loads the right audio and the right cue sheet, and its ring follows it")
    func sessionCard() throws {
        guard which("chromium") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh (CI does)")
            return
        }
        let folder = try TempFolder("preview-session")
        try folder.write(
            "id: morning\ntitle: Morning Box\ncategory: Breathe\nvariants: { duration: [32s, 16s] }\npattern: box\n"
                + "output: { sample_rate: 8000, channels: 1, format: flac }\n", to: "recipes/morning.yml")
        try folder.write(Self.recipe(id: "sigh-478", title: "4-7-8", category: "Breathe", pattern: "4-7-8"), to: "recipes/b.yml")
        let dist = folder.file("dist")
        let rendered = try runRender([folder.file("recipes"), "-o", dist, "-q"], in: folder.path)
        try #require(rendered.status == 0, "\(rendered)")
        let short = try readCueSheet(dist + "/morning-16s.cues.json"), long = try readCueSheet(dist + "/morning-32s.cues.json")
        // 24 s: the middle of a phase of the 32 s rendition, after the end of the 16 s one
        let at = 24.0
        let frame = Int64(at * Double(long.audio.sampleRate))
        let phase = try #require(long.phases.firstIndex { $0.startFrame <= frame && frame < $0.endFrame })

        let (status, report, raw) = try Self.check(
            dist + "/index.html", choose: ["morning-32s", "morning-16s", "morning-32s"], probes: [("morning-32s", at)])
        #expect(status == 0, "\(raw)")
        #expect((report["errors"] as? [Any])?.isEmpty == true, "console errors: \(report["errors"] ?? "?")")
        let chosen = try #require(report["chosen"] as? [[String: Any]])
        try #require(chosen.count == 3, "\(raw)")
        for (k, (id, from, sheet)) in [
            ("morning-32s", "morning-16s", long), ("morning-16s", "morning-32s", short), ("morning-32s", "morning-16s", long),
        ]
        .enumerated() {
            let c = chosen[k]
            #expect(c["from"] as? String == from && c["picker"] as? String == "pick-length", "\(c)")
            #expect(c["shown"] as? [String] == [id] && c["chosen"] as? String == id, "\(c)")
            #expect(c["audio_file"] as? String == id + ".flac", "\(c)")
            #expect(abs((c["audio_duration"] as? Double ?? -1) - sheet.audio.duration) < 0.05, "\(c)")
            #expect((c["cue_frames"] as? NSNumber)?.int64Value == sheet.audio.frames, "\(c)")
            #expect(c["title"] as? String == "Morning Box")
        }
        let probes = try #require(report["probes"] as? [[String: Any]])
        try #require(probes.count == 1, "\(raw)")
        #expect(probes[0]["phase_index"] as? String == String(phase) && probes[0]["label"] as? String == long.phases[phase].label, "\(probes[0])")
        // one card per session: the page has two
        let html = try folder.read("dist/index.html")
        #expect(html.components(separatedBy: "<div class=\"session\"").count - 1 == 2)
    }

    /// recipe-v1.2 § Locales and § Sessions: a recipe in two languages and two lengths is one card; in Chromium,
    /// picking a language shows that locale's rendition (its title, its audio, its cue sheet's labels), and
    /// picking a length keeps the language.
    @Test("a localized session's card: switching language and length loads that rendition's audio, title and labels")
    func localizedSessionCard() throws {
        guard which("chromium") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh (CI does)")
            return
        }
        let folder = try TempFolder("preview-locales")
        try folder.write(
            """
            id: calm
            locales: [en, de]
            title: { en: Calm Box, de: Ruhige Box }
            category: Breathe
            variants: { duration: [32s, 16s] }
            pattern:
              phases:
                - { kind: inhale, length: 4s, label: { en: Breathe In, de: Einatmen } }
                - { kind: exhale, length: 4s, label: { en: Breathe Out, de: Ausatmen } }
            output: { sample_rate: 8000, channels: 1, format: flac }

            """, to: "recipes/calm.yml")
        let dist = folder.file("dist")
        let rendered = try runRender([folder.file("recipes"), "-o", dist, "-q"], in: folder.path)
        try #require(rendered.status == 0, "\(rendered)")
        let catalog = try folder.read("dist/catalog.json")
        // the session lists its renditions by locale, then length
        #expect(catalog.contains(#""tracks": ["calm-16s-en", "calm-32s-en", "calm-16s-de", "calm-32s-de"]"#), "\(catalog)")
        let steps: [(id: String, picker: String, title: String, label: String)] = [
            ("calm-16s-de", "pick-locale", "Ruhige Box", "Einatmen"), ("calm-32s-de", "pick-length", "Ruhige Box", "Einatmen"),
            ("calm-32s-en", "pick-locale", "Calm Box", "Breathe In"),
        ]
        let (status, report, raw) = try Self.check(dist + "/index.html", choose: steps.map(\.id), probes: [("calm-32s-en", 0.5)])
        #expect(status == 0, "\(raw)")
        #expect((report["errors"] as? [Any])?.isEmpty == true, "console errors: \(report["errors"] ?? "?")")
        let chosen = try #require(report["chosen"] as? [[String: Any]])
        try #require(chosen.count == steps.count, "\(raw)")
        for (c, step) in zip(chosen, steps) {
            let sheet = try readCueSheet(dist + "/\(step.id).cues.json")
            #expect(c["picker"] as? String == step.picker && c["chosen"] as? String == step.id && c["shown"] as? [String] == [step.id], "\(c)")
            #expect(c["audio_file"] as? String == step.id + ".flac", "\(c)")
            #expect((c["cue_frames"] as? NSNumber)?.int64Value == sheet.audio.frames, "\(c)")
            #expect(c["title"] as? String == step.title, "\(c)")
            #expect(sheet.phases.first?.label == step.label && sheet.title == step.title)
        }
        let html = try folder.read("dist/index.html")
        #expect(html.components(separatedBy: "<div class=\"session\"").count - 1 == 1)
    }
}
