import CadenceCues
import Foundation
import Sidecars
import Testing

@testable import Preview

/// recipe-v1.2 § Breath guidance on the preview page: a track whose cue sheet has a `guide` sizes its ring by the
/// breath envelope E (`data-guide`, and `data-scale` = 0.45 + 0.55·E) and draws E as a line under its waveform picture;
/// a track without one keeps the ring it had. Checked in headless Chromium (scripts/preview-check.py) against
/// CadenceCues' `CueTimeline.guide(atFrame:)` and `BreathEnvelope`, the one Swift computation of E.
@Suite("Preview page: the ring and the line follow the breath envelope")
struct GuideRingBrowserTests {
    /// The page's ring sizes (PageAssets.script's SMALL and LARGE).
    static let small = 0.45
    static let large = 1.0

    /// A recipe of the fixture catalog, rendered at 8 kHz mono as WAV (Chromium fails to seek to the last frames of a FLAC: media error 4).
    struct Recipe {
        var id: String
        var text: String
    }

    static let recipes = [
        // box, sine: intro 0 → inhale rises 0 → 1, hold stays full, exhale falls to 0, hold stays empty; the outro stays 0
        Recipe(
            id: "guided-box",
            text: """
                id: guided-box
                title: Guided Box
                category: Breathe
                intro: 2s
                cycles: 2
                outro: 3s
                pattern: box
                cues: none
                bed: { synth: pink-noise, gain: -26 dB }
                guide: { hold: hold, shape: sine }
                output: { sample_rate: 8000, channels: 1, format: wav }
                """),
        // linear; a `none` phase drops E to 0 at once, a rise from full stays full; the cycle ends full, so the outro
        // (1.5 s, shorter than 2 s) falls from 1 to 0 over the whole outro
        Recipe(
            id: "guided-linear",
            text: """
                id: guided-linear
                title: Guided Linear
                category: Breathe
                cycles: 2
                outro: 1.5s
                pattern:
                  phases:
                    - inhale: 3s
                    - hold: 1s
                    - rest: 1s
                    - sip: 2s
                    - exhale: 3s
                    - top_up: 1s
                cues: none
                bed: { synth: pink-noise, gain: -26 dB }
                guide: { rest: none, sip: rise, top_up: rise, shape: linear }
                output: { sample_rate: 8000, channels: 1, format: wav }
                """),
        // sine, ends full: the 4 s outro falls from 1 to 0 over its first 2 s, then stays 0
        Recipe(
            id: "guided-outro",
            text: """
                id: guided-outro
                title: Guided Outro
                category: Breathe
                intro: 1s
                cycles: 1
                outro: 4s
                pattern:
                  phases:
                    - exhale: 2s
                    - inhale: 3s
                cues: none
                bed: { synth: pink-noise, gain: -26 dB }
                haptics: on
                output: { sample_rate: 8000, channels: 1, format: wav }
                """),
        // no guidance: the ring keeps its sizes by phase kind, no E, no line
        Recipe(
            id: "plain",
            text: """
                id: plain
                title: Plain
                category: Breathe
                intro: 2s
                cycles: 1
                outro: 2s
                pattern: box
                cues: none
                bed: { synth: pink-noise, gain: -26 dB }
                output: { sample_rate: 8000, channels: 1, format: wav }
                """),
    ]

    /// A moment to probe: why, and the frame (the page's rounding of `frame / rate` gives it back).
    struct Moment {
        var what: String
        var frame: Int64
    }

