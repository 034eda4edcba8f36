import CadenceCues

/// Podcasting 2.0 JSON chapters (`version`, `chapters[].startTime`, `title`): one chapter per
/// section, or per work / break block for focus sessions.
public enum PodcastChapters {
    /// The version of the Podcasting 2.0 chapters format written.
    public static let version = "1.2.0"

    /// The JSON text, keys in a fixed order (same sheet, same bytes).
    public static func jsonText(of sheet: CueSheet) -> String {
        let rate = sheet.audio.sampleRate
        var j = JSONText()
        j.open()
        j.field("version", version)
        j.field("title", sheet.title)
        j.field("fileName", sheet.audio.file)
        j.open("chapters", array: true)
        for chapter in sheet.chapters {
            j.inlineObject([
                ("startTime", Timestamp.seconds(chapter.startFrame, rate: rate)),
                ("endTime", Timestamp.seconds(chapter.endFrame, rate: rate)),
                ("title", JSONText.string(chapter.title)),
            ])
        }
        j.close(array: true)
        j.close()
        return j.text
    }
}

/// Chapter comments for FLAC and Ogg (`CHAPTER001=00:00:10.000`, `CHAPTER001NAME=Box Breathing`),
/// the scheme players such as foobar2000, VLC and mpv read. Names are one line of plain text (`PlainText`).
public enum ChapterComments {
    /// `CHAPTERnnn` / `CHAPTERnnnNAME` pairs: each chapter's start, and with voice (cues-v1.1) each
    /// prompt's start ("Voice: its text") and, where the prompt ends inside a chapter, that chapter's
    /// title again, so a player's chapter list says what is spoken and where the section resumes.
    public static func comments(of sheet: CueSheet) -> [(String, String)] {
        var out: [(String, String)] = []
        for (i, point) in points(of: sheet).enumerated() {
            let n = String(i + 1)
            let key = "CHAPTER" + String(repeating: "0", count: max(0, 3 - n.count)) + n
            out.append((key, Timestamp.clock(point.frame, rate: sheet.audio.sampleRate)))
            out.append((key + "NAME", PlainText.line(point.title)))
        }
        return out
    }

    /// The chapter starts and the voice prompts' starts and resumptions, in frame order.
    public static func points(of sheet: CueSheet) -> [(frame: Int64, title: String)] {
        let chapters = sheet.chapters
        let prompts = sheet.voice ?? []
        guard !prompts.isEmpty else { return chapters.map { ($0.startFrame, $0.title) } }
        let promptStarts = Set(prompts.map(\.frame))
        // a chapter that starts with a prompt is named again when the prompt ends
        var points = chapters.filter { !promptStarts.contains($0.startFrame) }.map { (frame: $0.startFrame, title: $0.title) }
        let chapterStarts = Set(chapters.map(\.startFrame))
        for prompt in prompts {
            points.append((prompt.frame, "Voice: " + (prompt.text ?? "prompt \(prompt.index + 1)")))
            let end = prompt.endFrame
            if let chapter = chapters.last(where: { $0.startFrame < end }), end < chapter.endFrame, !chapterStarts.contains(end),
                !promptStarts.contains(end)
            {
                points.append((end, chapter.title))
            }
        }
        return points.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }
}
