/// An ID3v2.4 tag in UTF-8, for the start of an MP3: title, album, comment and chapters.
///
/// What players read at the start of an MP3: text frames `TIT2` and `TALB`, a `COMM` comment,
/// and the chapters as `CHAP` frames listed by a top-level `CTOC` (the ID3v2 Chapter Frame
/// Addendum 1.0, which podcast apps, Media3/ExoPlayer, mutagen and ffmpeg read). Every string is
/// UTF-8 (encoding byte 3), which ID3v2.4 allows and ID3v2.3 and ID3v1 do not.
///
/// Written here, not by libavformat's `mp3` muxer: FFmpeg 5.1's ID3v2 writer has no `COMM`
/// frame (a `comment` becomes `TXXX:comment`), and remuxing would replace LAME's own Info tag
/// (encoder delay and padding, CRCs) with a shorter one. The tag is put before the MPEG frames
/// exactly as LAME wrote them, so the audio bytes stay LAME's.
///
/// A `CTOC` lists at most 255 entries: up to 255 chapters hang from the top-level one; more
/// are grouped under child `CTOC`s of up to 255 chapters each (65,025 in all).
public enum ID3v2Tag {
    /// A chapter: its title and first frame; it lasts until the next one, the last until the end.
    public typealias Chapter = M4AWriter.Chapter

    /// Zero bytes after the frames, so that a tag editor can change a title without rewriting
    /// the whole file (what the `flac` tool's padding block is for FLAC).
    public static let padding = 1024

    /// The frame IDs of the renderer's tag names.
    static let textFrames = ["TITLE": "TIT2", "ALBUM": "TALB"]

    /// The whole tag: a 10-byte header, the frames, `padding` zero bytes.
    ///
    /// - Parameters:
    ///   - tags: `TITLE`, `ALBUM`, `COMMENT` (other names are left out), in the order given.
    ///   - chapters: in frame order; times are milliseconds rounded to the nearest, as chapter comments write them.
    ///   - totalFrames: the end of the last chapter.
    public static func bytes(tags: [(String, String)], chapters: [Chapter], totalFrames: Int64, sampleRate: Int) -> [UInt8] {
        var body: [UInt8] = []
        for (key, value) in tags {
            if let id = textFrames[key] {
                body += frame(id, [3] + Array(value.utf8))
            } else if key == "COMMENT" {
                // encoding, language (ISO 639-2 "und": undetermined), an empty description, the text
                body += frame("COMM", [3] + Array("und".utf8) + [0] + Array(value.utf8))
            }
        }
        body += chapterFrames(chapters, totalFrames: totalFrames, sampleRate: sampleRate)
        body += [UInt8](repeating: 0, count: padding)
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
    }

    /// The `CTOC` frames and the `CHAP` frames, each `CHAP` with its title as a `TIT2` sub-frame.
    static func chapterFrames(_ chapters: [Chapter], totalFrames: Int64, sampleRate: Int) -> [UInt8] {
        guard !chapters.isEmpty else { return [] }
        let ids = chapters.indices.map { "ch\($0)" }
        var out: [UInt8] = []
        if chapters.count <= 255 {
            out += tableOfContents("toc", topLevel: true, children: ids)
        } else {
            let groups = stride(from: 0, to: ids.count, by: 255).map { Array(ids[$0..<min($0 + 255, ids.count)]) }
            out += tableOfContents("toc", topLevel: true, children: groups.indices.map { "toc\($0)" })
            for (k, group) in groups.enumerated() { out += tableOfContents("toc\(k)", topLevel: false, children: group) }
        }
        for (k, chapter) in chapters.enumerated() {
            let end = k + 1 < chapters.count ? chapters[k + 1].start : totalFrames
            var content = Array(ids[k].utf8) + [0]
            content += bigEndian(milliseconds(chapter.start, rate: sampleRate)) + bigEndian(milliseconds(end, rate: sampleRate))
            content += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // no byte offsets: times only
            content += frame("TIT2", [3] + Array(chapter.title.utf8))
            out += frame("CHAP", content)
        }
        return out
    }

    /// A `CTOC` frame: its ID, flags (top-level, ordered), the children's IDs.
    static func tableOfContents(_ id: String, topLevel: Bool, children: [String]) -> [UInt8] {
        var content = Array(id.utf8) + [0, topLevel ? 0x03 : 0x01, UInt8(children.count)]
        for child in children { content += Array(child.utf8) + [0] }
        return frame("CTOC", content)
    }

    /// A frame: its ID, its size (synchsafe in ID3v2.4), no flags, the content.
    static func frame(_ id: String, _ content: [UInt8]) -> [UInt8] {
        Array(id.utf8) + syncsafe(content.count) + [0, 0] + content
    }

    /// A 28-bit size as four 7-bit bytes.
    static func syncsafe(_ n: Int) -> [UInt8] {
        [UInt8(n >> 21 & 0x7F), UInt8(n >> 14 & 0x7F), UInt8(n >> 7 & 0x7F), UInt8(n & 0x7F)]
    }

    static func bigEndian(_ n: UInt32) -> [UInt8] {
        [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    /// round(frame × 1000 / rate), halves up, exact (as `Timestamp.milliseconds`), at most 2³² − 2.
    static func milliseconds(_ frame: Int64, rate: Int) -> UInt32 {
        let r = Int64(max(rate, 1))
        return UInt32(clamping: min((frame * 1000 + r / 2) / r, Int64(UInt32.max) - 1))
    }
}
