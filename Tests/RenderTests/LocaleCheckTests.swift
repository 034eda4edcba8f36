import AudioCore
import AudioIO
import Foundation
import Recipe
import Render
import TestKit
import Testing

/// recipe-v1.2 § Locales, as `render --check` sees each rendition (`Recipe.renditions()`, then
/// `TrackRenderer.checked` and `Recipe.naming`): a clip missing, or an overlap, in one locale only
/// is that locale's error, named; the other locale checks clean.
@Suite struct LocaleCheckTests {
    static let recipe = """
        id: welcome
        locales: [en, de]
        title: { en: Welcome, de: Willkommen }
        pattern: box
        duration: 1m
        voice:
          prompts:
            - { at: 2s, file: "voice/{locale}/welcome.wav", text: { en: Welcome., de: Willkommen. } }
            - { at: 5s, file: "voice/{locale}/breathe.wav", text: { en: Breathe., de: Atme. } }

        """

    /// The problems of each rendition, named, by locale.
    static func check(_ folder: TempFolder) throws -> [String: [Diagnostic]] {
        let path = try folder.write(recipe, to: "recipes/welcome.yml")
        let loaded = try RecipeLoader.load(path: path)
        var found: [String: [Diagnostic]] = [:]
        for rendition in loaded.renditions() {
            do {
                try TrackRenderer.checked(recipe: rendition, assets: nil)
                found[rendition.locale ?? ""] = []
            } catch {
                found[rendition.locale ?? ""] = rendition.naming(error.diagnostics)
            }
        }
        return found
    }

    static func clip(_ folder: TempFolder, _ name: String, seconds: Int) throws {
        try Fixture.writeSound(
            folder.file("assets/" + name), Fixture.sine(frequency: 440, amplitude: 0.3, sampleRate: 48000, channels: 1, frames: seconds * 48000),
            sampleRate: 48000, channels: 1)
    }

    @Test func aClipMissingForOneLocaleIsNoInputNamingIt() throws {
        let folder = try TempFolder("locales")
        try Self.clip(folder, "voice/en/welcome.wav", seconds: 1)
        try Self.clip(folder, "voice/en/breathe.wav", seconds: 1)
        try Self.clip(folder, "voice/de/welcome.wav", seconds: 1)
        let found = try Self.check(folder)
        #expect(found["en"]?.isEmpty == true, "\(found)")
        let de = try #require(found["de"])
        #expect(de.count == 1, "\(de)")
        #expect(de.first?.kind == .noInput)
        #expect(de.first?.message.hasPrefix("locale 'de': voice.prompts.1.file: asset 'voice/de/breathe.wav' not found") == true, "\(de)")
        #expect(de.first?.location?.line == 9)
        #expect(DiagnosticList(de).kind == .noInput)
    }

    @Test func anOverlapInOneLocaleOnlyNamesIt() throws {
        let folder = try TempFolder("locales")
        try Self.clip(folder, "voice/en/welcome.wav", seconds: 2)
        try Self.clip(folder, "voice/en/breathe.wav", seconds: 1)
        try Self.clip(folder, "voice/de/welcome.wav", seconds: 4)
        try Self.clip(folder, "voice/de/breathe.wav", seconds: 1)
        let found = try Self.check(folder)
        #expect(found["en"]?.isEmpty == true, "\(found)")
        let de = try #require(found["de"])
        #expect(de.map(\.message).count == 1, "\(de)")
        #expect(de.first?.message.hasPrefix("locale 'de': voice.prompts.1: the prompt at 5s starts while voice.prompts.0") == true, "\(de)")
    }
}
