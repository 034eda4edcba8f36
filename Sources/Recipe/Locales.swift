import AudioCore

/// `locales:` (recipe-v1.2 § Locales): one recipe, one rendition per locale (and per variant).
///
/// The recipe as read holds its default (first) locale's texts and paths in its usual fields, so
/// that what reads a recipe without knowing of locales reads that locale; the other locales' texts
/// are kept beside them (`localizedTitle`, `Phase.localizedLabel`, `Prompt.localizedText`, …) and
/// the paths written with `{locale}` in `localizedPaths`. `renditions()` resolves each pair of
/// variant and locale into a recipe of its own.
extension Recipe {
    /// The `{locale}` placeholder of a `file:` path.
    public static let localePlaceholder = "{locale}"

    /// The tracks this recipe makes: without `locales:`, exactly `variants()` (same order, same
    /// values); with it, every pair of a variant and a locale, resolved: by locale as listed in
    /// `locales:`, then by length, shortest first (recipe-v1.2 § Sessions in the catalog).
    ///
    /// A rendition's id is its variant's id, `-`, and the tag in lower case (`sleep-de`,
    /// `box-5m-pt-br`); its `locale` is the tag as written, its `session` the recipe's id, its
    /// texts its locale's, its paths with `{locale}` replaced by the tag, and its draft voice its
    /// locale's. Its `canonicalText` is its own (its texts and clips, not the other locales');
    /// its `seedText` is the same for every locale of a variant.
    public func renditions() -> [Recipe] {
        let variants = self.variants()
        guard !locales.isEmpty else { return variants }
        // the order of a session's renditions: by locale, then by length, shortest first (stable)
        let byLength = Self.byLength(variants)
        return locales.flatMap { tag in byLength.map { $0.rendition(in: tag) } }
    }

    /// The renditions in a session's order (recipe-v1.2 § Sessions in the catalog): by locale as
    /// listed, then by length, shortest first, for every recipe. With `locales:` this is
    /// `renditions()`; without, `variants()` sorted by length (which keeps their written order).
    public func renditionsInSessionOrder() -> [Recipe] {
        guard locales.isEmpty else { return renditions() }
        return Self.byLength(variants())
    }

