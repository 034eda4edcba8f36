import AudioCore
import AudioIO
import CatalogManifest
import Foundation
import Recipe
import Render
import Sidecars
import Timeline

/// A folder of recipes → a catalog (`render RECIPES/ -o DIST/`), or its check (`--check`).
///
/// In two steps, so that a front end reports what was found before the render begins:
/// `survey` scans, loads and checks every recipe (`Survey`: what was found, what to report,
/// what stops the job); `render` renders the survey's tracks into the bundle and judges it
/// (`Outcome`: the summary, the failures, the budget's verdict, the failure the run ends with).
/// Messages name settings, not flags (`SettingWords`); nothing here prints but the `Progress` given.
public struct CatalogJob: Sendable {
    public var inputs: [String]
    /// The bundle folder.
    public var output: String
    public var assets: String?
    /// Tracks rendered at once.
    public var jobs: Int
    /// Every track in this format, whatever its recipe's `output.format` says.
    public var format: AudioFormat?
    /// Files beside every track, besides those its recipe lists.
    public var sidecars: Set<SidecarKind>
    /// The most the bundled tracks' audio may weigh, in bytes (checked after rendering).
    public var budget: Int64?
    /// Only this part of the catalog.
    public var shard: ShardSpec?
    /// Refuses the whole catalog, before rendering, when a prompt is still spoken by the draft voice.
    public var refusingDrafts: Bool
    /// Told what each track's lossy encodings measured (`TrackRenderer(observer:)`).
    public var observer: (any RenderObserver)?
    /// Only the renditions in these locales (recipes without `locales:` render as they are); a tag
    /// no recipe has is refused (`Survey.unknownLocale`).
    public var locales: [String]

    public init(
        inputs: [String], output: String, assets: String? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        format: AudioFormat? = nil, sidecars: Set<SidecarKind> = [], budget: Int64? = nil, shard: ShardSpec? = nil, refusingDrafts: Bool = false,
        observer: (any RenderObserver)? = nil, locales: [String] = []
    ) {
        self.locales = locales
        self.inputs = inputs
        self.output = output
        self.assets = assets
        self.jobs = jobs
        self.format = format
        self.sidecars = sidecars
        self.budget = budget
        self.shard = shard
        self.refusingDrafts = refusingDrafts
        self.observer = observer
    }

    /// What a catalog's scan and check found, before anything is rendered.
    public struct Survey: Sendable {
        /// The recipes, checked (and, for a render, fingerprinted).
        public let plan: CatalogPlan
        /// The inputs hold no recipe and nothing that failed: the job ends, with no input.
        public var foundNothing: Bool { plan.recipeCount == 0 && plan.failures.isEmpty && plan.scanProblems.isEmpty }
        /// The warnings to report, each once (a recipe's variants share theirs); when drafts are
        /// refused, not the drafts' warnings, which are errors then (`draftsRefused`).
        public let warnings: [Diagnostic]
        /// When drafts are refused and some prompt is a draft: each draft once, located. Nothing renders.
        public let draftsRefused: [Diagnostic]
        /// The recipe files the refused drafts are in.
        public let draftRecipeFiles: Int
        /// The scan was incomplete and the whole catalog renders: no track of an earlier run is removed.
        public let keepsEveryTrack: Bool
        /// A locale asked for that no recipe has: the job ends before any work (a usage error).
        public var unknownLocale: Diagnostic?
    }

