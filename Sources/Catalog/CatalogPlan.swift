import AudioCore
import AudioIO
import CatalogManifest
import Foundation
import Recipe
import Render
import Sidecars
import Timeline

/// One track of a catalog, checked and fingerprinted, ready to render or skip.
public struct PlannedTrack: Sendable {
    public let recipe: Recipe
    /// Its session, locale and variant (recipe-v1.2 § Sessions in the catalog).
    let rendition: Rendition
    public let frames: Int64
    public let audioFile: String
    public let cueFile: String
    /// The sidecar files written beside it, by kind (always the waveform picture, for the preview page).
    public let sidecars: [(kind: SidecarKind, file: String)]
    public let fingerprint: String
    /// The version of each asset file (by resolved path) the fingerprint hashed: the render must read these.
    public let assetVersions: [String: FileIdentity]
    /// What the check noticed and let pass (`TrackRenderer.warnings(of:)`).
    public let warnings: [Diagnostic]

    /// The format its audio is delivered in: the recipe's, else the catalog's default, FLAC.
    static func format(of recipe: Recipe) -> AudioFormat { recipe.output.format ?? .flac }
    /// The format its audio is delivered in.
    var format: AudioFormat { Self.format(of: recipe) }
}

/// A catalog read and checked: the tracks that can be rendered, and every problem found.
public struct CatalogPlan: Sendable {
    public var tracks: [PlannedTrack] = []
    /// Problems by recipe file, in file order.
    public var failures: [(file: String, diagnostics: [Diagnostic])] = []
    /// Why the scan for recipes may have missed some (see `CatalogScan`), by path.
    public var scanProblems: [Diagnostic] = []
    public var recipeCount = 0
    /// Every locale of the recipes loaded, in lower case (a `--locale` no recipe has is a usage error).
    public var locales: Set<String> = []

    /// Every recipe under the inputs was found and loaded. Only then does the plan know that
    /// a track missing from it has no recipe any more, so that a run may remove its files.
    public var isComplete: Bool { scanProblems.isEmpty && failures.isEmpty }