    /// Moments taken from the cue sheet: in the intro; every phase's first frame, a quarter, half and three quarters
    /// through it and its last frame; the outro's first frame, the middle and the last frame of its fall, the frame
    /// after the fall; the file's last frame and its end.
    static func moments(_ sheet: CueSheet) -> [Moment] {
        var out: [Moment] = []
        if let intro = sheet.sections.first(where: { $0.kind == "intro" }), intro.endFrame > intro.startFrame {
            out.append(Moment(what: "the intro's middle", frame: (intro.startFrame + intro.endFrame) / 2))
        }
        for p in sheet.phases {
            let n = p.endFrame - p.startFrame
            let name = "phase \(p.index) (\(p.kind), \(p.guide?.rawValue ?? "-"))"
            out.append(Moment(what: name + " first frame", frame: p.startFrame))
            out.append(Moment(what: name + " at 1/4", frame: p.startFrame + n / 4))
            out.append(Moment(what: name + " at 1/2", frame: p.startFrame + n / 2))
            out.append(Moment(what: name + " at 3/4", frame: p.startFrame + 3 * n / 4))
            out.append(Moment(what: name + " last frame", frame: p.endFrame - 1))
        }
        let frames = sheet.audio.frames
        if let outro = sheet.sections.first(where: { $0.kind == "outro" }) {
            let fall = min(2 * Int64(sheet.audio.sampleRate), frames - outro.startFrame)
            out.append(Moment(what: "the outro's first frame", frame: outro.startFrame))
            out.append(Moment(what: "the outro's fall at 1/3", frame: outro.startFrame + fall / 3))
            out.append(Moment(what: "the outro's fall's last frame", frame: outro.startFrame + fall - 1))
            if outro.startFrame + fall < frames { out.append(Moment(what: "after the outro's fall", frame: outro.startFrame + fall)) }
        }
        out.append(Moment(what: "the file's last frame", frame: frames - 1))
        out.append(Moment(what: "the end of the file", frame: frames))
        return out
    }

