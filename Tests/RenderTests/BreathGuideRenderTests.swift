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

    /// How a case asks for haptics: a recipe line, and the command line's `--sidecars`.
    struct HapticsAsked: Sendable, CustomTestStringConvertible {
        let name: String
        let line: String
        let arguments: [String]
        /// Where the error is: at `haptics:`, or at the file's start without that key.
        let location: String
        var testDescription: String { name }
    }

    static let asked: [HapticsAsked] = [
        HapticsAsked(name: "haptics: on", line: "haptics: on", arguments: [], location: "long.yml:5:10:"),
        HapticsAsked(name: "--sidecars haptics", line: "guide: { shape: linear }", arguments: ["--sidecars", "haptics"], location: "long.yml:1:1:"),
        HapticsAsked(name: "--sidecars all, no guide:", line: "", arguments: ["--sidecars", "all"], location: "long.yml:1:1:"),
    ]

    /// 1-second inhale/exhale phases for `cycles` cycles (a tap at each inhale), haptics asked for as `asked` says.
    static func longRecipe(cycles: Int, _ asked: HapticsAsked) -> String {
        """
        id: long
        pattern: { phases: [inhale: 1s, exhale: 1s] }
        cycles: \(cycles)
        cues: { inhale: { tone: 440 Hz, length: 100ms } }
        \(asked.line)
        output: { sample_rate: 8000, channels: 1 }
        """
    }

    /// The haptic events of a recipe file, as the writers count them.
    static func events(_ path: String) throws -> Int {
        let recipe = try RecipeLoader.load(path: path)
        let timeline = try Timeline(recipe: recipe)
        return HapticSteps(timeline: timeline, envelope: BreathEnvelope(timeline: timeline, guide: recipe.breathGuide)).eventCount
    }

    @Test("render --check and --plan apply the haptics limit the render applies: 65 at haptics past it, 0 just under it", arguments: asked)
    func checkAppliesHapticsLimit(_ asked: HapticsAsked) throws {
        let folder = try TempFolder("guide-check-limit")
        // the events a cycle adds, from two short tracks; then the most cycles within the limit
        let one = try Self.events(folder.write(Self.longRecipe(cycles: 1, asked), to: "one.yml"))
        let perCycle = try Self.events(folder.write(Self.longRecipe(cycles: 2, asked), to: "two.yml")) - one
        try #require(perCycle > 0)
        let under = (RecipeLimits.maxHapticEventsPerTrack - one) / perCycle + 1
        let fits = try folder.write(Self.longRecipe(cycles: under, asked), to: "fits/long.yml")
        let over = try folder.write(Self.longRecipe(cycles: under + 1, asked), to: "over/long.yml")
        let (fitting, overflowing) = (try Self.events(fits), try Self.events(over))
        #expect(fitting <= RecipeLimits.maxHapticEventsPerTrack && overflowing > RecipeLimits.maxHapticEventsPerTrack, "\(fitting), \(overflowing)")
        for mode in ["--check", "--plan"] {
            let refused = try runRender([mode, over] + asked.arguments)
            #expect(refused.status == 65, "\(mode): \(refused)")
            let message =
                "\(asked.location) error: haptics: expected a track whose haptics hold at most 400,000 events, "
                + "found \(RecipeKeys.grouped(overflowing))"
            #expect(refused.stderr.contains(message), "\(mode): \(refused.stderr)")
            let passed = try runRender([mode, fits] + asked.arguments)
            #expect(passed.status == 0, "\(mode): \(passed)")
        }
        // the render refuses the same track with the same words, and writes nothing (`--sidecars` is the command line's)
        guard asked.arguments.isEmpty else { return }
        let failure = try #require(renderFailure(over, to: folder.file("over/long.wav")))
        #expect(failure.diagnostics.first.map { "\($0)".contains("\(asked.location) error: haptics: expected") } == true, "\(failure)")
        #expect(try folder.listing("over") == ["long.yml"])
    }
}
