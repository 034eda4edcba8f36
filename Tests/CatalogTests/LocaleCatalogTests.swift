import CadenceCues
import Foundation
import TestKit
import Testing

/// recipe-v1.2 § Locales in a catalog: every rendition a track of one session, `--locale` choosing
/// among them, and an incremental render that re-renders only the locale whose clip changed.
@Suite struct LocaleCatalogTests {
    static let recipe = """
        id: hello
        locales: [en, de]
        title: { en: Hello, de: Hallo }
        category: Calm
        variants: { duration: [12s, 8s] }
        pattern:
          phases:
            - { kind: inhale, length: 2s, label: { en: In, de: Ein } }
            - { kind: exhale, length: 2s, label: { en: Out, de: Aus } }
        voice:
          prompts:
            - { at: 1s, file: "voice/{locale}/hello.wav", text: { en: Hello., de: Hallo. } }
        output: { sample_rate: 8000, channels: 1, format: flac }

        """

    static func clip(_ folder: TempFolder, _ locale: String, frequency: Double) throws {
        try Fixture.writeSound(
            folder.file("assets/voice/\(locale)/hello.wav"),
            Fixture.sine(frequency: frequency, amplitude: 0.25, sampleRate: 8000, channels: 1, frames: 4000), sampleRate: 8000, channels: 1)
    }

    @Test("a localized recipe is one session of four tracks; re-recording the German clip re-renders the German renditions only")
    func incremental() throws {
        let folder = try TempFolder("locale-catalog")
        _ = try folder.write(Self.recipe, to: "recipes/hello.yml")
        try Self.clip(folder, "en", frequency: 440)
        try Self.clip(folder, "de", frequency: 330)
        let dist = folder.file("dist")
        let first = try runRender([folder.file("recipes"), "-o", dist])
        #expect(first.status == 0, "\(first)")
        let catalog = try TrackCatalog.decode(from: Data(contentsOf: URL(fileURLWithPath: dist + "/catalog.json")))
        #expect(catalog.tracks.map(\.id) == ["hello-8s-en", "hello-12s-en", "hello-8s-de", "hello-12s-de"])
        let session = try #require(catalog.sessions.first)
        #expect(catalog.sessions.count == 1 && session.id == "hello" && session.title == "Hello")
        #expect(catalog.tracks.map(\.locale) == ["en", "en", "de", "de"])
        #expect(catalog.tracks.map(\.title) == ["Hello", "Hello", "Hallo", "Hallo"])
        #expect(catalog.tracks.map { $0.variant?.duration } == [8, 12, 8, 12])
        #expect(session.rendition(preferredLocales: ["de-AT"], preferredDuration: 10)?.id == "hello-8s-de")
        let english = try sha256(ofFile: dist + "/hello-12s-en.flac")

        // the German clip re-recorded: the German renditions render again, the English ones are up to date
        try Self.clip(folder, "de", frequency: 300)
        let second = try runRender([folder.file("recipes"), "-o", dist])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("rendered     2\n") && second.stdout.contains("up to date   2\n"), "\(second.stdout)")
        #expect(try sha256(ofFile: dist + "/hello-12s-en.flac") == english)
    }

    @Test("--locale renders only that locale's renditions of a catalog; a tag no recipe has is a usage error")
    func oneLocale() throws {
        let folder = try TempFolder("locale-catalog-one")
        _ = try folder.write(Self.recipe, to: "recipes/hello.yml")
        _ = try folder.write("id: plain\npattern: box\nduration: 16s\noutput: { sample_rate: 8000, channels: 1 }\n", to: "recipes/plain.yml")
        try Self.clip(folder, "de", frequency: 330)
        let dist = folder.file("dist")
        // the English clip is missing, but only German is asked for
        let german = try runRender([folder.file("recipes"), "-o", dist, "--locale", "DE"])
        #expect(german.status == 0, "\(german)")
        let catalog = try TrackCatalog.decode(from: Data(contentsOf: URL(fileURLWithPath: dist + "/catalog.json")))
        #expect(Set(catalog.tracks.map(\.id)) == ["hello-8s-de", "hello-12s-de", "plain"])
        let unknown = try runRender([folder.file("recipes"), "-o", folder.file("other"), "--locale", "fr"])
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.contains("--locale 'fr': no recipe has locale 'fr' (the recipes' locales: de, en)"), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("other/catalog.json")))
    }
}
