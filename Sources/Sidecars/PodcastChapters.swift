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
    public static func comments(of sheet: CueSheet) -> [(String, String)] {
        var out: [(String, String)] = []
        for (i, chapter) in sheet.chapters.enumerated() {
            let n = String(i + 1)
            let key = "CHAPTER" + String(repeating: "0", count: max(0, 3 - n.count)) + n
            out.append((key, Timestamp.clock(chapter.startFrame, rate: sheet.audio.sampleRate)))
            out.append((key + "NAME", PlainText.line(chapter.title)))
        }
        return out
    }
}
