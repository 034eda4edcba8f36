import AudioCore

/// Turns a YAML document into a validated `Recipe`, collecting every problem.
enum RecipeDecoder {
    /// The keys a recipe may hold at the top level, in the order messages list them.
    static let topKeys = RecipeKeys.children(of: "")

    /// Decodes `document`; the failure holds every diagnostic, sorted by position.
    static func decode(_ document: YAMLDocument, file: String, defaultID: String) -> Result<Recipe, DiagnosticList> {
        var context = DecodeContext(file: file, document: document)
        if var recipe = context.recipe(defaultID: defaultID), context.diagnostics.isEmpty {
            recipe.warnings = sorted(context.warnings)
            return .success(recipe)
        }
        var diagnostics = context.diagnostics
        if diagnostics.isEmpty {
            // A reader returned nil without a message: never let that pass silently.
            diagnostics = [Diagnostic("the recipe could not be read", at: SourceLocation(file: file, line: 1, column: 1))]
        }
        return .failure(DiagnosticList(sorted(diagnostics)))
    }

    /// Diagnostics by line and column, keeping the order of those at the same place.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let la = a.element.location, lb = b.element.location
            let ka = (la?.line ?? 0, la?.column ?? 0, a.offset), kb = (lb?.line ?? 0, lb?.column ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
    }
}

extension Recipe {
    /// A valid id: `[A-Za-z0-9][A-Za-z0-9._-]{0,99}`, so that it can never steer a file path.
    ///
    /// The one rule for ids: a recipe's, and every id a catalog manifest names (`Manifest.decode`).
    public static func isValidID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        func isAlphanumeric(_ b: UInt8) -> Bool {
            DecimalNumeral.isDigit(b) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
        }
        guard let first = bytes.first, isAlphanumeric(first), bytes.count <= 100 else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// The id rule, as messages state it.
    public static let idRule = "letters, digits, '.', '_' or '-', starting with a letter or digit, at most 100 characters"
}

