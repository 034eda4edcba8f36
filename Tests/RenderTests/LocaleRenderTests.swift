import AudioCore
import AudioIO
import CadenceCues
import Foundation
import Recipe
import Render
import TestKit
import Testing

/// recipe-v1.2 § Locales through `RenderJob`: one track per locale, each with its own file, texts,
/// clips and timeline; `locales` choosing among them; a locale that fails writes nothing for any.
@Suite struct LocaleRenderTests {
    static let recipe = """
        id: welcome
        locales: [en, pt-BR]
        title: { en: Welcome, pt-BR: Bem-vindo }
        category: Calm
        pattern:
          phases:
            - { kind: inhale, length: 4s, label: { en: Breathe in, pt-BR: Inspire } }
            - { kind: exhale, length: 4s, label: { en: Breathe out, pt-BR: Expire } }
        duration: 30s
        bed: { synth: pink-noise, gain: -30 dB }
        voice:
          prompts:
            - { at: 2s, file: "voice/{locale}/welcome.wav", text: { en: Welcome., pt-BR: Bem-vindo. } }
        output: { sample_rate: 22050, channels: 1, format: wav, bit_depth: 16, loudness: off }

        """

    /// A recipe folder with the clips of `locales` (the English one 1 s, the Portuguese one 2 s).
    static func folder(clips locales: [String]) throws -> TempFolder {
        let folder = try TempFolder("locale-render")
        _ = try folder.write(recipe, to: "recipes/welcome.yml")
        for (tag, seconds) in [("en", 1), ("pt-BR", 2)] where locales.contains(tag) {
            try Fixture.writeSound(
                folder.file("assets/voice/\(tag)/welcome.wav"),
                Fixture.sine(frequency: 330, amplitude: 0.2, sampleRate: 22050, channels: 1, frames: seconds * 22050), sampleRate: 22050,
                channels: 1)
        }
        return folder
    }

    @Test func everyLocaleIsATrackOfItsOwnWithItsTextsAndClip() throws {
        let folder = try Self.folder(clips: ["en", "pt-BR"])
        let tracks = try RenderJob(recipePath: folder.file("recipes/welcome.yml"), outputPath: folder.file("out/session.wav")).run()
        #expect(tracks.map(\.rendered.audioPath) == [folder.file("out/session-en.wav"), folder.file("out/session-pt-br.wav")])
        let sheets = try tracks.map { try CueSheet.decode(from: String(contentsOfFile: $0.rendered.cueSheetPath, encoding: .utf8)) }
        #expect(sheets.map(\.id) == ["welcome-en", "welcome-pt-br"])
        #expect(sheets.map(\.session) == ["welcome", "welcome"])
        #expect(sheets.map(\.locale) == ["en", "pt-BR"])
        #expect(sheets.map(\.title) == ["Welcome", "Bem-vindo"])
        #expect(sheets.map(\.category) == ["Calm", "Calm"])
        #expect(sheets.map { $0.phases.prefix(2).map(\.label) } == [["Breathe in", "Breathe out"], ["Inspire", "Expire"]])
        #expect(sheets.map { $0.voice?.first?.text } == ["Welcome.", "Bem-vindo."])
        #expect(sheets.map { $0.voice?.first?.file } == ["voice/en/welcome.wav", "voice/pt-BR/welcome.wav"])
        // each locale's own clip: its own length in the sheet
        #expect(sheets.map { $0.voice?.first?.lengthFrames } == [22050, 44100])
        let text = try String(contentsOfFile: tracks[1].rendered.cueSheetPath, encoding: .utf8)
        #expect(text.contains(#""version": 1.2,"#))
        // the noise does not depend on the locale: before the first prompt (2 s) the two files are the same samples
        let en = try readAudio(tracks[0].rendered.audioPath), pt = try readAudio(tracks[1].rendered.audioPath)
        #expect(en.samples.count == pt.samples.count && en.samples.count == 30 * 22050)
        #expect(Array(en.samples.prefix(2 * 22050)) == Array(pt.samples.prefix(2 * 22050)))
        #expect(en.samples != pt.samples)
    }

    @Test func localesAskedForRenderOnlyThoseAndAnUnknownOneIsAUsageError() throws {
        let folder = try Self.folder(clips: ["en", "pt-BR"])
        let recipe = folder.file("recipes/welcome.yml")
        let tracks = try RenderJob(recipePath: recipe, outputPath: folder.file("one/s.wav"), locales: ["PT-br"]).run()
        #expect(tracks.map(\.rendered.recipe.id) == ["welcome-pt-br"])
        #expect(try folder.listing("one").sorted() == ["s-pt-br.cues.json", "s-pt-br.wav"])
        do {
            _ = try RenderJob(recipePath: recipe, outputPath: folder.file("two/s.wav"), locales: ["pt"]).run()
            Issue.record("a locale the recipe lacks was rendered")
        } catch {
            #expect(error.kind == .setting)
            let message = error.diagnostics.first?.message(spelling: { _ in "--locale" }) ?? ""
            #expect(message == "--locale 'pt': welcome.yml has no locale 'pt' (its locales: en, pt-BR); did you mean 'pt-BR'?", "\(message)")
        }
        #expect((try? folder.listing("two")) ?? [] == [])
    }

    @Test func aClipMissingInOneLocaleWritesNothingForAny() throws {
        let folder = try Self.folder(clips: ["en"])
        do {
            _ = try RenderJob(recipePath: folder.file("recipes/welcome.yml"), outputPath: folder.file("out/s.wav")).run()
            Issue.record("a recipe missing a clip in one locale rendered")
        } catch {
            #expect(error.kind == .noInput)
            #expect(
                error.diagnostics.map(\.message).contains { $0.hasPrefix("locale 'pt-BR': voice.prompts.0.file") },
                "\(error.diagnostics.map(\.message))")
        }
        #expect((try? folder.listing("out")) ?? [] == [])
    }
}
