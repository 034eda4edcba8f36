/// Words in a library's message that name a setting of the job: the assets folder, the output
/// path, refusing draft prompts. A library writes them as here; a front end prints its own
/// spelling in their place (the command line its flag: `RenderCommand`'s `CommandText`), so that
/// no library names a flag.
public enum SettingWords: String, Sendable, Hashable, CaseIterable {
    /// The folder recipe paths are relative to, as given: `the assets folder: 'x' is not a folder`.
    case assetsFolder = "the assets folder"
    /// What to do when no assets folder is found: `… above the recipe (set the assets folder)`.
    case setAssetsFolder = "set the assets folder"
    /// The path the track is written to, as given: `the output path 'x.mp4': …`.
    case outputPath = "the output path"
    /// A render that refuses draft prompts (a release job): `a render refusing drafts refuses it`.
    case refusingDrafts = "a render refusing drafts"
    /// That such a render exists, after a draft's warning: `… its 'file:' (drafts can be refused)`.
    case draftsCanBeRefused = "drafts can be refused"
    /// A locale the job was asked to render, as given: `the locale asked for 'fr': x.yml has no locale 'fr' …`.
    case localeAskedFor = "the locale asked for"
}

/// Where a diagnostic's message names a setting: which words, and which of their occurrences
/// in the message (counted from 0) are the setting's, so that text quoted from a recipe or a
/// path that happens to hold the same words is never taken for them.
public struct SettingMention: Sendable, Hashable {
    public let words: SettingWords
    public let occurrence: Int

    public init(words: SettingWords, occurrence: Int) {
        self.words = words
        self.occurrence = occurrence
    }
}

extension Diagnostic {
    /// A message naming a setting between `before` and `after`, with the mention recorded.
    public init(_ before: String, _ words: SettingWords, _ after: String, at location: SourceLocation?, kind: FailureKind = .data) {
        self.init(before + words.rawValue + after, at: location, kind: kind)
        setting = SettingMention(words: words, occurrence: before.occurrences(of: words.rawValue))
    }

    /// A message naming a setting between `before` and `after`, about `file` (or no file).
    public init(_ before: String, _ words: SettingWords, _ after: String, file: String?, kind: FailureKind) {
        self.init(before + words.rawValue + after, file: file, kind: kind)
        setting = SettingMention(words: words, occurrence: before.occurrences(of: words.rawValue))
    }

    /// The message with the setting it names spelled by `spelling` (a front end's own name for it).
    public func message(spelling: (SettingWords) -> String) -> String {
        guard let setting else { return message }
        var rest = message[...]
        var head = ""
        for _ in 0..<setting.occurrence {
            guard let found = rest.firstRange(of: setting.words.rawValue) else { return message }
            head += rest[..<found.upperBound]
            rest = rest[found.upperBound...]
        }
        guard let found = rest.firstRange(of: setting.words.rawValue) else { return message }
        return head + rest[..<found.lowerBound] + spelling(setting.words) + rest[found.upperBound...]
    }

    /// `description` with the setting the message names spelled by `spelling`.
    public func text(spelling: (SettingWords) -> String) -> String {
        var spelled = self
        spelled.message = message(spelling: spelling)
        return spelled.description
    }
}

extension StringProtocol {
    /// How many times `words` occur, not overlapping.
    fileprivate func occurrences(of words: String) -> Int {
        var count = 0
        var rest = self[...]
        while let found = rest.firstRange(of: words) {
            count += 1
            rest = rest[found.upperBound...]
        }
        return count
    }
}