    /// Loads every recipe, checks its timeline and assets, and fingerprints it.
    /// `format` (`--format`) delivers every track in that format instead of its recipe's.
    /// Duplicate ids are an error on every file that uses them. `sidecars` (from `--sidecars`) are
    /// written beside every track, with those each recipe asks for and the waveform picture.
    public static func make(
        paths: [String], assets: String?, hashes: AssetHashes, checkOnly: Bool = false, sidecars: Set<SidecarKind> = [],
        format: AudioFormat? = nil, locales: [String] = []
    ) -> CatalogPlan {
        var plan = CatalogPlan()
        let scan = CatalogScan.recipes(in: paths)
        plan.scanProblems = scan.problems.sorted { ($0.file ?? "") < ($1.file ?? "") }
        plan.recipeCount = scan.files.count
        var loaded: [(file: String, recipe: Recipe, rendition: Rendition)] = []
        for file in scan.files {
            do {
                var recipe = try RecipeLoader.load(path: file).settlingDraftVoices()
                if let format { recipe.deliver(as: format) }
                plan.locales.formUnion(recipe.locales.map { $0.lowercased() })
                // a recipe with variants makes a track per length, and with locales per locale (Rendition.tracks)
                for (track, rendition) in Rendition.tracks(of: recipe, locales: locales) { loaded.append((file, track, rendition)) }
            } catch {
                plan.failures.append((file, error.diagnostics))
            }
        }
        let headers = AssetHeaders()
        // a check speaks each draft text once (a render speaks it when it renders the track)
        let drafts = checkOnly ? DraftChecks() : nil
        // the problems of each variant of a recipe, by recipe file
        var variantFailures: [String: [(variant: Recipe, diagnostics: [Diagnostic])]] = [:]
        var byID: [String: [String]] = [:]
        for (file, recipe, _) in loaded { byID[recipe.id, default: []].append(file) }
        for (file, recipe, rendition) in loaded {
            if let owners = byID[recipe.id], owners.count > 1 {
                let others = owners.filter { $0 != file }.joined(separator: ", ")
                plan.failures.append(
                    (
                        file,
                        [
                            Diagnostic(
                                "duplicate id '\(recipe.id)' (also in \(others))",
                                at: recipe.location(of: "id"))
                        ]
                    ))
                continue
            }
            // a title or category the manifest could not hold is refused here, before the render, not at merge
            let texts: [(key: String, text: String?, limit: Int)] = [
                ("title", recipe.title, Manifest.Limits.maxTitleBytes),
                ("category", recipe.category, Manifest.Limits.maxCategoryBytes),
            ]
            let textProblems = texts.compactMap { item in
                item.text.flatMap { ManifestReader.textProblem($0, limit: item.limit) }
                    .map { Diagnostic("\(item.key): \($0) (a limit of the catalog's manifest)", at: recipe.location(of: item.key)) }
            }
            if !textProblems.isEmpty {
                plan.failures.append((file, textProblems))
                continue
            }
            do {
                let (used, timeline) = try TrackRenderer.checked(
                    recipe: recipe, assets: assets, headers: headers, drafts: drafts, sidecars: sidecars)
                let format = PlannedTrack.format(of: recipe)
                let audio = TrackFileNames.audio(recipe.id, format)
                let kinds = recipe.sidecarKinds(adding: sidecars.union([.waveform]))
                let files = kinds.map { (kind: $0, file: TrackFileNames.sidecar(recipe.id, $0)) }
                let fingerprint =
                    checkOnly
                    ? ""
                    : try Fingerprint.of(
                        recipe: recipe, outputFile: audio, sidecars: files.map(\.file), assets: used.sorted(), hashes: hashes)
                var versions: [String: FileIdentity] = [:]
                for path in used { versions[path] = hashes.identity(of: path) }
                plan.tracks.append(
                    PlannedTrack(
                        recipe: recipe, rendition: rendition, frames: timeline.totalFrames, audioFile: audio,
                        cueFile: TrackFileNames.cueSheet(recipe.id), sidecars: files, fingerprint: fingerprint,
                        assetVersions: versions, warnings: Self.warnings(of: recipe)))
            } catch let error as DiagnosticList {
                plan.failures.append((file, error.diagnostics))
                if recipe.id != recipe.session { variantFailures[file, default: []].append((recipe, error.diagnostics)) }
            } catch {
                plan.failures.append((file, [Diagnostic("\(error)", file: file, kind: .data)]))
            }
        }
        // a recipe's variants fail together, under its file once
        var merged: [(file: String, diagnostics: [Diagnostic])] = []
        for failure in plan.failures where variantFailures[failure.file] == nil {
            if let i = merged.firstIndex(where: { $0.file == failure.file }) {
                merged[i].diagnostics += failure.diagnostics
            } else {
                merged.append(failure)
            }
        }
        for (file, failures) in variantFailures {
            merged.append((file, VariantDiagnostics.merged(failures, of: loaded.filter { $0.file == file }.count)))
        }
        plan.failures = merged.sorted { $0.file < $1.file }
        // and none of them renders: a recipe is fixed and rendered as a whole
        let failed = Set(merged.map(\.file))
        plan.tracks.removeAll { failed.contains($0.recipe.file) }
        return plan
    }

    /// A track's warnings: its recipe's, and a warning per draft prompt of its own, named when the
    /// recipe makes several tracks (recipe-v1.2 § Drafts made visible: every rendition warns).
    static func warnings(of track: Recipe) -> [Diagnostic] {
        let drafts = TrackRenderer.draftWarnings(of: track)
        let own = track.id == track.session ? drafts : track.naming(drafts)
        return TrackRenderer.inLineOrder(TrackRenderer.warnings(of: track).filter { !drafts.contains($0) } + own)
    }

    /// The recipes that make good tracks (a recipe with variants makes several).
    public var goodRecipeCount: Int { Set(tracks.map(\.recipe.file)).count }

    /// Every id the catalog holds (good tracks), sorted.
    public var ids: [String] { tracks.map(\.recipe.id).sorted() }
}
