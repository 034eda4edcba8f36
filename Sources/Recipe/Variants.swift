import AudioCore

/// `variants:` (issue 15): one recipe, several tracks. Each value of `variants.duration` makes a
/// track of that length, with the id `<id>-<length>` (`box-5m`, `box-10m`), its own cue sheet,
/// manifest entry, fingerprint and seed; everything else is the recipe's.
extension Recipe {
    /// The tracks this recipe makes: itself when it has no variants, else one per `variants.duration`
    /// value, in the order written. A variant's `duration` is located at its value in the list, so
    /// that what the layout finds wrong with it points there.
    public func variants() -> [Recipe] {
        guard !variantDurations.isEmpty else { return [self] }
        return variantDurations.enumerated().map { index, duration in
            var variant = self
            variant.variantDurations = []
            variant.variantOf = id
            variant.sessionID = session
            variant.id = Self.variantID(id, duration)
            variant.length = .duration(duration)
            if let place = locations["variants.duration.\(index)"] { variant.locations["duration"] = place }
            return variant
        }
    }

    /// `diagnostics` as they read for this recipe: a variant's say which (`variant 'box-5m': …`), a
    /// rendition in a locale which locale (`locale 'de': …`), a variant's rendition both
    /// (`variant 'box-5m', locale 'de': …`).
    public func naming(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard let prefix = namePrefix else { return diagnostics }
        return diagnostics.map { diagnostic in
            var named = diagnostic
            named.message = prefix + diagnostic.message
            return named
        }
    }

    /// `variant 'box-5m': `, `locale 'de': `, `variant 'box-5m', locale 'de': `; nil for the recipe itself.
    var namePrefix: String? {
        switch (variantOf, locale) {
        case (nil, nil): nil
        case (_?, nil): "variant '\(id)': "
        case (nil, let tag?): "locale '\(tag)': "
        case (_?, let tag?): "variant '\(variantIDWithoutLocale)', locale '\(tag)': "
        }
    }

    /// `box` and 5 min → `box-5m`: the length as an author writes it (`ExactSeconds.durationText`).
    /// Whole minutes are written in minutes (`1m`, `45m`, `1h30m`), anything else as `durationText` (`90s`, `2m30s`).
    public static func variantID(_ id: String, _ duration: ExactSeconds) -> String { "\(id)-\(variantLength(duration))" }

    /// A variant's length as its id writes it: `5m`, `1h30m`, `90s`, `2m30s`.
    public static func variantLength(_ duration: ExactSeconds) -> String {
        let minute = 60 * ExactSeconds.nanosPerSecond
        guard duration.nanoseconds > 0, duration.nanoseconds % minute == 0 else { return duration.durationText }
        let minutes = duration.nanoseconds / minute
        return (minutes >= 60 ? "\(minutes / 60)h" : "") + (minutes % 60 > 0 ? "\(minutes % 60)m" : "")
    }

    /// `box-5m.flac` for `box.flac`: the output path of variant `variantID` of recipe `baseID`, for
    /// `render recipe.yml -o box.flac` with variants. The variant's suffix joins the file's stem.
    public static func variantPath(_ path: String, baseID: String, variantID: String) -> String {
        let suffix = variantID.hasPrefix(baseID + "-") ? String(variantID.dropFirst(baseID.count)) : "-" + variantID
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + suffix }
        return String(path[..<dot]) + suffix + String(path[dot...])
    }
}

extension DecodeContext {
    /// The keys `variants:` may hold.
    static let variantKeys = RecipeKeys.children(of: "variants")

    /// `variants: { duration: [5m, 10m, 20m] }`: lengths above zero, at most `RecipeLimits.maxVariants`,
    /// each making a distinct valid id from `id`. Nil after a problem.
    mutating func variantDurations(_ node: NodeID, id: String?) -> [(ExactSeconds, NodeID)]? {
        remember("variants", node)
        let what = "a mapping like 'duration: [5m, 10m, 20m]'"
        guard let fields = fields(of: node, path: "variants", allowed: Self.variantKeys, what: what) else { return nil }
        guard let list = fields["duration"] else {
            missing(["duration"], in: node, "variants: expected 'duration:' with a list of lengths like [5m, 10m, 20m], found none")
            return nil
        }
        remember("variants.duration", list)
        guard
            let items = boundedList(
                list, path: "variants.duration", what: "a list of lengths like [5m, 10m, 20m]",
                whenEmpty: "for one length, write 'duration:' at the top and leave out 'variants:'", limit: RecipeLimits.maxVariants,
                noun: "variants", counting: "lengths")
        else { return nil }
        let before = problemCount
        var read: [(ExactSeconds, NodeID)] = []
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let path = "variants.duration.\(index)"
            guard let duration = duration(item, path: path, positive: true) else { continue }
            if let id {
                let variant = Recipe.variantID(id, duration)
                if let earlier = seen[variant] {
                    expected(
                        "a length not given before", at: item, path: path,
                        reason: "variant '\(variant)' has the same length as variants.duration.\(earlier)")
                    continue
                }
                seen[variant] = index
                guard Recipe.isValidID(variant) else {
                    expected(
                        "a length that keeps the variant's id valid", at: item, path: path,
                        reason: "'\(DiagnosticText.clip(variant))' breaks the id rule (\(Recipe.idRule)); shorten the recipe's id")
                    continue
                }
            }
            read.append((duration, item))
        }
        return problemCount == before ? read : nil
    }
}
