import AudioCore

/// `output:` — sample rate, channels, format, bit depth, loudness target, true-peak ceiling and a lossy format's bit rate.
extension DecodeContext {
    /// The keys an `output` mapping may hold.
    static let outputKeys = RecipeKeys.children(of: "output")

    /// Reads `output`; keys that are wrong are reported and keep their defaults, so that
    /// later checks (the Nyquist frequency) still have a sample rate to use.
    mutating func output(_ node: NodeID) -> OutputSettings {
        remember("output", node)
        var output = OutputSettings()
        if let word = text(node), AudioFormat(rawValue: word.lowercased()) != nil {
            expected("a mapping of output settings", at: node, path: "output", reason: "did you mean 'output: { format: \(word) }'?")
            return output
        }
        guard let fields = fields(of: node, path: "output", allowed: Self.outputKeys, what: "a mapping of output settings") else {
            return output
        }
        if let rate = fields["sample_rate"].flatMap({
            unit(
                $0, path: "output.sample_rate",
                what: "a sample rate from \(RecipeLimits.sampleRates.lowerBound) to \(RecipeLimits.sampleRates.upperBound) Hz like 48000 or 44.1 kHz",
                Units.sampleRate)
        }) {
            output.sampleRate = rate
        }
        if let channels = fields["channels"].flatMap({
            integer($0, path: "output.channels", range: RecipeLimits.channelCounts, what: "a channel count from 1 to 8")
        }) {
            output.channels = channels
        }
        if let node = fields["format"] {
            // a codec or container name for what a format word means: a hint, not the closest spelling
            let aliases = ["aac": "m4a", "mp4": "m4a", "m4b": "m4a", "vorbis": "ogg", "oga": "ogg", "wave": "wav"]
            if let word = text(node)?.lowercased(), let meant = aliases[word] {
                remember("output.format", node)
                expected(
                    "one of \(DiagnosticText.list(AudioFormat.allCases.map(\.rawValue)))", at: node, path: "output.format",
                    reason: "did you mean '\(meant)'?" + (meant == "m4a" ? " AAC in an MP4 file; 'alac' is Apple Lossless in one" : ""))
            } else if let format = choice(node, path: "output.format", options: AudioFormat.allCases.map(\.rawValue)) {
                output.format = AudioFormat(rawValue: format)
            }
        }
        if let depthNode = fields["bit_depth"] {
            output.bitDepth = bitDepth(depthNode)
        }
        if let loudnessNode = fields["loudness"],
            let loudness = unit(
                loudnessNode, path: "output.loudness",
                what: "a loudness target from -70 to -5 LUFS like -16 LUFS, or off", Units.loudness)
        {
            output.loudness = loudness
        }
        if let peak = fields["true_peak"].flatMap({
            unit($0, path: "output.true_peak", what: "a true-peak ceiling from -20 to 0 dBTP like -1 dBTP", Units.truePeak)
        }) {
            output.truePeak = peak
            if let node = fields["true_peak"], let note = text(node).flatMap(Units.truePeakUnitNote) {
                warn("output.true_peak: \(note)", at: node)
            }
        }
        if let node = fields["bitrate"],
            let bitrate = unit(
                node, path: "output.bitrate",
                what:
                    "a bit rate from \(AudioFormat.bitrateRange.lowerBound / 1000)k to \(AudioFormat.bitrateRange.upperBound / 1000)k like 128k or 96 kbps",
                Units.bitrate)
        {
            output.bitrate = bitrate
            // a format given here is checked now; one that comes from `-o` when the track is planned
            if let format = output.format,
                let problem = RecipeLimits.bitrateProblem(bitrate, format: format, sampleRate: output.sampleRate, channels: output.channels)
            {
                error("output.bitrate: \(problem)", at: node)
            }
        }
        if let node = fields["sidecars"], let names = sidecars(node) {
            output.sidecars = names
        }
        if let format = output.format, let problem = RecipeLimits.sampleRateMessage(output.sampleRate, format: format) {
            // at the rate when it is written (the default 48 kHz suits every format), else at the format
            error(problem, at: fields["sample_rate"] ?? fields["format"] ?? node)
        }
        if let format = output.format, let problem = RecipeLimits.channelCountMessage(output.channels, format: format) {
            error(problem, at: fields["channels"] ?? fields["format"] ?? node)
        }
        if let format = output.format, format.isIntegerOnly, output.bitDepth == .float32,
            let depthNode = fields["bit_depth"]
        {
            error(
                "output.bit_depth: expected \(format.facts.depthList(" or ")) for \(format.rawValue), found '32f' (\(format.rawValue) stores integer samples only)",
                at: depthNode)
        }
        return output
    }

    /// `[vtt, chapters]` or `vtt, chapters`: sorted, without repeats.
    private mutating func sidecars(_ node: NodeID) -> [String]? {
        remember("output.sidecars", node)
        let what = "a list of sidecar files from \(DiagnosticText.list(OutputSettings.sidecarNames)), like [vtt, chapters]"
        var words: [(String, NodeID)] = []
        switch document[node].content {
        case .sequence(let items):
            for item in items {
                guard let word = text(item) else {
                    expected(what, at: item, path: "output.sidecars")
                    return nil
                }
                words.append((word, item))
            }
        case .scalar:
            guard let line = text(node) else {
                expected(what, at: node, path: "output.sidecars")
                return nil
            }
            words = line.split(separator: ",").map { (String($0.filter { $0 != " " }), node) }
        default:
            expected(what, at: node, path: "output.sidecars")
            return nil
        }
        var names = Set<String>()
        for (word, at) in words {
            guard let name = choice(at, path: "output.sidecars", options: OutputSettings.sidecarNames, text: word) else { return nil }
            names.insert(name)
        }
        return OutputSettings.sidecarNames.filter(names.contains)
    }

    /// `16`, `24` or `32f`; a bare `32` is pointed to `32f`.
    private mutating func bitDepth(_ node: NodeID) -> BitDepth? {
        remember("output.bit_depth", node)
        let options = BitDepth.allCases.map(\.rawValue)
        if let text = text(node) {
            if let depth = BitDepth(rawValue: text) { return depth }
            if text == "32" {
                expected(
                    "one of \(DiagnosticText.list(options))", at: node, path: "output.bit_depth",
                    reason: "32-bit output is float: did you mean '32f'?")
                return nil
            }
        }
        expected("one of \(DiagnosticText.list(options))", at: node, path: "output.bit_depth")
        return nil
    }
}
