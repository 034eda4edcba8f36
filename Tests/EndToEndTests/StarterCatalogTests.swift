import AudioCore
import CadenceCues
import Foundation
import Recipe
import Render
import TestKit
import Testing
import Timeline

/// The package's own recipes/ and assets/ folders.
enum StarterCatalog {
    static let root = repositoryRoot

    static var recipesFolder: String { root + "/recipes" }

    /// Every `*.yml` / `*.yaml` under recipes/, relative to the package root, sorted.
    static let recipes: [String] = {
        guard let walker = FileManager.default.enumerator(atPath: recipesFolder) else { return [] }
        var found: [String] = []
        while let entry = walker.nextObject() as? String {
            if entry.hasSuffix(".yml") || entry.hasSuffix(".yaml") { found.append("recipes/" + entry) }
        }
        return found.sorted()
    }()

    static var full: Bool { ProcessInfo.processInfo.environment["CADENCE_FULL_CATALOG"] == "1" }

    /// The recipes to render in full: all, or those whose path contains `CADENCE_CATALOG_ONLY`.
    static var toRender: [String] {
        guard let only = ProcessInfo.processInfo.environment["CADENCE_CATALOG_ONLY"], !only.isEmpty else { return recipes }
        return recipes.filter { $0.contains(only) }
    }
}

@Suite("The starter catalog")
struct StarterCatalogTests {
    @Test(
        "every recipe under recipes/ parses, lays out and finds its assets",
        .enabled(if: !StarterCatalog.recipes.isEmpty, "no recipes under recipes/ yet"))
    func validate() throws {
        for relative in StarterCatalog.recipes {
            let path = StarterCatalog.root + "/" + relative
            let data = try bytes(path)
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            let recipe: Recipe
            do {
                recipe = try RecipeLoader.parse(data, file: relative, defaultID: name)
            } catch {
                Issue.record("\(relative) does not parse:\n\(error)")
                continue
            }
            let timeline: Timeline
            do {
                timeline = try Timeline(recipe: recipe)
            } catch {
                Issue.record("\(relative): no timeline:\n\(error)")
                continue
            }
            checkTimeline(timeline, of: relative)

            // the files it names exist inside the assets folder
            do {
                guard let assets = try AssetFolder.locate(recipePath: path, override: nil) else {
                    if case .file = recipe.bed?.source { Issue.record("\(relative): no assets folder above it") }
                    continue
                }
                if case .file(let bed) = recipe.bed?.source {
                    let resolved = try assets.resolve(bed, key: "bed.file", in: recipe)
                    #expect(FileManager.default.isReadableFile(atPath: resolved), "\(relative): \(bed)")
                }
                for (name, sound) in recipe.cues {
                    if case .file(let file, _) = sound {
                        let resolved = try assets.resolve(file, key: "cues.\(name).file", in: recipe)
                        #expect(FileManager.default.isReadableFile(atPath: resolved), "\(relative): \(file)")
                    }
                }
            } catch {
                Issue.record("\(relative): \(error)")
            }
        }
    }

    @Test(
        "every recipe under recipes/ renders (CADENCE_FULL_CATALOG=1)",
        .enabled(if: StarterCatalog.full && !StarterCatalog.recipes.isEmpty, "set CADENCE_FULL_CATALOG=1 to render the catalog"),
        .serialized,  // one long track at a time: steady progress, bounded memory
        arguments: StarterCatalog.toRender)
    func render(_ relative: String) throws {
        let folder = try TempFolder("catalog")
        let path = StarterCatalog.root + "/" + relative
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        // the file type the recipe asks for (output.format), FLAC otherwise
        let recipe = try RecipeLoader.parse(try bytes(path), file: relative, defaultID: name)
        let output = folder.file("\(recipe.id).\(recipe.output.format?.fileExtension ?? "flac")")
        let track = try TrackRenderer().render(recipe: RecipeLoader.load(path: path), outputPath: output, assets: nil)
        let sheet = try readCueSheet(track.cueSheetPath)
        let audio = try readAudio(output)
        #expect(Int64(audio.frames) == track.frames)
        #expect(sheet.audio.frames == track.frames)
        #expect(sheet.audio.sha256 == (try sha256(ofFile: output)))
        for (a, b) in zip(sheet.phases, sheet.phases.dropFirst()) { #expect(a.endFrame == b.startFrame) }
        if let target = track.recipe.output.loudness {
            let measured = try measureLoudness(audio)
            #expect(abs(measured.lufs - target) <= 0.5, "\(relative): \(measured.lufs) LUFS, target \(target)")
            #expect(measured.truePeak <= track.recipe.output.truePeak, "\(relative): true peak \(measured.truePeak) dBTP")
        }
    }

    /// Frames, sections and phases of a timeline: exact, contiguous, tiling.
    private func checkTimeline(_ timeline: Timeline, of name: String) {
        let rate = Int128(timeline.sampleRate)
        let nanos = Int128(timeline.duration.nanoseconds)
        // floor(duration × rate + 1/2), from nanoseconds
        let frames = Int64((2 * nanos * rate + 1_000_000_000) / 2_000_000_000)
        #expect(timeline.totalFrames == frames, "\(name): \(timeline.totalFrames) frames, expected \(frames)")
        #expect(timeline.sections.first?.startFrame == 0, "\(name)")
        #expect(timeline.sections.last?.endFrame == timeline.totalFrames, "\(name)")
        for (a, b) in zip(timeline.sections, timeline.sections.dropFirst()) {
            #expect(a.endFrame == b.startFrame, "\(name): \(a.kind) → \(b.kind)")
        }
        // one practice section per program segment, each tiled by its own phases
        let practice = timeline.practiceSections
        #expect(practice.count == (timeline.phases.last?.segment ?? -1) + 1, "\(name): \(practice.count) practice sections")
        for (index, section) in practice.enumerated() {
            let inside = timeline.phases.filter { $0.segment == index }
            #expect(inside.first?.startFrame == section.startFrame, "\(name): segment \(index) starts")
            #expect(inside.last?.endFrame == section.endFrame, "\(name): segment \(index) ends")
        }
        for (a, b) in zip(timeline.phases, timeline.phases.dropFirst()) {
            #expect(a.endFrame == b.startFrame, "\(name): phase \(a.index)")
        }
        for phase in timeline.phases {
            let start = Int64((2 * Int128(phase.start.nanoseconds) * rate + 1_000_000_000) / 2_000_000_000)
            #expect(phase.startFrame == start, "\(name): phase \(phase.index) start")
        }
    }
}