    @Test("the ring's size is E at the audio's frame, from the cue sheet's guide; the line under the picture draws E")
    func ringFollowsEnvelope() throws {
        guard which("chromium") != nil || which("chromium-browser") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let python = try BrowserTests.python()
        let render = try #require(renderExecutable, "the 'render' executable was not found next to the test binary; build it or set CADENCE_RENDER")

        let folder = try TempFolder("preview-guide")
        for recipe in Self.recipes { try folder.write(recipe.text, to: "recipes/\(recipe.id).yml") }
        let dist = folder.file("dist")
        let rendered = try run(render, [folder.file("recipes"), "-o", dist, "-q"], in: folder.path, timeLimit: 300)
        try #require(rendered.status == 0, "render: \(rendered)")
        let page = dist + "/index.html"
        let html = try String(contentsOfFile: page, encoding: .utf8)

        var sheets: [String: CueSheet] = [:]
        for recipe in Self.recipes {
            sheets[recipe.id] = try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: dist + "/\(recipe.id).cues.json")))
        }
        // the render wrote what the recipes say: a guide of the shape asked for on the guided tracks, none on the plain one
        #expect(sheets["guided-box"]?.guide?.shape == .sine && sheets["guided-linear"]?.guide?.shape == .linear)
        #expect(sheets["guided-outro"]?.guide?.shape == .sine && sheets["plain"]?.guide == nil)
        #expect(sheets["guided-linear"]?.phases.map { $0.guide?.rawValue ?? "" }.prefix(6) == ["rise", "hold", "none", "rise", "fall", "rise"])
        // the page carries a line only for the guided tracks
        #expect(html.occurrences(of: "<svg class=\"guide-line\"") == 3, "guide lines in the page")
        #expect(html.article(ofTrack: "plain")?.contains("guide-line") == false)

        var arguments = [repositoryRoot + "/scripts/preview-check.py", page, "--timeout", "120"]
        var probed: [(id: String, moment: Moment)] = []
        for recipe in Self.recipes {
            let sheet = try #require(sheets[recipe.id])
            for m in Self.moments(sheet) {
                probed.append((recipe.id, m))
                arguments += ["--probe", "\(recipe.id)=\(Double(m.frame) / Double(sheet.audio.sampleRate))"]
            }
        }
        let result = try run(python, arguments, timeLimit: 150)
        #expect(!result.timedOut, "preview-check.py ran out of time")
        #expect(result.status == 0, "preview-check.py: \(result); stdout: \(result.stdout.prefix(4000))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not JSON: \(result.stdout.prefix(2000)) \(result)")
        #expect((report["errors"] as? [Any])?.isEmpty == true, "console errors: \(report["errors"] ?? "none")")

        // Each probe: E as CueTimeline computes it, the ring's size from it (0.45 + 0.55·E), the same in the CSS transform.
        let probes = try #require(report["probes"] as? [[String: Any]])
        try #require(probes.count == probed.count, "\(probes.count) probes for \(probed.count) moments")
        var shown: [String: [Int64: Double]] = [:]
        for ((id, m), probe) in zip(probed, probes) {
            let sheet = try #require(sheets[id])
            let timeline = try CueTimeline(sheet)
            let what = "\(id), \(m.what) (frame \(m.frame))"
            #expect(probe["error"] == nil, "\(what): \(probe["error"] ?? "")")
            let rate = Double(sheet.audio.sampleRate)
            let at = probe["current_time"] as? Double ?? -1
            #expect(Int64((at * rate + 0.5).rounded(.down)) == m.frame, "\(what): the audio is at \(at) s")
            let scale = Double(probe["scale"] as? String ?? "") ?? .nan
            let transform = (probe["transform"] as? String ?? "").wholeMatch(of: /scale\(([0-9.]+)\)/).flatMap { Double($0.1) } ?? .nan
            #expect(abs(transform - scale) < 0.0005, "\(what): transform \(probe["transform"] ?? ""), data-scale \(scale)")
            if sheet.guide == nil {
                #expect(probe["guide"] is NSNull, "\(what): a track without guidance shows E \(probe["guide"] ?? "")")
                continue
            }
            let expected = timeline.guide(atFrame: m.frame)
            let guide = Double(probe["guide"] as? String ?? "") ?? .nan
            #expect(abs(guide - expected) <= 1e-6, "\(what): the page's E is \(guide), CueTimeline's \(expected)")
            #expect(abs(scale - (Self.small + (Self.large - Self.small) * expected)) <= 0.0006, "\(what): scale \(scale), E \(expected)")
            shown[id, default: [:]][m.frame] = guide
        }

        // Values spelled out (the spec's formula at known points), so the comparison above does not rest on CueTimeline alone.
        func e(_ id: String, _ frame: Int64) -> Double { shown[id]?[frame] ?? .nan }
        let r: Int64 = 8000
        // guided-box: intro 2 s, box phases of 4 s from 2 s (rise, hold, fall, hold), outro from 34 s
        #expect(e("guided-box", r) == 0, "the intro")
        #expect(e("guided-box", 2 * r) == 0 && e("guided-box", 4 * r) == 0.5, "the first inhale's start and middle (sine)")
        #expect(abs(e("guided-box", 3 * r) - (1 - cos(Double.pi / 4)) / 2) < 1e-6, "a quarter into the inhale")
        #expect(e("guided-box", 6 * r) == 1 && e("guided-box", 8 * r) == 1, "the hold after the inhale is full")
        #expect(e("guided-box", 12 * r) == 0.5 && e("guided-box", 14 * r) == 0, "the exhale's middle, the hold after it")
        #expect(e("guided-box", 34 * r) == 0 && e("guided-box", 37 * r) == 0, "the outro after a hold empty, the end")
        // guided-linear: inhale 0–3 s, hold 3–4, rest (none) 4–5, sip (rise) 5–7, exhale 7–10, top_up (rise) 10–11, ×2; outro 22–23.5 s
        #expect(e("guided-linear", 0) == 0 && abs(e("guided-linear", 3 * r / 4) - 0.25) < 1e-6, "linear: a quarter into the inhale")
        #expect(e("guided-linear", 3 * r) == 1 && e("guided-linear", 4 * r) == 0, "the hold is full, `none` is 0 at once")
        #expect(e("guided-linear", 6 * r) == 0.5 && e("guided-linear", 7 * r) == 1, "the sip rises from 0, the exhale starts full")
        #expect(e("guided-linear", 11 * r) == 1 && e("guided-linear", 11 * r + 3 * r / 4) == 1, "a rise from full stays full")
        #expect(e("guided-linear", 22 * r) == 1 && abs(e("guided-linear", 22 * r + 4000) - 2.0 / 3) < 1e-6, "the 1.5 s outro falls from 1")
        #expect(abs(e("guided-linear", 23 * r + 3999) - 1.0 / 12_000) < 1e-6, "the outro's last frame, almost 0")
        // guided-outro: intro 1 s, exhale (fall from 0) 1–3 s, inhale 3–6 s, outro 6–10 s: falls over 6–8 s, 0 after
        #expect(e("guided-outro", 2 * r) == 0 && e("guided-outro", 6 * r) == 1, "a fall from empty, the outro's start full")
        #expect(e("guided-outro", 8 * r) == 0 && e("guided-outro", 10 * r - 1) == 0, "after the 2 s fall, and the last frame")

        // The plain track keeps the sizes by kind: full on the hold after the inhale, small on the one after the exhale.
        let plainScales = Dictionary(
            zip(probed, probes).filter { $0.0.id == "plain" }.map { ($0.0.moment.frame, Double($0.1["scale"] as? String ?? "") ?? .nan) },
            uniquingKeysWith: { a, _ in a })
        #expect(plainScales[8 * r] == Self.large && plainScales[16 * r] == Self.small, "\(plainScales)")

        // The line under each guided picture: E at the first frame of each of 600 columns and at the end, x across 0…1200.
        let tracks = try #require(report["tracks"] as? [[String: Any]])
        for track in tracks {
            let id = try #require(track["id"] as? String)
            let sheet = try #require(sheets[id])
            guard let envelope = try CueTimeline(sheet).envelope else {
                #expect(track["guide_line"] is NSNull, "\(id): a track without guidance has a line")
                continue
            }
            let points = (track["guide_line"] as? String ?? "").split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
            try #require(points.count == 601 && points.allSatisfy { $0.count == 2 }, "\(id): \(points.count) points")
            let frames = sheet.audio.frames
            for (k, point) in points.enumerated() {
                #expect(point[0] == Double(k * 2), "\(id): point \(k) at x \(point[0])")
                let lineE = 1 - (point[1] - 1) / 18
                let expected = envelope.value(atFrame: Int64(k) * frames / 600)
                #expect(
                    abs(lineE - expected) <= 0.0003, "\(id): point \(k) (frame \(Int64(k) * frames / 600)) draws E \(lineE), expected \(expected)")
            }
            // it moves: both full and empty are drawn
            #expect(points.contains { $0[1] == 1 } && points.contains { $0[1] == 19 }, "\(id): the line never reaches full and empty")
        }
    }

    @Test("a page whose embedded guide is tampered with shows the problem in place of the ring")
    func tamperedGuide() throws {
        guard which("chromium") != nil || which("chromium-browser") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let python = try BrowserTests.python()
        let dist = try TempFolder("preview-guide-bad")
        var tracks: [PreviewPage.Track] = []
        for id in ["shape", "count", "value"] {
            var sheet = testSheet(id: id, title: id, category: "Breathe", cycles: 1, rate: 8000)
            sheet.guide = CueSheet.Guide(shape: .sine)
            for i in sheet.phases.indices { sheet.phases[i].guide = BreathGuide.defaultGuide(for: sheet.phases[i].kind) }
            _ = try Fixture.writeSine(dist.file(id + ".wav"), seconds: Int(sheet.audio.frames / 8000), sampleRate: 8000, channels: 1)
            tracks.append(
                PreviewPage.Track(
                    id: id, title: id, category: "Breathe", audioFile: id + ".wav", pictureFile: nil, duration: sheet.audio.duration,
                    cues: .sheet(sheet)))
        }
        var html = PreviewPage.html(title: "Tampered guides", tracks: tracks)
        let original = "\"guide\":{\"shape\":\"sine\",\"phases\":[\"rise\",\"hold\",\"fall\",\"hold\"]}"
        try #require(html.occurrences(of: original) == 3, "the guides are not in the page as expected")
        for (id, tampered) in [
            ("shape", "\"guide\":{\"shape\":\"cosine\",\"phases\":[\"rise\",\"hold\",\"fall\",\"hold\"]}"),
            ("count", "\"guide\":{\"shape\":\"sine\",\"phases\":[\"rise\",\"hold\",\"fall\"]}"),
            ("value", "\"guide\":{\"shape\":\"sine\",\"phases\":[\"rise\",\"hold\",\"fal\",\"hold\"]}"),
        ] {
            let article = try #require(html.article(ofTrack: id))
            html = html.replacingOccurrences(of: article, with: article.replacingOccurrences(of: original, with: tampered))
        }
        try dist.write(html, to: "index.html")
        let result = try run(python, [repositoryRoot + "/scripts/preview-check.py", dist.file("index.html"), "--timeout", "45"], timeLimit: 60)
        #expect(result.status == 0, "preview-check.py: \(result); stdout: \(result.stdout.prefix(4000))")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let byID = Dictionary(
            uniqueKeysWithValues: (report["tracks"] as? [[String: Any]] ?? []).compactMap { t in (t["id"] as? String).map { ($0, t) } })
        #expect(byID["shape"]?["cue_error"] as? String == "Cue sheet problem: guide.shape \"cosine\" is not sine or linear")
        #expect(byID["count"]?["cue_error"] as? String == "Cue sheet problem: guide.phases does not give one guide to each of the 4 phases")
        #expect(byID["value"]?["cue_error"] as? String == "Cue sheet problem: phase 2's guide \"fal\" is not rise, fall, hold or none")
    }
}