extension DecodeContext {
    /// Reads the whole recipe; nil when something could not be read (and was reported).
    mutating func recipe(defaultID: String) -> Recipe? {
        let root = document.root
        guard
            let top = fields(
                of: root, path: "", allowed: RecipeDecoder.topKeys,
                what: "a mapping of recipe keys (pattern, duration, …)")
        else { return nil }
        let start = SourceLocation(file: file, line: 1, column: 1)
        // locales first: texts per locale and paths with `{locale}` are read against them
        if let node = top["locales"] { readLocales(node) }

        // Output first: the Nyquist checks of tones and drones need its sample rate.
        let output = top["output"].map { self.output($0) } ?? OutputSettings()
        let endOn =
            top["end_on"].flatMap { choice($0, path: "end_on", options: EndOn.allCases.map(\.rawValue)) }
            .flatMap(EndOn.init(rawValue:)) ?? .cycle
        var pattern: Pattern?
        var program: [Segment]?
        var programFailed = false
        switch (top["pattern"], top["program"]) {
        case (let node?, nil):
            pattern = self.pattern(node)
        case (nil, let node?):
            program = self.program(node, endOn: endOn)
            pattern = program?.first?.pattern
            programFailed = program == nil
        case (let patternNode?, let programNode?):
            remember("pattern", patternNode)
            remember("program", programNode)
            error(
                "program: expected either 'pattern:' (one pattern) or 'program:' (segments, each with its own pattern), "
                    + "found both (pattern at line \(document[patternNode].mark.line)); move the pattern into a segment",
                at: top.keys["program"] ?? programNode)
        case (nil, nil):
            missing(
                ["pattern", "program"], in: root,
                "expected 'pattern:' (a built-in like box, or a mapping with 'phases') or 'program:' (a list of segments), found neither")
        }

        var id: String?
        if let node = top["id"] {
            if let text = string(node, path: "id") {
                if Recipe.isValidID(text) { id = text } else { expected(Recipe.idRule, at: node, path: "id") }
            }
        } else if Recipe.isValidID(defaultID) {
            id = defaultID
        } else {
            error(
                "id: the file name \(DiagnosticText.quoted(defaultID)) is not a valid id (expected \(Recipe.idRule)); add an 'id:' key",
                at: start)
        }
        let titles = top["title"].flatMap { localized($0, path: "title") { $0.string($1, path: $2) } }
        let title = titles?.text ?? pattern?.name
        let categories = top["category"].flatMap { localized($0, path: "category") { $0.string($1, path: $2) } }
        let category = categories?.text
        let premium = top["premium"].flatMap { bool($0, path: "premium") } ?? false
        let sortOrder = top["sort_order"].flatMap { integer($0, path: "sort_order", range: Int.min...Int.max, what: "a whole number") }
        let delivery =
            top["delivery"].flatMap { choice($0, path: "delivery", options: Delivery.allCases.map(\.rawValue)) }
            .flatMap(Delivery.init(rawValue:)) ?? .bundled
        let intro = top["intro"].flatMap { duration($0, path: "intro", positive: false) } ?? .zero
        let outro = top["outro"].flatMap { duration($0, path: "outro", positive: false) } ?? .zero
        let variants = top["variants"].map { self.variantDurations($0, id: id) }
        let length = self.length(top, root: root, variants: variants ?? nil, program: top["program"])
        if let id, case .some(.some(let read)) = variants {
            checkRenditions(id: id, variantIDs: read.map { Recipe.variantID(id, $0.0) })
        } else if let id, top["variants"] == nil {
            checkRenditions(id: id, variantIDs: [])
        }
        var ramp: Ramp?
        if let node = top["ramp"] {
            if let programNode = top["program"] {
                remember("ramp", node)
                error(
                    "ramp: expected a ramp inside a program segment ('- { pattern: coherent, cycles: 20, ramp: … }'), "
                        + "found one at the top level beside 'program:' (line \(document[programNode].mark.line))",
                    at: top.keys["ramp"] ?? node)
            } else {
                ramp = self.ramp(node, path: "ramp", length: length)
            }
        }
        let kindsPattern = program.map(Self.kindsPattern(of:)) ?? pattern
        var beds: [Bed] = []
        var bedIsLayered = false
        var bedFailed = false
        if let node = top["bed"] {
            if let read = self.beds(node, sampleRate: output.sampleRate, channels: output.channels) {
                (beds, bedIsLayered) = read
            } else {
                bedFailed = true
            }
        }
        let cues: [String: CueSound]?
        var cueLimits: [String: CueLimit] = [:]
        var ticks: Ticks?
        let named = namedKinds(cues: top["cues"], voice: top["voice"])
        if let node = top["cues"] {
            let read = self.cues(node, pattern: kindsPattern, sampleRate: output.sampleRate, named: named)
            cues = read?.sounds
            cueLimits = read?.limits ?? [:]
            ticks = read?.ticks
        } else {
            cues = kindsPattern.map { CuePresets.defaults(forKinds: Set($0.phases.map(\.kind))) }
        }

        let voice = top["voice"].map { self.voice($0, pattern: kindsPattern, named: named) }
        // recipe-v1.2 § Breath guidance: the guide names kinds of the patterns (`transition` with a program)
        let guide = top["guide"].map { self.guide($0, pattern: kindsPattern) }
        let swell = top["swell"].map { self.swell($0, sampleRate: output.sampleRate) }
        let haptics = top["haptics"].flatMap { self.haptics($0) } ?? false

        // a program's and a ramp's fit is the timeline's to check: their lengths come from its layout
        if let length, let pattern, program == nil, top["ramp"] == nil {
            if let variants = variants ?? nil, top["duration"] == nil {
                // fades are checked against the shortest variant only: fades that do not fit every
                // variant are one problem, reported once (not once per variant)
                let shortest = variants.map(\.0).min()
                for (index, (duration, node)) in variants.enumerated() {
                    checkFit(
                        .duration(duration), pattern: pattern, intro: intro, outro: outro, endOn: endOn, top: top, beds: beds,
                        durationAt: (node, "variants.duration.\(index)"),
                        fades: duration == shortest ? (variants.count > 1 ? ", the shortest variant" : "") : nil)
                }
            } else {
                checkFit(length, pattern: pattern, intro: intro, outro: outro, endOn: endOn, top: top, beds: beds)
            }
        }
        if case .some(.none) = variants { return nil }
        if bedFailed || programFailed { return nil }
        if top["ramp"] != nil, top["program"] == nil, ramp == nil { return nil }
        guard let id, let title, let pattern, let length, let cues else { return nil }
        if case .some(.none) = voice { return nil }
        var recipe = Recipe(
            file: file, id: id, title: title, category: category, premium: premium, sortOrder: sortOrder,
            delivery: delivery, length: length, endOn: endOn, pattern: pattern, intro: intro, outro: outro, cues: cues,
            voice: voice ?? nil, output: output, locations: locations)
        recipe.beds = beds
        recipe.bedIsLayered = bedIsLayered
        recipe.cueLimits = cueLimits
        recipe.ticks = ticks
        recipe.program = program
        recipe.ramp = ramp
        recipe.variantDurations = (variants ?? nil)?.map(\.0) ?? []
        recipe.guide = guide ?? nil
        recipe.swell = swell ?? nil
        recipe.haptics = haptics
        if let tags = locales.tags {
            recipe.locales = tags
            recipe.localizedTitle = titles?.byLocale ?? [:]
            recipe.localizedCategory = categories?.byLocale ?? [:]
            recipe.localizedPaths = localizedPaths
        }
        return recipe
    }