    /// Scans the inputs, loads and checks every recipe; `checkOnly` (a check or a plan) fingerprints nothing.
    public func survey(checkOnly: Bool = false) -> Survey {
        let plan = CatalogPlan.make(
            paths: inputs, assets: assets, hashes: AssetHashes(), checkOnly: checkOnly, sidecars: sidecars, format: format,
            locales: locales)
        // a job refusing drafts reports them as errors (`draftsRefused`), not as warnings
        var reported = Set<Diagnostic>()
        let warnings = plan.tracks.flatMap(\.warnings).filter {
            !(refusingDrafts && $0.setting?.words == .draftsCanBeRefused) && reported.insert($0).inserted
        }
        var drafts: [Diagnostic] = []
        var files = 0
        if refusingDrafts {
            // a recipe's variants share its prompts: each draft is named once
            var seen = Set<Diagnostic>()
            drafts = plan.tracks.flatMap(\.recipe.draftPrompts).filter { seen.insert($0).inserted }
            files = Set(plan.tracks.filter { !$0.recipe.draftPrompts.isEmpty }.map(\.recipe.file)).count
        }
        var survey = Survey(
            plan: plan, warnings: warnings, draftsRefused: drafts, draftRecipeFiles: files,
            keepsEveryTrack: !plan.scanProblems.isEmpty && shard == nil)
        if let unknown = locales.first(where: { !plan.locales.contains($0.lowercased()) }) {
            let known = plan.locales.sorted()
            survey.unknownLocale = Diagnostic(
                "", .localeAskedFor,
                " '\(unknown)': no recipe has locale '\(unknown)' ("
                    + (known.isEmpty ? "no recipe has locales:" : "the recipes' locales: " + known.joined(separator: ", ")) + ")"
                    + (RenderJob.likely(unknown, in: known).map { "; did you mean '\($0)'?" } ?? ""),
                file: nil, kind: .setting)
        }
        return survey
    }

    /// What a catalog render did.
    public struct Outcome: Sendable {
        /// What the renderer reports: counts, times, the manifest written; nil when the run was stopped.
        public var summary: CatalogRenderer.Summary?
        /// Why the run stopped before the end (nothing was rendered, or the output could not be written).
        public var stopped: Diagnostic?
        /// The tracks of the bundle that still speak a draft prompt (`drafts` above 0 in `catalog.json`).
        public var drafted = 0
        /// The bundle is over its budget: why, naming its largest bundled tracks.
        public var overBudget: Diagnostic?
        /// The recipes that failed, by file, each with every diagnostic.
        public var failed: [(file: String, diagnostics: [Diagnostic])] = []
        /// The failure the run ends with; nil when it succeeded.
        public var failure: FailureKind?
    }

    /// Renders the survey's tracks (or the shard's) into the bundle folder, reporting to `progress`.
    public func render(_ survey: Survey, progress: Progress) -> Outcome {
        let plan = survey.plan
        let renderer = CatalogRenderer(output: output, assets: assets, jobs: jobs, progress: progress, budget: budget, observer: observer)
        var outcome = Outcome()
        do {
            outcome.summary = try renderer.run(plan: plan, shard: shard)
        } catch let error as AudioError {
            outcome.stopped = error.diagnostic
        } catch let refusal as Diagnostic {
            // a shard after an incomplete scan
            outcome.stopped = refusal
        } catch {
            outcome.stopped = Diagnostic("\(error)", file: output, kind: .cannotCreate)
        }
        guard let summary = outcome.summary else {
            outcome.failure = outcome.stopped?.kind
            return outcome
        }
        // recipe-v1.2 § Drafts made visible: the catalog's tracks whose cue sheet has a draft (its manifest entry's count)
        outcome.drafted = summary.manifest.tracks.filter { $0.drafts > 0 }.count
        outcome.overBudget = summary.manifest.overBudget(folder: output)
        outcome.failed = summary.failed
        outcome.failure = Self.failure(scan: plan.scanProblems, failed: summary.failed) ?? outcome.overBudget?.kind
        return outcome
    }

    /// What a check found: the survey's figures and the failure the check ends with.
    public struct Checked: Sendable {
        public var recipes = 0
        /// Recipes without errors, and the tracks they make (a recipe with variants makes several).
        public var goodRecipes = 0
        public var goodTracks = 0
        /// Good recipes with warnings.
        public var warned = 0
        public var failed: [(file: String, diagnostics: [Diagnostic])] = []
        public var scanProblems = 0
        public var failure: FailureKind?
    }

    /// Judges a check's survey (`survey(checkOnly: true)`).
    public func check(_ survey: Survey) -> Checked {
        let plan = survey.plan
        var checked = Checked()
        checked.recipes = plan.recipeCount
        checked.goodRecipes = plan.goodRecipeCount
        checked.goodTracks = plan.tracks.count
        checked.warned = Set(plan.tracks.filter { !$0.warnings.isEmpty }.map(\.recipe.file)).count
        checked.failed = plan.failures
        checked.scanProblems = plan.scanProblems.count
        checked.failure = Self.failure(scan: plan.scanProblems, failed: plan.failures)
        return checked
    }

