import AudioCore
import CadenceCues

/// The words of `guide:`, `swell:` and `haptics:` (recipe-v1.2 § Breath guidance).
enum BreathGuideWords {
    /// A kind's guide: `rise`, `fall`, `hold`, `none`.
    static let guides = BreathGuide.allCases.map(\.rawValue)
    /// `guide.shape`: `sine`, `linear`.
    static let shapes = BreathShape.allCases.map(\.rawValue)
    /// The noises a swell may be, and the `Synth` each is.
    static let noises = ["pink-noise", "white-noise", "brown-noise"]
    static let noiseSynths: [String: Synth] = ["pink-noise": .pinkNoise, "white-noise": .whiteNoise, "brown-noise": .brownNoise]
    /// `haptics:`.
    static let switches = ["on", "off"]
    /// The one key of `guide:` that is no phase kind.
    static let shapeKey = "shape"
}

/// `guide:`, `swell:` and `haptics:` — the breath envelope and what follows it (recipe-v1.2 § Breath guidance).
extension DecodeContext {
    /// The keys a `swell` mapping may hold.
    static let swellKeys = RecipeKeys.children(of: "swell")

    /// Reads `guide:`: phase kinds of `pattern` (the program's kinds and `transition` with a program)
    /// to `rise`, `fall`, `hold` or `none`, and `shape`. Nil after reporting a problem.
    mutating func guide(_ node: NodeID, pattern: Pattern?) -> BreathGuideSettings? {
        remember("guide", node)
        let before = problemCount
        let guides = BreathGuideWords.guides
        guard
            let fields = fields(
                of: node, path: "guide", allowed: nil,
                what: "a mapping from phase kind to \(DiagnosticText.list(guides)), and 'shape: sine | linear', like '{ inhale: rise, exhale: fall }'"
            )
        else { return nil }
        var kinds: [String] = []
        for phase in pattern?.phases ?? [] where !kinds.contains(phase.kind) { kinds.append(phase.kind) }
        var settings = BreathGuideSettings()
        for key in fields.order {
            if isFull { break }
            guard let value = fields[key] else { continue }
            if key == BreathGuideWords.shapeKey {
                if let word = choice(value, path: "guide.shape", options: BreathGuideWords.shapes), let shape = BreathShape(rawValue: word) {
                    settings.shape = shape
                }
                continue
            }
            if let pattern, !kinds.contains(key) {
                remember("guide." + DiagnosticText.clip(key), value)
                let allowed = kinds + [BreathGuideWords.shapeKey]
                let hint =
                    Suggestions.closest(to: key, in: allowed).map { " (did you mean '\($0)'?)" }
                    ?? " (its kinds: \(DiagnosticText.list(kinds)); also 'shape')"
                let patternName = pattern.builtin ?? pattern.name
                let whose = patternName == "the program" ? "any pattern of the program" : "pattern '\(DiagnosticText.clip(patternName))'"
                error("guide: kind \(DiagnosticText.quoted(key)) matches no phase of \(whose)\(hint)", at: fields.keys[key] ?? value)
                continue
            }
            if let word = choice(value, path: "guide.\(DiagnosticText.clip(key))", options: guides), let guide = BreathGuide(rawValue: word) {
                settings.kinds[key] = guide
            }
        }
        return problemCount == before ? settings : nil
    }

    /// Reads `swell:`: exactly one of `tone` (20 Hz to below Nyquist) and `synth` (a noise), and a
    /// `gain` of at most 0 dB. Nil after reporting a problem.
    mutating func swell(_ node: NodeID, sampleRate: Int) -> Swell? {
        remember("swell", node)
        let before = problemCount
        let noises = BreathGuideWords.noises.joined(separator: " | ")
        guard
            let fields = fields(
                of: node, path: "swell", allowed: Self.swellKeys,
                what: "a mapping with 'tone:' or 'synth:', and 'gain:', like '{ tone: 174 Hz, gain: -26 dB }'")
        else { return nil }
        var source: Swell.Source?
        switch (fields["tone"], fields["synth"]) {
        case (let tone?, nil):
            if let hertz = frequency(tone, path: "swell.tone", sampleRate: sampleRate) {
                if hertz < RecipeLimits.minSwellHertz {
                    error(
                        "swell.tone: \(DiagnosticText.hertz(hertz)) is below \(DiagnosticText.hertz(RecipeLimits.minSwellHertz)); "
                            + "expected a frequency from \(DiagnosticText.hertz(RecipeLimits.minSwellHertz)) to below half the sample rate",
                        at: tone)
                } else {
                    source = .tone(hertz: hertz)
                }
            }
        case (nil, let synth?):
            if let word = choice(synth, path: "swell.synth", options: BreathGuideWords.noises), let noise = BreathGuideWords.noiseSynths[word] {
                source = .noise(noise)
            }
        case (_?, let synth?):
            remember("swell.synth", synth)
            error("swell: expected either 'tone:' or 'synth:', found both", at: fields.keys["synth"] ?? synth)
        case (nil, nil):
            missing(["tone", "synth"], in: node, "swell: expected 'tone: <frequency>' or 'synth: <\(noises)>', found neither")
        }
        var gainDB = 0.0
        if let gainNode = fields["gain"], let gain = self.gain(gainNode, path: "swell.gain") {
            if gain > 0 {
                error(
                    "swell.gain: expected a gain of at most 0 dB (the swell's level at a full breath), found +\(DiagnosticText.number(gain)) dB",
                    at: gainNode)
            } else {
                gainDB = gain
            }
        }
        guard let source, problemCount == before else { return nil }
        return Swell(source: source, gainDB: gainDB)
    }

    /// Reads `haptics:`: `on` or `off`.
    mutating func haptics(_ node: NodeID) -> Bool? {
        choice(node, path: "haptics", options: BreathGuideWords.switches).map { $0 == "on" }
    }
}
