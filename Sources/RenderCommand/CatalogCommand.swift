import AudioCore
import AudioIO
import Catalog
import Foundation
import Render

/// The catalog commands: render a folder into a bundle, check it, merge shards. Each returns
/// the failure the run ends with (nil when it succeeded); `ExitStatus` makes it a status.
enum CatalogCommand {
    static func render(inputs: [String], options: Options) -> FailureKind? {
        let output = options.output ?? "dist"
        let hashes = AssetHashes()
        let plan = CatalogPlan.make(paths: inputs, assets: options.assets, hashes: hashes, sidecars: options.sidecars, format: options.format)
        guard announce(plan, inputs: inputs, noDrafts: options.noDrafts) else { return .noInput }
        if options.noDrafts, let refused = refuseDrafts(plan) { return refused }
        if !plan.scanProblems.isEmpty && options.shard == nil {
            printError("render: the recipe scan was incomplete: no track is removed from \(output) in this run")
        }
        let progress = Progress(quiet: options.quiet)
        let renderer = CatalogRenderer(
            output: output, assets: options.assets, jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, progress: progress,
            budget: options.bundleBudget, observer: LossyTrace.observer(environment: ProcessInfo.processInfo.environment))
        let summary: CatalogRenderer.Summary
        do {
            summary = try renderer.run(plan: plan, shard: options.shard)
        } catch let error as AudioError {
            progress.end()
            printError("\(error.diagnostic)")
            return error.kind
        } catch let refusal as Diagnostic {
            // a shard after an incomplete scan: the scan's problems are printed above
            progress.end()
            printError("\(refusal)")
            return refusal.kind
        } catch {
            progress.end()
            printError("\(output): error: \(error)")
            return .cannotCreate
        }
        progress.end()
        if !options.quiet {
            // the tracks of the bundle that still speak a draft prompt
            let bundled = Set(summary.manifest.tracks.map(\.id))
            let drafted = plan.tracks.filter { bundled.contains($0.recipe.id) && !$0.recipe.draftPrompts.isEmpty }.count
            printSummary(summary, shard: options.shard, scanProblems: plan.scanProblems.count, drafted: drafted)
        }
        let overBudget = checkBudget(summary.manifest, folder: output)
        return failure(scan: plan.scanProblems, recipes: report(summary.failed)) ?? overBudget
    }

    /// The plan of `--check` and `--plan` (nothing fingerprinted), its scan problems and warnings
    /// printed; nil (after saying so) when the inputs hold no recipe.
    static func checkedPlan(inputs: [String], options: Options) -> CatalogPlan? {
        let plan = CatalogPlan.make(paths: inputs, assets: options.assets, hashes: AssetHashes(), checkOnly: true, format: options.format)
        return announce(plan, inputs: inputs, noDrafts: options.noDrafts) ? plan : nil
    }

    /// Prints the scan's problems and the warnings (a recipe's variants share its warnings: each once;
    /// with `noDrafts` not the drafts', which are errors then); false, after saying so, when the
    /// inputs hold no recipe.
    private static func announce(_ plan: CatalogPlan, inputs: [String], noDrafts: Bool) -> Bool {
        if plan.recipeCount == 0 && plan.failures.isEmpty && plan.scanProblems.isEmpty {
            printError("render: no recipes (*.yml, *.yaml) found in \(inputs.joined(separator: " "))")
            return false
        }
        for problem in plan.scanProblems { printError("\(problem)") }
        var printed = noDrafts ? Set(plan.tracks.flatMap { TrackRenderer.draftWarnings(of: $0.recipe) }) : Set<Diagnostic>()
        for warning in plan.tracks.flatMap(\.warnings) where printed.insert(warning).inserted { printError("\(warning)") }
        return true
    }

    static func check(inputs: [String], options: Options) -> FailureKind? {
        guard let plan = checkedPlan(inputs: inputs, options: options) else { return .noInput }
        if options.noDrafts, let refused = refuseDrafts(plan) { return refused }
        let failure = failure(scan: plan.scanProblems, recipes: report(plan.failures))
        if !options.quiet {
            let scan = plan.scanProblems.isEmpty ? "" : "; the scan was incomplete (\(problems(plan.scanProblems.count)))"
            let warned = Set(plan.tracks.filter { !$0.warnings.isEmpty }.map(\.recipe.file)).count
            let warnings = warned == 0 ? "" : " (\(warned) with warnings)"
            let good = plan.goodRecipeCount
            let tracks = plan.tracks.count == good ? "" : " (\(plan.tracks.count) tracks)"
            print(
                "checked \(plan.recipeCount) recipe\(plan.recipeCount == 1 ? "" : "s"): \(good) good\(tracks)\(warnings), \(plan.failures.count) with errors\(scan)"
            )
        }
        return failure
    }

    /// `--no-drafts`: a catalog with a draft prompt anywhere renders nothing; each draft is printed, located.
    private static func refuseDrafts(_ plan: CatalogPlan) -> FailureKind? {
        // a recipe's variants share its prompts: each draft is named once
        var seen = Set<Diagnostic>()
        let drafts = plan.tracks.flatMap(\.recipe.draftPrompts).filter { seen.insert($0).inserted }
        guard !drafts.isEmpty else { return nil }
        for diagnostic in drafts { printError("\(diagnostic)") }
        let files = Set(plan.tracks.filter { !$0.recipe.draftPrompts.isEmpty }.map(\.recipe.file)).count
        printError(
            "render: --no-drafts: \(drafts.count) draft prompt\(drafts.count == 1 ? "" : "s") in \(files) recipe\(files == 1 ? "" : "s"); nothing was rendered"
        )
        return .data
    }

