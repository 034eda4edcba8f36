import CadenceCues
import Foundation
import Testing

@testable import Preview
import Sidecars

/// A track of the page with a box-breathing sheet.
private func track(_ id: String, title: String? = nil, category: String?, cues: PreviewPage.Cues? = nil) -> PreviewPage.Track {
    let sheet = testSheet(id: id, title: title ?? id.capitalized, category: category)
    return PreviewPage.Track(
        id: id, title: title ?? id.capitalized, category: category, audioFile: "\(id).wav", pictureFile: "\(id).waveform.svg",
        duration: sheet.audio.duration, cues: cues ?? .sheet(sheet))
}

@Suite("Preview page")
struct PreviewPageTests {
    @Test("tracks are grouped under their categories, categories sorted, tracks in the given order")
    func grouping() {
        let tracks = [
            track("a", category: "Sleep"), track("b", category: "Focus"), track("c", category: nil),
            track("d", category: "Focus"), track("e", category: "breathing"), track("f", category: "Sleep"),
        ]
        let html = PreviewPage.html(title: "Catalog", tracks: tracks)
        let headings = html.between("<h2 id=\"category-", "</h2>").map { String($0.split(separator: ">", maxSplits: 1).last ?? "") }
        #expect(headings == ["breathing", "Focus", "Sleep", "Uncategorized"])
        let order = html.between("data-track-id=\"", "\"")
        #expect(order == ["e", "b", "d", "a", "f", "c"])
        // each track inside its own category's <section>
        let sections = html.between("<section class=\"category\"", "</section>")
        #expect(sections.count == 4)
        let members = sections.map { $0.between("data-track-id=\"", "\"") }
        #expect(members == [["e"], ["b", "d"], ["a", "f"], ["c"]])
        #expect(html.contains("6 tracks in 4 categories"))
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
        #expect(html.contains("<h2 id=\"category-0\">A&amp;B &lt;i&gt;</h2>"))
        #expect(html.contains("data-track-id=\"x&quot;y&lt;z&gt;\""))
        #expect(html.contains("<title>Page &lt;/title&gt;&lt;script&gt;</title>"))
        // only the page's own script elements open and close
        #expect(html.occurrences(of: "<script") == 2)
        #expect(html.occurrences(of: "</script>") == 2)
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
        ])
    func durations(_ seconds: Double, _ text: String) {
        #expect(PreviewPage.formatDuration(seconds) == text)
    }

    @Test("each track has its title, length, player, picture and ring with the documented attributes")
    func trackMarkup() throws {
        let html = PreviewPage.html(title: "P", tracks: [track("box", title: "Box Breathing", category: "Breath")])
        let article = try #require(html.article(ofTrack: "box"))
        #expect(article.contains("<h3 id=\"track-0-title\">Box Breathing</h3>"))
        #expect(article.contains("<span class=\"length\">0:40</span>"))
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
