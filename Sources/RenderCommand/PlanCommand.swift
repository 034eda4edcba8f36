import AudioCore
import Catalog
import Foundation
import Recipe
import Render
import Timeline

/// `render --plan RECIPE…`: each track's layout, printed without rendering: its sections, cycles,
/// where the time a duration leaves over went, every cue and prompt (time and frame), and the
/// output's frames, format and expected size. It checks what `--check` checks, with its exit codes.
enum PlanCommand {
    static func plan(inputs: [String], options: Options) -> FailureKind? {
        let survey: CatalogJob.Survey
        switch CatalogCommand.checkedSurvey(inputs: inputs, options: options) {
        case .success(let found): survey = found
        case .failure(let stop): return stop.kind
        }
        // one recipe file: the output goes where `render RECIPE [-o FILE]` would put it; a folder: into the bundle
        var isFolder: ObjCBool = false
        let single = inputs.count == 1 && !(FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isFolder) && isFolder.boolValue)
        let layout = CatalogCommand.job(inputs: inputs, options: options).layout(survey, single: single, singleOutput: options.output)
        print(layout.tracks.map { TrackPlanText.text(recipe: $0.recipe, timeline: $0.timeline, output: $0.output) + "\n" }.joined(), terminator: "")
        CatalogCommand.report(layout.failed)
        if !options.quiet {
            let tracks = layout.goodTracks == layout.goodRecipes ? "" : " (\(layout.goodTracks) tracks)"
            print(
                "planned \(layout.recipes) recipe\(layout.recipes == 1 ? "" : "s"): \(layout.goodRecipes) good\(tracks), \(layout.failed.count) with errors"
            )
        }
        return layout.failure
    }
}