    static func merge(folders: [String], options: Options) -> FailureKind? {
        let output = options.output ?? "dist"
        do {
            let merged = try Merge.run(inputs: folders, output: output, budget: options.bundleBudget)
            if !options.quiet {
                print("merged \(merged.tracks.count) tracks from \(folders.count) folders into \(output)")
                print(bundleLine(merged))
            }
            return checkBudget(merged, folder: output)
        } catch let refused as DiagnosticList {
            // nothing was written: noInput for something missing, usage for a folder given twice, data for bad data
            for diagnostic in refused.diagnostics { printError("\(diagnostic)") }
            return refused.kind
        } catch let error as AudioError {
            printError("\(error.diagnostic)")
            return error.kind
        } catch let error as ManifestError {
            printError("\(error)")
            return .cannotCreate
        } catch {
            printError("\(output): error: \(error)")
            return .cannotCreate
        }
    }

    /// The summary's line on what the app ships: `bundled      62.4 MB in 8 tracks (budget 80.0 MB); 2 on demand: 95.1 MB`.
    static func bundleLine(_ manifest: Manifest) -> String {
        let bundled = manifest.tracks.filter { $0.delivery == .bundled }
        let onDemand = manifest.tracks.filter { $0.delivery == .onDemand }
        let budget = manifest.budget.map { " (budget \(ByteSize.format($0)))" } ?? ""
        let fetched = onDemand.isEmpty ? "" : "; \(onDemand.count) on demand: \(ByteSize.format(onDemand.reduce(0) { $0 + $1.bytes }))"
        return "bundled      \(ByteSize.format(manifest.bundledBytes)) in \(tracks(bundled.count))\(budget)\(fetched)"
    }

    /// With a budget the bundled tracks' audio passes: prints why, naming the largest bundled
    /// tracks, and returns `.data`; nil when within it or without one.
    static func checkBudget(_ manifest: Manifest, folder: String) -> FailureKind? {
        guard let budget = manifest.budget, manifest.bundledBytes > budget else { return nil }
        let over = manifest.bundledBytes - budget
        let largest = manifest.largestBundled.prefix(5).map { "\($0.file) (\(ByteSize.format($0.bytes)))" }.joined(separator: ", ")
        printError(
            "\((folder as NSString).appendingPathComponent(Manifest.fileName)): error: the bundled tracks' audio is "
                + "\(ByteSize.format(manifest.bundledBytes)) (\(manifest.bundledBytes) bytes), over the \(ByteSize.format(budget)) budget "
                + "(\(budget) bytes) by \(ByteSize.format(over)); largest bundled: \(largest). Mark long tracks "
                + "'delivery: on-demand', or lower their output.bitrate")
        return .data
    }

    /// `1 track`, `3 tracks`.
    private static func tracks(_ count: Int) -> String { "\(count) track\(count == 1 ? "" : "s")" }

    /// The failure of a run whose scan found `scan` and whose recipes failed with `recipes`
    /// (from `report`): no input beats the rest, else the highest; nil when nothing failed.
    static func failure(scan: [Diagnostic], recipes: FailureKind?) -> FailureKind? {
        guard !scan.isEmpty else { return recipes }
        let kinds = [DiagnosticList(scan).kind] + [recipes].compactMap { $0 }
        return kinds.contains(.noInput) ? .noInput : kinds.max() ?? .data
    }

    /// Prints every failure's diagnostics; returns the kind of failure they call for (nil for none).
    static func report(_ failures: [(file: String, diagnostics: [Diagnostic])]) -> FailureKind? {
        guard !failures.isEmpty else { return nil }
        printError("\(failures.count) recipe\(failures.count == 1 ? "" : "s") failed:")
        var kind = FailureKind.data
        for failure in failures {
            for diagnostic in failure.diagnostics { printError("\(diagnostic)") }
            let list = DiagnosticList(failure.diagnostics)
            // no input beats the rest, whichever recipe failed first (as DiagnosticList.kind)
            if kind != .noInput && (list.kind == .noInput || list.kind > kind) { kind = list.kind }
        }
        return kind
    }

    private static func printSummary(_ s: CatalogRenderer.Summary, shard: ShardSpec?, scanProblems: Int, drafted: Int) {
        let factor = s.wallSeconds > 0 ? s.renderedSeconds / s.wallSeconds : 0
        let scan = scanProblems == 0 ? "" : "scan         incomplete (\(problems(scanProblems)); nothing removed)\n"
        let drafts =
            drafted == 0
            ? "" : "drafts       \(tracks(drafted)) with draft prompts, spoken by espeak-ng (render --no-drafts refuses them)\n"
        print(
            """
            \(shard.map { "shard        \($0)\n" } ?? "")rendered     \(s.rendered)
            up to date   \(s.upToDate)
            failed       \(s.failed.count)
            \(drafts)\
            \(scan)\
            audio        \(RenderCommand.clock(s.renderedSeconds)) rendered\(s.upToDate > 0 ? ", \(RenderCommand.clock(s.audioSeconds)) in the catalog" : "")
            wall time    \(String(format: "%.2f s", s.wallSeconds))
            realtime     \(s.rendered > 0 ? String(format: "%.0f× (the rendered audio over the wall time)", factor) : "–")
            \(bundleLine(s.manifest))
            """)
    }

    /// `1 problem`, `3 problems`.
    private static func problems(_ count: Int) -> String { "\(count) problem\(count == 1 ? "" : "s")" }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
