/// BCP 47 language tags (RFC 5646 § 2.1, the `langtag` production), as `locales:` takes them
/// (recipe-v1.2 § Locales): `en`, `de`, `pt-BR`, `zh-Hans`, `es-419`, `sl-rozaj-biske`.
///
/// Only the syntax is checked (no registry): a language of 2–3 letters (with up to three 3-letter
/// extended languages), 4 letters (reserved) or 5–8 letters; then an optional script (4 letters),
/// an optional region (2 letters or 3 digits), variants (5–8 letters or digits, or a digit and 3
/// more), extensions (a singleton other than `x`, then subtags of 2–8) and a private use part
/// (`x-` and subtags of 1–8). Tags are compared case-insensitively and kept as written.
public enum LanguageTag {
    /// Why `tag` is not a language tag, or nil when it is one.
    public static func problem(_ tag: String) -> String? {
        guard !tag.isEmpty else { return "an empty tag" }
        guard tag.utf8.count <= maxLength else { return "longer than \(maxLength) characters" }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { String($0).lowercased() }
        for subtag in subtags {
            if subtag.isEmpty { return "an empty subtag (two '-' in a row, or one at an end)" }
            guard subtag.utf8.allSatisfy({ isLetter($0) || DecimalNumeral.isDigit($0) }) else {
                return "subtags are letters and digits, separated by '-'"
            }
            if subtag.utf8.count > 8 { return "the subtag '\(subtag)' is longer than 8 characters" }
        }
        var index = 0
        let language = subtags[0]
        if language == "x" || language == "i" {
            return "a tag starts with a language (like en or pt), not '\(language)-'"
        }
        guard language.utf8.allSatisfy(isLetter), language.utf8.count >= 2 else {
            return "the language '\(language)' is not 2 to 8 letters (like en, de or pt)"
        }
        index = 1
        if language.utf8.count <= 3 {
            var extlangs = 0
            while index < subtags.count, extlangs < 3, subtags[index].utf8.count == 3, subtags[index].utf8.allSatisfy(isLetter) {
                index += 1
                extlangs += 1
            }
        }
        if index < subtags.count, subtags[index].utf8.count == 4, subtags[index].utf8.allSatisfy(isLetter) { index += 1 }
        if index < subtags.count, isRegion(subtags[index]) { index += 1 }
        var variants: Set<String> = []
        while index < subtags.count, isVariant(subtags[index]) {
            guard variants.insert(subtags[index]).inserted else { return "the variant '\(subtags[index])' twice" }
            index += 1
        }
        var singletons: Set<String> = []
        while index < subtags.count, subtags[index].utf8.count == 1, subtags[index] != "x" {
            let singleton = subtags[index]
            guard singletons.insert(singleton).inserted else { return "the extension '\(singleton)-' twice" }
            index += 1
            let start = index
            while index < subtags.count, (2...8).contains(subtags[index].utf8.count) { index += 1 }
            if index == start { return "the extension '\(singleton)-' has no subtags of 2 to 8 characters" }
        }
        if index < subtags.count, subtags[index] == "x" {
            index += 1
            if index == subtags.count { return "'x-' has no private use subtags" }
            index = subtags.count
        }
        guard index == subtags.count else {
            return "'\(subtags[index])' is not a script (4 letters), a region (2 letters or 3 digits) or a variant (5 to 8 characters)"
                + " where it stands"
        }
        return nil
    }

    /// Whether `tag` is a language tag.
    public static func isValid(_ tag: String) -> Bool { problem(tag) == nil }

    /// The primary language of a tag, lower case: `pt` for `pt-BR`, `zh` for `zh-Hans`.
    public static func primaryLanguage(_ tag: String) -> String {
        String(tag.split(separator: "-", maxSplits: 1).first ?? Substring(tag)).lowercased()
    }

    /// Whether two tags are the same (compared case-insensitively, as BCP 47 says).
    public static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

    /// The longest tag read: 64 characters (a rendition's id, with the recipe's, is at most 100).
    public static let maxLength = 64

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }

    private static func isRegion(_ subtag: String) -> Bool {
        let bytes = Array(subtag.utf8)
        return (bytes.count == 2 && bytes.allSatisfy(isLetter)) || (bytes.count == 3 && bytes.allSatisfy(DecimalNumeral.isDigit))
    }

    private static func isVariant(_ subtag: String) -> Bool {
        let bytes = Array(subtag.utf8)
        if (5...8).contains(bytes.count) { return true }
        return bytes.count == 4 && DecimalNumeral.isDigit(bytes[0])
    }
}
