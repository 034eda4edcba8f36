import AudioCore

/// `voice:` (recipe-v1.1 § Voice prompts): levels, ducking and the list of prompts.
extension DecodeContext {
    /// The keys `voice:` may hold.
    static let voiceKeys = RecipeKeys.children(of: "voice")
    /// The keys one prompt may hold.
    static let promptKeys = RecipeKeys.children(of: "voice.prompts[]")

    /// Reads `voice`; `on:` kinds are checked against `pattern` when it was read. Nil after a problem.
    mutating func voice(_ node: NodeID, pattern: Pattern?, named: Set<String> = []) -> Voice? {
        remember("voice", node)
        let before = problemCount
        guard let fields = fields(of: node, path: "voice", allowed: Self.voiceKeys, what: "a mapping with 'prompts:' (and level, duck, …)")
        else { return nil }
        var voice = Voice(prompts: [])
        if let level = fields["level"].flatMap({
            unit($0, path: "voice.level", what: "a loudness from -40 to -10 LUFS like -18 LUFS, or off", Units.voiceLevel)
        }) {
            voice.level = level
        }
        if let gain = fields["gain"].flatMap({ self.gain($0, path: "voice.gain") }) { voice.gainDB = gain }
        if let duck = fields["duck"].flatMap({
            unit($0, path: "voice.duck", what: "a depth from 0 to 40 dB like 12 dB, or wcag", Units.duckDepth)
        }) {
            voice.duck = duck
        }
        if let attack = fields["attack"].flatMap({ duration($0, path: "voice.attack", positive: false, max: RecipeLimits.maxDuckRamp) }) {
            voice.attack = attack
        }
        if let release = fields["release"].flatMap({ duration($0, path: "voice.release", positive: false, max: RecipeLimits.maxDuckRamp) }) {
            voice.release = release
        }
        if let node = fields["draft_voice"], let read = localized(node, path: "voice.draft_voice", read: { $0.draftVoice($1, path: $2) }) {
            voice.draftVoice = read.text
            voice.localizedDraftVoice = read.byLocale
        }
        // with locales, every locale's draft voice: given (one for all, or its own), else its tag until checked
        if let tags = locales.tags {
            let given = fields["draft_voice"] != nil
            for tag in tags where voice.localizedDraftVoice[tag] == nil {
                if given {
                    voice.localizedDraftVoice[tag] = voice.draftVoice
                } else {
                    voice.localizedDraftVoice[tag] = tag.lowercased()
                    voice.defaultDraftVoiceLocales.append(tag)
                }
            }
            if let first = tags.first, let name = voice.localizedDraftVoice[first] { voice.draftVoice = name }
        }
        guard let list = fields["prompts"] else {
            missing(
                ["prompts"], in: node, "voice: expected 'prompts:' (a list of prompts, each with 'at:' or 'on:' and 'file:' or 'text:'), found none")
            return nil
        }
        remember("voice.prompts", list)
        guard case .sequence(let items) = document[list].content, !items.isEmpty else {
            let empty = document[list].content.isEmptySequence
            expected(
                "a list of prompts, like '- { at: 3s, file: voice/welcome.wav, text: Welcome }'", at: list, path: "voice.prompts",
                reason: empty ? "a guided track needs at least one prompt; without any, leave out 'voice:'" : nil)
            return nil
        }
        guard items.count <= RecipeLimits.maxPromptEntries else {
            expected("at most \(RecipeLimits.maxPromptEntries) prompts", at: list, path: "voice.prompts", reason: "\(items.count) prompts")
            return nil
        }
        var kinds: [String] = []
        for phase in pattern?.phases ?? [] where !kinds.contains(phase.kind) { kinds.append(phase.kind) }
        for (index, item) in items.enumerated() {
            if isFull { break }
            if let prompt = prompt(item, path: "voice.prompts.\(index)", pattern: pattern, kinds: pattern == nil ? nil : kinds, named: named) {
                voice.prompts.append(prompt)
            }
        }
        return problemCount == before ? voice : nil
    }