/// The text `render --plan` prints for one track.
enum TrackPlanText {
    static func text(recipe: Recipe, timeline: Timeline, output: OutputSummary) -> String {
        let rate = timeline.sampleRate
        var lines: [String] = []
        func row(_ label: String, _ value: String) { lines.append("  " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + " " + value) }
        func more(_ value: String) { lines.append(String(repeating: " ", count: 13) + value) }

        var head = "\(recipe.file): \(recipe.id), \(DiagnosticText.quoted(recipe.title))"
        if let category = recipe.category { head += " (\(category))" }
        // a rendition says what it renders of its session: `session 'box', 5m, locale 'de'`
        var of: [String] = []
        if recipe.variantOf != nil, case .duration(let length) = recipe.length { of.append(Recipe.variantLength(length)) }
        if let locale = recipe.locale { of.append("locale '\(locale)'") }
        if recipe.session != recipe.id { head += ", session '\(recipe.session)'" + of.map { ", " + $0 }.joined() }
        lines.append(head)

        // the length, and where the time a duration leaves over went
        let practiceSections = timeline.practiceSections
        let practiceLength = (practiceSections.last?.end ?? recipe.intro) - (practiceSections.first?.start ?? recipe.intro)
        let outro = timeline.section(.outro).map { $0.end - $0.start } ?? .zero
        var length =
            "\(clock(timeline.duration)) = intro \(recipe.intro.durationText) + practice \(practiceLength.durationText) + outro \(outro.durationText)"
        if case .duration = recipe.length {
            let left = outro - recipe.outro
            length +=
                left == .zero
                ? " (the duration holds the practice exactly)"
                : " (\(recipe.outro.durationText) asked + \(left.durationText) left over from the duration)"
        }
        row("length", length)

        // one line per segment (one for a recipe without a program)
        for (index, segment) in recipe.segments.enumerated() {
            let pattern = segment.pattern
            let inside = timeline.phases.filter { $0.segment == index }
            // whole cycles come first, then the phases of a partial one (end_on: phase), then a program's transition
            let transition = recipe.program != nil && inside.last?.kind == Segment.transitionKind ? inside.last : nil
            let (held, extra) = (inside.count - (transition == nil ? 0 : 1)).quotientAndRemainder(dividingBy: pattern.phases.count)
            let phases = pattern.phases.map { "\($0.kind) \($0.length.durationText)" }.joined(separator: ", ")
            var cycles = "\(held) cycle\(held == 1 ? "" : "s")"
            if extra > 0 { cycles += " and \(extra) phase\(extra == 1 ? "" : "s") (end_on: phase)" }
            if let transition {
                cycles += " and a \(transition.length.durationText) transition"
            }
            var text = "\(cycles) of '\(pattern.builtin ?? pattern.name)' (\(pattern.cycle.durationText) a cycle: \(phases)), \(inside.count) phases"
            if let ramp = timeline.practiceSections.indices.contains(index) ? timeline.practiceSections[index].ramp : nil {
                text += "; ramp \(Ramp.text(microBPM: ramp.fromMicroBPM)) → \(Ramp.text(microBPM: ramp.toMicroBPM)) bpm over \(ramp.over) cycles"
            }
            if recipe.program != nil { text = "\(index + 1). \(DiagnosticText.quoted(segment.name)): " + text }
            row(recipe.program == nil ? "practice" : (index == 0 ? "program" : ""), text)
        }

        row(
            "sections",
            timeline.sections.map { section in
                let name = recipe.program == nil ? "" : section.name.map { " " + DiagnosticText.quoted($0) } ?? ""
                return "\(section.kind.rawValue)\(name) \(clock(section.start)) → \(clock(section.end))"
            }.joined(separator: ", "))

        // every cue, in frame order
        row("cues", timeline.cues.isEmpty ? "none" : "\(timeline.cues.count)")
        let width = max(6, timeline.cues.map(\.name.count).max() ?? 0)
        // frame numbers right-aligned to the file's last frame
        let digits = String(timeline.totalFrames).count
        func frame(_ n: Int64) -> String { "frame " + String(repeating: " ", count: max(0, digits - String(n).count)) + String(n) }
        for cue in timeline.cues {
            let phase = timeline.phases[cue.phase]
            more(
                "\(frameClock(cue.frame, rate))  \(frame(cue.frame))  \(cue.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(sound(cue.sound))  (\(recipe.program == nil ? "" : "segment \(phase.segment + 1), ")cycle \(phase.cycle + 1))"
            )
        }

        if let voice = recipe.voice {
            row("prompts", "\(timeline.prompts.count)")
            for event in timeline.prompts {
                let prompt = voice.prompts[event.prompt]
                let words = prompt.text.map { DiagnosticText.quoted($0) } ?? "(no text)"
                let source = prompt.file ?? "draft voice"
                more("\(frameClock(event.frame, rate))  \(frame(event.frame))  voice.prompts.\(event.prompt)  \(words)  (\(source))")
            }
        }

        var format = output.format.rawValue.uppercased()
        if let depth = output.bitDepth { format += depth == .float32 ? ", 32-bit float" : ", \(depth.rawValue)-bit" }
        if let bitrate = output.bitrate { format += ", \(bitrate / 1000) kb/s" }
        row(
            "output",
            "\(output.path): \(format), \(rate) Hz, \(recipe.output.channels) channel\(recipe.output.channels == 1 ? "" : "s"), \(timeline.totalFrames) frames"
        )
        let loudness = recipe.output.loudness.map { "\(DiagnosticText.number($0)) LUFS" } ?? "off (as mixed)"
        more("loudness \(loudness), true peak at most \(DiagnosticText.number(recipe.output.truePeak)) dBTP")
        if let bytes = output.expectedBytes {
            more("size about \(ByteSize.format(bytes)) (\(bytes) bytes)")
        } else if output.format.isLossy {
            more("size depends on the sound: Ogg Vorbis encodes at a quality setting, not a bit rate (set output.bitrate for a predictable size)")
        } else {
            more("size depends on the sound: at most \(ByteSize.format(output.pcmBytes)) uncompressed; lossless compression usually saves 30–60 %")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `bell`, `tone 528 Hz, 800ms, -18 dB`, `file cues/gong.wav`.
    static func sound(_ sound: CueSound) -> String {
        switch sound {
        case .tone(let tone):
            if let name = CuePresets.names.first(where: { CuePresets.named($0) == tone }) { return name }
            return "tone \(DiagnosticText.number(tone.frequency)) Hz, \(tone.length.durationText), \(DiagnosticText.number(tone.gainDB)) dB"
        case .file(let path, let gain):
            return "file \(path)" + (gain == 0 ? "" : ", \(DiagnosticText.number(gain)) dB")
        }
    }

    /// `1:02:03.250` or `4:42.000`: an exact time to the millisecond (halves up).
    static func clock(_ time: ExactSeconds) -> String {
        RenderCommand.clock(milliseconds: (time.nanoseconds + 500_000) / 1_000_000)
    }

    /// The time of frame `frame` at `rate`, as a player shows it: `frame / rate`, to the millisecond.
    static func frameClock(_ frame: Int64, _ rate: Int) -> String {
        RenderCommand.clock(milliseconds: Int64((Int128(frame) * 1000 * 2 + Int128(rate)) / (2 * Int128(rate))))
    }
}
