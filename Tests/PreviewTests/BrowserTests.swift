import CadenceCues
import Foundation
import Sidecars
import Testing

@testable import Preview

/// The page in a real browser: headless Chromium driven by scripts/preview-check.py over the DevTools protocol.
///
/// Needs `chromium` and Python's `websocket` module (Debian: python3-websocket);
/// scripts/setup.sh installs both and CI runs it. Without them this test fails.
@Suite("Preview page in Chromium")
struct BrowserTests {
    /// A Python 3 that can import `websocket`: `CADENCE_PYTHON`, Debian's /usr/bin/python3, or the first python3 on PATH.
    static func python() throws -> String {
        var candidates: [String] = []
        if let chosen = ProcessInfo.processInfo.environment["CADENCE_PYTHON"] { candidates.append(chosen) }
        candidates.append("/usr/bin/python3")
        if let onPath = which("python3") { candidates.append(onPath) }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            if let result = try? run(candidate, ["-c", "import websocket"], timeLimit: 20), result.status == 0 { return candidate }
        }
        throw TestFailure(
            "no python3 with the 'websocket' module (websocket-client) among \(candidates): run scripts/setup.sh, which installs python3-websocket and chromium (CI does)"
        )
    }

    struct Probe {
        var id: String
        var seconds: Double
    }

    @Test("rings follow the audio's position, broken cue sheets show their problem, no console errors")
    func browser() throws {
        guard which("chromium") != nil || which("chromium-browser") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let python = try Self.python()
        let script = repositoryRoot + "/scripts/preview-check.py"
        try #require(FileManager.default.fileExists(atPath: script), "no \(script)")

        // The fixture catalog: a good 40 s track, a track whose cue sheet does not decode,
        // and a track whose embedded data is tampered with after generation (caught by the page's script).
        let dist = try TempFolder("preview-dist")
        let box = testSheet(id: "box", title: "Box <Breathing> & \"Calm\"", category: "Breathe")
        let samples = try Fixture.writeSine(dist.file("box.wav"), seconds: 40)
        try dist.write(WaveformPicture.svg(peaks: Fixture.peaks(samples, channels: 2), sheet: box), to: "box.waveform.svg")
        try dist.write(box.jsonText(), to: "box.cues.json")

        _ = try Fixture.writeSine(dist.file("broken.wav"), seconds: 2)
        try dist.write("{\"format\": \"session-cues\", \"version\": 1, \"id\": \"broken\", \"phases\": [", to: "broken.cues.json")
        let brokenCues = PreviewPage.Cues(
            Result {
                try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: dist.file("broken.cues.json"))))
            }.mapError { error -> any Error in TestFailure("broken.cues.json: \(error)") })
        guard case .failed = brokenCues else {
            Issue.record("the broken cue sheet decoded")
            return
        }

        let tampered = testSheet(id: "tampered", title: "Tampered", category: "Breathe", intro: 2)
        try dist.write(WaveformPicture.svg(peaks: Fixture.peaks(samples, channels: 2), sheet: tampered), to: "tampered.svg")

        let tracks = [
            PreviewPage.Track(
                id: "box", title: box.title, category: box.category, audioFile: "box.wav", pictureFile: "box.waveform.svg",
                duration: box.audio.duration, cues: .sheet(box)),
            PreviewPage.Track(
                id: "broken", title: "Broken", category: "Focus", audioFile: "broken.wav", pictureFile: nil, duration: 2, cues: brokenCues),
            PreviewPage.Track(
                id: "tampered", title: "Tampered", category: "Breathe", audioFile: "box.wav", pictureFile: "tampered.svg",
                duration: tampered.audio.duration, cues: .sheet(tampered)),
        ]
        var html = PreviewPage.html(title: "Fixture catalog", tracks: tracks)
        // phase 0 of the tampered track ends 8000 frames early: a gap before phase 1
        let original = "[96000,288000,\"inhale\""
        try #require(html.occurrences(of: original) == 1, "the tampered track's first phase is not in the page as expected")
        html = html.replacingOccurrences(of: original, with: "[96000,280000,\"inhale\"")
        try dist.write(html, to: "index.html")
        if let keep = ProcessInfo.processInfo.environment["CADENCE_PREVIEW_FIXTURE"] {
            // a copy to look at: CADENCE_PREVIEW_FIXTURE=/tmp/fixture swift test --filter PreviewTests
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: dist.path, toPath: keep)
        }

        // Probes inside known phases and sections of the good track (intro 0–4 s, box phases of 4 s from 4 s, outro 36–40 s).
        // 4, 8 and 36 s are boundaries; 7.99999 s is frame 383999.52, which rounds to the hold's first frame.
        let times: [Double] = [2.0, 5.0, 7.0, 9.5, 13.0, 17.0, 21.0, 35.99, 38.0, 4.0, 8.0, 36.0, 7.99999]
        var arguments = [script, dist.file("index.html"), "--timeout", "45"]
        for t in times { arguments += ["--probe", "box=\(t)"] }
        arguments += ["--play", "box=4.5"]
        let started = Date()
        let result = try run(python, arguments, timeLimit: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(!result.timedOut, "preview-check.py ran out of time")
        #expect(elapsed < 40, "preview-check.py took \(elapsed) s")
        #expect(result.status == 0, "preview-check.py: \(result); stdout: \(result.stdout.prefix(4000))")

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not JSON: \(result.stdout.prefix(2000)) \(result)")
        #expect((report["errors"] as? [Any])?.isEmpty == true, "console errors: \(report["errors"] ?? "none")")
        #expect((report["missing_files"] as? [Any])?.isEmpty == true, "missing: \(report["missing_files"] ?? "none")")
        #expect((report["network"] as? [Any])?.isEmpty == true, "network: \(report["network"] ?? "none")")
        #expect(report["ok"] as? Bool == true)

        // The tracks' final state: the broken and tampered ones show their problems, the good one none.
        let pageTracks = try #require(report["tracks"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: pageTracks.compactMap { t in (t["id"] as? String).map { ($0, t) } })
        #expect(byID.keys.sorted() == ["box", "broken", "tampered"])
        #expect(byID["box"]?["cue_error"] is NSNull)
        #expect(byID["box"]?["cue_status"] as? String == "ok")
        let brokenError = byID["broken"]?["cue_error"] as? String ?? ""
        #expect(brokenError.hasPrefix("Cue sheet problem: broken.cues.json:"), "\(brokenError)")
        #expect(byID["broken"]?["cue_status"] as? String == "error")
        let tamperedError = byID["tampered"]?["cue_error"] as? String ?? ""
        #expect(
            tamperedError
                == "Cue sheet problem: phase 1 starts at frame 288000 but phase 0 ends at frame 280000: a gap (phases must be contiguous and sorted)",
            "\(tamperedError)")
        #expect(byID["tampered"]?["cue_status"] as? String == "error")
        #expect(byID["tampered"]?["phase_kind"] is NSNull, "the tampered track still has a ring")

        // Each probe: the label, phase and section the reference lookup gives, the progress within ±0.02.
        let probes = try #require(report["probes"] as? [[String: Any]])
        try #require(probes.count == times.count + 1, "\(probes)")
        var scales: [Double: Double] = [:]
        for (t, probe) in zip(times, probes) {
            #expect(probe["error"] == nil, "t=\(t): \(probe["error"] ?? "")")
            let expected = expectedRing(box, at: t)
            #expect(abs((probe["current_time"] as? Double ?? -1) - t) < 0.001, "t=\(t): the audio is at \(probe["current_time"] ?? "?")")
            #expect(probe["label"] as? String == expected.label, "t=\(t)")
            #expect(probe["phase_kind"] as? String == expected.kind, "t=\(t)")
            #expect(probe["phase_index"] as? String == String(expected.phaseIndex), "t=\(t)")
            #expect(probe["section"] as? String == expected.section, "t=\(t)")
            let progress = Double(probe["progress"] as? String ?? "") ?? .nan
            #expect(abs(progress - expected.progress) <= 0.02, "t=\(t): progress \(progress), expected \(expected.progress)")
            #expect((probe["progress"] as? String)?.wholeMatch(of: /\d\.\d{3}/) != nil, "t=\(t): \(probe["progress"] ?? "")")
            let scale = Double(probe["scale"] as? String ?? "") ?? .nan
            // the CSS transform is the same scale (the browser writes it back without trailing zeros)
            let transform = probe["transform"] as? String ?? ""
            let transformScale = transform.wholeMatch(of: /scale\(([0-9.]+)\)/).flatMap { Double($0.1) } ?? .nan
            #expect(abs(transformScale - scale) < 0.0005, "t=\(t): transform \(transform), data-scale \(scale)")
            scales[t] = scale
        }
        // Known phases, spelled out (the reference lookup above is checked against them too).
        #expect(
            probes[0]["label"] as? String == "Settle in" && probes[0]["phase_kind"] as? String == "" && probes[0]["section"] as? String == "intro")
        #expect(probes[1]["label"] as? String == "Breathe In" && probes[1]["phase_kind"] as? String == "inhale")
        #expect(abs((Double(probes[1]["progress"] as? String ?? "") ?? 0) - 0.25) <= 0.02)
        #expect(probes[3]["phase_kind"] as? String == "hold" && probes[3]["label"] as? String == "Hold")
        #expect(probes[4]["phase_kind"] as? String == "exhale" && probes[4]["label"] as? String == "Breathe Out")
        #expect(probes[8]["label"] as? String == "Done" && probes[8]["section"] as? String == "outro")
        #expect(probes[9]["phase_index"] as? String == "0" && probes[9]["progress"] as? String == "0.000")
        #expect(probes[10]["phase_index"] as? String == "1" && probes[10]["phase_kind"] as? String == "hold")
        #expect(probes[11]["phase_index"] as? String == "-1" && probes[11]["section"] as? String == "outro")
        #expect(probes[12]["phase_index"] as? String == "1", "7.99999 s is frame 384000 after rounding: the hold")
        // Sizes: inhale grows, hold keeps what the inhale or exhale reached, exhale shrinks, intro and outro are small.
        let s = { (t: Double) in scales[t] ?? .nan }
        #expect(s(5.0) < s(7.0), "inhale at 0.25 (\(s(5.0))) is not smaller than at 0.75 (\(s(7.0)))")
        #expect(s(9.5) == 1.0, "hold after an inhale: \(s(9.5))")
        #expect(s(13.0) < 1.0 && s(13.0) > 0.45, "exhale at 0.25: \(s(13.0))")
        #expect(s(17.0) == 0.45, "hold after an exhale: \(s(17.0))")
        #expect(s(21.0) > 0.45 && s(21.0) < s(7.0), "second inhale at 0.25: \(s(21.0))")
        #expect(s(2.0) == 0.45 && s(38.0) == 0.45)

        // Played for about a second from 4.5 s: the ring shows the state at the audio's own position when paused.
        let played = probes[times.count]
        #expect(played["error"] == nil, "play: \(played["error"] ?? "")")
        let at = played["current_time"] as? Double ?? -1
        #expect(at > 4.8 && at < 9, "the audio played from 4.5 s to \(at) s")
        let expected = expectedRing(box, at: at)
        #expect(played["phase_kind"] as? String == expected.kind && played["label"] as? String == expected.label, "play: \(played)")
        #expect(abs((Double(played["progress"] as? String ?? "") ?? .nan) - expected.progress) <= 0.002, "play: \(played), expected \(expected)")
    }

    /// The text `voice` says is sounding at `frame`, by a linear scan over `[frame, frame + length_frames)`
    /// (independent of the page's binary search); "" between prompts.
    static func expectedPrompt(_ voice: [CueSheet.VoicePrompt], atFrame frame: Int64) -> String {
        voice.first { $0.frame <= frame && frame < $0.endFrame }.map { $0.text ?? "" } ?? ""
    }

    @Test("the caption under the ring shows exactly the sounding voice prompt's text, and nothing before, between or after prompts")
    func promptCaptions() throws {
        guard which("chromium") != nil || which("chromium-browser") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let python = try Self.python()
        let render = try #require(renderExecutable, "the 'render' executable was not found next to the test binary; build it or set CADENCE_RENDER")

        // A catalog of a guided track (a 2 s clip at 1 s, a 1 s clip on the first exhale at 12 s) and a plain one.
        // The texts carry what the page's embedded JSON must escape (<, &, ", </script>) and non-ASCII.
        let folder = try TempFolder("preview-voice")
        _ = try Fixture.writeSine(folder.file("assets/voice/welcome.wav"), seconds: 2, sampleRate: 8000, channels: 1)
        _ = try Fixture.writeSine(folder.file("assets/voice/out.wav"), seconds: 1, sampleRate: 8000, channels: 1, frequency: 330)
        try folder.write(
            #"""
            id: guided
            title: Guided
            category: Breathe
            duration: 24s
            intro: 4s
            outro: 4s
            pattern: box
            cues: none
            bed: { synth: pink-noise, gain: -26 dB }
            voice:
              prompts:
                - { at: 1s, file: voice/welcome.wav, text: "Welcome — let <your> shoulders & \"jaw\" soften." }
                - { on: exhale, cycles: 1, file: voice/out.wav, text: "Breathe out </script> slowly…" }
            output: { sample_rate: 8000, channels: 1, format: flac }
            """#, to: "recipes/guided.yml")
        try folder.write(
            """
            id: plain
            title: Plain
            category: Breathe
            duration: 24s
            pattern: box
            bed: { synth: pink-noise, gain: -26 dB }
            output: { sample_rate: 8000, channels: 1, format: flac }
            """, to: "recipes/plain.yml")
        let dist = folder.file("dist")
        let rendered = try run(render, [folder.file("recipes"), "-o", dist, "-q"], in: folder.path, timeLimit: 300)
        try #require(rendered.status == 0, "render: \(rendered)")
        let page = dist + "/index.html"
        try #require(FileManager.default.fileExists(atPath: page), "render wrote no \(page)")

        // Every time comes from the cue sheet: frames are the truth, seconds are frame / sample_rate.
        let sheet = try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: dist + "/guided.cues.json")))
        let voice = try #require(sheet.voice, "the guided track's cue sheet has no voice list")
        try #require(voice.count == 2, "\(voice)")
        let (one, two) = (voice[0], voice[1])
        try #require(one.text == "Welcome — let <your> shoulders & \"jaw\" soften." && two.text == "Breathe out </script> slowly…", "\(voice)")
        try #require(one.frame > 0 && one.endFrame < two.frame, "the prompts leave no room before the first or between them: \(voice)")
        let rate = Double(sheet.audio.sampleRate)
        func seconds(_ frame: Int64) -> Double { Double(frame) / rate }

        // (a)–(d) as asked, then the edges of each prompt's [frame, frame + length_frames). The page takes the
        // frame at t as floor(t × rate + 1/2), as CueTimeline does: an edge is probed 0.4 of a frame before a
        // prompt's first frame or its end, where only that rounding gives the frame (0.6 before gives the one before).
        let moments: [(what: String, seconds: Double, frame: Int64)] = [
            ("inside prompt 1", seconds((one.frame + one.endFrame) / 2), (one.frame + one.endFrame) / 2),
            ("between the prompts", seconds((one.endFrame + two.frame) / 2), (one.endFrame + two.frame) / 2),
            ("inside prompt 2", seconds((two.frame + two.endFrame) / 2), (two.frame + two.endFrame) / 2),
            ("just before prompt 1's first frame", (Double(one.frame) - 0.6) / rate, one.frame - 1),
            ("prompt 1's first frame, by rounding", (Double(one.frame) - 0.4) / rate, one.frame),
            ("prompt 1's last frame", (Double(one.endFrame) - 0.6) / rate, one.endFrame - 1),
            ("the frame after prompt 1, by rounding", (Double(one.endFrame) - 0.4) / rate, one.endFrame),
            ("prompt 2's first frame", seconds(two.frame), two.frame),
            ("the frame after prompt 2, by rounding", (Double(two.endFrame) - 0.4) / rate, two.endFrame),
        ]
        let spelledOut = [one.text, "", two.text, "", one.text, one.text, "", two.text, ""]
        // played from 0.1 s before prompt 1 for about a second: the caption follows the audio's clock
        let playFrom = seconds(one.frame) - 0.1
        var arguments = [repositoryRoot + "/scripts/preview-check.py", page, "--timeout", "45"]
        for m in moments { arguments += ["--probe", "guided=\(m.seconds)"] }
        arguments += ["--play", "guided=\(playFrom)"]
        let started = Date()
        let result = try run(python, arguments, timeLimit: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(!result.timedOut, "preview-check.py ran out of time")
        #expect(result.status == 0, "preview-check.py: \(result); stdout: \(result.stdout.prefix(4000))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not JSON: \(result.stdout.prefix(2000)) \(result)")
        #expect((report["errors"] as? [Any])?.isEmpty == true, "console errors: \(report["errors"] ?? "none")")
        #expect((report["missing_files"] as? [Any])?.isEmpty == true, "missing: \(report["missing_files"] ?? "none")")

        // Only the guided track has a caption element; the plain one has none (the checker reports null).
        let tracks = try #require(report["tracks"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: tracks.compactMap { t in (t["id"] as? String).map { ($0, t) } })
        #expect(byID.keys.sorted() == ["guided", "plain"], "\(tracks)")
        #expect(byID["guided"]?["cue_status"] as? String == "ok" && byID["guided"]?["cue_error"] is NSNull, "\(byID["guided"] ?? [:])")
        #expect(byID["guided"]?["prompt"] is String, "the guided track has no .prompt-text: \(byID["guided"] ?? [:])")
        #expect(byID["plain"]?["prompt"] is NSNull, "the plain track has a caption: \(byID["plain"] ?? [:])")

        let probes = try #require(report["probes"] as? [[String: Any]])
        try #require(probes.count == moments.count + 1, "\(probes)")
        for ((m, expected), probe) in zip(zip(moments, spelledOut), probes) {
            #expect(probe["error"] == nil, "\(m.what): \(probe["error"] ?? "")")
            // the audio is where it was sent: the page's rounding of its time gives the frame chosen
            let at = probe["current_time"] as? Double ?? -1
            #expect(Int64((at * rate + 0.5).rounded(.down)) == m.frame, "\(m.what): the audio is at \(at) s, not frame \(m.frame)")
            let shown = probe["prompt"] as? String
            #expect(shown == expected, "\(m.what) (frame \(m.frame), \(m.seconds) s): caption \(shown.debugDescription)")
            #expect(shown == Self.expectedPrompt(voice, atFrame: m.frame), "\(m.what): the reference lookup disagrees")
        }

        let played = probes[moments.count]
        #expect(played["error"] == nil, "play: \(played["error"] ?? "")")
        let until = played["current_time"] as? Double ?? -1
        let untilFrame = Int64((until * rate + 0.5).rounded(.down))
        #expect(untilFrame > one.frame && untilFrame < one.endFrame, "played from \(playFrom) s to \(until) s: not inside prompt 1")
        #expect(played["prompt"] as? String == Self.expectedPrompt(voice, atFrame: untilFrame), "play: \(played)")
        #expect(elapsed < 40, "preview-check.py took \(elapsed) s")
    }

    @Test("the check fails on a page with a script error or a missing file")
    func checkCanFail() throws {
        guard which("chromium") != nil || which("chromium-browser") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let python = try Self.python()
        let dist = try TempFolder("preview-bad")
        let sheet = testSheet(id: "gone", title: "Gone", category: nil)
        let track = PreviewPage.Track(
            id: "gone", title: "Gone", category: nil, audioFile: "gone.wav", pictureFile: "gone.svg", duration: 40, cues: .sheet(sheet))
        let html = PreviewPage.html(title: "Bad", tracks: [track])
            .replacingOccurrences(of: "</body>", with: "<script>undefinedFunction();</script>\n</body>")
        try dist.write(html, to: "index.html")
        let result = try run(python, [repositoryRoot + "/scripts/preview-check.py", dist.file("index.html"), "--timeout", "30"], timeLimit: 45)
        #expect(result.status == 1, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let missing = (report["missing_files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }.sorted()
        #expect(missing == [dist.file("gone.svg"), dist.file("gone.wav")].sorted())
        let errors = report["errors"] as? [[String: Any]] ?? []
        #expect(errors.contains { ($0["text"] as? String ?? "").contains("undefinedFunction") }, "\(errors)")
    }

    /// recipe-v1.2 § Sessions in the catalog: a session in two languages and two lengths (the renditions a recipe with
    /// `locales: [en, de]` and two variants makes), checked in Chromium: picking a language, then a length, shows
    /// that rendition, whose audio loads (its file, its length) with its own cue sheet, title and ring.
    @Test("a session's card: switching language and length loads the right audio and the right cue sheet")
    func sessionPickers() throws {
        guard which("chromium") != nil || which("chromium-browser") != nil else {
            Issue.record("chromium is not installed: run scripts/setup.sh, which installs chromium and python3-websocket (CI does)")
            return
        }
        let python = try Self.python()
        let script = repositoryRoot + "/scripts/preview-check.py"
        let dist = try TempFolder("preview-session")
        // lengths 24 s and 40 s (1 and 2 cycles of box); the German renditions 8 s longer (their intros)
        var tracks: [PreviewPage.Track] = []
        var sheets: [String: CueSheet] = [:]
        for (locale, title, intro) in [("en", "Sleep", 4), ("de", "Einschlafen", 8)] {
            for cycles in [1, 2] {
                let id = "sleep-\(cycles)-\(locale)"
                let sheet = testSheet(id: id, title: title, category: "Sleep", cycles: cycles, intro: intro, rate: 8000)
                sheets[id] = sheet
                _ = try Fixture.writeSine(dist.file(id + ".wav"), seconds: Int(sheet.audio.frames / 8000), sampleRate: 8000, channels: 1)
                var track = PreviewPage.Track(
                    id: id, title: title, category: "Sleep", audioFile: id + ".wav", pictureFile: nil, duration: sheet.audio.duration,
                    cues: .sheet(sheet))
                track.session = "sleep"
                track.locale = locale
                track.variant = Double(cycles * 16)
                tracks.append(track)
            }
        }
        try dist.write(PreviewPage.html(title: "Sessions", tracks: tracks), to: "index.html")
        // en 1 cycle shown first; → de (its 1 cycle); → de 2 cycles; → en (its 2 cycles); probe it in its second cycle
        let chosen = ["sleep-1-de", "sleep-2-de", "sleep-2-en"]
        var arguments = [script, dist.file("index.html"), "--timeout", "45"]
        for id in chosen { arguments += ["--choose", id] }
        arguments += ["--probe", "sleep-2-en=25"]
        let result = try run(python, arguments, timeLimit: 60)
        #expect(result.status == 0, "preview-check.py: \(result); stdout: \(result.stdout.prefix(4000))")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let steps = try #require(report["chosen"] as? [[String: Any]])
        try #require(steps.count == 3, "\(steps)")
        let expected = [
            ("sleep-1-en", "pick-locale", "Einschlafen"), ("sleep-1-de", "pick-length", "Einschlafen"), ("sleep-2-de", "pick-locale", "Sleep"),
        ]
        for (k, id) in chosen.enumerated() {
            let step = steps[k], sheet = try #require(sheets[id])
            #expect(step["from"] as? String == expected[k].0 && step["picker"] as? String == expected[k].1, "\(step)")
            #expect(step["shown"] as? [String] == [id] && step["title"] as? String == expected[k].2, "\(step)")
            #expect(step["audio_file"] as? String == id + ".wav", "\(step)")
            #expect(abs((step["audio_duration"] as? Double ?? -1) - sheet.audio.duration) < 0.01, "\(step)")
            #expect((step["cue_frames"] as? NSNumber)?.int64Value == sheet.audio.frames, "\(step)")
        }
        let probes = try #require(report["probes"] as? [[String: Any]])
        let ring = expectedRing(try #require(sheets["sleep-2-en"]), at: 25)
        #expect(probes.first?["phase_index"] as? String == String(ring.phaseIndex) && probes.first?["label"] as? String == ring.label, "\(probes)")
    }
}
