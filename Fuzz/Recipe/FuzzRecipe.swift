import AudioCore
import CadenceCues
import Foundation
import FuzzDriver
import Recipe
import Timeline

// Fuzzing build (scripts/fuzz.sh: -sanitize=fuzzer -DFUZZING): libFuzzer's own `main` calls
// `LLVMFuzzerTestOneInput`. Ordinary build: this `main` replays the files named on the command line.
//
/// `fuzz-recipe`: YAML text → `RecipeLoader.parse` → `Timeline` → cue sheet, as `render --check` and a render see it.
///
/// Any input must end in a recipe or in diagnostics; never a crash, a hang or a leak. Checked:
/// - diagnostics: at least one, each located in the input (1-based, within its lines), a
///   non-empty one-line message without control characters (they are printed to terminals
///   and CI logs), of kind `data`;
/// - a recipe: the values the spec bounds (sample rate, channels, lengths ≤ 24 h, gains,
///   loudness, peak, phases);
/// - its timeline, or diagnostics as above: sections intro · practice · outro tiling the file,
///   phases (at most 200 000, none empty) tiling the practice, cues in order inside the file;
/// - the cue sheet a render would write from it (as `CueSheetBuilder` does, audio facts aside)
///   passes the player's validator and reads back equal, with the same bytes.
#if !FUZZING
    @main
    enum FuzzRecipeMain {
        static func main() { FuzzDriver.replay("fuzz-recipe", fuzzRecipe) }
    }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecipe(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    RecipeFuzz.run(fuzzBytes(data, size))
    return 0
}

enum RecipeFuzz {
    static let file = "fuzz.yml"
    /// Above this many phases the cue sheet's JSON round trip is skipped, to keep each run fast
    /// (the timeline's own checks still cover every phase).
    static let roundTripPhaseLimit = 2_000

    static func run(_ bytes: [UInt8]) {
        let recipe: Recipe
        do {
            recipe = try RecipeLoader.parse(bytes, file: file, defaultID: "fuzz")
        } catch {
            checkDiagnostics(error, in: bytes, stage: "parse")
            return
        }
        checkRecipe(recipe)
        let timeline: Timeline
        do {
            timeline = try Timeline(recipe: recipe)
        } catch {
            checkDiagnostics(error, in: bytes, stage: "timeline")
            return
        }
        checkTimeline(timeline, recipe)
        checkCueSheet(timeline, recipe)
        if fuzzVerbose { print("recipe \(recipe.id): \(timeline.totalFrames) frames, \(timeline.phases.count) phases, \(timeline.cues.count) cues") }
    }

    // MARK: - Diagnostics

    /// Upper bound of the input's line count, counting every break libyaml may count (LF, CR, NEL, LS, PS).
    static func lineBound(_ bytes: [UInt8]) -> Int {
        var breaks = 0
        for b in bytes where b == 0x0A || b == 0x0D || b == 0x85 || b == 0xA8 || b == 0xA9 { breaks += 1 }
        return breaks + 1
    }