    /// Variants sorted by length, shortest first; the written order among equal or non-duration lengths.
    static func byLength(_ variants: [Recipe]) -> [Recipe] {
        variants.enumerated().sorted { a, b in
            switch (a.element.length, b.element.length) {
            case (.duration(let x), .duration(let y)) where x != y: return x < y
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// The renditions in the locales `wanted` (`--locale`, compared case-insensitively); all of them
    /// for a recipe without `locales:` (it renders whatever locales are asked for).
    public func renditions(in wanted: [String]) -> [Recipe] {
        guard !locales.isEmpty else { return renditions() }
        return renditions().filter { rendition in wanted.contains { LanguageTag.same($0, rendition.locale ?? "") } }
    }

    /// The tag of `locales:` that `tag` names (compared case-insensitively), as written; nil when
    /// the recipe has no such locale (or none at all).
    public func locale(named tag: String) -> String? {
        locales.first { LanguageTag.same($0, tag) }
    }

    /// The recipe's own id, shared by all its renditions (`sleep` for `sleep-de`, `box` for `box-5m`
    /// and `box-5m-pt-br`); a recipe without variants or locales is its own session.
    public var session: String {
        get { sessionID ?? id }
        set { sessionID = newValue == id ? nil : newValue }
    }

    /// The output file of this rendition for `render recipe.yml -o path`: `path` for the recipe
    /// itself, else its suffix joined to the file's stem (`out.flac` → `out-de.flac`,
    /// `out-5m-pt-br.flac`; `Recipe.variantPath`).
    public func outputPath(_ path: String) -> String {
        id == session ? path : Self.variantPath(path, baseID: session, variantID: id)
    }

    /// The text the noise, dither and Ogg serial are seeded from: `canonicalText`, except for a
    /// rendition of a recipe with `locales:`, whose seeds do not depend on its locale: the canonical
    /// text of its variant written with the default locale's texts and paths and without `locales:`.
    public var seedText: String { localeFreeText ?? canonicalText }

    /// What this rendition sounds like, as text: `canonicalText` without what only a screen or a
    /// tag reads (the id, title, category, phase labels, segment names, and the text of a prompt
    /// spoken from its file), followed by `seedText`. Two renditions with the same sound text
    /// render the same samples from the same assets: the renditions of a variant whose locales
    /// differ only in their texts (issue 34 renders such audio once).
    public var soundText: String {
        var plain = self
        plain.id = session
        plain.sessionID = nil
        plain.locale = nil
        plain.title = ""
        plain.category = nil
        func silent(_ phase: Phase) -> Phase {
            var label = phase
            label.label = ""
            return label
        }
        plain.pattern.phases = pattern.phases.map(silent)
        plain.program = program?.map { segment in
            var unnamed = segment
            unnamed.name = ""
            unnamed.pattern.phases = segment.pattern.phases.map(silent)
            return unnamed
        }
        if var voice = plain.voice {
            // a draft's text (and voice) is what it says; a clip's text is only its caption
            if !voice.prompts.contains(where: \.isDraft) { voice.draftVoice = "" }
            voice.prompts = voice.prompts.map { prompt in
                var caption = prompt
                if !prompt.isDraft { caption.text = nil }
                return caption
            }
            plain.voice = voice
        }
        return plain.canonicalText + "\n" + seedText
    }

    /// The id of this rendition's variant (`box-5m` for `box-5m-de`; `sleep` for `sleep-de`).
    var variantIDWithoutLocale: String {
        guard let locale else { return id }
        let suffix = "-" + locale.lowercased()
        return id.hasSuffix(suffix) ? String(id.dropLast(suffix.count)) : id
    }

    /// The id of the rendition of the variant `variantID` in `locale`: `box-5m-pt-br`.
    public static func renditionID(_ variantID: String, locale: String) -> String { variantID + "-" + locale.lowercased() }

    /// This recipe (one of `variants()`) resolved to `tag`.
    private func rendition(in tag: String) -> Recipe {
        var base = self
        base.locales = []
        base.localizedTitle = [:]
        base.localizedCategory = [:]
        base.localizedPaths = [:]
        base.sessionID = session
        var plain = base
        plain.pattern.phases = plain.pattern.phases.map(Self.dropLocales)
        plain.program = plain.program?.map(Self.dropLocales)
        if var voice = plain.voice {
            voice.localizedDraftVoice = [:]
            voice.defaultDraftVoiceLocales = []
            voice.prompts = voice.prompts.map {
                var p = $0; p.localizedText = [:]; return p
            }
            plain.voice = voice
        }
        var rendition = base
        rendition.localeFreeText = plain.canonicalText
        // a text per locale is located at this locale's value (`title.de`), so that what a later
        // stage finds wrong with it (a draft the voice cannot speak) points there
        for (key, place) in locations where key.hasSuffix("." + tag) {
            let owner = String(key.dropLast(tag.count + 1))
            if Self.localizedKeys.contains(where: { owner == $0 || owner.hasSuffix("." + $0) }) { rendition.locations[owner] = place }
        }
        rendition.locale = tag
        rendition.id = Self.renditionID(id, locale: tag)
        rendition.title = localizedTitle[tag] ?? title
        rendition.category = localizedCategory[tag] ?? category
        rendition.pattern.phases = pattern.phases.map { Self.resolve($0, tag) }
        rendition.program = program.map { segments in
            segments.map { segment in
                var resolved = Self.dropLocales(segment)
                resolved.name = segment.localizedName[tag] ?? segment.name
                resolved.pattern.phases = segment.pattern.phases.map { Self.resolve($0, tag) }
                return resolved
            }
        }
        for (key, written) in localizedPaths {
            let path = written.replacing(Self.localePlaceholder, with: tag)
            rendition.setAssetPath(key, path)
        }
        if var voice = rendition.voice {
            voice.draftVoice = voice.localizedDraftVoice[tag] ?? voice.draftVoice
            voice.localizedDraftVoice = [:]
            voice.defaultDraftVoiceLocales = []
            voice.prompts = voice.prompts.map { prompt in
                var resolved = prompt
                resolved.text = prompt.localizedText[tag] ?? prompt.text
                resolved.localizedText = [:]
                return resolved
            }
            rendition.voice = voice
        }
        return rendition
    }

    /// The keys whose value may be given per locale (the last part of their key path).
    static let localizedKeys = ["title", "category", "label", "text", "draft_voice"]

    private static func resolve(_ phase: Phase, _ tag: String) -> Phase {
        var resolved = phase
        resolved.label = phase.localizedLabel[tag] ?? phase.label
        resolved.localizedLabel = [:]
        return resolved
    }

    private static func dropLocales(_ phase: Phase) -> Phase {
        var plain = phase
        plain.localizedLabel = [:]
        return plain
    }

    private static func dropLocales(_ segment: Segment) -> Segment {
        var plain = segment
        plain.localizedName = [:]
        plain.pattern.phases = plain.pattern.phases.map(dropLocales)
        return plain
    }

    /// Sets the asset path at `key` (a key of `assetPaths`).
    private mutating func setAssetPath(_ key: String, _ path: String) {
        let parts = key.split(separator: ".").map(String.init)
        switch parts.first {
        case "bed":
            let index = parts.count == 3 ? Int(parts[1]) ?? 0 : 0
            guard beds.indices.contains(index), case .file = beds[index].source else { return }
            beds[index].source = .file(path)
        case "cues":
            let name = parts.dropFirst().dropLast().joined(separator: ".")
            if case .file(_, let gain) = cues[name] { cues[name] = .file(path, gainDB: gain) }
        case "voice":
            guard parts.count == 4, let index = Int(parts[2]), var voice, voice.prompts.indices.contains(index) else { return }
            voice.prompts[index].file = path
            self.voice = voice
        default:
            return
        }
    }

    /// The default draft voice of each locale that has none given: its tag where `languages` (the
    /// draft voice's, `DraftVoice.languages`, lower case) has it, else its primary language
    /// (`pt-BR` → `pt`). A locale neither names is an error at its tag in `locales:` asking for
    /// `draft_voice`, only when the recipe has drafts (prompts with `text:` and no `file:`);
    /// without drafts, or without `locales:`, the recipe comes back as it is.
    public func resolvingDraftVoices(languages: Set<String>) throws(DiagnosticList) -> Recipe {
        guard !locales.isEmpty, var voice, voice.prompts.contains(where: \.isDraft) else { return self }
        var problems: [Diagnostic] = []
        for tag in voice.defaultDraftVoiceLocales {
            let own = tag.lowercased(), primary = LanguageTag.primaryLanguage(tag)
            if languages.contains(own) {
                voice.localizedDraftVoice[tag] = own
            } else if languages.contains(primary) {
                voice.localizedDraftVoice[tag] = primary
            } else {
                let index = locales.firstIndex(of: tag) ?? 0
                let shown = own == primary ? "'\(tag)'" : "'\(tag)' or '\(primary)'"
                problems.append(
                    Diagnostic(
                        "locales.\(index): the draft voice (espeak-ng) has no voice for \(shown), and the recipe has draft prompts; "
                            + "give 'voice.draft_voice' a voice for it (like 'draft_voice: { \(locales[0]): \(voice.localizedDraftVoice[locales[0]] ?? "en-us"), \(tag): … }'), "
                            + "or record its prompts",
                        at: location(of: "locales.\(index)")))
            }
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
        voice.defaultDraftVoiceLocales = []
        if let first = locales.first, let name = voice.localizedDraftVoice[first] { voice.draftVoice = name }
        var resolved = self
        resolved.voice = voice
        return resolved
    }
}

/// `locales:` as the decoder read it.
enum LocaleList {
    /// No `locales:`: a mapping of texts or `{locale}` is an error.
    case none
    /// `locales:` could not be read; texts per locale are not checked against it.
    case failed
    /// The tags as written, in order, with their nodes.
    case tags([String], nodes: [NodeID])

    var tags: [String]? {
        if case .tags(let tags, _) = self { tags } else { nil }
    }
}

extension DecodeContext {
    /// `locales: [en, de]`: 1 to `RecipeLimits.maxLocales` different BCP 47 tags. Sets `locales`.
    mutating func readLocales(_ node: NodeID) {
        remember("locales", node)
        locales = .failed
        guard
            let items = boundedList(
                node, path: "locales", what: "a list of language tags like [en, de, pt-BR]",
                whenEmpty: "for one language, leave out 'locales:'; for several, list them", limit: RecipeLimits.maxLocales,
                noun: "locales", counting: "tags")
        else { return }
        let before = problemCount
        var tags: [String] = []
        var seen: [String: NodeID] = [:]
        for (index, item) in items.enumerated() {
            let path = "locales.\(index)"
            remember(path, item)
            guard let tag = text(item), !tag.isEmpty else {
                expected("a language tag like en, de or pt-BR", at: item, path: path)
                continue
            }
            if let problem = LanguageTag.problem(tag) {
                expected("a BCP 47 language tag like en, de, pt-BR or zh-Hans", at: item, path: path, reason: problem)
                continue
            }
            if let first = seen[tag.lowercased()] {
                error(
                    "\(path): expected a locale not listed before, found \(DiagnosticText.quoted(tag)) "
                        + "(the same as \(DiagnosticText.quoted(text(first) ?? "")) at line \(document[first].mark.line); tags are compared ignoring case)",
                    at: item)
                continue
            }
            seen[tag.lowercased()] = item
            tags.append(tag)
        }
        if problemCount == before { locales = .tags(tags, nodes: items) }
    }

    /// Checks each rendition's id (`<id>[-<length>]-<tag>`) and their number, once `id` and the
    /// variants' ids are known. Reported at the locale that makes an id invalid, or at `locales:`.
    mutating func checkRenditions(id: String, variantIDs: [String]) {
        guard case .tags(let tags, let nodes) = locales else { return }
        let ids = variantIDs.isEmpty ? [id] : variantIDs
        for (tag, node) in zip(tags, nodes) {
            guard let bad = ids.map({ Recipe.renditionID($0, locale: tag) }).first(where: { !Recipe.isValidID($0) }) else { continue }
            expected(
                "a locale that keeps the rendition's id valid", at: node, path: "locales.\(tags.firstIndex(of: tag) ?? 0)",
                reason: "'\(DiagnosticText.clip(bad))' breaks the id rule (\(Recipe.idRule)); shorten the recipe's id")
        }
        let count = ids.count * tags.count
        if count > RecipeLimits.maxRenditions {
            error(
                "locales: expected at most \(RecipeLimits.maxRenditions) renditions (variants × locales), found \(ids.count) "
                    + "\(ids.count == 1 ? "length" : "lengths") × \(tags.count) locales = \(count); split the recipe",
                at: locations["locales"] ?? SourceLocation(file: file, line: 1, column: 1))
        }
    }

    /// A text that may be given per locale (`title`, `category`, a `label`, a prompt's `text`,
    /// `voice.draft_voice`): a plain text, read by `read`, is every locale's; with `locales:` a
    /// mapping from each locale to its text. Returns the default locale's text and the texts by
    /// locale (keys as written in `locales:`; empty for a plain text). Nil after a problem.
    mutating func localized(
        _ node: NodeID, path: String, read: (inout DecodeContext, NodeID, String) -> String?
    ) -> (text: String, byLocale: [String: String])? {
        guard case .mapping(let pairs) = document[node].content, !pairs.isEmpty else {
            return read(&self, node, path).map { ($0, [:]) }
        }
        remember(path, node)
        let tags: [String]
        switch locales {
        case .none:
            // a mapping whose keys are no language tags is no attempt at texts per locale
            let keys = pairs.compactMap { pair -> String? in
                if case .scalar(let text, _) = document[pair.key].content { text } else { nil }
            }
            guard keys.count == pairs.count, keys.allSatisfy(LanguageTag.isValid) else { return read(&self, node, path).map { ($0, [:]) } }
            error(
                "\(path): a text per locale needs 'locales:' at the top, listing the locales (like 'locales: [\(Self.keysText(pairs, document))]'); "
                    + "found a mapping; or write one text for every listener",
                at: node)
            return nil
        case .failed:
            return nil
        case .tags(let list, _):
            tags = list
        }
        guard let fields = fields(of: node, path: path, allowed: nil, what: "a text, or a mapping from locale to text") else { return nil }
        let before = problemCount
        var byLocale: [String: String] = [:]
        var meant: Set<String> = []
        for key in fields.order {
            guard let tag = tags.first(where: { LanguageTag.same($0, key) }) else {
                let near = Suggestions.closest(to: key, in: tags)
                if let near { meant.insert(near) }
                let hint = near.map { "did you mean '\($0)'?" } ?? "the locales: \(DiagnosticText.list(tags))"
                error(
                    "\(path): unknown locale \(DiagnosticText.quoted(key)) (\(hint)); a mapping gives a text for each locale of 'locales:'",
                    at: fields.keys[key] ?? node)
                continue
            }
            guard byLocale[tag] == nil else {
                error("\(path): locale \(DiagnosticText.quoted(key)) given twice (tags are compared ignoring case)", at: fields.keys[key] ?? node)
                continue
            }
            guard let value = fields[key], let text = read(&self, value, "\(path).\(tag)") else { continue }
            byLocale[tag] = text
        }
        let missing = tags.filter { tag in
            byLocale[tag] == nil && !meant.contains(tag) && !fields.order.contains(where: { key in LanguageTag.same(key, tag) })
        }
        if !missing.isEmpty {
            error(
                "\(path): expected a text for every locale, missing \(missing.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "(a plain text, not a mapping, is the same in every locale)",
                at: node)
        }
        guard problemCount == before, let first = tags.first, let text = byLocale[first] else { return nil }
        return (text, byLocale)
    }

    /// The keys of a mapping, for a message: `en, de`.
    private static func keysText(_ pairs: [YAMLPair], _ document: YAMLDocument) -> String {
        pairs.prefix(5).compactMap { pair -> String? in
            guard case .scalar(let text, _) = document[pair.key].content else { return nil }
            return DiagnosticText.clip(text)
        }.joined(separator: ", ")
    }

    /// The path written as each locale's, default first: `{locale}` replaced by each tag. A path
    /// without `{locale}` is every locale's (one element). `{locale}` without `locales:`, or any
    /// other `{…}`, is an error at the path. Nil after a problem.
    mutating func localePath(_ text: String, at node: NodeID, path: String) -> [String]? {
        guard text.contains("{") || text.contains("}") else { return [text] }
        let rest = text.replacing(Recipe.localePlaceholder, with: "")
        if rest.contains("{") || rest.contains("}") {
            var other = "{…}"
            if let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") { other = String(rest[open...close]) }
            let near = Suggestions.closest(to: other, in: [Recipe.localePlaceholder]).map { " (did you mean '\($0)'?)" } ?? ""
            error(
                "\(path): expected a path whose only placeholder is '{locale}', found \(DiagnosticText.quoted(other)) "
                    + "in \(DiagnosticText.quoted(text))\(near)",
                at: node)
            return nil
        }
        switch locales {
        case .none:
            error(
                "\(path): '{locale}' in a path needs 'locales:' at the top (the tags it stands for, like 'locales: [en, de]'), "
                    + "found \(DiagnosticText.quoted(text))",
                at: node)
            return nil
        case .failed:
            return nil
        case .tags(let tags, _):
            return tags.map { text.replacing(Recipe.localePlaceholder, with: $0) }
        }
    }
}
