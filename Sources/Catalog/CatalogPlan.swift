import AudioCore
import AudioIO
import Foundation
import Recipe
import Render
import Sidecars
import Timeline

/// One track of a catalog, checked and fingerprinted, ready to render or skip.
public struct PlannedTrack: Sendable {
    public let recipe: Recipe
    public let frames: Int64
    public let audioFile: String
    public let cueFile: String
    /// The sidecar files written beside it, by kind (always the waveform picture, for the preview page).
    public let sidecars: [(kind: SidecarKind, file: String)]
    public let fingerprint: String
    /// The version of each asset file (by resolved path) the fingerprint hashed: the render must read these.
    public let assetVersions: [String: FileIdentity]
}

/// A catalog read and checked: the tracks that can be rendered, and every problem found.
public struct CatalogPlan: Sendable {
    public var tracks: [PlannedTrack] = []
    /// Problems by recipe file, in file order.
    public var failures: [(file: String, diagnostics: [Diagnostic])] = []
    /// Why the scan for recipes may have missed some (see `CatalogScan`), by path.
    public var scanProblems: [Diagnostic] = []
    public var recipeCount = 0

    /// Every recipe under the inputs was found and loaded. Only then does the plan know that
    /// a track missing from it has no recipe any more, so that a run may remove its files.
    public var isComplete: Bool { scanProblems.isEmpty && failures.isEmpty }

    /// Loads every recipe, checks its timeline and assets, and fingerprints it.
    /// Duplicate ids are an error on every file that uses them. `sidecars` (from `--sidecars`) are
    /// written beside every track, with those each recipe asks for and the waveform picture.
    public static func make(
        paths: [String], assets: String?, hashes: AssetHashes, checkOnly: Bool = false, sidecars: Set<SidecarKind> = []
    ) -> CatalogPlan {
        var plan = CatalogPlan()
        let scan = CatalogScan.recipes(in: paths)
        plan.scanProblems = scan.problems.sorted { ($0.file ?? "") < ($1.file ?? "") }
        plan.recipeCount = scan.files.count
        var loaded: [(file: String, recipe: Recipe)] = []
        for file in scan.files {
            do {
                loaded.append((file, try TrackRenderer.load(recipePath: file)))
            } catch {
                plan.failures.append((file, error.diagnostics))
            }
        }
        var byID: [String: [String]] = [:]
        for (file, recipe) in loaded { byID[recipe.id, default: []].append(file) }
        for (file, recipe) in loaded {
            if let owners = byID[recipe.id], owners.count > 1 {
                let others = owners.filter { $0 != file }.joined(separator: ", ")
                plan.failures.append((file, [Diagnostic("duplicate id '\(recipe.id)' (also in \(others))",
                                                        at: recipe.location(of: "id"))]))
                continue
            }
            do {
                let used = try TrackRenderer.check(recipe: recipe, assets: assets)
                let timeline = try Timeline(recipe: recipe)
                let format = recipe.output.format ?? .flac
                let audio = "\(recipe.id).\(format.fileExtension)"
                let kinds = sidecars.union([.waveform]).union(recipe.output.sidecars.compactMap(SidecarKind.init(rawValue:))).sorted()
                let files = kinds.map { (kind: $0, file: recipe.id + $0.suffix) }
                let fingerprint =
                    checkOnly
                    ? ""
                    : try Fingerprint.of(
                        recipe: recipe, outputFile: audio, sidecars: files.map(\.file), assets: used.sorted(), hashes: hashes)
                var versions: [String: FileIdentity] = [:]
                for path in used { versions[path] = hashes.identity(of: path) }
                plan.tracks.append(PlannedTrack(recipe: recipe, frames: timeline.totalFrames, audioFile: audio,
                                                cueFile: "\(recipe.id).cues.json", sidecars: files, fingerprint: fingerprint,
                                                assetVersions: versions))
            } catch let error as DiagnosticList {
                plan.failures.append((file, error.diagnostics))
            } catch {
                plan.failures.append((file, [Diagnostic("\(error)", file: file, kind: .data)]))
            }
        }
        plan.failures.sort { $0.file < $1.file }
        return plan
    }

    /// Every id the catalog holds (good tracks), sorted.
    public var ids: [String] { tracks.map(\.recipe.id).sorted() }
}
