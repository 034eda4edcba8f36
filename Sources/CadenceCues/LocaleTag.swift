/// BCP 47 language tags as cue sheets and catalogs hold them (`en`, `de`, `pt-BR`, `zh-Hans`), and the
/// RFC 4647 lookup an app does to choose among them.
///
/// Tags are compared case-insensitively (`pt-br` is `pt-BR`) and returned as the catalog writes them.
/// An app's preferred languages (`Locale.preferredLanguages` on Apple platforms, `de-AT`, `en-US`) are
/// looked up as RFC 4647 § 3.4 says: the whole tag, then the tag with its last subtag taken off, and so
/// on (`zh-Hant-TW`, `zh-Hant`, `zh`), each preferred language in turn before the next.
public enum LocaleTag {
    /// Whether `tag` is a well-formed language tag in the sense a catalog needs: subtags of 1 to 8 ASCII
    /// letters or digits joined by `-`, the first of 2 to 8 letters (or `x` or `i`, for private-use and
    /// old registered tags, followed by more subtags).
    ///
    /// This is a check of the tag's shape, not of the language registry: `de`, `pt-BR`, `zh-Hans-CN`,
    /// `es-419` and `x-klingon` pass; `""`, `de_AT`, `-de`, `de-`, `d` and `deutschland1` do not.
    public static func isWellFormed(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(\.isASCIIAlphanumeric) })
        else { return false }
        guard first.allSatisfy(\.isASCIILetter) else { return false }
        return first.count >= 2 || (["x", "i"].contains(first.lowercased()) && subtags.count > 1)
    }

    /// The tags an RFC 4647 lookup tries for `preferred`, longest first: `zh-Hant-TW` gives `zh-Hant-TW`,
    /// `zh-Hant`, `zh`; `de-AT` gives `de-AT`, `de`.
    ///
    /// A subtag of one character left at the end is taken off with the one after it
    /// (`de-x-phonebk` gives `de-x-phonebk`, `de`). An `_` is read as `-`, so an Apple locale identifier
    /// (`de_AT`) works too; empty subtags are dropped. `*` (any language) gives nothing.
    public static func fallbacks(of preferred: String) -> [String] {
        var subtags = preferred.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard subtags.first != "*" else { return [] }
        var tags: [String] = []
        while !subtags.isEmpty {
            tags.append(subtags.joined(separator: "-"))
            subtags.removeLast()
            if let last = subtags.last, last.count == 1 { subtags.removeLast() }
        }
        return tags
    }

    /// The first of `available` that a preferred language looks up to (RFC 4647 § 3.4), or nil when none does.
    ///
    /// Each of `preferred` is tried in order, with all its fallbacks (see `fallbacks(of:)`), before the next
    /// one: with `available` `[en, de, fr]`, `[de-AT, fr]` gives `de`, and `[pt-BR, fr-CA]` gives `fr`.
    /// Matching ignores case, and the tag is returned as `available` spells it. A lookup never widens a
    /// tag: `pt` does not find `pt-BR` (the listener asked for any Portuguese, the catalog has a
    /// regional one; an app may offer it through its language picker). O(p × s × a) in the preferred
    /// languages, their subtags and the available tags.
    public static func lookup(_ preferred: [String], in available: [String]) -> String? {
        let lowered = available.map { $0.lowercased() }
        for language in preferred {
            for tag in fallbacks(of: language) {
                if let i = lowered.firstIndex(of: tag.lowercased()) { return available[i] }
            }
        }
        return nil
    }
}

extension Character {
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
    fileprivate var isASCIIAlphanumeric: Bool { isASCII && (isLetter || isNumber) }
}
