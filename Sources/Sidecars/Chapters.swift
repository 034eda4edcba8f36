import CadenceCues

/// A named span of a track, for chapter lists (Podcasting 2.0 JSON, FLAC/Ogg chapter comments).
public struct Chapter: Sendable, Equatable {
    public var startFrame: Int64
    public var endFrame: Int64
    public var title: String

    public init(startFrame: Int64, endFrame: Int64, title: String) {
        self.startFrame = startFrame
        self.endFrame = endFrame
        self.title = title
    }
}

/// A point in the audio with a label, for markers a DAW shows (WAV `cue ` points).
public struct Marker: Sendable, Equatable {
    public var frame: Int64
    public var label: String

    public init(frame: Int64, label: String) {
        self.frame = frame
        self.label = label
    }
}

extension CueSheet {
    /// Phase kinds of focus sessions, whose blocks are long enough to be chapters of their own.
    static let focusKinds: Set<String> = ["work", "short_break", "long_break"]

    /// Whether this is a focus session (work and break blocks) rather than a breathing one.
    public var isFocusSession: Bool { phases.contains { Self.focusKinds.contains($0.kind) } }

    /// Chapters: one per section (intro, practice, outro), or for focus sessions one per
    /// work or break block, numbered when a label repeats ("Work 1", "Short Break 2").
    public var chapters: [Chapter] {
        var result: [Chapter] = []
        for section in sections where section.endFrame > section.startFrame {
            switch section.kind {
            case "practice" where isFocusSession:
                let inside = phases.filter { $0.startFrame >= section.startFrame && $0.endFrame <= section.endFrame }
                var total: [String: Int] = [:]
                for p in inside { total[p.label, default: 0] += 1 }
                var seen: [String: Int] = [:]
                for p in inside {
                    seen[p.label, default: 0] += 1
                    let title = total[p.label, default: 0] > 1 ? "\(p.label) \(seen[p.label, default: 0])" : p.label
                    result.append(Chapter(startFrame: p.startFrame, endFrame: p.endFrame, title: title))
                }
            case "practice":
                // a program's segment is a chapter of its own, under its name (cues-v1.1)
                result.append(Chapter(startFrame: section.startFrame, endFrame: section.endFrame, title: section.name ?? pattern.name))
            default:
                result.append(Chapter(startFrame: section.startFrame, endFrame: section.endFrame, title: Self.sectionTitle(section.kind)))
            }
        }
        return result
    }

    /// Markers: the start of every phase with its label (one line of plain text, `PlainText`),
    /// of the intro and outro, and of every voice prompt ("Voice: " and its text).
    public var markers: [Marker] {
        var result: [Marker] = []
        for section in sections where section.kind != "practice" && section.endFrame > section.startFrame {
            result.append(Marker(frame: section.startFrame, label: Self.sectionTitle(section.kind)))
        }
        // a program's segments (several practice sections), each at its first frame, under its name
        result += segmentStarts.map { Marker(frame: $0.frame, label: PlainText.line($0.name)) }
        result += phases.map { Marker(frame: $0.startFrame, label: PlainText.line($0.label)) }
        // cues-v1.1: each voice prompt's first frame, with its words
        result += (voice ?? []).map { Marker(frame: $0.frame, label: PlainText.line("Voice: " + ($0.text ?? "prompt \($0.index + 1)"))) }
        // stable: by frame, sections before phases at the same frame
        return result.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }

    /// The first frame and name of each segment of a program (a sheet with more than one practice
    /// section); empty for a sheet of one segment, whose practice needs no marker of its own.
    public var segmentStarts: [(frame: Int64, name: String)] {
        let practice = sections.filter { $0.kind == "practice" }
        guard practice.count > 1 else { return [] }
        return practice.enumerated().map { ($1.startFrame, $1.name ?? "Segment \($0 + 1)") }
    }

    /// `Intro`, `Outro`: the title a section's marker and chapter carry.
    public static func sectionTitle(_ kind: String) -> String {
        switch kind {
        case "intro": "Intro"
        case "outro": "Outro"
        case "practice": "Practice"
        default: kind.prefix(1).uppercased() + kind.dropFirst()
        }
    }
}
