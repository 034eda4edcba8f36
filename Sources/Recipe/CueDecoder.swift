import AudioCore

/// `cues:` — what sounds when a phase of each kind starts, plus `start` and `end`.
extension DecodeContext {
    /// The keys a cue mapping may hold (`tone` keys, or `file` and `gain`).
    static let cueKeys = RecipeKeys.children(of: "cues.<kind>")
    /// The cue that sounds inside phases (recipe-v1.1 § Ticks), and the keys only it takes.
    static let tickCue = "tick"
    static let tickKeys = ["every", "on"]
    /// Cue names that are not phase kinds: the first phase's start, the last phase's end.
    static let boundaryCues = ["start", "end"]

    /// Reads `cues`; kinds are checked against `pattern` when it was read. Nil after a problem.
    /// `named`: every kind a cue or prompt names (`namedKinds`), to tell a misspelt phase from a misspelt cue.
    /// Each cue's `until:` and `cycles:` (and the cues-wide ones, merged into each) come back in `limits`.
    mutating func cues(
        _ node: NodeID, pattern: Pattern?, sampleRate: Int, named: Set<String> = []
    ) -> (sounds: [String: CueSound], limits: [String: CueLimit], ticks: Ticks?)? {
        remember("cues", node)
        if text(node) == "none" { return ([:], [:], nil) }  // `cues: none`, like `cues: {}`: nothing sounds
        let before = problemCount
        guard let fields = fields(of: node, path: "cues", allowed: nil, what: "a mapping from phase kind to cue, like 'inhale: bell'") else {
            return nil
        }
        var kinds: [String] = []
        for phase in pattern?.phases ?? [] where !kinds.contains(phase.kind) { kinds.append(phase.kind) }
        let allowed = kinds + Self.boundaryCues + (kinds.contains(Self.tickCue) ? [] : [Self.tickCue])
        var cues: [String: CueSound] = [:]
        var ticks: Ticks?
        var limits: [String: CueLimit] = [:]
        // `until:` and `cycles:` beside the cues limit all of them (unless the pattern has phases of those kinds)
        var shared = CueLimit()
        for key in Self.limitKeys where !allowed.contains(key) {
            guard let value = fields[key] else { continue }
            if key == "until" {
                shared.until = until(value, path: "cues.until")
            } else {
                shared.cycles = cycles(value, path: "cues.cycles", every: "to sound on every cycle")
            }
        }
        for kind in fields.order {
            if isFull { break }
            guard let value = fields[kind], !(Self.limitKeys.contains(kind) && !allowed.contains(kind)) else { continue }
            // A key that is no cue name (no pattern to check it against) is shown clipped, like any author text.
            let path = "cues." + (allowed.contains(kind) ? kind : DiagnosticText.clip(kind))
            if let pattern, !allowed.contains(kind) {
                if let typo = misspeltPhase(for: kind, in: pattern, namedBy: named.union(fields.order)) {
                    error(typo.message, at: typo.location)
                    continue
                }
                let patternName = pattern.builtin ?? pattern.name
                let hint =
                    Suggestions.closest(to: kind, in: allowed).map { " (did you mean '\($0)'?)" }
                    ?? " (its kinds: \(DiagnosticText.list(kinds)); also \(DiagnosticText.list(allowed.filter { !kinds.contains($0) })))"
                let whose = patternName == "the program" ? "any pattern of the program" : "pattern '\(DiagnosticText.clip(patternName))'"
                error(
                    "cue \(DiagnosticText.quoted(kind)) matches no phase of \(whose)\(hint)",
                    at: fields.keys[kind] ?? value)
                continue
            }
            var limit = CueLimit()
            let isTick = kind == Self.tickCue && !kinds.contains(Self.tickCue)
            var tick: Ticks? = isTick ? Ticks() : nil
            if case .some(.some(let sound)) = cue(value, path: path, sampleRate: sampleRate, limit: &limit, tick: &tick, kinds: kinds) {
                cues[kind] = sound
                let merged = limit.over(shared)
                if merged != CueLimit() { limits[kind] = merged }
                if isTick { ticks = tick }
            }
        }
        return problemCount == before ? (cues, limits, ticks) : nil
    }

