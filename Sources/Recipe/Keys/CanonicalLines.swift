import AudioCore
import CadenceCues

extension Recipe {
    /// The recipe's meaning as text: every value after defaults, in a fixed order,
    /// without the file's name, comments, spacing or key order.
    ///
    /// Two recipes that render the same say the same here, so it seeds the noise,
    /// dither and Ogg serial, and fingerprints the track in a catalog. Its lines are
    /// `CanonicalLine.all`, in order; every row of `RecipeKeys` names the line it enters
    /// (`Canonical.line`) or says why it stays out (`Canonical.excluded`), and `CanonicalKeyTests`
    /// changes each key of a recipe and checks that this text changes. The text must never
    /// change for a recipe already written: new keys enter as lines added only when given.
    public var canonicalText: String {
        var lines: [String] = []
        for line in CanonicalLine.all { line.write(self, &lines) }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One family of lines of `Recipe.canonicalText` (`output.sample_rate=48000`; `cue.<kind>=…` for each cue).
public struct CanonicalLine: Sendable {
    /// The line keys it writes, as `Canonical.line` names them (`<i>` an index, `<kind>` a cue's name).
    public let keys: [String]
    let write: @Sendable (Recipe, inout [String]) -> Void

    init(_ keys: [String], _ write: @escaping @Sendable (Recipe, inout [String]) -> Void) {
        self.keys = keys
        self.write = write
    }

    /// One `key=value` line always written.
    static func always(_ key: String, _ value: @escaping @Sendable (Recipe) -> String) -> CanonicalLine {
        CanonicalLine([key]) { recipe, lines in lines.append("\(key)=\(value(recipe))") }
    }

    /// The lines, in the order the text holds them (the order it always had: the seeds depend on it).
    public static let all: [CanonicalLine] = [
        always("id") { $0.id },
        always("title") { $0.title },
        always("category") { $0.category ?? "~" },
        always("premium") { String($0.premium) },
        always("sort_order") { $0.sortOrder.map(String.init) ?? "~" },
        CanonicalLine(["duration", "cycles"]) { recipe, lines in
            switch recipe.length {
            case .duration(let d): lines.append("duration=\(d)")
            case .cycles(let n): lines.append("cycles=\(n)")
            case .program: lines.append("duration=program")
            }
        },
        always("end_on") { $0.endOn.rawValue },
        always("intro") { $0.intro.description },
        always("outro") { $0.outro.description },
        always("pattern.name") { $0.pattern.name },
        CanonicalLine(["pattern.phase.<i>"]) { recipe, lines in
            for (i, phase) in recipe.pattern.phases.enumerated() { lines.append("pattern.phase.\(i)=\(phaseText(phase))") }
        },
        // added only when given, so the seeds of recipes without them stay as they were
        CanonicalLine(["ramp"]) { recipe, lines in
            if let ramp = recipe.ramp { lines.append("ramp=\(rampText(ramp))") }
        },
        CanonicalLine(["program.<i>", "program.<i>.pattern.name"]) { recipe, lines in
            for (i, segment) in (recipe.program ?? []).enumerated() {
                let length =
                    switch segment.length {
                    case .cycles(let n): "cycles|\(n)"
                    case .duration(let d): "duration|\(d)"
                    case .program: "program"
                    }
                lines.append("program.\(i)=\(segment.name)|\(length)|\(segment.endOn.rawValue)|\(segment.ramp.map(rampText) ?? "~")")
                lines.append("program.\(i).pattern.name=\(segment.pattern.name)")
                for (j, phase) in segment.pattern.phases.enumerated() { lines.append("program.\(i).pattern.phase.\(j)=\(phaseText(phase))") }
            }
        },
        // a single bed says `bed.file=…` as it always has (its seeds stay); a list's layers say `bed.0.file=…`
        CanonicalLine(["bed", "bed.file", "bed.synth", "bed.gain", "bed.fade_in", "bed.fade_out", "bed.crossfade"]) { recipe, lines in
            for (index, bed) in recipe.beds.enumerated() {
                let key = recipe.bedIsLayered ? "bed.\(index)" : "bed"
                switch bed.source {
                case .file(let path): lines.append("\(key).file=\(path)")
                case .synth(let synth): lines.append("\(key).synth=\(synth)")
                }
                lines.append("\(key).gain=\(bed.gainDB)")
                lines.append("\(key).fade_in=\(bed.fadeIn)")
                lines.append("\(key).fade_out=\(bed.fadeOut)")
                lines.append("\(key).crossfade=\(bed.crossfade)")
            }
            if recipe.beds.isEmpty { lines.append("bed=none") }
        },
        CanonicalLine(["cue.<kind>", "cue.<kind>.limit"]) { recipe, lines in
            for name in recipe.cues.keys.sorted() {
                switch recipe.cues[name] {
                case .tone(let t):
                    lines.append("cue.\(name)=tone|\(t.frequency)|\(t.length)|\(t.gainDB)|\(t.envelope.rawValue)|\(t.harmonics)")
                case .file(let path, let gain):
                    lines.append("cue.\(name)=file|\(path)|\(gain)")
                case nil:
                    break
                }
                // added only when given, so the seeds of recipes without limits stay as they were
                if let limit = recipe.cueLimits[name] { lines.append("cue.\(name).limit=\(limitText(until: limit.until, cycles: limit.cycles))") }
            }
        },
        // added only when given, like the limits
        CanonicalLine(["ticks"]) { recipe, lines in
            if let ticks = recipe.ticks { lines.append("ticks=\(ticks.every)|\(ticks.kinds?.joined(separator: ",") ?? "all")") }
        },
        always("output.sample_rate") { String($0.output.sampleRate) },
        always("output.channels") { String($0.output.channels) },
        always("output.format") { $0.output.format?.rawValue ?? "~" },
        always("output.bit_depth") { $0.output.bitDepth?.rawValue ?? "~" },
        always("output.loudness") { $0.output.loudness.map { "\($0)" } ?? "off" },
        always("output.true_peak") { "\($0.output.truePeak)" },
        // added only when given, so the seeds of recipes without it stay as they were
        CanonicalLine(["output.bitrate"]) { recipe, lines in
            if let bitrate = recipe.output.bitrate { lines.append("output.bitrate=\(bitrate)") }
        },
        CanonicalLine([
            "voice.level", "voice.gain", "voice.duck", "voice.attack", "voice.release", "voice.draft_voice", "voice.prompt.<i>",
            "voice.prompt.<i>.until",
        ]) { recipe, lines in
            guard let voice = recipe.voice else { return }
            lines.append("voice.level=\(voice.level.map { "\($0)" } ?? "off")")
            lines.append("voice.gain=\(voice.gainDB)")
            switch voice.duck {
            case .depth(let depth): lines.append("voice.duck=\(depth)")
            case .wcag: lines.append("voice.duck=wcag")
            }
            lines.append("voice.attack=\(voice.attack)")
            lines.append("voice.release=\(voice.release)")
            lines.append("voice.draft_voice=\(voice.draftVoice)")
            for (i, prompt) in voice.prompts.enumerated() {
                let place: String
                switch prompt.placement {
                case .at(let time): place = "at|\(time.anchor)|\(time.offset)"
                case .on(let kind, let cycles, let segment):
                    place = "on|\(kind)|\(cycles.map(cyclesText) ?? "all")|\(segment.map(String.init) ?? "~")"
                }
                // the text as JSON would escape it, so no prompt text can forge another line
                let text =
                    prompt.text.map {
                        $0.unicodeScalars.map { $0.value < 0x20 || $0 == "\\" || $0 == "|" ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
                            .joined()
                    } ?? "~"
                lines.append("voice.prompt.\(i)=\(place)|\(prompt.file ?? "~")|\(text)")
                if let until = prompt.until { lines.append("voice.prompt.\(i).until=\(limitText(until: until, cycles: nil))") }
            }
        },
        // added only with `locales:` (recipe-v1.2): the recipe as read lists its locales, a rendition
        // (`Recipe.renditions()`) its own, so that another locale's texts never change its line
        CanonicalLine(["locales"]) { recipe, lines in
            if let locale = recipe.locale {
                lines.append("locales=\(locale)")
            } else if !recipe.locales.isEmpty {
                lines.append("locales=\(recipe.locales.joined(separator: ","))")
            }
        },
        // recipe-v1.2 § Breath guidance, each added only when given: recipes without them keep their seeds.
        // The guide as it applies to every kind of the patterns (what it says, else the default),
        // so that writing a default changes nothing.
        CanonicalLine(["guide"]) { recipe, lines in
            guard let guide = recipe.guide else { return }
            let kinds = recipe.phaseKinds.sorted().map { "\($0):\(guide.guide(for: $0).rawValue)" }
            lines.append("guide=\(guide.shape.rawValue)|\(kinds.joined(separator: ","))")
        },
        CanonicalLine(["swell"]) { recipe, lines in
            guard let swell = recipe.swell else { return }
            switch swell.source {
            case .tone(let hertz): lines.append("swell=tone|\(hertz)|\(swell.gainDB)")
            case .noise(let synth): lines.append("swell=synth|\(synth)|\(swell.gainDB)")
            }
        },
    ]

    static func phaseText(_ phase: Phase) -> String { "\(phase.kind)|\(phase.length)|\(phase.label)" }

    static func rampText(_ ramp: Ramp) -> String { "\(Ramp.text(microBPM: ramp.toMicroBPM))|\(ramp.over.map(String.init) ?? "~")" }

    static func cyclesText(_ cycles: CycleSelection) -> String {
        cycles.ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }

    /// `until|practice|300|cycles|1-20` for a cue's limit; `~` for a key not given.
    static func limitText(until: PromptTime?, cycles: CycleSelection?) -> String {
        let time = until.map { "\($0.anchor)|\($0.offset)" } ?? "~"
        return "until|\(time)|cycles|\(cycles.map(cyclesText) ?? "~")"
    }
}
