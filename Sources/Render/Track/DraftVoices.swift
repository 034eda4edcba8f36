import AudioCore
import AudioIO
import Recipe

extension Recipe {
    /// The recipe with each locale's draft voice settled (recipe-v1.2 § Locales): a locale without
    /// `draft_voice` speaks its own tag where espeak-ng has that language, else its primary language
    /// (`pt-BR` → `pt`); a locale neither names is an error at its tag in `locales:`. Only a recipe
    /// with locales and draft prompts asks the draft voice which languages it has; every other
    /// recipe comes back as it is. Every path that renders or checks a recipe settles it alike, so
    /// fingerprints and seeds agree.
    public func settlingDraftVoices() throws(DiagnosticList) -> Recipe {
        guard !locales.isEmpty, voice?.prompts.contains(where: \.isDraft) == true else { return self }
        let languages: Set<String>
        do {
            languages = try DraftVoice.languages(timeLimitSeconds: RecipeLimits.draftSpeechSeconds)
        } catch {
            throw DiagnosticList([
                Diagnostic("locales: the draft voice cannot start: \(error.reason)", at: location(of: "locales"), kind: .software)
            ])
        }
        return try resolvingDraftVoices(languages: languages)
    }
}