    /// `duration` or `cycles`: exactly one.
    /// With `variants.duration` (read as `variants`), no top-level length: the first variant's stands for it.
    /// With `program:` (at `program`), `cycles` is an error and no `duration` is `Length.program`.
    private mutating func length(_ top: Fields, root: NodeID, variants: [(ExactSeconds, NodeID)]?, program: NodeID?) -> Length? {
        if let program, let cycles = top["cycles"] {
            remember("cycles", cycles)
            error(
                "cycles: expected no top-level 'cycles:' with 'program:' (line \(document[program].mark.line)); "
                    + "give each segment its 'cycles:' or 'duration:', and the file's length, if fixed, as 'duration:'",
                at: top.keys["cycles"] ?? cycles)
            return nil
        }
        if let node = top["variants"] {
            for key in ["duration", "cycles"] where top.has(key) {
                remember(key, top[key] ?? node)
                error(
                    "\(key): expected the track's lengths in 'variants.duration' only, found '\(key):' too "
                        + "(variants at line \(document[node].mark.line)); remove '\(key):'",
                    at: top.keys[key] ?? node)
            }
            if top.has("duration") || top.has("cycles") { return nil }
            return variants?.first.map { Length.duration($0.0) }
        }
        switch (top["duration"], top["cycles"]) {
        case (let duration?, nil):
            return self.duration(duration, path: "duration", positive: true).map(Length.duration)
        case (nil, let cycles?):
            return integer(cycles, path: "cycles", range: RecipeLimits.cycles, what: "a number of cycles from 1 to 100000")
                .map(Length.cycles)
        case (let duration?, let cycles?):
            remember("duration", duration)
            remember("cycles", cycles)
            error(
                "cycles: expected either 'duration:' or 'cycles:', found both (duration at line \(document[duration].mark.line))",
                at: cycles)
            return nil
        case (nil, nil):
            if program != nil { return .program }
            missing(["duration", "cycles"], in: root, "expected 'duration:' (the track's length) or 'cycles:' (a number of cycles), found neither")
            return nil
        }
    }

    /// Every phase kind of a program's patterns, each once, in the order first met, and `transition`
    /// (the kind of a segment's time left over): what `cues:` and `voice:` may name.
    static func kindsPattern(of program: [Segment]) -> Pattern {
        var phases: [Phase] = []
        var seen: Set<String> = []
        for phase in program.flatMap(\.pattern.phases) + [Phase(kind: Segment.transitionKind, length: .zero, label: Segment.transitionLabel)]
        where seen.insert(phase.kind).inserted {
            phases.append(phase)
        }
        return Pattern(name: "the program", builtin: "the program", phases: phases)
    }

    /// Reports (and returns true) when the labels of `cycles` cycles and `extra` more phases
    /// pass `RecipeLimits.maxTrackTextBytes`, at the `duration` or `cycles` that asks for them.
    private mutating func checkLabels(pattern: Pattern, cycles: Int128, extra: Int128, at node: NodeID, path: String) -> Bool {
        // with labels per locale, each phase counts its longest: every rendition keeps to the limit
        func bytes(_ phase: Phase) -> Int { phase.localizedLabel.values.reduce(phase.label.utf8.count) { max($0, $1.utf8.count) } }
        let perCycle = Int128(pattern.phases.reduce(0) { $0 + bytes($1) })
        var total = cycles * perCycle
        for phase in pattern.phases.prefix(Int(min(extra, Int128(pattern.phases.count)))) { total += Int128(bytes(phase)) }
        guard total > Int128(RecipeLimits.maxTrackTextBytes) else { return false }
        expected(
            "a track whose phase labels hold at most \(RecipeLimits.maxTrackTextBytes / (1 << 20)) MiB of text in all", at: node, path: path,
            reason:
                "\(cycles) cycles × \(perCycle) bytes of labels make \(total) bytes, each written into the cue sheet, captions and markers; shorten the labels or the track"
        )
        return true
    }

