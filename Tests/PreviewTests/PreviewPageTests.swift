import CadenceCues
import Foundation
import Sidecars
import Testing

@testable import Preview

/// A track of the page with a box-breathing sheet.
private func track(_ id: String, title: String? = nil, category: String?, cues: PreviewPage.Cues? = nil) -> PreviewPage.Track {
    let sheet = testSheet(id: id, title: title ?? id.capitalized, category: category)
    return PreviewPage.Track(
        id: id, title: title ?? id.capitalized, category: category, audioFile: "\(id).wav", pictureFile: "\(id).waveform.svg",
        duration: sheet.audio.duration, cues: cues ?? .sheet(sheet))
}

@Suite("Preview page")
struct PreviewPageTests {
    @Test("categories by the smallest sort_order of their tracks (ties by name, Uncategorized last), tracks by sort_order, title, id")
    func grouping() {
        func t(_ id: String, _ category: String?, _ order: Int?, title: String? = nil) -> PreviewPage.Track {
            var track = track(id, title: title, category: category)
            track.sortOrder = order
            return track
        }
        let tracks = [
            t("a", "Sleep", 30), t("b", "Focus", 20), t("c", nil, 1), t("d", "Focus", 5, title: "D"), t("e", "breathing", nil),
            t("f", "Sleep", 3), t("g", "sleep", 3), t("h", "Focus", 5, title: "Aaa"), t("i", "Calm", nil), t("j", "Focus", nil),
        ]
        let html = PreviewPage.html(title: "Catalog", tracks: tracks)
        let headings = html.between("<h2 id=\"category-", "</h2>").map { String($0.split(separator: ">", maxSplits: 1).last ?? "") }
        #expect(headings == ["Sleep", "sleep", "Focus", "breathing", "Calm", "Uncategorized"])
        // each track inside its own category's <section>, in order
        let sections = html.between("<section class=\"category\"", "</section>")
        let members = sections.map { $0.between("data-track-id=\"", "\"") }
        #expect(members == [["f", "a"], ["g"], ["h", "d", "b", "j"], ["e"], ["i"], ["c"]])
        #expect(html.between("data-track-id=\"", "\"") == ["f", "a", "g", "h", "d", "b", "j", "e", "i", "c"])
        #expect(html.contains("10 tracks in 6 categories"))
        // the width a category asks for: as many cards as it has, up to 4
        #expect(sections.map { $0.between("data-columns=\"", "\"").first ?? "" } == ["2", "1", "4", "1", "1", "1"])
        // the order does not depend on the order given
        #expect(PreviewPage.html(title: "Catalog", tracks: tracks.reversed()) == html)
    }

    @Test("premium, changed and on-demand badges and data-premium / data-changed, present only when they apply")
    func badges() throws {
        var paid = track("paid", category: "C")
        paid.premium = true
        var fresh = track("fresh", category: "C")
        fresh.changed = true
        var remote = track("remote", category: "C")
        remote.onDemand = true
        let html = PreviewPage.html(title: "P", tracks: [paid, fresh, remote, track("plain", category: "C")])
        let premium = "<span class=\"badge premium\">Premium</span>"
        let changed = "<span class=\"badge changed\""
        let onDemand = "<span class=\"badge on-demand\""
        let a = try #require(html.article(ofTrack: "paid")), b = try #require(html.article(ofTrack: "fresh"))
        let c = try #require(html.article(ofTrack: "remote")), d = try #require(html.article(ofTrack: "plain"))
        #expect(a.contains(premium) && !a.contains(changed) && !a.contains(onDemand))
        #expect(a.contains("data-premium=\"true\" data-changed=\"false\""))
        #expect(!b.contains(premium) && b.contains(changed + " title=") && b.contains(">Changed</span>") && !b.contains(onDemand))
        #expect(b.contains("data-premium=\"false\" data-changed=\"true\""))
        #expect(c.contains(onDemand) && !c.contains(premium) && !c.contains(changed))
        #expect(!d.contains("class=\"badges\"") && d.contains("data-premium=\"false\" data-changed=\"false\""))
        #expect(html.contains("4 tracks in 1 category, 2:40 in all · 1 premium · <span class=\"changes\">1 new or changed in the last render</span>"))
        #expect(PreviewPage.html(title: "P", tracks: [paid], removed: 2).contains("0 new or changed in the last render, 2 removed"))
        #expect(!PreviewPage.html(title: "P", tracks: [track("x", category: nil)]).contains("class=\"changes\""))
    }

