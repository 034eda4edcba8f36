import CadenceCues
import Foundation

/// WebVTT captions: one cue per phase with its label (and, for a program of two or more segments, one cue
/// per segment spanning it), for `<track>` elements and captioning players.
public enum WebVTT {
    /// The `.vtt` text of a cue sheet. Times are the phases' frames rounded to milliseconds,
    /// so one cue ends exactly where the next begins.
    public static func text(of sheet: CueSheet) -> String {
        let rate = sheet.audio.sampleRate
        var out = "WEBVTT - " + line(sheet.title) + "\n\n"
        let practice = sheet.sections.filter { $0.kind == "practice" }
        let what = practice.count > 1 ? "a program of \(practice.count) segments" : sheet.pattern.name
        out += "NOTE\n" + line("\(what): \(sheet.phases.count) phases; generated from \(sheet.audio.file)") + "\n\n"
        // a program's segments: one cue per segment spanning it, under its name, before the phase cue it starts with
        var segments = sheet.sections.filter { $0.kind == "practice" }
        if segments.count < 2 { segments = [] }
        var next = 0
        for phase in sheet.phases {
            while next < segments.count, segments[next].startFrame <= phase.startFrame {
                let section = segments[next]
                out += "segment-\(section.segment ?? next)\n"
                out += Timestamp.clock(section.startFrame, rate: rate) + " --> " + Timestamp.clock(section.endFrame, rate: rate) + "\n"
                out += escape(line(section.name ?? "Segment \(next + 1)")) + "\n\n"
                next += 1
            }
            out += "phase-\(phase.index)\n"
            out += Timestamp.clock(phase.startFrame, rate: rate) + " --> " + Timestamp.clock(phase.endFrame, rate: rate) + "\n"
            out += escape(line(phase.label)) + "\n\n"
        }
        return out
    }

    /// The captions of the voice prompts (cues-v1.1): one cue per prompt holding its text, from its
    /// first frame to its end (first frame + `length_frames`), rounded to the millisecond like the
    /// phase captions. Prompts without text (a clip given without words) have no caption.
    public static func captions(of sheet: CueSheet) -> String {
        let rate = sheet.audio.sampleRate
        var out = "WEBVTT - " + line(sheet.title) + "\n\n"
        let prompts = sheet.voice ?? []
        out += "NOTE\n" + line("voice prompts of \(sheet.audio.file): \(prompts.count)") + "\n\n"
        for prompt in prompts {
            guard let text = prompt.text else { continue }
            out += "prompt-\(prompt.index)\n"
            out += Timestamp.clock(prompt.frame, rate: rate) + " --> " + Timestamp.clock(prompt.endFrame, rate: rate) + "\n"
            out += escape(line(text)) + "\n\n"
        }
        return out
    }

    /// One line of text: line breaks and `-->` would end or break a cue, and control characters
    /// have no place in captions (`PlainText.line`).
    static func line(_ s: String) -> String {
        PlainText.line(s).replacingOccurrences(of: "-->", with: "→")
    }

    /// Cue payloads are HTML-like: `&`, `<` and `>` must be written as entities.
    static func escape(_ s: String) -> String {
        var r = ""
        for c in s {
            switch c {
            case "&": r += "&amp;"
            case "<": r += "&lt;"
            case ">": r += "&gt;"
            default: r.append(c)
            }
        }
        return r
    }
}