    /// `draft_voice`: an espeak-ng voice name like `en-us`, `de` or `fr-fr`.
    private mutating func draftVoice(_ node: NodeID, path: String) -> String? {
        remember(path, node)
        let what = "a language like en-us, en-gb, de, fr or es"
        guard let name = text(node), (2...32).contains(name.utf8.count),
            name.utf8.allSatisfy({ DecimalNumeral.isDigit($0) || ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || $0 == 45 }),
            name.utf8.first.map({ ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 }) == true
        else {
            expected(what, at: node, path: path)
            return nil
        }
        return name.lowercased()
    }

    /// One prompt: exactly one of `at:` and `on:`, and `file:`, `text:` or both.
    private mutating func prompt(_ node: NodeID, path: String, pattern: Pattern?, kinds: [String]?, named: Set<String>) -> Prompt? {
        remember(path, node)
        let before = problemCount
        let what = "a mapping with 'at:' or 'on:', and 'file:' or 'text:'"
        guard let fields = fields(of: node, path: path, allowed: Self.promptKeys, what: what) else { return nil }
        var placement: Prompt.Placement?
        switch (fields["at"], fields["on"]) {
        case (let at?, nil):
            for key in ["cycles", "segment", "until"] where fields.has(key) {
                error("\(path).\(key): applies to 'on:' prompts only; an 'at:' prompt starts once, at its time", at: fields.keys[key] ?? node)
            }
            placement = unit(
                at, path: path + ".at", what: "a time like 3s, or an anchor and offset like 'practice - 2s' or 'end - 20s'", Units.promptTime
            ).map(Prompt.Placement.at)
        case (nil, let on?):
            placement = onPlacement(on, fields: fields, path: path, pattern: pattern, kinds: kinds, named: named)
        case (let at?, let on?):
            remember(path + ".at", at)
            remember(path + ".on", on)
            let line = document[at].mark.line, here = location(fields.keys["on"] ?? on).line
            error(
                "\(path): expected either 'at:' (a time) or 'on:' (a phase kind), found both"
                    + (line == here ? "" : " (the 'at:' is on line \(line))"),
                at: fields.keys["on"] ?? on)
        case (nil, nil):
            missing(["at", "on"], in: node, "\(path): expected 'at:' (a time) or 'on:' (a phase kind), found neither")
        }
        let file = fields["file"].flatMap { assetPath($0, path: path + ".file") }
        let text = fields["text"].flatMap { localized($0, path: path + ".text") { $0.promptText($1, path: $2) } }
        if !fields.has("file") && !fields.has("text") {
            missing(
                ["file", "text"], in: node, "\(path): expected 'file:' (a recorded clip), 'text:' (spoken by the draft voice), or both, found neither"
            )
        }
        let until = fields["on"] == nil ? nil : fields["until"].map { self.until($0, path: path + ".until") }
        guard let placement, problemCount == before else { return nil }
        var prompt = Prompt(placement: placement, file: file, text: text?.text, until: until ?? nil)
        prompt.localizedText = text?.byLocale ?? [:]
        return prompt
    }

    /// `on: KIND` with its `cycles:` and `segment:`.
    private mutating func onPlacement(
        _ node: NodeID, fields: Fields, path: String, pattern: Pattern?, kinds: [String]?, named: Set<String>
    ) -> Prompt.Placement? {
        remember(path + ".on", node)
        var kind: String?
        if let word = text(node), !word.isEmpty {
            if let kinds, !kinds.contains(word), let pattern, let typo = misspeltPhase(for: word, in: pattern, namedBy: named) {
                error(typo.message, at: typo.location)
            } else if let kinds, !kinds.contains(word) {
                let hint =
                    Suggestions.closest(to: word, in: kinds).map { "did you mean '\($0)'?" }
                    ?? "the pattern's kinds: \(DiagnosticText.list(kinds))"
                expected("a phase kind of the pattern", at: node, path: path + ".on", reason: hint)
            } else {
                kind = word
            }
        } else {
            expected("a phase kind like inhale or exhale", at: node, path: path + ".on")
        }
        let cycles = fields["cycles"].map { self.cycles($0, path: path + ".cycles") }
        let segment = fields["segment"].map {
            integer($0, path: path + ".segment", range: 1...RecipeLimits.maxSegments, what: "a segment number from 1")
        }
        guard let kind else { return nil }
        if case .some(.none) = cycles { return nil }
        if case .some(.none) = segment { return nil }
        return .on(kind: kind, cycles: cycles ?? nil, segment: segment ?? nil)
    }