    /// The keys that limit a cue to part of the session, in a cue's mapping or beside the cues.
    static let limitKeys = RecipeKeys.children(of: "cues")

    /// The phase kinds the recipe's cues (their keys) and voice prompts (their `on:`) name, as written.
    func namedKinds(cues: NodeID?, voice: NodeID?) -> Set<String> {
        var named: Set<String> = []
        if let cues, case .mapping(let pairs) = document[cues].content {
            for pair in pairs { if case .scalar(let key, _) = document[pair.key].content { named.insert(key) } }
        }
        if let voice, case .mapping(let pairs) = document[voice].content,
            let list = pairs.first(where: { text($0.key) == "prompts" })?.value, case .sequence(let items) = document[list].content
        {
            for item in items {
                guard case .mapping(let fields) = document[item].content, let on = fields.first(where: { text($0.key) == "on" })?.value,
                    let kind = text(on)
                else { continue }
                named.insert(kind)
            }
        }
        return named
    }

    /// The kinds the spec names (recipe-v1 § Patterns): a pattern's phase of another kind that is
    /// a near miss of one a cue or prompt names is more likely the typo than the cue is.
    static let wellKnownKinds = ["inhale", "hold", "exhale", "rest", "work", "short_break", "long_break"]

    /// `- exhail: 6s` in an inline pattern with `cues: { exhale: … }`: the phase is misspelt,
    /// not the cue. Found when `kind` (named by a cue or prompt, not in the pattern) is a
    /// well-known kind and the pattern has a phase kind that is not, that nothing in `named`
    /// names, and that is a near miss of `kind`; the error goes to that phase's kind.
    func misspeltPhase(for kind: String, in pattern: Pattern, namedBy named: Set<String>) -> (message: String, location: SourceLocation)? {
        guard pattern.builtin == nil, Self.wellKnownKinds.contains(kind) else { return nil }
        var candidates: [String] = []
        for phase in pattern.phases
        where !Self.wellKnownKinds.contains(phase.kind) && !named.contains(phase.kind) && !candidates.contains(phase.kind) {
            candidates.append(phase.kind)
        }
        guard let typo = Suggestions.closest(to: kind, in: candidates),
            let index = pattern.phases.firstIndex(where: { $0.kind == typo }),
            let location = locations["pattern.phases.\(index).kind"]
        else { return nil }
        return (
            "pattern.phases.\(index): phase kind \(DiagnosticText.quoted(typo)) is named by no cue or prompt, "
                + "while \(DiagnosticText.quoted(kind)) is named but has no phase (did you mean '\(kind)'?)",
            location
        )
    }