    /// The failure a run ends with when its scan found `scan` and its recipes failed with `failed`:
    /// no input beats the rest, else the highest (a failed recipe at least `data`); nil when nothing failed.
    public static func failure(scan: [Diagnostic], failed: [(file: String, diagnostics: [Diagnostic])]) -> FailureKind? {
        var recipes: FailureKind?
        if !failed.isEmpty {
            var kind = FailureKind.data
            for failure in failed {
                let list = DiagnosticList(failure.diagnostics)
                // no input beats the rest, whichever recipe failed first (as DiagnosticList.kind)
                if kind != .noInput && (list.kind == .noInput || list.kind > kind) { kind = list.kind }
            }
            recipes = kind
        }
        guard !scan.isEmpty else { return recipes }
        let kinds = [DiagnosticList(scan).kind] + [recipes].compactMap { $0 }
        return kinds.contains(.noInput) ? .noInput : kinds.max() ?? .data
    }
}

extension Manifest {
    /// With a budget the bundled tracks' audio passes: why, naming the largest bundled tracks,
    /// located at the manifest in `folder`; nil when within it or without one.
    public func overBudget(folder: String) -> Diagnostic? {
        guard let budget, bundledBytes > budget else { return nil }
        let over = bundledBytes - budget
        let largest = largestBundled.prefix(5).map { "\($0.file) (\(ByteSize.format($0.bytes)))" }.joined(separator: ", ")
        return Diagnostic(
            "the bundled tracks' audio is \(ByteSize.format(bundledBytes)) (\(bundledBytes) bytes), over the \(ByteSize.format(budget)) budget "
                + "(\(budget) bytes) by \(ByteSize.format(over)); largest bundled: \(largest). Mark long tracks "
                + "'delivery: on-demand', or lower their output.bitrate",
            file: (folder as NSString).appendingPathComponent(Manifest.fileName), kind: .data)
    }
}

extension CatalogJob {
    /// A plan's tracks laid out (`render --plan`): each good track's timeline and output, and
    /// every recipe that failed (at the check or at the layout), by file.
    public struct Layout: Sendable {
        /// The tracks, in the survey's order: recipe, frames, and the output as it would be written.
        public var tracks: [(recipe: Recipe, timeline: Timeline, output: OutputSummary)] = []
        public var failed: [(file: String, diagnostics: [Diagnostic])] = []
        /// The recipes with a good track, and their tracks.
        public var goodRecipes = 0
        public var goodTracks = 0
        public var recipes = 0
        /// The failure the plan ends with; nil when it succeeded.
        public var failure: FailureKind?
    }

    /// Lays out a check's survey (`survey(checkOnly: true)`) without rendering. `singleOutput`:
    /// one recipe file whose output goes where its render would put it (that path, a variant's
    /// beside it; nil: `<id>.<format>` here); without, each track goes into the bundle folder.
    public func layout(_ survey: Survey, single: Bool, singleOutput: String?) -> Layout {
        let plan = survey.plan
        var layout = Layout()
        var failures = plan.failures
        for track in plan.tracks {
            let path: String?
            if single {
                path = singleOutput.map { path in
                    track.recipe.outputPath(path)
                }
            } else {
                path = (output as NSString).appendingPathComponent(track.audioFile)
            }
            do throws(DiagnosticList) {
                let timeline = try Timeline(recipe: track.recipe)
                let summary = try TrackRenderer.outputSummary(recipe: track.recipe, outputPath: path, timeline: timeline)
                layout.tracks.append((track.recipe, timeline, summary))
            } catch {
                // a recipe's variants fail under its file once
                let named = track.recipe.naming(error.diagnostics)
                if let i = failures.firstIndex(where: { $0.file == track.recipe.file }) {
                    failures[i].diagnostics += named
                } else {
                    failures.append((track.recipe.file, named))
                }
            }
        }
        failures.sort { $0.file < $1.file }
        layout.failed = failures
        layout.failure = Self.failure(scan: plan.scanProblems, failed: failures)
        let failed = Set(failures.map(\.file))
        let goodTracks = plan.tracks.filter { !failed.contains($0.recipe.file) }
        layout.goodTracks = goodTracks.count
        layout.goodRecipes = Set(goodTracks.map(\.recipe.file)).count
        layout.recipes = plan.recipeCount
        return layout
    }
}
