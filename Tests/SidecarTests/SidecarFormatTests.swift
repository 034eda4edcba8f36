import CadenceCues
import Foundation
import Sidecars
import Testing

/// A cue sheet built from phase lengths in frames: intro, `cycles` of `pattern`, outro.
func makeSheet(
    rate: Int = 48000, intro: Int64, pattern: [(kind: String, label: String, frames: Int64)], cycles: Int, outro: Int64,
    name: String = "Box Breathing", title: String = "Box Breathing"
) -> CueSheet {
    var phases: [CueSheet.Phase] = []
    var frame = intro
    for cycle in 0..<cycles {
        for p in pattern {
            phases.append(
                CueSheet.Phase(
                    index: phases.count, cycle: cycle, kind: p.kind, label: p.label, startFrame: frame, endFrame: frame + p.frames,
                    sampleRate: rate))
            frame += p.frames
        }
    }
    let practiceEnd = frame
    let total = practiceEnd + outro
    var sections: [CueSheet.Section] = []
    if intro > 0 { sections.append(.init(kind: "intro", startFrame: 0, endFrame: intro, sampleRate: rate)) }
    sections.append(.init(kind: "practice", startFrame: intro, endFrame: practiceEnd, sampleRate: rate))
    if outro > 0 { sections.append(.init(kind: "outro", startFrame: practiceEnd, endFrame: total, sampleRate: rate)) }
    let audio = CueSheet.Audio(
        file: "x.flac", sampleRate: rate, channels: 2, frames: total, sha256: String(repeating: "0", count: 64),
        loudnessLUFS: -16, truePeakDBTP: -1)
    let info = CueSheet.PatternInfo(
        name: name, cycle: DecimalText(16, decimalPlaces: 0),
        phases: pattern.map { .init(kind: $0.kind, label: $0.label, length: DecimalText(4, decimalPlaces: 0)) })
    let cues = phases.map { CueSheet.Cue(name: $0.kind, phase: $0.index, frame: $0.startFrame, lengthFrames: 100, sampleRate: rate) }
    return CueSheet(id: "x", title: title, category: "Focus", audio: audio, pattern: info, sections: sections, phases: phases, cues: cues)
}

let box: [(kind: String, label: String, frames: Int64)] = [
    ("inhale", "Breathe In", 192_000), ("hold", "Hold", 192_000), ("exhale", "Breathe Out", 192_000), ("hold", "Hold", 192_000),
]

@Suite("Timestamps from frames")
struct TimestampTests {
    @Test("milliseconds round half up, exactly, in integers")
    func rounding() {
        #expect(Timestamp.milliseconds(441, rate: 44100) == 10)
        #expect(Timestamp.milliseconds(22, rate: 44100) == 0)  // 0.4989 ms
        #expect(Timestamp.milliseconds(23, rate: 44100) == 1)  // 0.5215 ms
        #expect(Timestamp.milliseconds(1, rate: 2000) == 1)  // exactly 0.5 ms: up
        // 8 hours at 48 kHz: no overflow, no float
        #expect(Timestamp.milliseconds(1_382_400_000, rate: 48000) == 28_800_000)
    }

    @Test("clock and seconds texts")
    func texts() {
        #expect(Timestamp.clock(0, rate: 48000) == "00:00:00.000")
        #expect(Timestamp.clock(48000 * 3723 + 24, rate: 48000) == "01:02:03.001")  // 0.5 ms rounds up
        #expect(Timestamp.clock(48000 * 36000, rate: 48000) == "10:00:00.000")
        #expect(Timestamp.seconds(480_000, rate: 48000) == "10")
        #expect(Timestamp.seconds(264_600, rate: 44100) == "6")
        #expect(Timestamp.seconds(44100 + 4410, rate: 44100) == "1.1")
        #expect(Timestamp.seconds(12345, rate: 1000) == "12.345")
    }

    @Test("sidecar lists parse, with all and none; unknown words are named")
    func lists() throws {
        #expect(try SidecarKind.parseList("vtt,chapters") == [.vtt, .chapters])
        #expect(try SidecarKind.parseList(" vtt , waveform ") == [.vtt, .waveform])
        #expect(try SidecarKind.parseList("all") == Set(SidecarKind.allCases))
        #expect(try SidecarKind.parseList("none") == [])
        #expect(throws: SidecarKind.UnknownKind.self) { try SidecarKind.parseList("vtt,srt") }
        do {
            _ = try SidecarKind.parseList("vtt,srt")
        } catch {
            #expect(error.word == "srt")
        }
    }
}