    static func checkDiagnostics(_ list: DiagnosticList, in bytes: [UInt8], stage: String) {
        if fuzzVerbose { print("\(stage): \(list.diagnostics.count) diagnostic(s)\n\(list)") }
        fuzzCheck(!list.diagnostics.isEmpty, "\(stage): failed without a diagnostic")
        let lines = lineBound(bytes)
        for diagnostic in list.diagnostics {
            let text = diagnostic.description  // what `render` prints
            fuzzCheck(!diagnostic.message.isEmpty, "\(stage): empty message: \(text)")
            fuzzCheck(diagnostic.kind == .data, "\(stage): kind \(diagnostic.kind) for bad input: \(text)")
            fuzzCheck(diagnostic.file == file, "\(stage): file \(String(describing: diagnostic.file)): \(text)")
            if let location = diagnostic.location {
                fuzzCheck(location.file == file, "\(stage): location in \(location.file): \(text)")
                // libyaml reports the end of a text without a final line break one line further, at column 1.
                let atEnd = location.line == lines + 1 && location.column == 1
                fuzzCheck(
                    location.line >= 1 && (location.line <= lines || atEnd) && location.column >= 1,
                    "\(stage): location \(location.line):\(location.column) outside the input's \(lines) lines: \(text)")
            } else {
                fuzzCheck(false, "\(stage): diagnostic without a line: \(text)")
            }
            for scalar in text.unicodeScalars {
                let v = scalar.value
                fuzzCheck(
                    !(v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v)),
                    "\(stage): control character U+\(String(v, radix: 16)) in a message: \(text.debugDescription)")
            }
            fuzzCheck(text.utf8.count <= 2_000, "\(stage): a message of \(text.utf8.count) bytes: \(text.prefix(200))…")
        }
        fuzzCheck(list.diagnostics.count <= 101, "\(stage): \(list.diagnostics.count) diagnostics")
        _ = list.description
    }

    // MARK: - Recipe

    static func checkLength(_ value: ExactSeconds, _ what: String, positive: Bool) {
        fuzzCheck(value >= .zero && value <= RecipeLimits.maxDuration, "\(what) \(value) outside 0…24 h")
        if positive { fuzzCheck(value > .zero, "\(what) is 0") }
    }

    static func checkGain(_ value: Double, _ what: String) {
        fuzzCheck(value.isFinite && Units.gainRange.contains(value), "\(what) \(value) outside the gain range")
    }

    static func checkRecipe(_ recipe: Recipe) {
        let output = recipe.output
        fuzzCheck((8000...384_000).contains(output.sampleRate), "sample rate \(output.sampleRate)")
        fuzzCheck((1...8).contains(output.channels), "channels \(output.channels)")
        if let loudness = output.loudness { fuzzCheck(Units.loudnessRange.contains(loudness), "loudness \(loudness)") }
        fuzzCheck(Units.truePeakRange.contains(output.truePeak), "true peak \(output.truePeak)")
        fuzzCheck(Set(output.sidecars).count == output.sidecars.count, "sidecars repeat: \(output.sidecars)")
        fuzzCheck(output.sidecars.allSatisfy(OutputSettings.sidecarNames.contains), "sidecars \(output.sidecars)")
        fuzzCheck(!recipe.id.isEmpty && recipe.id.utf8.count <= 100 && !recipe.id.contains("/"), "id \(recipe.id.debugDescription)")
        // locales (recipe-v1.2): every rendition has a valid id of its own, a locale of the list and the recipe as its session
        let renditions = recipe.renditions()
        fuzzCheck(renditions.count <= RecipeLimits.maxRenditions, "\(renditions.count) renditions")
        fuzzCheck(Set(renditions.map { $0.id.lowercased() }).count == renditions.count, "rendition ids repeat")
        for rendition in renditions {
            fuzzCheck(Recipe.isValidID(rendition.id) && rendition.session == recipe.id, "rendition \(rendition.id.debugDescription)")
            fuzzCheck(recipe.locales.isEmpty || recipe.locales.contains(rendition.locale ?? ""), "locale \(rendition.locale ?? "nil")")
            fuzzCheck(rendition.renditions().map(\.id) == [rendition.id], "a rendition of \(rendition.id) has renditions")
            fuzzCheck(!rendition.assetPaths.contains { $0.path.contains(Recipe.localePlaceholder) }, "{locale} left in \(rendition.id)")
        }

        let pattern = recipe.pattern
        fuzzCheck((1...1000).contains(pattern.phases.count) || pattern.builtin != nil, "\(pattern.phases.count) phases")
        for phase in pattern.phases {
            checkLength(phase.length, "phase \(phase.kind)", positive: true)
            fuzzCheck(phase.kind != "start" && phase.kind != "end" && !phase.kind.isEmpty, "phase kind \(phase.kind.debugDescription)")
        }
        checkLength(recipe.intro, "intro", positive: false)
        checkLength(recipe.outro, "outro", positive: false)
        switch recipe.length {
        case .duration(let total): checkLength(total, "duration", positive: true)
        case .cycles(let n): fuzzCheck((1...100_000).contains(n), "cycles \(n)")
        case .program: fuzzCheck(recipe.program != nil, "a program length without a program")
        }
        if let bed = recipe.bed {
            checkGain(bed.gainDB, "bed.gain")
            checkLength(bed.fadeIn, "bed.fade_in", positive: false)
            checkLength(bed.fadeOut, "bed.fade_out", positive: false)
            checkLength(bed.crossfade, "bed.crossfade", positive: false)
            switch bed.source {
            case .file(let path): checkAssetPath(path, "bed.file")
            case .synth(.drone(let hertz)):
                fuzzCheck(hertz > 0 && hertz < Double(output.sampleRate) / 2, "drone \(hertz) Hz at \(output.sampleRate) Hz")
            case .synth: break
            }
        }
        for (name, sound) in recipe.cues {
            switch sound {
            case .tone(let tone):
                fuzzCheck(
                    tone.frequency > 0 && tone.frequency < Double(output.sampleRate) / 2,
                    "cues.\(name): \(tone.frequency) Hz at \(output.sampleRate) Hz")
                checkLength(tone.length, "cues.\(name).length", positive: true)
                fuzzCheck(tone.length <= RecipeLimits.maxCueLength, "cues.\(name).length \(tone.length)")
                checkGain(tone.gainDB, "cues.\(name).gain")
                fuzzCheck(
                    tone.harmonics.count <= 16 && tone.harmonics.allSatisfy { (0...1).contains($0) },
                    "cues.\(name).harmonics \(tone.harmonics)")
            case .file(let path, let gain):
                checkAssetPath(path, "cues.\(name).file")
                checkGain(gain, "cues.\(name).gain")
            }
        }
        for (key, location) in recipe.locations {
            fuzzCheck(location.line >= 1 && location.column >= 1, "location of \(key): \(location)")
        }
    }

    /// Paths in a recipe stay inside the assets folder: relative, no `..` component.
    static func checkAssetPath(_ path: String, _ what: String) {
        fuzzCheck(!path.isEmpty && !path.hasPrefix("/"), "\(what): path \(path.debugDescription)")
        fuzzCheck(!path.split(separator: "/", omittingEmptySubsequences: false).contains(".."), "\(what): path \(path.debugDescription)")
        fuzzCheck(
            !path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" },
            "\(what): control character or backslash in path \(path.debugDescription)")
    }

    // MARK: - Timeline

    static func checkTimeline(_ timeline: Timeline, _ recipe: Recipe) {
        let rate = timeline.sampleRate
        fuzzCheck(rate == recipe.output.sampleRate, "timeline rate \(rate)")
        fuzzCheck(timeline.duration > .zero && timeline.duration <= RecipeLimits.maxDuration, "duration \(timeline.duration)")
        fuzzCheck(timeline.totalFrames == timeline.duration.frame(at: rate), "total frames \(timeline.totalFrames)")
        fuzzCheck(timeline.totalFrames > 0, "no frames")
        switch recipe.length {
        case .duration(let total): fuzzCheck(timeline.duration == total, "duration \(timeline.duration), recipe says \(total)")
        case .cycles(let n) where recipe.ramp == nil:
            fuzzCheck(
                timeline.duration == recipe.intro + recipe.pattern.cycle * Int64(n) + recipe.outro,
                "duration \(timeline.duration) for \(n) cycles")
        case .cycles, .program:
            let practice = timeline.practiceSections
            fuzzCheck(
                timeline.duration == recipe.intro + ((practice.last?.end ?? recipe.intro) - (practice.first?.start ?? recipe.intro)) + recipe.outro,
                "duration \(timeline.duration): not intro + segments + outro")
        }

        // Sections: in order, non-empty, tiling 0..<totalFrames.
        var frame: Int64 = 0
        var lastKind = -1
        for section in timeline.sections {
            let order = SectionKind.allCases.firstIndex(of: section.kind) ?? -1
            fuzzCheck(order > lastKind || (section.kind == .practice && order == lastKind), "sections out of order: \(timeline.sections.map(\.kind))")
            lastKind = order
            fuzzCheck(section.startFrame == frame, "section \(section.kind) starts at \(section.startFrame), expected \(frame)")
            fuzzCheck(section.endFrame > section.startFrame, "section \(section.kind) is empty")
            fuzzCheck(section.startFrame == section.start.frame(at: rate) && section.endFrame == section.end.frame(at: rate), "section frames")
            frame = section.endFrame
        }
        fuzzCheck(frame == timeline.totalFrames, "sections end at \(frame), the file at \(timeline.totalFrames)")

        // Phases: tile the practice, none empty, index = position, cycle never decreasing.
        let phases = timeline.phases
        fuzzCheck(!phases.isEmpty && phases.count <= 200_000, "\(phases.count) phases")
        let practice = timeline.practiceSections
        fuzzCheck(
            !practice.isEmpty && practice.count == recipe.segments.count, "\(practice.count) practice sections for \(recipe.segments.count) segments")
        guard let firstPractice = practice.first, let lastPractice = practice.last, let firstPhase = phases.first, let lastPhase = phases.last
        else { return }
        fuzzCheck(
            firstPhase.startFrame == firstPractice.startFrame, "first phase at \(firstPhase.startFrame), practice at \(firstPractice.startFrame)")
        fuzzCheck(lastPhase.endFrame == lastPractice.endFrame, "last phase ends at \(lastPhase.endFrame), practice at \(lastPractice.endFrame)")
        for (index, section) in practice.enumerated() {
            let inside = phases.filter { $0.segment == index }
            fuzzCheck(
                inside.first?.startFrame == section.startFrame && inside.last?.endFrame == section.endFrame,
                "segment \(index)'s phases do not tile its section")
        }
        var previous: PhaseSpan?
        for (i, phase) in phases.enumerated() {
            fuzzCheck(phase.index == i, "phase \(i) has index \(phase.index)")
            fuzzCheck(
                phase.endFrame > phase.startFrame,
                "phase \(i) (\(phase.kind), \(phase.end - phase.start)s) is empty: frames \(phase.startFrame)..<\(phase.endFrame) at \(rate) Hz")
            fuzzCheck(phase.start < phase.end, "phase \(i) times \(phase.start)…\(phase.end)")
            if let previous {
                fuzzCheck(phase.startFrame == previous.endFrame, "gap or overlap before phase \(i)")
                // a segment's transition shorter than a frame is left out: only there may exact times skip
                fuzzCheck(phase.start == previous.end || phase.segment == previous.segment + 1, "exact times of phase \(i) do not join")
                fuzzCheck(phase.segment > previous.segment || phase.cycle >= previous.cycle, "cycle decreases at phase \(i)")
                fuzzCheck(phase.segment >= previous.segment, "segment decreases at phase \(i)")
            }
            previous = phase
        }

        // Cues: in frame order, inside the file, naming a phase.
        var lastFrame: Int64 = -1
        for cue in timeline.cues {
            fuzzCheck(cue.frame >= lastFrame, "cues out of order at \(cue.name) \(cue.frame)")
            fuzzCheck(cue.frame >= 0 && cue.frame < timeline.totalFrames, "cue \(cue.name) at \(cue.frame) of \(timeline.totalFrames)")
            fuzzCheck(phases.indices.contains(cue.phase), "cue \(cue.name) phase \(cue.phase)")
            fuzzCheck(recipe.cues[cue.name] != nil, "cue \(cue.name) has no sound")
            lastFrame = cue.frame
        }
    }

    // MARK: - Cue sheet

    /// The cue sheet a render writes for this timeline (audio facts made up), validated and read back.
    /// As Render's CueSheetBuilder: a recipe with a cues-v1.1 feature (voice, a program, a ramp, ticks)
    /// gets a 1.1 sheet whose practice sections carry segment, name and ramp and whose phases carry
    /// segment and length (a program's several practice sections are valid only so).
    static func checkCueSheet(_ timeline: Timeline, _ recipe: Recipe) {
        guard timeline.phases.count <= roundTripPhaseLimit else { return }
        let rate = timeline.sampleRate
        let v11 = recipe.voice != nil || recipe.program != nil || recipe.ramp != nil || recipe.ticks != nil
        var sheet = CueSheet(
            id: recipe.id, title: recipe.title, category: recipe.category,
            audio: CueSheet.Audio(
                file: recipe.id + ".flac", sampleRate: rate, channels: recipe.output.channels,
                frames: timeline.totalFrames, sha256: String(repeating: "0", count: 64),
                loudnessLUFS: recipe.output.loudness, truePeakDBTP: recipe.output.truePeak),
            pattern: CueSheet.PatternInfo(
                name: recipe.pattern.name, cycle: DecimalText(recipe.pattern.cycle.nanoseconds, decimalPlaces: 9),
                phases: recipe.pattern.phases.map {
                    CueSheet.PatternPhase(kind: $0.kind, label: $0.label, length: DecimalText($0.length.nanoseconds, decimalPlaces: 9))
                }),
            sections: timeline.sections.map { section in
                let practice = v11 && section.kind == .practice
                return CueSheet.Section(
                    kind: section.kind.rawValue, segment: practice ? section.segment : nil, name: practice ? section.name : nil,
                    startFrame: section.startFrame, endFrame: section.endFrame, sampleRate: rate,
                    ramp: section.ramp.map {
                        CueSheet.Ramp(
                            fromBPM: DecimalText($0.fromMicroBPM, decimalPlaces: 6), toBPM: DecimalText($0.toMicroBPM, decimalPlaces: 6),
                            over: $0.over)
                    })
            },
            phases: timeline.phases.map {
                CueSheet.Phase(
                    index: $0.index, segment: v11 ? $0.segment : nil, cycle: $0.cycle, kind: $0.kind, label: $0.label,
                    length: v11 ? DecimalText($0.length.nanoseconds, decimalPlaces: 9) : nil, startFrame: $0.startFrame, endFrame: $0.endFrame,
                    sampleRate: rate)
            },
            cues: timeline.cues.map {
                CueSheet.Cue(name: $0.name, phase: $0.phase, frame: $0.frame, lengthFrames: 0, sampleRate: rate)
            })
        sheet.minorVersion = v11 ? 1 : 0
        do {
            try sheet.validate()
        } catch {
            fuzzCheck(false, "the cue sheet of a valid recipe is invalid: \(error)")
        }
        let text = sheet.jsonText()
        do {
            let back = try CueSheet.decode(from: Data(text.utf8))
            fuzzCheck(back == sheet, "the cue sheet reads back different")
            fuzzCheck(back.jsonText() == text, "the cue sheet writes back different bytes")
        } catch {
            fuzzCheck(false, "the cue sheet of a valid recipe does not read back: \(error)")
        }
    }
}
