import CadenceCues
import Sidecars

extension PreviewPage {
    /// A track's cue sheet as the page gets it: decoded, or the reason it could not be.
    public enum Cues: Sendable, Equatable {
        /// A decoded sheet. The page checks it again (`PreviewPage.problem(in:)`) and shows
        /// the problem instead of the ring when it is not usable.
        case sheet(CueSheet)
        /// The sheet could not be read or decoded; the message is shown on the page as is
        /// (name the file and the problem: `box.cues.json: line 3: unknown key`).
        case failed(String)

        /// `.sheet` for a success, `.failed` with the error's description for a failure.
        public init(_ result: Result<CueSheet, any Error>) {
            switch result {
            case .success(let sheet): self = .sheet(sheet)
            case .failure(let error): self = .failed(String(describing: error))
            }
        }

        /// The usable sheet, or the problem to show in its place.
        var checked: Result<CueSheet, Problem> {
            switch self {
            case .failed(let message): return .failure(Problem(message: message))
            case .sheet(let sheet):
                if let problem = PreviewPage.problem(in: sheet) { return .failure(Problem(message: problem)) }
                return .success(sheet)
            }
        }
    }

    struct Problem: Error { let message: String }

    /// Why a cue sheet cannot drive the page's ring, or nil when it can.
    ///
    /// The same rules as the page's own check of its embedded data: a known
    /// format and version 1, a positive sample rate, sections in order inside
    /// the file, phases sorted and contiguous (each one's `end_frame` is the
    /// next one's `start_frame`), none empty, all inside the file. (The script also checks the embedded
    /// `guide`: a shape, one guide per phase, each of the four; a decoded sheet's types make it so here.)
    public static func problem(in sheet: CueSheet) -> String? {
        if sheet.format != "session-cues" { return "format is '\(sheet.format)', expected 'session-cues'" }
        if sheet.version != 1 { return "cue sheet version \(sheet.version) is not supported (this page reads version 1)" }
        let rate = sheet.audio.sampleRate, frames = sheet.audio.frames
        if rate <= 0 { return "sample_rate \(rate) is not positive" }
        if frames < 0 { return "audio frames \(frames) is negative" }
        var previousEnd: Int64 = 0
        for (i, s) in sheet.sections.enumerated() {
            let name = "section \(i) (\(s.kind))"
            if s.startFrame < 0 || s.endFrame > frames {
                return "\(name) [\(s.startFrame), \(s.endFrame)) is outside the audio's \(frames) frames"
            }
            if s.endFrame < s.startFrame { return "\(name) ends at frame \(s.endFrame), before its start \(s.startFrame)" }
            if s.startFrame < previousEnd {
                return "\(name) starts at frame \(s.startFrame), before the previous section's end \(previousEnd)"
            }
            previousEnd = s.endFrame
        }
        for (i, p) in sheet.phases.enumerated() {
            if p.endFrame <= p.startFrame {
                return "phase \(i) (\(p.kind)) is empty or reversed: [\(p.startFrame), \(p.endFrame))"
            }
            if i == 0, p.startFrame < 0 { return "phase 0 starts at frame \(p.startFrame), before the audio" }
            if i > 0, p.startFrame != sheet.phases[i - 1].endFrame {
                let gap = p.startFrame > sheet.phases[i - 1].endFrame ? "a gap" : "an overlap"
                return
                    "phase \(i) starts at frame \(p.startFrame) but phase \(i - 1) ends at frame \(sheet.phases[i - 1].endFrame): \(gap) (phases must be contiguous and sorted)"
            }
            if p.endFrame > frames { return "phase \(i) ends at frame \(p.endFrame), after the audio's \(frames) frames" }
        }
        return nil
    }

    /// The sheet in the compact form the page's script reads, as JSON safe inside `<script>`:
    ///
    ///     {"version":1,"sample_rate":48000,"frames":1920000,
    ///      "sections":[["intro",0,192000],…],
    ///      "phases":[[192000,384000,"inhale","Breathe In",0],…]}
    ///
    /// Phases are `[start_frame, end_frame, kind, label, cycle]`; one phase a line. A program's sheet
    /// (several practice sections, cues-v1.1) adds each practice section's name (`["practice",s,e,"Wind down"]`)
    /// and each phase's segment (`[…, cycle, segment]`), so the page shows the segment and counts its cycles.
    /// A sheet with breath guidance (cues-v1.2 `guide`) adds `"guide":{"shape":"sine","phases":["rise","hold",…]}`,
    /// one guide per phase in order, from which the page's script computes the envelope E for the ring and its line.
    static func compactJSON(_ sheet: CueSheet) -> String {
        let program = sheet.sections.filter { $0.kind == "practice" }.count > 1
        var out = "{\"version\":\(sheet.version),\"sample_rate\":\(sheet.audio.sampleRate),\"frames\":\(sheet.audio.frames),\n\"sections\":["
        out += sheet.sections.map {
            let name = program ? $0.name.map { "," + Markup.scriptJSONString($0) } ?? "" : ""
            return "[\(Markup.scriptJSONString($0.kind)),\($0.startFrame),\($0.endFrame)\(name)]"
        }.joined(separator: ",")
        out += "],\n\"phases\":["
        out += sheet.phases.map {
            let segment = program ? ",\($0.segment ?? 0)" : ""
            return "[\($0.startFrame),\($0.endFrame),\(Markup.scriptJSONString($0.kind)),\(Markup.scriptJSONString($0.label)),\($0.cycle)\(segment)]"
        }.joined(separator: ",\n")
        out += "]"
        // cues-v1.2: the envelope's shape and each phase's guide (a kind's default where a phase has none, as CueTimeline)
        if let guide = sheet.guide {
            out += ",\n\"guide\":{\"shape\":\(Markup.scriptJSONString(guide.shape.rawValue)),\"phases\":["
            out += sheet.phases.map { Markup.scriptJSONString(($0.guide ?? BreathGuide.defaultGuide(for: $0.kind)).rawValue) }.joined(separator: ",")
            out += "]}"
        }
        // cues-v1.1: the voice prompts as [frame, end_frame, text], for the caption under the ring
        if let voice = sheet.voice {
            out += ",\n\"voice\":["
            out += voice.map { "[\($0.frame),\($0.endFrame),\(Markup.scriptJSONString($0.text ?? ""))]" }.joined(separator: ",\n")
            out += "]"
        }
        out += "}"
        return out
    }
}