@Suite("WebVTT captions")
struct WebVTTTests {
    /// (start, end, text) of every cue in a WebVTT text.
    static func cues(_ text: String) -> [(String, String, String)] {
        let blocks = text.components(separatedBy: "\n\n").filter { $0.contains("-->") }
        return blocks.map { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let timing = lines.first { $0.contains(" --> ") }!
            let parts = timing.components(separatedBy: " --> ")
            return (parts[0], parts[1], lines.last!)
        }
    }

    @Test("one cue per phase, its label, contiguous millisecond times")
    func phases() {
        let sheet = makeSheet(intro: 480_000, pattern: box, cycles: 3, outro: 720_000)
        let text = WebVTT.text(of: sheet)
        #expect(text.hasPrefix("WEBVTT"))
        let cues = Self.cues(text)
        #expect(cues.count == 12)
        #expect(cues[0].0 == "00:00:10.000" && cues[0].1 == "00:00:14.000" && cues[0].2 == "Breathe In")
        #expect(cues[2].2 == "Breathe Out")
        #expect(cues[11].1 == "00:00:58.000")
        for (a, b) in zip(cues, cues.dropFirst()) { #expect(a.1 == b.0) }
    }

    @Test("labels are escaped; a title cannot end the header or a cue")
    func escaping() {
        let pattern: [(kind: String, label: String, frames: Int64)] = [("inhale", "In <slowly> & deep", 4410), ("exhale", "Out", 4410)]
        let sheet = makeSheet(rate: 44100, intro: 0, pattern: pattern, cycles: 1, outro: 0, title: "A --> B\nC")
        let text = WebVTT.text(of: sheet)
        #expect(text.split(separator: "\n").first == "WEBVTT - A → B C")
        #expect(Self.cues(text)[0].2 == "In &lt;slowly&gt; &amp; deep")
        #expect(Self.cues(text)[0].1 == "00:00:00.100")
    }
}

@Suite("Chapters and markers")
struct ChapterTests {
    @Test("a breathing session has a chapter per section")
    func sections() throws {
        let sheet = makeSheet(intro: 480_000, pattern: box, cycles: 2, outro: 96_000)
        #expect(sheet.chapters.map(\.title) == ["Intro", "Box Breathing", "Outro"])
        #expect(sheet.chapters.map(\.startFrame) == [0, 480_000, 480_000 + 8 * 192_000])

        let json = PodcastChapters.jsonText(of: sheet)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "1.2.0")
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        #expect(chapters.count == 3)
        #expect(chapters.map { $0["startTime"] as? Double } == [0, 10, 42])
        #expect(chapters.map { $0["endTime"] as? Double } == [10, 42, 44])
        #expect(chapters[1]["title"] as? String == "Box Breathing")
    }

    @Test("a focus session has a chapter per work and break block, numbered when repeated")
    func focus() {
        let minute: Int64 = 60 * 8000
        let pattern: [(kind: String, label: String, frames: Int64)] = [
            ("work", "Work", 25 * minute), ("short_break", "Short Break", 5 * minute), ("work", "Work", 25 * minute),
            ("short_break", "Short Break", 5 * minute), ("work", "Work", 25 * minute), ("long_break", "Long Break", 15 * minute),
        ]
        let sheet = makeSheet(rate: 8000, intro: 0, pattern: pattern, cycles: 1, outro: 0, name: "Pomodoro")
        #expect(sheet.isFocusSession)
        #expect(sheet.chapters.map(\.title) == ["Work 1", "Short Break 1", "Work 2", "Short Break 2", "Work 3", "Long Break"])
        let comments = ChapterComments.comments(of: sheet)
        #expect(comments.count == 12)
        #expect(comments[0] == ("CHAPTER001", "00:00:00.000"))
        #expect(comments[1] == ("CHAPTER001NAME", "Work 1"))
        #expect(comments[2] == ("CHAPTER002", "00:25:00.000"))
        #expect(comments[11] == ("CHAPTER006NAME", "Long Break"))
    }

    @Test("markers: intro, every phase with its label, outro, in frame order")
    func markers() {
        let sheet = makeSheet(intro: 1000, pattern: box, cycles: 1, outro: 500)
        let markers = sheet.markers
        #expect(markers.map(\.label) == ["Intro", "Breathe In", "Hold", "Breathe Out", "Hold", "Outro"])
        #expect(markers.map(\.frame) == [0, 1000, 193_000, 385_000, 577_000, 769_000])
    }
}
