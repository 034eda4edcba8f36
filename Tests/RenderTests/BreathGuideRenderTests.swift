import AudioCore
import CadenceCues
import Foundation
import Recipe
import Render
import Sidecars
import TestKit
import Testing
import Timeline

/// recipe-v1.2 § Breath guidance wired into a render: the cue sheet's `guide`, the haptics sidecars
/// `haptics: on` adds, and the haptics limit.
@Suite("Breath guidance in a render")
struct BreathGuideRenderTests {
    static let recipe = """
        id: guided
        pattern: box
        duration: 38s
        intro: 3.25s
        outro: 1.5s
        guide: { hold: none, shape: linear }
        haptics: on
        output: { sample_rate: 22050, channels: 1 }
        """

    @Test("guide: and haptics: on write a v1.2 sheet whose phases carry their guides, E as BreathEnvelope, and both haptics files")
    func guidedRender() throws {
        let folder = try TempFolder("guide-render")
        let path = try folder.write(Self.recipe, to: "g.yml")
        let (track, sheet) = try renderInProcess(path, to: folder.file("g.wav"))
        let text = try String(contentsOfFile: track.cueSheetPath, encoding: .utf8)
        #expect(text.contains("\"version\": 1.2") || text.contains("\"version\":1.2"), "\(text.prefix(200))")
        #expect(sheet.guide == CueSheet.Guide(shape: .linear))
        let recipe = try RecipeLoader.load(path: path)
        let settings = recipe.breathGuide
        #expect(!sheet.phases.isEmpty)
        for phase in sheet.phases { #expect(phase.guide == settings.guide(for: phase.kind), "phase \(phase.index) \(phase.kind)") }
        #expect(sheet.phases.contains { $0.guide == BreathGuide.none })

        // a player's E from the sheet is the renderer's, frame for frame, at every boundary and inside phases
        let t = try Timeline(recipe: recipe)
        let envelope = BreathEnvelope(timeline: t, guide: settings)
        let player = try CueTimeline(sheet)
        var frames: [Int64] = [0, 1, t.totalFrames - 1]
        for phase in sheet.phases {
            frames += [phase.startFrame, phase.startFrame + 1, (phase.startFrame + phase.endFrame) / 2, phase.endFrame - 1]
        }
        if let outro = t.section(.outro) { frames += stride(from: outro.startFrame, to: t.totalFrames, by: 997).map { $0 } }
        for frame in frames {
            #expect(abs(player.guide(atFrame: frame) - envelope.value(atFrame: frame)) < 1e-12, "frame \(frame)")
        }
        // the outro falls from where the last phase left it to 0 (here from 1 after the exhale's hold: none → 0)
        #expect(envelope.value(atFrame: t.totalFrames - 1) < 0.01)

        // `haptics: on` adds both sidecars, from the recipe's guide
        #expect(track.sidecarPaths == [folder.file("g.ahap"), folder.file("g.haptics.json")])
        let steps = HapticSteps(timeline: t, envelope: envelope)
        #expect(try String(contentsOfFile: folder.file("g.ahap"), encoding: .utf8) == AHAP.text(of: steps, id: "guided"))
        #expect(try String(contentsOfFile: folder.file("g.haptics.json"), encoding: .utf8) == AndroidHaptics.jsonText(of: steps, id: "guided"))
        // the default guide would differ: holds of `none` drop E to 0
        let defaults = HapticSteps(timeline: t, envelope: BreathEnvelope(timeline: t, guide: .defaults))
        #expect(defaults != steps)
    }

    @Test("a recipe without guide:, swell:, haptics: on writes no guide and no haptics files")
    func unguidedRender() throws {
        let folder = try TempFolder("guide-off")
        let plain = Self.recipe.replacingOccurrences(of: "guide: { hold: none, shape: linear }\nhaptics: on\n", with: "")
        #expect(!plain.contains("guide:") && !plain.contains("haptics"))
        let path = try folder.write(plain, to: "p.yml")
        let (track, sheet) = try renderInProcess(path, to: folder.file("p.wav"))
        #expect(sheet.guide == nil && sheet.phases.allSatisfy { $0.guide == nil })
        #expect(track.sidecarPaths.isEmpty)
        #expect(!(try String(contentsOfFile: track.cueSheetPath, encoding: .utf8)).contains("\"guide\""))
    }

    @Test("haptics past RecipeLimits.maxHapticEventsPerTrack: an error at haptics (65) before any audio is written")
    func hapticsLimit() throws {
        let folder = try TempFolder("guide-limit")
        // 12 h of 1-second inhale/exhale phases: 432,000 steps of 100 ms and 43,201 taps
        let path = try folder.write(
            """
            id: long
            pattern: { phases: [inhale: 1s, exhale: 1s] }
            duration: 12h
            cues: { inhale: { tone: 440 Hz, length: 100ms } }
            haptics: on
            output: { sample_rate: 8000, channels: 1 }
            """, to: "long.yml")
        let failure = try #require(renderFailure(path, to: folder.file("long.wav")))
        let diagnostic = try #require(failure.diagnostics.first)
        #expect(
            diagnostic.description.contains("long.yml:5:10: error: haptics: expected a track whose haptics hold at most 400,000 events"),
            "\(diagnostic)")
        #expect(diagnostic.kind == .data)
        #expect(try folder.listing().sorted() == ["long.yml"])
    }
}
