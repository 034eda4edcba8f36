import AudioCore

/// `bed:` — the background: a sound file or a synthesized noise or drone.
extension DecodeContext {
    /// The keys a `bed` mapping may hold.
    static let bedKeys = ["file", "synth", "gain", "fade_in", "fade_out", "crossfade"]
    /// The synthesized beds, by the name a recipe gives.
    static let synthNames = ["pink-noise", "brown-noise", "white-noise", "drone"]
    /// The drone's frequency when `synth: drone` gives none.
    static let defaultDroneHertz: Double = 110

    /// Reads `bed`: `.some(nil)` for `bed: none` (silence, as without the key), nil after reporting a problem.
    mutating func bed(_ node: NodeID, sampleRate: Int) -> Bed?? {
        remember("bed", node)
        if text(node) == "none" { return .some(nil) }
        let before = problemCount
        guard
            let fields = fields(
                of: node, path: "bed", allowed: Self.bedKeys,
                what: "a mapping with 'file:' or 'synth:', or none")
        else {
            return nil
        }
        var source: Bed.Source?
        switch (fields["file"], fields["synth"]) {
        case (let file?, nil):
            source = assetPath(file, path: "bed.file").map { .file($0) }
        case (nil, let synth?):
            source = self.synth(synth, sampleRate: sampleRate).map { .synth($0) }
        case (_?, let synth?):
            remember("bed.synth", synth)
            error("bed: expected either 'file:' or 'synth:', found both", at: fields.keys["synth"] ?? synth)
        case (nil, nil):
            missing(["file", "synth"], in: node, "bed: expected 'file: <path>' or 'synth: <\(Self.synthNames.joined(separator: " | "))>', found neither")
        }
        var bed = Bed(source: .synth(.pinkNoise))
        if let gain = fields["gain"].flatMap({ self.gain($0, path: "bed.gain") }) { bed.gainDB = gain }
        if let fadeIn = fields["fade_in"].flatMap({ duration($0, path: "bed.fade_in", positive: false) }) { bed.fadeIn = fadeIn }
        if let fadeOut = fields["fade_out"].flatMap({ duration($0, path: "bed.fade_out", positive: false) }) { bed.fadeOut = fadeOut }
        if let crossfade = fields["crossfade"].flatMap({ duration($0, path: "bed.crossfade", positive: false) }) {
            bed.crossfade = crossfade
        }
        guard let source, problemCount == before else { return nil }
        bed.source = source
        return bed
    }

    /// `pink-noise`, `brown-noise`, `white-noise`, `drone` (110 Hz) or `drone 220 Hz`.
    private mutating func synth(_ node: NodeID, sampleRate: Int) -> Synth? {
        remember("bed.synth", node)
        let what = "one of \(DiagnosticText.list(Self.synthNames)), or drone with a frequency like 'drone 110 Hz'"
        guard let text = text(node) else {
            expected(what, at: node, path: "bed.synth")
            return nil
        }
        let words = text.trimmingSpaces
        switch words.lowercased() {
        case "pink-noise": return .pinkNoise
        case "brown-noise": return .brownNoise
        case "white-noise": return .whiteNoise
        case "drone": return .drone(hertz: Self.defaultDroneHertz)
        default: break
        }
        if words.lowercased().hasPrefix("drone ") {
            let frequencyText = String(words.dropFirst("drone ".count))
            switch Units.frequency(frequencyText) {
            case .success(let hertz):
                return checkNyquist(hertz, at: node, path: "bed.synth", sampleRate: sampleRate) ? .drone(hertz: hertz) : nil
            case .failure(let problem):
                expected("a drone frequency like 'drone 110 Hz'", at: node, path: "bed.synth", reason: problem.reason)
                return nil
            }
        }
        let hint = Suggestions.closest(to: words, in: Self.synthNames).map { "did you mean '\($0)'?" }
        expected(what, at: node, path: "bed.synth", reason: hint)
        return nil
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
