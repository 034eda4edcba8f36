import AudioCore

/// `bed:` — the background: a sound file or a synthesized noise or drone.
extension DecodeContext {
    /// The keys a `bed` mapping may hold.
    static let bedKeys = RecipeKeys.children(of: "bed")
    /// The synthesized beds, by the name a recipe gives.
    static let synthNames = ["pink-noise", "brown-noise", "white-noise", "drone"]
    /// The drone's frequency when `synth: drone` gives none.
    static let defaultDroneHertz: Double = 110

    /// Reads `bed`: a mapping (one layer), a list of them (layers, summed), or `none` (no bed, as
    /// without the key). Nil after reporting a problem.
    mutating func beds(_ node: NodeID, sampleRate: Int, channels: Int) -> (beds: [Bed], layered: Bool)? {
        remember("bed", node)
        if text(node) == "none" { return ([], false) }
        guard case .sequence(let items) = document[node].content else {
            return layer(node, path: "bed", sampleRate: sampleRate, channels: channels).map { ([$0], false) }
        }
        guard
            boundedList(
                node, path: "bed", what: "a list of bed layers, each a mapping with 'file:' or 'synth:'",
                whenEmpty: "for no bed, write 'bed: none' or leave it out", limit: RecipeLimits.maxBedLayers, noun: "bed layers",
                counting: "layers") != nil
        else { return nil }
        let before = problemCount
        var layers: [Bed] = []
        for (index, item) in items.enumerated() {
            if let word = text(item) {
                // `bed: [file, beds/rain.ogg]`, `- none`: a layer is a mapping
                let what = "a bed layer: a mapping like '{ file: beds/rain.ogg }' or '{ synth: pink-noise }'"
                expected(what, at: item, path: "bed.\(index)", reason: word == "none" ? "'none' applies to the whole bed" : nil)
                continue
            }
            if let layer = layer(item, path: "bed.\(index)", sampleRate: sampleRate, channels: channels) { layers.append(layer) }
        }
        return problemCount == before ? (layers, true) : nil
    }

    /// One bed mapping (`path` is `bed`, or `bed.N` for a layer of a list).
    private mutating func layer(_ node: NodeID, path: String, sampleRate: Int, channels: Int) -> Bed? {
        remember(path, node)
        let before = problemCount
        guard
            let fields = fields(
                of: node, path: path, allowed: Self.bedKeys,
                what: path == "bed" ? "a mapping with 'file:' or 'synth:', a list of them (layers), or none" : "a mapping with 'file:' or 'synth:'")
        else {
            return nil
        }
        var source: Bed.Source?
        switch (fields["file"], fields["synth"]) {
        case (let file?, nil):
            source = assetPath(file, path: path + ".file").map { .file($0) }
        case (nil, let synth?):
            source = self.synth(synth, path: path + ".synth", sampleRate: sampleRate, channels: channels).map { .synth($0) }
        case (_?, let synth?):
            remember(path + ".synth", synth)
            error("\(path): expected either 'file:' or 'synth:', found both", at: fields.keys["synth"] ?? synth)
        case (nil, nil):
            missing(
                ["file", "synth"], in: node,
                "\(path): expected 'file: <path>' or 'synth: <\(Self.synthNames.joined(separator: " | ")) | binaural C B | isochronic C B>', found neither"
            )
        }
        var bed = Bed(source: .synth(.pinkNoise))
        if let gain = fields["gain"].flatMap({ self.gain($0, path: path + ".gain") }) { bed.gainDB = gain }
        if let fadeIn = fields["fade_in"].flatMap({ duration($0, path: path + ".fade_in", positive: false) }) { bed.fadeIn = fadeIn }
        if let fadeOut = fields["fade_out"].flatMap({ duration($0, path: path + ".fade_out", positive: false) }) { bed.fadeOut = fadeOut }
        if let crossfade = fields["crossfade"].flatMap({ duration($0, path: path + ".crossfade", positive: false) }) {
            bed.crossfade = crossfade
        }
        guard let source, problemCount == before else { return nil }
        bed.source = source
        return bed
    }

