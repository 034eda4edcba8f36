import AudioCore

/// `cues:` — what sounds when a phase of each kind starts, plus `start` and `end`.
extension DecodeContext {
    /// The keys a cue mapping may hold (`tone` keys, or `file` and `gain`).
    static let cueKeys = ["tone", "length", "gain", "envelope", "harmonics", "file"]
    /// Cue names that are not phase kinds: the first phase's start, the last phase's end.
    static let boundaryCues = ["start", "end"]

    /// Reads `cues`; kinds are checked against `pattern` when it was read. Nil after a problem.
    mutating func cues(_ node: NodeID, pattern: Pattern?, sampleRate: Int) -> [String: CueSound]? {
        remember("cues", node)
        if text(node) == "none" { return [:] }  // `cues: none`, like `cues: {}`: nothing sounds
        let before = problemCount
        guard let fields = fields(of: node, path: "cues", allowed: nil, what: "a mapping from phase kind to cue, like 'inhale: bell'") else {
            return nil
        }
        var kinds: [String] = []
        for phase in pattern?.phases ?? [] where !kinds.contains(phase.kind) { kinds.append(phase.kind) }
        let allowed = kinds + Self.boundaryCues
        var cues: [String: CueSound] = [:]
        for kind in fields.order {
            if isFull { break }
            guard let value = fields[kind] else { continue }
            // A key that is no cue name (no pattern to check it against) is shown clipped, like any author text.
            let path = "cues." + (allowed.contains(kind) ? kind : DiagnosticText.clip(kind))
            if let pattern, !allowed.contains(kind) {
                let patternName = pattern.builtin ?? pattern.name
                let hint =
                    Suggestions.closest(to: kind, in: allowed).map { " (did you mean '\($0)'?)" }
                    ?? " (its kinds: \(DiagnosticText.list(kinds)); also start, end)"
                error(
                    "cue \(DiagnosticText.quoted(kind)) matches no phase of pattern '\(DiagnosticText.clip(patternName))'\(hint)",
                    at: fields.keys[kind] ?? value)
                continue
            }
            if case .some(.some(let sound)) = cue(value, path: path, sampleRate: sampleRate) { cues[kind] = sound }
        }
        return problemCount == before ? cues : nil
    }

    /// One cue: `none` (`.some(nil)`), a preset name, `{ tone: … }` or `{ file: … }`; nil after a problem.
    private mutating func cue(_ node: NodeID, path: String, sampleRate: Int) -> CueSound?? {
        remember(path, node)
        let what = "none, a preset (\(DiagnosticText.list(CuePresets.names))), or a mapping with 'tone:' or 'file:'"
        if let name = text(node) {
            if name == "none" { return .some(nil) }
            if let preset = CuePresets.named(name) { return .tone(preset) }
            let hint = Suggestions.closest(to: name, in: ["none"] + CuePresets.names).map { "did you mean '\($0)'?" }
            expected(what, at: node, path: path, reason: hint)
            return nil
        }
        let before = problemCount
        guard let fields = fields(of: node, path: path, allowed: Self.cueKeys, what: what) else { return nil }
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
            error("\(path): expected 'tone: <frequency>' or 'file: <path>', found neither", at: node)
            return nil
        }
    }

    /// The tone of a `{ tone: … }` cue, with the tone defaults for keys left out.
    private mutating func tone(_ toneNode: NodeID, fields: Fields, path: String, sampleRate: Int) -> Tone? {
        let frequency = self.frequency(toneNode, path: path + ".tone", sampleRate: sampleRate)
        let length =
            fields["length"].map { duration($0, path: path + ".length", positive: true, max: RecipeLimits.maxCueLength) }
            ?? CuePresets.toneDefaultLength
        let gain = fields["gain"].map { self.gain($0, path: path + ".gain") } ?? CuePresets.toneDefaultGainDB
        let envelope =
            fields["envelope"].map { node in
                choice(node, path: path + ".envelope", options: Envelope.allCases.map(\.rawValue)).flatMap(Envelope.init(rawValue:))
            } ?? CuePresets.toneDefaultEnvelope
        let harmonics = fields["harmonics"].map { self.harmonics($0, path: path + ".harmonics") } ?? []
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
