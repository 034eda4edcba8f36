extension CueSheet {
    /// The sheet as JSON with keys in the order of cues-v1, one phase or cue per line: the same sheet gives the same bytes.
    public func jsonText() -> String {
        var j = JSONText()
        j.open()
        j.field("format", format)
        j.field("version", version)
        j.field("id", id)
        j.field("title", title)
        j.field("category", category)
        j.open("audio")
        j.field("file", audio.file)
        j.field("sample_rate", audio.sampleRate)
        j.field("channels", audio.channels)
        j.field("frames", audio.frames)
        j.field("duration", audio.duration)
        j.field("sha256", audio.sha256)
        j.field("loudness_lufs", audio.loudnessLUFS)
        j.field("true_peak_dbtp", audio.truePeakDBTP)
        j.close()
        j.open("pattern")
        j.field("name", pattern.name)
        j.raw("cycle", pattern.cycle.jsonNumber)
        j.open("phases", array: true)
        for p in pattern.phases {
            j.inlineObject([("kind", JSONText.string(p.kind)), ("label", JSONText.string(p.label)), ("length", p.length.jsonNumber)])
        }
        j.close(array: true)
        j.close()
        j.open("sections", array: true)
        for s in sections {
            j.inlineObject([
                ("kind", JSONText.string(s.kind)), ("start_frame", String(s.startFrame)), ("end_frame", String(s.endFrame)),
                ("start", JSONText.number(s.start)), ("end", JSONText.number(s.end)),
            ])
        }
        j.close(array: true)
        j.open("phases", array: true)
        for p in phases {
            j.inlineObject([
                ("index", String(p.index)), ("cycle", String(p.cycle)), ("kind", JSONText.string(p.kind)),
                ("label", JSONText.string(p.label)), ("start_frame", String(p.startFrame)),
                ("end_frame", String(p.endFrame)), ("start", JSONText.number(p.start)), ("end", JSONText.number(p.end)),
            ])
        }
        j.close(array: true)
        j.open("cues", array: true)
        for c in cues {
            j.inlineObject([
                ("name", JSONText.string(c.name)), ("phase", String(c.phase)), ("frame", String(c.frame)),
                ("length_frames", String(c.lengthFrames)), ("time", JSONText.number(c.time)),
            ])
        }
        j.close(array: true)
        j.close()
        return j.text
    }
}

extension DecimalText {
    /// The exact decimal as a JSON number, with `.0` on whole numbers (`4.0`, `5.5`).
    var jsonNumber: String { text.contains(".") ? text : text + ".0" }
}