    /// One cue: `none` (`.some(nil)`), a preset name, `{ tone: … }`, `{ preset: … }` or `{ file: … }`;
    /// nil after a problem. A mapping's `until:` and `cycles:` go to `limit`.
    /// `tick` (non-nil for the tick cue) takes its `every:` and `on:`; `kinds` are the pattern's.
    private mutating func cue(
        _ node: NodeID, path: String, sampleRate: Int, limit: inout CueLimit, tick: inout Ticks?, kinds: [String]
    ) -> CueSound?? {
        remember(path, node)
        let what = "none, a preset (\(DiagnosticText.list(CuePresets.names))), or a mapping with 'tone:', 'preset:' or 'file:'"
        if let name = text(node) {
            if name == "none" { return .some(nil) }
            if let preset = CuePresets.named(name) { return .tone(preset) }
            let hint = Suggestions.closest(to: name, in: ["none"] + CuePresets.names).map { "did you mean '\($0)'?" }
            expected(what, at: node, path: path, reason: hint)
            return nil
        }
        let before = problemCount
        guard let fields = fields(of: node, path: path, allowed: Self.cueKeys, what: what) else { return nil }
        if let value = fields["until"] { limit.until = until(value, path: path + ".until") }
        if tick != nil {
            if let value = fields["every"] {
                if let every = duration(value, path: path + ".every", positive: true) {
                    if every < RecipeLimits.minTickInterval {
                        expected(
                            "a time between ticks of at least 100ms", at: value, path: path + ".every",
                            reason: "ticks closer than 100 ms blur into a buzz")
                    } else {
                        tick?.every = every
                    }
                }
            }
            if let value = fields["on"] { tick?.kinds = tickKinds(value, path: path + ".on", kinds: kinds) }
        } else {
            for key in Self.tickKeys where fields.has(key) {
                error(
                    "\(path).\(key): applies to the 'tick' cue only (it sounds inside phases); a phase's cue sounds at its start",
                    at: fields.keys[key] ?? node)
            }
        }
        if let value = fields["cycles"] { limit.cycles = cycles(value, path: path + ".cycles", every: "to sound on every cycle") }
        if let presetNode = fields["preset"] {
            for key in ["tone", "file"] where fields.has(key) {
                error("\(path): expected one of 'preset:', 'tone:' or 'file:', found 'preset:' and '\(key):'", at: fields.keys[key] ?? node)
            }
            guard let preset = self.preset(presetNode, path: path + ".preset"),
                let tone = self.tone(nil, base: preset, fields: fields, path: path, sampleRate: sampleRate), problemCount == before
            else { return nil }
            return .tone(tone)
        }
        switch (fields["tone"], fields["file"]) {
        case (_?, let file?):
            remember(path + ".file", file)
            error("\(path): expected either 'tone:' or 'file:', found both", at: fields.keys["file"] ?? file)
            return nil
        case (nil, let file?):
            for key in ["length", "envelope", "harmonics"] where fields.has(key) {
                error(
                    "\(path).\(key): applies to tones only; a 'file:' cue plays its file as recorded (expected only 'gain:')",
                    at: fields.keys[key] ?? node)
            }
            let asset = assetPath(file, path: path + ".file")
            let gain = fields["gain"].map { self.gain($0, path: path + ".gain") } ?? 0
            guard let asset, let gain, problemCount == before else { return nil }
            return .file(asset, gainDB: gain)
        case (let toneNode?, nil):
            let tone = self.tone(toneNode, fields: fields, path: path, sampleRate: sampleRate)
            guard let tone, problemCount == before else { return nil }
            return .tone(tone)
        case (nil, nil):
            let limited = fields.has("until") || fields.has("cycles")
            missing(
                ["tone", "file"], in: node,
                limited
                    ? "\(path): a cue limited by 'until:' or 'cycles:' still needs its sound: expected 'preset: bell', 'tone: <frequency>' or 'file: <path>', found none"
                    : "\(path): expected 'tone: <frequency>' or 'file: <path>', found neither")
            return nil
        }
    }

    /// `on:` of the tick cue: a phase kind of the pattern, or a list of them.
    private mutating func tickKinds(_ node: NodeID, path: String, kinds: [String]) -> [String]? {
        remember(path, node)
        let items: [NodeID]
        if case .sequence(let list) = document[node].content {
            guard !list.isEmpty else {
                expected(
                    "a phase kind or a list of them, like [inhale, exhale]", at: node, path: path, reason: "to tick in every phase, leave out 'on:'")
                return nil
            }
            items = list
        } else {
            items = [node]
        }
        var chosen: [String] = []
        for (index, item) in items.enumerated() {
            let itemPath = items.count == 1 && item == node ? path : "\(path).\(index)"
            remember(itemPath, item)
            guard let word = text(item), kinds.contains(word) else {
                let hint =
                    text(item).flatMap { Suggestions.closest(to: $0, in: kinds) }.map { "did you mean '\($0)'?" }
                    ?? "the pattern's kinds: \(DiagnosticText.list(kinds))"
                expected("a phase kind of the pattern", at: item, path: itemPath, reason: hint)
                continue
            }
            if !chosen.contains(word) { chosen.append(word) }
        }
        return chosen.count == Set(items.compactMap { text($0) }).count ? chosen : nil
    }