    @Test("a track with drafts has a Draft badge and data-drafts; the summary counts the tracks with drafts")
    func draftBadge() throws {
        var drafty = track("drafty", category: "C")
        drafty.drafts = 2
        let html = PreviewPage.html(title: "P", tracks: [drafty, track("recorded", category: "C")])
        let a = try #require(html.article(ofTrack: "drafty")), b = try #require(html.article(ofTrack: "recorded"))
        #expect(a.contains("data-drafts=\"2\"") && a.contains("<span class=\"badge draft\" title=\"2 draft prompts, spoken by the draft voice"))
        #expect(a.contains(">Draft</span>"))
        #expect(b.contains("data-drafts=\"0\"") && !b.contains("badge draft"))
        #expect(html.contains(" · <span class=\"drafted\">1 with draft prompts</span>"))
        #expect(!PreviewPage.html(title: "P", tracks: [track("x", category: nil)]).contains("class=\"drafted\""))
    }

    /// recipe-v1.2 § Sessions in the catalog: one card per session, the first rendition shown, pickers naming the track
    /// each option shows (a length of the same locale; a locale's rendition nearest in length).
    @Test("a session's renditions share one card with a length and a language picker; a plain track has none")
    func sessionCard() throws {
        func rendition(_ id: String, _ locale: String, _ minutes: Double, title: String) -> PreviewPage.Track {
            var t = track(id, title: title, category: "Sleep")
            t.session = "sleep"
            t.locale = locale
            t.variant = minutes * 60
            return t
        }
        let tracks = [
            rendition("sleep-3m-en", "en", 3, title: "Sleep"), rendition("sleep-10m-en", "en", 10, title: "Sleep"),
            rendition("sleep-3m-de", "de", 3, title: "Schlafen"), rendition("sleep-10m-de", "de", 10, title: "Schlafen"),
            track("plain", category: "Sleep"),
        ]
        let html = PreviewPage.html(title: "P", tracks: tracks)
        #expect(html.occurrences(of: "<div class=\"session\"") == 2)
        #expect(html.contains("<div class=\"session\" data-session-id=\"sleep\" data-renditions=\"4\">"))
        let first = try #require(html.article(ofTrack: "sleep-3m-en")), other = try #require(html.article(ofTrack: "sleep-10m-de"))
        #expect(!first.contains("-title\" hidden>") && first.contains("preload=\"metadata\""))
        #expect(other.contains("-title\" hidden>") && other.contains("preload=\"none\"") && other.contains(">Schlafen</h3>"))
        #expect(
            first.contains(
                "<select class=\"pick-length\" aria-label=\"Length\"><option value=\"sleep-3m-en\" selected>3:00</option><option value=\"sleep-10m-en\">10:00</option></select>"
            ))
        // German 10 min: its language picker shows English at 10 min
        #expect(
            other.contains(
                "<select class=\"pick-locale\" aria-label=\"Language\"><option value=\"sleep-10m-en\">en</option><option value=\"sleep-10m-de\" selected>de</option></select>"
            ))
        let plain = try #require(html.article(ofTrack: "plain"))
        #expect(!plain.contains("pickers") && !plain.contains("-title\" hidden>"))
    }

    @Test("format, size, loudness and true peak: the manifest's, else the cue sheet's, left out when unknown")
    func facts() throws {
        var full = track("full", category: nil)
        full.audioFile = "full.flac"
        full.bytes = 4_213_000
        full.size = "4.2 MB"
        full.loudnessLUFS = -18
        full.truePeakDBTP = -1.26
        var fromSheet = track("sheet", category: nil)  // testSheet: -16 LUFS, -1 dBTP; a .wav
        fromSheet.audioFile = "sheet.wav"
        var bare = PreviewPage.Track(
            id: "bare", title: "Bare", category: nil, audioFile: "bare", pictureFile: nil, duration: 1500, cues: .failed("no sheet"))
        bare.sortOrder = 1
        let html = PreviewPage.html(title: "P", tracks: [full, fromSheet, bare])
        let a = try #require(html.article(ofTrack: "full"))
        #expect(a.contains("data-format=\"FLAC\" data-bytes=\"4213000\" data-loudness-lufs=\"-18\" data-true-peak-dbtp=\"-1.26\""))
        #expect(
            a.contains(
                "<ul class=\"facts\"><li class=\"length\" title=\"Length\">0:40</li><li class=\"format\" title=\"Format\">FLAC</li>"
                    + "<li class=\"size\" title=\"File size\">4.2 MB</li><li class=\"loudness\" title=\"Integrated loudness\">-18.0 LUFS</li>"
                    + "<li class=\"true-peak\" title=\"True peak\">-1.3 dBTP</li><li class=\"id\" title=\"Catalog id\"><code>full</code></li></ul>"))
        let b = try #require(html.article(ofTrack: "sheet"))
        #expect(b.contains(">WAV</li>") && b.contains(">-16.0 LUFS</li>") && b.contains(">-1.0 dBTP</li>") && !b.contains("class=\"size\""))
        let c = try #require(html.article(ofTrack: "bare"))
        #expect(c.contains("<li class=\"length\" title=\"Length\">25:00</li>"))
        for absent in ["data-format", "data-bytes", "data-loudness", "data-true-peak", "class=\"format\"", "LUFS", "dBTP"] {
            #expect(!c.contains(absent), "\(absent) on a track without it")
        }
    }

    @Test(
        "format names from the audio file's extension",
        arguments: [
            ("a.flac", "FLAC"), ("a.FLAC", "FLAC"), ("a.m4a", "M4A"), ("a.ogg", "Ogg"), ("a.opus", "Opus"), ("a.mp3", "MP3"),
            ("a.wav", "WAV"), ("a.caf", "CAF"), ("a.aiff", "AIFF"), ("x/a.b.w64", "W64"),
        ])
    func formatNames(_ file: String, _ name: String) {
        #expect(PreviewPage.formatName(ofFile: file) == name)
    }

    @Test("no format without an extension")
    func noFormat() {
        for file in ["a", ".flac", "a.", "dir.x/a"] { #expect(PreviewPage.formatName(ofFile: file) == nil, "\(file)") }
    }

    @Test("page state: a first page marks every track; a render that changes nothing keeps the marks; one that does marks only its changes")
    func pageState() throws {
        typealias State = PreviewPage.PageState
        let first = State.next(after: nil, now: ["a": "1", "b": "2", "c": "3"])
        #expect(first.changed == ["a", "b", "c"] && first.removed == 0)
        // nothing new, changed or gone: the marks of the page before
        #expect(State.next(after: first, now: ["a": "1", "b": "2", "c": "3"]) == first)
        let second = State.next(after: first, now: ["a": "1", "b": "9", "c": "3", "d": "4"])
        #expect(second.changed == ["b", "d"] && second.removed == 0)
        #expect(State.next(after: second, now: second.tracks) == second)
        let third = State.next(after: second, now: ["a": "1", "b": "9"])
        #expect(third.changed == [] && third.removed == 2)
        #expect(State.next(after: third, now: third.tracks) == third)

        // written into the page and read back
        var tracks = ["a", "b", "q\"</script><!--"].map { track($0, category: nil) }
        for i in tracks.indices { tracks[i].sha256 = String(repeating: "\(i)", count: 64) }
        tracks[1].changed = true
        let html = PreviewPage.html(title: "P", tracks: tracks, removed: 3)
        let block = try #require(html.between("<script type=\"application/json\" id=\"page-state\">", "</script>").first)
        #expect(!block.contains("<") && !block.contains(">"))
        let read = try #require(State.read(fromPage: html))
        #expect(
            read.tracks == [
                "a": String(repeating: "0", count: 64), "b": String(repeating: "1", count: 64), "q\"</script><!--": String(repeating: "2", count: 64),
            ])
        #expect(read.changed == ["b"] && read.removed == 3)
        // what is not this version's state is none
        #expect(State.read(fromPage: "<html>no state</html>") == nil)
        #expect(
            State.read(
                fromPage: html.replacingOccurrences(of: "cadence-preview-state\",\"version\":1", with: "cadence-preview-state\",\"version\":2"))
                == nil)
        #expect(State.read(fromPage: html.replacingOccurrences(of: "\"removed\":3", with: "\"removed\":-1")) == nil)
    }

    @Test("titles, categories and ids are escaped, also </script> and quotes")
    func escaping() {
        let hostile = "Box <b>&\"Breath\"</script><script>alert(1)</script>'"
        let tracks = [
            PreviewPage.Track(
                id: "x\"y<z>", title: hostile, category: "A&B <i>", audioFile: "a b#1?.wav", pictureFile: "p\"q.svg", duration: 61,
                cues: .sheet(testSheet(id: "x", title: hostile, category: nil)))
        ]
        let html = PreviewPage.html(title: "Page </title><script>", tracks: tracks)
        #expect(!html.contains(hostile))
        #expect(!html.contains("<b>") && !html.contains("<i>") && !html.contains("alert(1)</script>"))
        #expect(html.contains("Box &lt;b&gt;&amp;&quot;Breath&quot;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;"))
        #expect(html.contains("<h2 id=\"category-0\" title=\"A&amp;B &lt;i&gt;\">A&amp;B &lt;i&gt;</h2>"))
        #expect(html.contains("data-category=\"A&amp;B &lt;i&gt;\""))
        #expect(html.contains("<code>x&quot;y&lt;z&gt;</code>"))
        #expect(html.contains("data-track-id=\"x&quot;y&lt;z&gt;\""))
        #expect(html.contains("<title>Page &lt;/title&gt;&lt;script&gt;</title>"))
        // only the page's own script elements open and close: the cue data, the page state, the script
        #expect(html.occurrences(of: "<script") == 3)
        #expect(html.occurrences(of: "</script>") == 3)
        // file names become URL paths
        #expect(html.contains("src=\"a%20b%231%3F.wav\""))
        #expect(html.contains("src=\"p%22q.svg\""))
    }

    @Test("embedded cue data escapes </, <!-- and U+2028/2029, and reads back as the sheet")
    func embeddedData() throws {
        let odd = "In </script><!-- x \u{2028}\u{2029} & \"q\" \\ end"
        var sheet = testSheet(id: "t", title: "T", category: nil)
        sheet.phases[0].label = odd
        sheet.sections[0].kind = "intro"
        let html = PreviewPage.html(title: "P", tracks: [track("t", category: nil, cues: .sheet(sheet))])
        let blocks = html.between("<script type=\"application/json\" class=\"cue-data\">", "</script>")
        try #require(blocks.count == 1)
        let block = blocks[0]
        #expect(!block.contains("</") && !block.contains("<!--") && !block.contains("\u{2028}") && !block.contains("\u{2029}"))
        #expect(!block.contains("<") && !block.contains(">"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["sample_rate"] as? Int == 48000)
        #expect((object["frames"] as? NSNumber)?.int64Value == sheet.audio.frames)
        let sections = try #require(object["sections"] as? [[Any]])
        #expect(sections.map { $0[0] as? String } == sheet.sections.map(\.kind))
        #expect(sections.map { ($0[1] as? NSNumber)?.int64Value } == sheet.sections.map(\.startFrame))
        #expect(sections.map { ($0[2] as? NSNumber)?.int64Value } == sheet.sections.map(\.endFrame))
        let phases = try #require(object["phases"] as? [[Any]])
        try #require(phases.count == sheet.phases.count)
        for (row, phase) in zip(phases, sheet.phases) {
            #expect((row[0] as? NSNumber)?.int64Value == phase.startFrame)
            #expect((row[1] as? NSNumber)?.int64Value == phase.endFrame)
            #expect(row[2] as? String == phase.kind)
            #expect(row[3] as? String == phase.label)
            #expect(row[4] as? Int == phase.cycle)
        }
        #expect(phases[0][3] as? String == odd)
    }

    @Test("a track whose cue sheet failed shows the error in place of the ring, the others are unaffected")
    func failedTrack() throws {
        let html = PreviewPage.html(
            title: "P",
            tracks: [
                track("good", category: "C"),
                track("bad", category: "C", cues: .failed("bad.cues.json: line 3: expected a number, found \"<x>\"")),
            ])
        let bad = try #require(html.article(ofTrack: "bad"))
        #expect(
            bad.contains(
                "<p class=\"cue-error\" role=\"alert\">Cue sheet problem: bad.cues.json: line 3: expected a number, found &quot;&lt;x&gt;&quot;</p>"))
        #expect(bad.contains("data-cue-status=\"error\""))
        #expect(!bad.contains("class=\"ring\"") && !bad.contains("cue-data"))
        #expect(bad.contains("<audio controls preload=\"metadata\" src=\"bad.wav\""))
        let good = try #require(html.article(ofTrack: "good"))
        #expect(!good.contains("cue-error") && good.contains("class=\"ring\"") && good.contains("class=\"cue-data\""))
        #expect(good.contains("data-cue-status=\"ok\""))
    }

    /// Sheets that decode but cannot drive a ring, and a piece of the problem each must report.
    static let brokenSheets: [(String, @Sendable (inout CueSheet) -> Void, String)] = [
        ("version", { $0.version = 2 }, "version 2 is not supported"),
        ("format", { $0.format = "other" }, "format is 'other'"),
        ("rate", { $0.audio.sampleRate = 0 }, "sample_rate 0 is not positive"),
        ("gap", { $0.phases[3].startFrame += 10 }, "phase 3 starts at frame 768010 but phase 2 ends at frame 768000: a gap"),
        ("overlap", { $0.phases[1].startFrame -= 1 }, "phase 1 starts at frame 383999 but phase 0 ends at frame 384000: an overlap"),
        ("empty", { $0.phases[2].endFrame = $0.phases[2].startFrame }, "phase 2 (exhale) is empty or reversed"),
        ("unsorted", { $0.phases.swapAt(0, 1) }, "phase 1 starts at frame 192000 but phase 0 ends at frame 576000: an overlap"),
        ("beyond", { $0.audio.frames = $0.phases[7].endFrame - 1 }, "outside the audio"),
        ("sections", { $0.sections.swapAt(0, 1) }, "section 1 (intro) starts at frame 0, before the previous section's end"),
    ]

    @Test("sheets that break the page's rules show their problem", arguments: 0..<brokenSheets.count)
    func invalidSheets(_ index: Int) throws {
        let (name, breakIt, message) = Self.brokenSheets[index]
        var sheet = testSheet(id: name, title: name, category: nil)
        breakIt(&sheet)
        let problem = try #require(PreviewPage.problem(in: sheet), "\(name) was accepted")
        #expect(problem.contains(message), "\(name): \(problem)")
        let html = PreviewPage.html(title: "P", tracks: [track(name, category: nil, cues: .sheet(sheet))])
        let article = try #require(html.article(ofTrack: name))
        #expect(article.contains("class=\"cue-error\""))
        #expect(article.contains(Markup.text(problem)))
    }

    @Test("a good sheet has no problem")
    func goodSheet() {
        #expect(PreviewPage.problem(in: testSheet(id: "g", title: "G", category: nil)) == nil)
        #expect(PreviewPage.problem(in: testSheet(id: "g", title: "G", category: nil, intro: 0, outro: 0)) == nil)
    }

    @Test("the same tracks give the same bytes")
    func deterministic() {
        let make = {
            [track("a", category: "Sleep"), track("b", category: "Focus"), track("c", category: nil, cues: .failed("nope"))]
        }
        let first = PreviewPage.html(title: "Catalog", tracks: make())
        let second = PreviewPage.html(title: "Catalog", tracks: make())
        #expect(first == second)
        #expect(Array(first.utf8) == Array(second.utf8))
    }

    @Test(
        "lengths are m:ss below an hour and h:mm:ss from an hour",
        arguments: [
            (0.0, "0:00"), (0.4, "0:00"), (0.5, "0:01"), (59.4, "0:59"), (59.6, "1:00"), (300, "5:00"), (3599.4, "59:59"),
            (3599.5, "1:00:00"), (3725, "1:02:05"), (36000, "10:00:00"), (-3, "0:00"), (.nan, "0:00"), (.infinity, "0:00"),
            (59.5, "1:00"), (1500, "25:00"), (1499.5, "25:00"), (1499.4, "24:59"), (3600, "1:00:00"), (3723, "1:02:03"),
        ])
    func durations(_ seconds: Double, _ text: String) {
        #expect(PreviewPage.formatDuration(seconds) == text)
    }

    @Test("each track has its title, length, player, picture and ring with the documented attributes")
    func trackMarkup() throws {
        let html = PreviewPage.html(title: "P", tracks: [track("box", title: "Box Breathing", category: "Breath")])
        let article = try #require(html.article(ofTrack: "box"))
        #expect(article.contains("<h3 id=\"track-0-title\">Box Breathing</h3>"))
        #expect(article.contains("<li class=\"length\" title=\"Length\">0:40</li>"))
        #expect(article.contains("<audio controls preload=\"metadata\" src=\"box.wav\" aria-label=\"Play Box Breathing\"></audio>"))
        #expect(article.contains("<img src=\"box.waveform.svg\""))
        #expect(article.contains("class=\"playhead\""))
        for attribute in ["data-phase-kind=", "data-phase-index=", "data-section=", "data-progress=", "data-scale=", "style=\"transform:scale("] {
            #expect(article.contains(attribute), "ring has no \(attribute)")
        }
        #expect(article.contains("class=\"phase-label\""))
        #expect(article.contains("aria-live=\"polite\""))
        #expect(html.contains("<html lang=\"en\">"))
    }

    @Test("a track without a picture still gets a playhead bar")
    func noPicture() throws {
        var t = track("np", category: nil)
        t.pictureFile = nil
        let article = try #require(PreviewPage.html(title: "P", tracks: [t]).article(ofTrack: "np"))
        #expect(!article.contains("<img"))
        #expect(article.contains("No waveform picture") && article.contains("class=\"playhead\""))
    }

    @Test("the page is self-contained: no network address, no external script, style or font")
    func selfContained() {
        let html = PreviewPage.html(title: "P", tracks: [track("a", category: "X"), track("b", category: nil, cues: .failed("x"))])
        #expect(!html.contains("http:") && !html.contains("https:") && !html.contains("//cdn"))
        #expect(!html.contains("<script src") && !html.contains("<link") && !html.contains("@import") && !html.contains("url("))
        #expect(html.contains("Content-Security-Policy"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
    }

    @Test("an empty catalog gives a page that says so")
    func empty() {
        let html = PreviewPage.html(title: "Nothing", tracks: [])
        #expect(html.contains("No tracks."))
        #expect(html.contains("0 tracks in 0 categories"))
    }

    @Test("Cues from a Result keep the error's text")
    func cuesFromResult() {
        struct Oops: Error, CustomStringConvertible { var description: String { "x.cues.json: truncated" } }
        #expect(PreviewPage.Cues(.failure(Oops())) == .failed("x.cues.json: truncated"))
        let sheet = testSheet(id: "r", title: "R", category: nil)
        #expect(PreviewPage.Cues(.success(sheet)) == .sheet(sheet))
    }
}
