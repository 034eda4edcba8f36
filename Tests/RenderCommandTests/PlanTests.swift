import CadenceCues
import Foundation
import TestKit
import Testing

/// `render --plan` (issue 15): the layout printed without rendering must be the one the render
/// makes: every cue and prompt at the frame the cue sheet gives, the frames, the leftover time,
/// the size; with --check's exit codes, and nothing written.
@Suite struct PlanTests {
    static let rate = 44100

    /// Odd lengths on purpose (1.3 s, 2.2 s at 44.1 kHz), a duration that leaves time over, a prompt on a phase.
    static let recipe = """
        id: plan-me
        title: Plan Me
        duration: 40s
        intro: 2.5s
        outro: 3s
        pattern:
          name: Odd
          phases: [{ inhale: 1.3s }, { exhale: 2.2s }]
        cues:
          inhale: { tone: 528 Hz, until: 20s }
          exhale: { preset: chime, cycles: 2-4 }
          start: bell
          end: chime
        voice:
          prompts:
            - { at: 1s, file: voice/hello.wav, text: "Hello" }
            - { on: exhale, cycles: 3, file: voice/hello.wav, text: "Out" }
        output: { sample_rate: \(rate), channels: 1, format: wav, bit_depth: 16, loudness: off }
        """

    static func workspace() throws -> (folder: TempFolder, recipe: String) {
        let folder = try TempFolder("plan")
        try Fixture.writeSound(
            folder.file("assets/voice/hello.wav"), Fixture.sine(frequency: 440, amplitudes: [0.2], sampleRate: rate, frames: rate / 2),
            sampleRate: rate, channels: 1)
        return (folder, try folder.write(recipe, to: "recipes/plan-me.yml"))
    }

    /// The `(name, frame)` of every event line the plan prints (`  0:02.500  frame  110250  start  bell`).
    static func events(_ text: String) -> [(String, Int64)] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count > 3, words[1] == "frame", let frame = Int64(words[2]) else { return nil }
            return (String(words[3]), frame)
        }
    }

    @Test("every cue and prompt the plan lists is where the render puts it; frames, leftover and size agree")
    func planMatchesRender() throws {
        let (folder, recipe) = try Self.workspace()
        let output = folder.file("out/plan-me.wav")
        let plan = try runRender(["--plan", recipe, "-o", output])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "--plan wrote the audio")
        let rendered = try runRender([recipe, "-o", output, "-q"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let sheet = try readCueSheet(cueSheetPath(for: output))

        let listed = Self.events(plan.stdout)
        let cues = listed.filter { !$0.0.hasPrefix("voice.prompts.") }
        #expect(cues.map(\.0) == sheet.cues.map(\.name))
        #expect(cues.map(\.1) == sheet.cues.map(\.frame))
        let prompts = listed.filter { $0.0.hasPrefix("voice.prompts.") }
        #expect(prompts.map(\.1) == (sheet.voice ?? []).map(\.frame))
        #expect(prompts.count == 2)

        #expect(plan.stdout.contains("\(sheet.audio.frames) frames"))
        // 40 s - 2.5 s - 3 s = 34.5 s of practice room: 9 cycles of 3.5 s (31.5 s), 3 s left over
        #expect(plan.stdout.contains("9 cycles of 'Odd'"))
        #expect(plan.stdout.contains("outro 6s (3s asked + 3s left over from the duration)"))
        // WAV: the samples, the header and the markers' chunks; the tags libsndfile adds (title, album) are left out: within 256 bytes
        let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        let sizeLine = try #require(plan.stdout.split(separator: "\n").first { $0.contains("size about") })
        let planned = try #require(Int(sizeLine.split(separator: "(").last?.split(separator: " ").first ?? ""))
        #expect(abs(planned - size) <= 256, "planned \(planned), wrote \(size)")
    }

    @Test("a bad recipe: --check's errors and status, and no layout")
    func badRecipe() throws {
        let (folder, _) = try Self.workspace()
        let bad = try folder.write(Self.recipe.replacingOccurrences(of: "duration: 40s", with: "duration: 5s"), to: "recipes/bad.yml")
        let plan = try runRender(["--plan", bad])
        let check = try runRender(["--check", bad])
        #expect(plan.status == 65)
        #expect(plan.stderr == check.stderr)
        #expect(Self.events(plan.stdout).isEmpty)
        let missing = try runRender(["--plan", folder.file("recipes/nope.yml")])
        #expect(missing.status == 66)
        let usage = try runRender(["--plan", "--check", bad])
        #expect(usage.status == 64)
    }

    @Test("a folder plans every track into the bundle's names")
    func folder() throws {
        let (folder, _) = try Self.workspace()
        let plan = try runRender(["--plan", folder.file("recipes"), "-o", folder.file("dist")])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains(folder.path + "/dist/plan-me.wav: WAV, 16-bit, 44100 Hz, 1 channel"))
        #expect(plan.stdout.contains("planned 1 recipe: 1 good, 0 with errors"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("dist")))
    }

    @Test("each rendition of a session names its session, length and locale, and goes to its own file; --locale picks")
    func renditions() throws {
        let folder = try TempFolder("plan-renditions")
        let recipe = try folder.write(
            """
            id: calm
            title: { en: Calm, de: Ruhe }
            locales: [en, de]
            variants: { duration: [2m, 1m] }
            pattern: box
            output: { format: wav, bit_depth: 16, loudness: off }
            """, to: "recipes/calm.yml")
        let output = folder.file("out/calm.wav")
        let plan = try runRender(["--plan", recipe, "-o", output])
        #expect(plan.status == 0, "\(plan.stderr)")
        let heads = plan.stdout.split(separator: "\n").filter { $0.hasPrefix(recipe + ":") }.map(String.init)
        // the order the spec gives renditions: by locale (as `locales:` lists them), then shortest first
        #expect(
            heads == [
                "\(recipe): calm-1m-en, 'Calm', session 'calm', 1m, locale 'en'",
                "\(recipe): calm-2m-en, 'Calm', session 'calm', 2m, locale 'en'",
                "\(recipe): calm-1m-de, 'Ruhe', session 'calm', 1m, locale 'de'",
                "\(recipe): calm-2m-de, 'Ruhe', session 'calm', 2m, locale 'de'",
            ], "\(plan.stdout)")
        #expect(plan.stdout.contains(folder.file("out/calm-1m-de.wav") + ":"), "\(plan.stdout)")
        let german = try runRender(["--plan", recipe, "-o", output, "--locale", "DE"])
        #expect(german.status == 0, "\(german.stderr)")
        #expect(german.stdout.split(separator: "\n").filter { $0.hasPrefix(recipe + ":") }.allSatisfy { $0.hasSuffix("locale 'de'") })
        #expect(german.stdout.split(separator: "\n").filter { $0.hasPrefix(recipe + ":") }.count == 2)
    }
}
