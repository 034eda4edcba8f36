import Foundation
import TestKit
import Testing

/// Renditions that sound the same are rendered once (issue 34, `SharedSound`): a session whose
/// locales differ only in their texts mixes, measures and encodes its audio once; every other
/// rendition's FLAC is that file with its own tags, byte for byte what rendering it alone writes.
@Suite("Renditions that sound the same, rendered once")
struct SharedSoundTests {
    static let rate = 22050

    /// Three locales. `de`'s texts have the byte lengths of `en`'s (its tags are written over a copy
    /// in place); `fr`'s are longer (libFLAC writes the file anew). `clip` is the prompt's file.
    static func recipe(clip: String) -> String {
        """
        id: calm
        locales: [en, de, fr]
        title: { en: Calm, de: Ruhe, fr: Calme du soir }
        pattern:
          name: Even
          phases:
            - { kind: inhale, length: 4s, label: { en: In, de: Ei, fr: Inspirez } }
            - { kind: exhale, length: 4s, label: { en: Out, de: Aus, fr: Expirez } }
        duration: 24s
        bed: { synth: pink-noise, gain: -24 dB }
        cues: { inhale: { tone: 528 Hz } }
        voice:
          prompts:
            - { at: 2s, file: "\(clip)", text: { en: Welcome., de: Willkommen., fr: Bienvenue. } }
        output: { sample_rate: \(rate), channels: 2, format: flac, loudness: -18 LUFS }

        """
    }

    /// A folder with the recipe and its clips (each locale's its own length, so they sound different).
    static func folder(clip: String) throws -> TempFolder {
        let folder = try TempFolder("shared-sound")
        _ = try folder.write(recipe(clip: clip), to: "recipes/calm.yml")
        for (index, tag) in ["en", "de", "fr", "all"].enumerated() {
            try Fixture.writeSound(
                folder.file("assets/voice/\(tag)/welcome.wav"),
                Fixture.sine(frequency: 330, amplitude: 0.2, sampleRate: rate, channels: 1, frames: (index + 1) * rate / 2), sampleRate: rate,
                channels: 1)
        }
        return folder
    }

    /// Renders the recipe (only `locales`' renditions when given) into `out`; returns the full mix
    /// passes the render made (its `CADENCE_STAGES` line).
    static func render(_ folder: TempFolder, _ render: String, into out: String, locales: [String] = []) throws -> Int {
        let result = try run(
            "/usr/bin/env",
            ["CADENCE_STAGES=1", render, folder.file("recipes/calm.yml"), "-o", folder.file("\(out)/calm.flac"), "-q"]
                + locales.flatMap { ["--locale", $0] })
        try #require(result.status == 0, "render failed: \(result.stderr.suffix(600))")
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("cadence-stages: ") })
        let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst("cadence-stages: ".count).utf8)) as? [String: Any]
        return try #require(object?["passes"] as? Int)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test(
        "locales that differ only in texts: one render for all; each file is the bytes its own render writes, with its own tags",
        .enabled(if: freshReleaseRender != nil, "needs .build/release/render newer than Sources/ (swift build -c release)"))
    func textsOnly() throws {
        let render = try #require(freshReleaseRender)
        let folder = try Self.folder(clip: "voice/all/welcome.wav")
        let together = try Self.render(folder, render, into: "together")
        let alone = try Self.render(folder, render, into: "en", locales: ["en"])
        #expect(together == alone, "three renditions took \(together) passes, one alone \(alone): the audio was rendered again")
        for tag in ["de", "fr"] {
            // each rendered first, alone: the file its own render writes
            _ = try Self.render(folder, render, into: tag, locales: [tag])
            for file in ["calm-\(tag).flac", "calm-\(tag).cues.json"] {
                #expect(try Self.bytes(folder.file("together/" + file)) == Self.bytes(folder.file("\(tag)/" + file)), "\(file) differs")
            }
        }
        let titles = try ["en", "de", "fr"].map { tag in
            try run(try #require(which("metaflac")), ["--show-tag=TITLE", folder.file("together/calm-\(tag).flac")]).stdout
        }
        #expect(titles == ["TITLE=Calm\n", "TITLE=Ruhe\n", "TITLE=Calme du soir\n"])
        // the copies are whole FLAC files by the reference decoder
        for tag in ["de", "fr"] {
            let test = try run(try #require(which("flac")), ["-t", "-s", folder.file("together/calm-\(tag).flac")])
            #expect(test.status == 0, "flac -t: \(test.stderr)")
        }
    }

    @Test(
        "locales with their own clips are each rendered",
        .enabled(if: freshReleaseRender != nil, "needs .build/release/render newer than Sources/ (swift build -c release)"))
    func ownClips() throws {
        let render = try #require(freshReleaseRender)
        let folder = try Self.folder(clip: "voice/{locale}/welcome.wav")
        let together = try Self.render(folder, render, into: "together")
        let alone = try Self.render(folder, render, into: "en", locales: ["en"])
        #expect(together == 3 * alone)
        let audio = try ["en", "de", "fr"].map { try readAudio(folder.file("together/calm-\($0).flac")).samples }
        #expect(audio[0] != audio[1] && audio[1] != audio[2])
    }

    @Test(
        "a catalog at -j 2 renders the sound once too, and its copies are the bytes a render alone writes",
        .enabled(if: freshReleaseRender != nil, "needs .build/release/render newer than Sources/ (swift build -c release)"))
    func catalog() throws {
        let render = try #require(freshReleaseRender)
        let folder = try Self.folder(clip: "voice/all/welcome.wav")
        let alone = try Self.render(folder, render, into: "alone", locales: ["en"])
        let result = try run(
            "/usr/bin/env",
            ["CADENCE_STAGES=1", render, folder.file("recipes"), "-o", folder.file("dist"), "-j", "2", "--assets", folder.file("assets")])
        try #require(result.status == 0, "catalog failed: \(result.stderr.suffix(600))")
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("cadence-stages: ") })
        let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst("cadence-stages: ".count).utf8)) as? [String: Any]
        #expect(object?["passes"] as? Int == alone)
        _ = try Self.render(folder, render, into: "fr", locales: ["fr"])
        #expect(try Self.bytes(folder.file("dist/calm-fr.flac")) == Self.bytes(folder.file("fr/calm-fr.flac")))
    }
}