    /// `preset:` of a cue mapping: bell, chime or click.
    private mutating func preset(_ node: NodeID, path: String) -> Tone? {
        remember(path, node)
        if let name = text(node), let tone = CuePresets.named(name) { return tone }
        let hint = text(node).flatMap { Suggestions.closest(to: $0, in: CuePresets.names) }.map { "did you mean '\($0)'?" }
        expected("a preset: \(DiagnosticText.list(CuePresets.names))", at: node, path: path, reason: hint)
        return nil
    }

    /// The tone of a `{ tone: … }` cue, with the tone defaults for keys left out; of a `{ preset: … }`
    /// cue (`toneNode` nil), the preset's tone with the keys given changing it.
    private mutating func tone(_ toneNode: NodeID?, base: Tone? = nil, fields: Fields, path: String, sampleRate: Int) -> Tone? {
        let frequency = toneNode.map { self.frequency($0, path: path + ".tone", sampleRate: sampleRate) } ?? base?.frequency
        let length =
            fields["length"].map { duration($0, path: path + ".length", positive: true, max: RecipeLimits.maxCueLength) }
            ?? base?.length ?? CuePresets.toneDefaultLength
        let gain = fields["gain"].map { self.gain($0, path: path + ".gain") } ?? base?.gainDB ?? CuePresets.toneDefaultGainDB
        let envelope =
            fields["envelope"].map { node in
                choice(node, path: path + ".envelope", options: Envelope.allCases.map(\.rawValue)).flatMap(Envelope.init(rawValue:))
            } ?? base?.envelope ?? CuePresets.toneDefaultEnvelope
        let harmonics = fields["harmonics"].map { self.harmonics($0, path: path + ".harmonics") } ?? base?.harmonics ?? []
        guard let frequency, let length, let gain, let envelope, let harmonics else { return nil }
        return Tone(frequency: frequency, length: length, gainDB: gain, envelope: envelope, harmonics: harmonics)
    }

    /// `harmonics`: a list of up to 16 amplitudes in 0…1, or a count N (0…16) of 1/k overtones.
    private mutating func harmonics(_ node: NodeID, path: String) -> [Double]? {
        remember(path, node)
        let limit = RecipeLimits.maxHarmonics
        let what = "a list of up to \(limit) amplitudes from 0 to 1 (like [0.5, 0.25]) or a number of overtones from 0 to \(limit)"
        if text(node) != nil {
            return integer(node, path: path, range: 0...limit, what: what).map(CuePresets.harmonicSeries)
        }
        guard case .sequence(let items) = document[node].content else {
            expected(what, at: node, path: path)
            return nil
        }
        guard items.count <= limit else {
            expected(what, at: node, path: path, reason: "\(items.count) amplitudes")
            return nil
        }
        var amplitudes: [Double] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path).\(index)"
            remember(itemPath, item)
            guard let text = text(item), let value = Self.plainNumber(text), (0...1).contains(value) else {
                expected("an amplitude from 0 to 1", at: item, path: itemPath)
                continue
            }
            amplitudes.append(value)
        }
        return amplitudes.count == items.count ? amplitudes : nil
    }

    /// A decimal number without a unit: `0.3`, `1`, `-2`.
    static func plainNumber(_ text: String) -> Double? {
        let bytes = Array(text.trimmingSpaces.utf8)
        var index = 0
        guard let numeral = DecimalNumeral.scan(bytes, at: &index, allowSign: true), index == bytes.count,
            let value = numeral.double(), value.isFinite
        else { return nil }
        return value
    }
}
