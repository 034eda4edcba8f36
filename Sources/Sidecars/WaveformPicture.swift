import CadenceCues

/// An SVG picture of a track: its waveform, a strip of coloured phase bands, intro and outro shaded, a tick at every cue.
///
/// The picture spans the whole file from its left edge to its right edge with
/// no margin, so that a fraction of its width is the same fraction of the
/// audio's duration (the page's playhead and click-to-seek rely on this).
///
/// Layout, in a `viewBox` of `0 0 1200 140` (it scales to any size; `preserveAspectRatio="none"`):
/// - one `<rect>` per non-practice section in `<g class="sections">`, full
///   height behind everything, hatched (intro `/`, outro `\`, others plain);
/// - one `<rect>` per phase in `<g class="phases">`, a strip along the bottom
///   (y 118–140), filled by kind (`PhaseStyle`) and classed with it (`inhale`, …, or `other`);
/// - the waveform as one `<path>` in `<g class="wave">`, mirrored around the
///   centre line y = 57: a column's peak `p` is drawn `52 × √p` above and below
///   it. The square root sits between a linear and a decibel scale: every
///   12 dB down halves the height (0 dBFS full, −12 half, −24 a quarter), so
///   cues stand out from a loudness-normalised bed while fades and quiet
///   passages stay visible;
/// - one `<path>` tick per cue in `<g class="cues">`, from the top edge down 12 units.
///
/// Coordinates have at most one decimal. Text (the `<title>`) is escaped.
public enum WaveformPicture {
    /// The width and height of the picture's `viewBox`.
    public static let width = 1200
    public static let height = 140
    /// The waveform's centre line and its largest half-height.
    static let centre = 57
    static let amplitude = 52
    /// The phase strip's top and height.
    static let stripTop = 118
    static let stripHeight = 22
    /// A cue tick's length from the top edge.
    static let tickLength = 12

    /// The SVG text (a complete document, no XML declaration needed) for `peaks`, the
    /// largest absolute sample value of each of `peaks.count` equal columns of the file
    /// (0…1; larger values are clipped, NaN is silence), and the track's cue sheet.
    public static func svg(peaks: [Float], sheet: CueSheet) -> String {
        let w = width, h = height
        // The scale: frame → tenths of a unit of x.
        let totalFrames = max(sheet.audio.frames, sheet.phases.last?.endFrame ?? 0, sheet.sections.last?.endFrame ?? 0, 1)
        func x10(_ frame: Int64) -> Int64 {
            let f = min(max(frame, 0), totalFrames)
            // exact integer rounding: (f × w × 10 + total/2) / total
            return Int64((Int128(f) * Int128(w) * 10 * 2 + Int128(totalFrames)) / (Int128(totalFrames) * 2))
        }
        func span(_ start: Int64, _ end: Int64) -> String {
            let x0 = x10(start), x1 = x10(end)
            return "x=\"\(Markup.tenths(x0))\" width=\"\(Markup.tenths(max(0, x1 - x0)))\""
        }

        let title = sheet.title.isEmpty ? sheet.id : sheet.title
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\""
        out += " preserveAspectRatio=\"none\" role=\"img\">\n"
        out += "<title>\(Markup.text(title)): waveform, \(sheet.phases.count) phases, \(sheet.cues.count) cues</title>\n"
        out += "<defs>"
        out += "<pattern id=\"intro\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        out += "<rect width=\"8\" height=\"8\" fill=\"\(PhaseStyle.introColour)\"/><rect width=\"3\" height=\"8\" fill=\"#94a3b8\"/></pattern>"
        out += "<pattern id=\"outro\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(-45)\">"
        out += "<rect width=\"8\" height=\"8\" fill=\"\(PhaseStyle.outroColour)\"/><rect width=\"3\" height=\"8\" fill=\"#cbd5e1\"/></pattern>"
        out += "</defs>\n"
        out += "<style>"
        out += PhaseStyle.kinds.map { ".\($0.kind){fill:\($0.colour)}" }.joined()
        out += ".sections rect{fill:\(PhaseStyle.sectionColour);fill-opacity:.7}.sections .intro{fill:url(#intro)}.sections .outro{fill:url(#outro)}"
        out += ".wave path{fill:#334155;fill-opacity:.75}.wave line{stroke:#334155;stroke-opacity:.4}"
        out += ".cues path{stroke:#0f172a;stroke-width:1;vector-effect:non-scaling-stroke}"
        out += "</style>\n"

        // Intro, outro and other non-practice sections, behind everything.
        out += "<g class=\"sections\">"
        for s in sheet.sections where s.kind != "practice" {
            let style = s.kind == "intro" || s.kind == "outro" ? s.kind : "section"
            out += "<rect class=\"\(style)\" \(span(s.startFrame, s.endFrame)) height=\"\(h)\"/>"
        }
        out += "</g>\n"

        // Phase bands, a strip along the bottom.
        out += "<g class=\"phases\">"
        for p in sheet.phases {
            out +=
                "<rect class=\"\(PhaseStyle.styleClass(of: p.kind))\" \(span(p.startFrame, p.endFrame)) y=\"\(stripTop)\" height=\"\(stripHeight)\"/>"
        }
        out += "</g>\n"

        // The waveform, mirrored around the centre line.
        out += "<g class=\"wave\"><line x1=\"0\" y1=\"\(centre)\" x2=\"\(w)\" y2=\"\(centre)\"/>"
        if !peaks.isEmpty {
            let n = peaks.count
            var top: [(String, Int64)] = []  // x text, offset from the centre in tenths
            top.reserveCapacity(n)
            for (i, peak) in peaks.enumerated() {
                let cx = (Double(i) + 0.5) * Double(w) / Double(n)
                top.append((Markup.number(cx), Int64((displayLevel(peak) * Double(amplitude) * 10).rounded())))
            }
            let centre10 = Int64(centre) * 10
            var d = "M0 \(centre)"
            for (px, offset) in top { d += "L\(px) \(Markup.tenths(centre10 - offset))" }
            d += "L\(w) \(centre)"
            for (px, offset) in top.reversed() { d += "L\(px) \(Markup.tenths(centre10 + offset))" }
            d += "Z"
            out += "<path d=\"\(d)\"/>"
        }
        out += "</g>\n"

        // Cue ticks.
        out += "<g class=\"cues\">"
        for c in sheet.cues {
            out += "<path d=\"M\(Markup.tenths(x10(c.frame))) 0v\(tickLength)\"/>"
        }
        out += "</g>\n</svg>\n"
        return out
    }

    /// A peak's height as a fraction of the half-height: `√p` clipped to 0…1; 0 for silence, negatives and NaN.
    static func displayLevel(_ peak: Float) -> Double {
        let p = Double(peak)
        guard p > 0 else { return 0 }  // also NaN
        return min(p, 1).squareRoot()
    }
}