    /// Reports a track that breaks a ceiling of `RecipeLimits` or does not fit its parts:
    /// longer than 24 h (cycles), too short for one cycle or phase (duration), more
    /// than `maxPhasesPerTrack` phases, or bed fades longer than the track.
    /// `durationAt`: where the length was written when not at `duration` (a variant's value and its path).
    /// `fades`: nil to leave the bed's fades unchecked (a variant that is not the shortest), else what
    /// the message adds after the track's length (`, the shortest variant`).
    private mutating func checkFit(
        _ length: Length, pattern: Pattern, intro: ExactSeconds, outro: ExactSeconds, endOn: EndOn, top: Fields, beds: [Bed],
        durationAt: (node: NodeID, path: String)? = nil, fades shortestNote: String? = ""
    ) {
        let cycle = Int128(pattern.cycle.nanoseconds)
        let frame = Int128(intro.nanoseconds) + Int128(outro.nanoseconds)
        let phasesPerCycle = Int128(pattern.phases.count)
        let maxPhases = Int128(RecipeLimits.maxPhasesPerTrack)
        let track: Int128
        switch length {
        case .program:
            return
        case .cycles(let count):
            guard let node = top["cycles"] else { return }
            track = frame + Int128(count) * cycle
            if track > Int128(RecipeLimits.maxDuration.nanoseconds) {
                let hours = Double(track / 1_000_000_000) / 3600
                expected(
                    "a number of cycles that keeps the track within 24 h", at: node, path: "cycles",
                    reason: "intro + \(count) × \(pattern.cycle)s + outro is \(DiagnosticText.number((hours * 10).rounded() / 10)) h")
                return
            }
            let phases = Int128(count) * phasesPerCycle
            if phases > maxPhases {
                expected(
                    "a number of cycles that keeps the track within \(RecipeLimits.maxPhasesPerTrack) phases", at: node, path: "cycles",
                    reason: "\(count) cycles × \(phasesPerCycle) phases make \(phases) phases")
                return
            }
            if checkLabels(pattern: pattern, cycles: Int128(count), extra: 0, at: node, path: "cycles") { return }
        case .duration(let duration):
            guard let node = durationAt?.node ?? top["duration"] else { return }
            let path = durationAt?.path ?? "duration"
            track = Int128(duration.nanoseconds)
            let unit = endOn == .cycle ? cycle : Int128(pattern.phases.first?.length.nanoseconds ?? 0)
            guard frame + unit <= track, cycle > 0 else {
                let what = endOn == .cycle ? "one cycle" : "one phase"
                let unitSeconds = ExactSeconds(nanoseconds: Int64(unit))
                let shortest = ExactSeconds(nanoseconds: Int64(frame + unit))
                let firstPhase = Int128(pattern.phases.first?.length.nanoseconds ?? 0)
                // `end_on: phase` ends on a whole phase: a track too short for a cycle may still hold one
                let hint =
                    endOn == .cycle && frame + firstPhase <= track
                    ? "at least \(shortest.durationText) for a whole cycle; or set 'end_on: phase' to end on a whole phase"
                    : "at least \(shortest.durationText)"
                // an intro or outro written as a bare number may be what does not fit (`intro: 4000`)
                var bare = ""
                for key in ["intro", "outro"] where bare.isEmpty {
                    if let note = bareSecondsNote([key]) { bare = "; \(key): " + note }
                }
                expected(
                    "a duration with room for \(what) (\(unitSeconds.durationText)) after intro (\(intro.durationText)) "
                        + "and outro (\(outro.durationText))",
                    at: node, path: path, reason: hint + bare)
                return
            }
            let (cycles, left) = (track - frame).quotientAndRemainder(dividingBy: cycle)
            var phases = cycles * phasesPerCycle
            if endOn == .phase {
                // the whole phases from the cycle's start that fit in what is left, as the timeline adds them
                var room = left
                for phase in pattern.phases {
                    room -= Int128(phase.length.nanoseconds)
                    if room < 0 { break }
                    phases += 1
                }
            }
            if phases > maxPhases {
                let extra = phases - cycles * phasesPerCycle
                expected(
                    "a duration that holds at most \(RecipeLimits.maxPhasesPerTrack) phases", at: node, path: path,
                    reason: "\(cycles) cycles of \(pattern.cycle)s\(extra > 0 ? " and \(extra) more" : "") make \(phases) phases")
                return
            }
            if checkLabels(pattern: pattern, cycles: cycles, extra: phases - cycles * phasesPerCycle, at: node, path: path) {
                return
            }
        }
        guard let shortestNote else { return }
        for (index, bed) in beds.enumerated() where Int128(bed.fadeIn.nanoseconds) + Int128(bed.fadeOut.nanoseconds) > track {
            let prefix = beds.count == 1 && locations["bed.0"] == nil ? "bed" : "bed.\(index)"
            guard let key = [prefix + ".fade_in", prefix + ".fade_out"].first(where: { locations[$0] != nil }), let place = locations[key] else {
                continue
            }
            // the key's own note is added by `error`; the other fade's here
            let other = bareSecondsNote([prefix + ".fade_in", prefix + ".fade_out"].filter { $0 != key })
            error(
                "\(key): expected fades that fit in the track (\(ExactSeconds(nanoseconds: Int64(track)).durationText)\(shortestNote)), "
                    + "found fade_in \(bed.fadeIn.durationText) + fade_out \(bed.fadeOut.durationText)" + (other.map { "; " + $0 } ?? ""),
                at: place)
        }
    }
}