    /// `pink-noise`, `brown-noise`, `white-noise`, `drone` (110 Hz), `drone 220 Hz`,
    /// `binaural 200 Hz 10 Hz` or `isochronic 200 Hz 10 Hz` (carrier, then beat).
    private mutating func synth(_ node: NodeID, path: String, sampleRate: Int, channels: Int) -> Synth? {
        remember(path, node)
        let what =
            "one of \(DiagnosticText.list(Self.synthNames)), drone with a frequency like 'drone 110 Hz', "
            + "or 'binaural 200 Hz 10 Hz' / 'isochronic 200 Hz 10 Hz' (carrier and beat)"
        guard let text = text(node) else {
            expected(what, at: node, path: path)
            return nil
        }
        let words = text.trimmingSpaces
        let lower = Units.lowerASCII(words.utf8)
        switch lower {
        case "pink-noise": return .pinkNoise
        case "brown-noise": return .brownNoise
        case "white-noise": return .whiteNoise
        case "drone": return .drone(hertz: Self.defaultDroneHertz)
        default: break
        }
        if lower.hasPrefix("drone ") {
            let frequencyText = String(words.dropFirst("drone ".count))
            switch Units.frequency(frequencyText) {
            case .success(let hertz):
                return checkNyquist(hertz, at: node, path: path, sampleRate: sampleRate) ? .drone(hertz: hertz) : nil
            case .failure(let problem):
                expected("a drone frequency like 'drone 110 Hz'", at: node, path: path, reason: problem.reason)
                return nil
            }
        }
        for name in Self.pulsedNames where lower == name || lower.hasPrefix(name + " ") {
            return pulsed(name, String(words.dropFirst(name.count)), node: node, path: path, channels: channels)
        }
        let head = String(lower.prefix { $0 != " " && $0 != "\t" })
        let hint = Suggestions.closest(to: head, in: Self.synthNames + Self.pulsedNames).map { "did you mean '\($0)'?" }
        expected(what, at: node, path: path, reason: hint)
        return nil
    }

    /// The synths given a carrier and a beat.
    static let pulsedNames = ["binaural", "isochronic"]
    /// recipe-v1.1 § Beds: the carrier 20 Hz to 1500 Hz, the beat 0.5 Hz to 40 Hz.
    static let carrierRange = 20.0...1500.0
    static let beatRange = 0.5...40.0

    /// `binaural CARRIER BEAT` or `isochronic CARRIER BEAT`: two frequencies, each with or without a
    /// space before its unit (`200 Hz 10 Hz`, `200Hz 10Hz`, `0.2 kHz 7.83 Hz`, `200 10`).
    private mutating func pulsed(_ name: String, _ rest: String, node: NodeID, path: String, channels: Int) -> Synth? {
        let example = "'\(name) 200 Hz 10 Hz' (a carrier of 20 to 1500 Hz, then a beat of 0.5 to 40 Hz)"
        // numbers, each with the unit word that follows it, if any
        var parts: [String] = []
        for token in rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) {
            let isLetter: (UInt8) -> Bool = { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }
            if let first = token.utf8.first, isLetter(first), let last = parts.last, last.utf8.last.map({ !isLetter($0) }) == true {
                parts[parts.count - 1] = last + " " + token
            } else {
                parts.append(token)
            }
        }
        guard parts.count == 2 else {
            expected(example, at: node, path: path, reason: parts.count < 2 ? "it needs a carrier and a beat" : "\(parts.count) values")
            return nil
        }
        var values: [Double] = []
        for (index, part) in parts.enumerated() {
            let role = index == 0 ? "carrier" : "beat"
            let range = index == 0 ? Self.carrierRange : Self.beatRange
            switch Units.frequency(part) {
            case .success(let hertz) where range.contains(hertz):
                values.append(hertz)
            case .success(let hertz):
                expected(
                    "a \(role) from \(DiagnosticText.number(range.lowerBound)) Hz to \(DiagnosticText.number(range.upperBound)) Hz",
                    at: node, path: path, reason: "the \(role) is \(DiagnosticText.number(hertz)) Hz")
            case .failure(let problem):
                expected(example, at: node, path: path, reason: "the \(role) '\(DiagnosticText.clip(part))': \(problem.reason)")
            }
        }
        guard values.count == 2 else { return nil }
        if name == "binaural" {
            guard channels == 2 else {
                error(
                    "\(path): binaural needs 2 output channels (left carrier − beat/2, right carrier + beat/2), and output.channels is "
                        + "\(channels); set 'channels: 2', or use 'isochronic \(parts[0]) \(parts[1])', which pulses every channel",
                    at: node)
                return nil
            }
            return .binaural(carrier: values[0], beat: values[1])
        }
        return .isochronic(carrier: values[0], beat: values[1])
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
