import AudioCore
import Foundation
import Render
import TestKit
import Testing

/// `RenderJob` in process: what `render RECIPE.yml` prints comes back as data, track by track.
@Suite struct RenderJobTests {
    /// Two variants and a draft prompt (a warning, the recipe's, so reported with the first track only).
    static let recipe = VariantRecipe.text(
        variants: "[5s, 9s]", extra: "voice:\n  prompts:\n    - { at: 1s, text: \"Breathe in\" }")

    @Test("each variant's track is handed over as it is written, in order, with a warning per draft prompt of its own; leftovers are removed")
    func tracksInOrder() throws {
        let folder = try TempFolder("render-job")
        let recipe = try folder.write(Self.recipe, to: "calm.yml")
        _ = try folder.folder("out")
        // a staging file a killed render of the first variant left (a process that is gone)
        let leftover = ".session-5s.wav.999999999.1.tmp"
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("out/" + leftover)))
        var seen: [String] = []
        let tracks = try RenderJob(recipePath: recipe, outputPath: folder.file("out/session.wav")).run { seen.append($0.rendered.audioPath) }
        #expect(tracks.map(\.rendered.audioPath) == [folder.file("out/session-5s.wav"), folder.file("out/session-9s.wav")])
        #expect(seen == tracks.map(\.rendered.audioPath))
        #expect(tracks.map(\.rendered.recipe.id) == ["calm-5s", "calm-9s"])
        // recipe-v1.2 § Drafts made visible: every rendition rendered warns of its drafts, naming itself
        #expect(
            tracks.map { $0.warnings.map(\.message) }
                == ["calm-5s", "calm-9s"].map {
                    [
                        "variant '\($0)': voice.prompts.0: a draft: espeak-ng ('en-us') speaks 'Breathe in' in place of a recording; record it and give the prompt its 'file:' (drafts can be refused)"
                    ]
                })
        #expect(tracks.allSatisfy { $0.warnings.first?.isWarning == true && $0.warnings.first?.setting?.words == .draftsCanBeRefused })
        #expect(tracks[0].leftoversRemoved == [leftover] && tracks[1].leftoversRemoved.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/" + leftover)))
    }

    @Test("refusing drafts fails before any work, at each draft prompt, naming the setting")
    func refusesDrafts() throws {
        let folder = try TempFolder("render-job-drafts")
        let recipe = try folder.write(Self.recipe, to: "calm.yml")
        #expect(throws: DiagnosticList.self) {
            try RenderJob(recipePath: recipe, outputPath: folder.file("session.wav"), refusingDrafts: true).run()
        }
        do {
            try RenderJob(recipePath: recipe, outputPath: folder.file("session.wav"), refusingDrafts: true).run()
        } catch {
            #expect(error.kind == .data)
            #expect(error.diagnostics.map(\.setting?.words) == [.refusingDrafts])
            #expect(error.diagnostics.first?.location?.line == 14, "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["calm.yml"])
    }
}