    /// `until:` of an `on:` prompt or a cue: a time like `5m`, or an anchor and offset like `end - 10m`.
    mutating func until(_ node: NodeID, path: String) -> PromptTime? {
        unit(node, path: path, what: "a time like 5m, or an anchor and offset like 'practice + 5m' or 'end - 10m'", Units.promptTime)
    }

    /// `cycles:` — `3`, `1-3`, or a list of those, counted from 1. `every`: what leaving it out does, for the message.
    mutating func cycles(_ node: NodeID, path: String, every: String = "to speak on every cycle") -> CycleSelection? {
        remember(path, node)
        let what = "a cycle number from 1, a range like 1-3, or a list like [1, 2, 10-12]"
        let items: [NodeID]
        if case .sequence(let list) = document[node].content {
            guard !list.isEmpty else {
                expected(what, at: node, path: path, reason: "\(every), leave out 'cycles:'")
                return nil
            }
            items = list
        } else {
            items = [node]
        }
        var ranges: [ClosedRange<Int>] = []
        for (index, item) in items.enumerated() {
            let itemPath = items.count == 1 && item == node ? path : "\(path).\(index)"
            guard let written = text(item), let range = Self.cycleRange(written) else {
                expected(what, at: item, path: itemPath, reason: text(item).flatMap(Self.cycleRangeProblem))
                continue
            }
            ranges.append(range)
        }
        return ranges.count == items.count ? CycleSelection(ranges: ranges) : nil
    }

    /// `3` or `1-3` (from ≥ 1, to ≥ from, at most 100,000).
    static func cycleRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard (1...2).contains(parts.count) else { return nil }
        let numbers = parts.map { part -> Int? in
            guard !part.isEmpty, part.utf8.count <= 6, part.utf8.allSatisfy(DecimalNumeral.isDigit) else { return nil }
            return Int(part)
        }
        guard let low = numbers.first ?? nil, let high = numbers.last ?? nil, low >= 1, high >= low,
            high <= RecipeLimits.cycles.upperBound
        else { return nil }
        return low...high
    }

    /// Why numbers that look like a cycle range are not one: `3-1` backwards, `0` before the first
    /// cycle, more than the cycle limit. Nil for text that is not numbers at all.
    static func cycleRangeProblem(_ text: String) -> String? {
        let numbers = text.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0).trimmingSpaces) }
        guard (1...2).contains(numbers.count), let low = numbers.first ?? nil, let high = numbers.last ?? nil else { return nil }
        if low < 1 || high < 1 { return "cycles are counted from 1" }
        if high < low { return "a range runs upwards: did you mean '\(high)-\(low)'?" }
        if high > RecipeLimits.cycles.upperBound { return "a track has at most \(RecipeLimits.cycles.upperBound) cycles" }
        return nil
    }

    /// A prompt's words: non-empty, at most `maxPromptTextBytes`, no control characters.
    private mutating func promptText(_ node: NodeID, path: String) -> String? {
        remember(path, node)
        guard let text = text(node), !text.trimmingSpaces.isEmpty else {
            expected("the words the prompt says", at: node, path: path)
            return nil
        }
        guard text.utf8.count <= RecipeLimits.maxPromptTextBytes else {
            expected(
                "a text of at most \(RecipeLimits.maxPromptTextBytes) bytes", at: node, path: path, reason: "\(text.utf8.count) bytes")
            return nil
        }
        if let bad = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            let code = "U+" + String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)
            error(
                "\(path): expected a text without control characters, found \(code) (a line break or tab inside a caption; "
                    + "write the prompt on one line)",
                at: node)
            return nil
        }
        return text
    }
}

extension String {
    /// The text with `0` in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
