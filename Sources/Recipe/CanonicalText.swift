import AudioCore

extension Recipe {
    /// The recipe's meaning as text: every value after defaults, in a fixed order,
    /// without the file's name, comments, spacing or key order.
    ///
    /// Two recipes that render the same say the same here, so it seeds the noise,
    /// dither and Ogg serial, and fingerprints the track in a catalog.
    public var canonicalText: String {
        var lines: [String] = []
        func add(_ key: String, _ value: String) { lines.append("\(key)=\(value)") }
        add("id", id)
        add("title", title)
        add("category", category ?? "~")
        add("premium", String(premium))
        add("sort_order", sortOrder.map(String.init) ?? "~")
        switch length {
        case .duration(let d): add("duration", d.description)
        case .cycles(let n): add("cycles", String(n))
        case .program: add("duration", "program")
        }
        add("end_on", endOn.rawValue)
        add("intro", intro.description)
        add("outro", outro.description)
        add("pattern.name", pattern.name)
        for (i, phase) in pattern.phases.enumerated() {
            add("pattern.phase.\(i)", "\(phase.kind)|\(phase.length)|\(phase.label)")
        }
        // added only when given, so the seeds of recipes without them stay as they were
        if let ramp { add("ramp", Self.rampText(ramp)) }
        for (i, segment) in (program ?? []).enumerated() {
            let length =
                switch segment.length {
                case .cycles(let n): "cycles|\(n)"
                case .duration(let d): "duration|\(d)"
                case .program: "program"
                }
            add("program.\(i)", "\(segment.name)|\(length)|\(segment.endOn.rawValue)|\(segment.ramp.map(Self.rampText) ?? "~")")
            add("program.\(i).pattern.name", segment.pattern.name)
            for (j, phase) in segment.pattern.phases.enumerated() {
                add("program.\(i).pattern.phase.\(j)", "\(phase.kind)|\(phase.length)|\(phase.label)")
            }
        }
        // a single bed says `bed.file=…` as it always has (its seeds stay); a list's layers say `bed.0.file=…`
        for (index, bed) in beds.enumerated() {
            let key = bedIsLayered ? "bed.\(index)" : "bed"
            switch bed.source {
            case .file(let path): add(key + ".file", path)
            case .synth(let synth): add(key + ".synth", "\(synth)")
            }
            add(key + ".gain", "\(bed.gainDB)")
            add(key + ".fade_in", bed.fadeIn.description)
            add(key + ".fade_out", bed.fadeOut.description)
            add(key + ".crossfade", bed.crossfade.description)
        }
        if beds.isEmpty { add("bed", "none") }
        for name in cues.keys.sorted() {
            switch cues[name] {
            case .tone(let t):
                add("cue.\(name)", "tone|\(t.frequency)|\(t.length)|\(t.gainDB)|\(t.envelope.rawValue)|\(t.harmonics)")
            case .file(let path, let gain):
                add("cue.\(name)", "file|\(path)|\(gain)")
            case nil:
                break
            }
            // added only when given, so the seeds of recipes without limits stay as they were
            if let limit = cueLimits[name] { add("cue.\(name).limit", Self.limitText(until: limit.until, cycles: limit.cycles)) }
        }
        // added only when given, like the limits
        if let ticks { add("ticks", "\(ticks.every)|\(ticks.kinds?.joined(separator: ",") ?? "all")") }
        add("output.sample_rate", String(output.sampleRate))
        add("output.channels", String(output.channels))
        add("output.format", output.format?.rawValue ?? "~")
        add("output.bit_depth", output.bitDepth?.rawValue ?? "~")
        add("output.loudness", output.loudness.map { "\($0)" } ?? "off")
        add("output.true_peak", "\(output.truePeak)")
        // added only when given, so the seeds of recipes without it stay as they were
        if let bitrate = output.bitrate { add("output.bitrate", String(bitrate)) }
        if let voice {
            add("voice.level", voice.level.map { "\($0)" } ?? "off")
            add("voice.gain", "\(voice.gainDB)")
            switch voice.duck {
            case .depth(let depth): add("voice.duck", "\(depth)")
            case .wcag: add("voice.duck", "wcag")
            }
            add("voice.attack", voice.attack.description)
            add("voice.release", voice.release.description)
            add("voice.draft_voice", voice.draftVoice)
            for (i, prompt) in voice.prompts.enumerated() {
                let place: String
                switch prompt.placement {
                case .at(let time): place = "at|\(time.anchor)|\(time.offset)"
                case .on(let kind, let cycles, let segment):
                    place =
                        "on|\(kind)|\(cycles.map { $0.ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",") } ?? "all")|\(segment.map(String.init) ?? "~")"
                }
                // the text as JSON would escape it, so no prompt text can forge another line
                let text =
                    prompt.text.map {
                        $0.unicodeScalars.map { $0.value < 0x20 || $0 == "\\" || $0 == "|" ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
                            .joined()
                    } ?? "~"
                add("voice.prompt.\(i)", "\(place)|\(prompt.file ?? "~")|\(text)")
                if let until = prompt.until { add("voice.prompt.\(i).until", Self.limitText(until: until, cycles: nil)) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `until|practice|300|cycles|1-20` for a cue's limit; `~` for a key not given.
    private static func limitText(until: PromptTime?, cycles: CycleSelection?) -> String {
        let time = until.map { "\($0.anchor)|\($0.offset)" } ?? "~"
        let chosen = cycles.map { $0.ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",") } ?? "~"
        return "until|\(time)|cycles|\(chosen)"
    }
}

extension Recipe {
    /// Every asset file the recipe names, with the key that names it (`bed.file`, `cues.inhale.file`), in a fixed order.
    public var assetPaths: [(key: String, path: String)] {
        var paths: [(key: String, path: String)] = []
        for (index, bed) in beds.enumerated() {
            if case .file(let path) = bed.source { paths.append((bedIsLayered ? "bed.\(index).file" : "bed.file", path)) }
        }
        for name in cues.keys.sorted() {
            if case .file(let path, _) = cues[name] { paths.append(("cues.\(name).file", path)) }
        }
        for (i, prompt) in (voice?.prompts ?? []).enumerated() {
            if let path = prompt.file { paths.append(("voice.prompts.\(i).file", path)) }
        }
        return paths
    }

    private static func rampText(_ ramp: Ramp) -> String {
        "\(Ramp.text(microBPM: ramp.toMicroBPM))|\(ramp.over.map(String.init) ?? "~")"
    }
}
