import AudioCore
import AudioIO
import Catalog
import CatalogManifest
import Foundation
import Render

/// The catalog commands: render a folder into a bundle, check it, merge shards. Each runs a job,
/// prints what it returns, and returns the failure the run ends with (nil when it succeeded);
/// `ExitStatus` makes it a status.
enum CatalogCommand {
    static func job(inputs: [String], options: Options) -> CatalogJob {
        CatalogJob(
            inputs: inputs, output: options.output ?? "dist", assets: options.assets,
            jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, format: options.format, sidecars: options.sidecars,
            budget: options.bundleBudget, shard: options.shard, refusingDrafts: options.noDrafts,
            observer: LossyTrace.observer(environment: ProcessInfo.processInfo.environment), locales: options.locales)
    }

    static func render(inputs: [String], options: Options) -> FailureKind? {
        let job = job(inputs: inputs, options: options)
        let survey = job.survey()
        if let stop = announce(survey, inputs: inputs) { return stop }
        if let refused = refuseDrafts(survey) { return refused }
        if survey.keepsEveryTrack {
            printError("render: the recipe scan was incomplete: no track is removed from \(job.output) in this run")
        }
        let progress = Progress(quiet: options.quiet)
        let outcome = job.render(survey, progress: progress)
        progress.end()
        guard let summary = outcome.summary else {
            if let stopped = outcome.stopped { printError(CommandText.text(stopped)) }
            return outcome.failure
        }
        if !options.quiet {
            printSummary(summary, shard: options.shard, scanProblems: survey.plan.scanProblems.count, drafted: outcome.drafted)
        }
        if let over = outcome.overBudget { printError(CommandText.text(over)) }
        report(outcome.failed)
        return outcome.failure
    }

    /// The survey of `--check` and `--plan` (nothing fingerprinted), its scan problems and warnings
    /// printed; nil (after saying so) when the inputs hold no recipe.
    static func checkedSurvey(inputs: [String], options: Options) -> Result<CatalogJob.Survey, Stop> {
        let survey = job(inputs: inputs, options: options).survey(checkOnly: true)
        if let stop = announce(survey, inputs: inputs) { return .failure(Stop(kind: stop)) }
        return .success(survey)
    }

    /// The failure a job ended with before any work (`checkedSurvey`).
    struct Stop: Error {
        let kind: FailureKind
    }

    /// Prints the scan's problems and the warnings; the failure that ends the job, after saying so,
    /// when the inputs hold no recipe or a locale asked for is none of theirs.
    private static func announce(_ survey: CatalogJob.Survey, inputs: [String]) -> FailureKind? {
        if let unknown = survey.unknownLocale {
            printError("render: " + CommandText.text(unknown))
            return unknown.kind
        }
        if survey.foundNothing {
            printError("render: no recipes (*.yml, *.yaml) found in \(inputs.joined(separator: " "))")
            return .noInput
        }
        for problem in survey.plan.scanProblems { printError(CommandText.text(problem)) }
        for warning in survey.warnings { printError(CommandText.text(warning)) }
        return nil
    }

    static func check(inputs: [String], options: Options) -> FailureKind? {
        let survey: CatalogJob.Survey
        switch checkedSurvey(inputs: inputs, options: options) {
        case .success(let found): survey = found
        case .failure(let stop): return stop.kind
        }
        if let refused = refuseDrafts(survey) { return refused }
        let checked = job(inputs: inputs, options: options).check(survey)
        report(checked.failed)
        if !options.quiet {
            let scan = checked.scanProblems == 0 ? "" : "; the scan was incomplete (\(problems(checked.scanProblems)))"
            let warnings = checked.warned == 0 ? "" : " (\(checked.warned) with warnings)"
            let tracks = checked.goodTracks == checked.goodRecipes ? "" : " (\(checked.goodTracks) tracks)"
            print(
                "checked \(checked.recipes) recipe\(checked.recipes == 1 ? "" : "s"): \(checked.goodRecipes) good\(tracks)\(warnings), \(checked.failed.count) with errors\(scan)"
            )
        }
        return checked.failure
    }

    /// `--no-drafts` with draft prompts: each draft printed, located, and `.data` (nothing was rendered); nil without.
    private static func refuseDrafts(_ survey: CatalogJob.Survey) -> FailureKind? {
        let drafts = survey.draftsRefused
        guard !drafts.isEmpty else { return nil }
        for diagnostic in drafts { printError(CommandText.text(diagnostic)) }
        let files = survey.draftRecipeFiles
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
            guard let over = merged.overBudget(folder: output) else { return nil }
            printError(CommandText.text(over))
            return over.kind
        } catch let refused as DiagnosticList {
            // nothing was written: noInput for something missing, a setting for a folder given twice, data for bad data
            for diagnostic in refused.diagnostics { printError(CommandText.text(diagnostic)) }
            return refused.kind
        } catch let error as AudioError {
            printError(CommandText.text(error.diagnostic))
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

    /// `1 track`, `3 tracks`.
    private static func tracks(_ count: Int) -> String { "\(count) track\(count == 1 ? "" : "s")" }

    /// Prints every failed recipe's diagnostics under `N recipes failed:`; nothing when none failed.
    static func report(_ failures: [(file: String, diagnostics: [Diagnostic])]) {
        guard !failures.isEmpty else { return }
        printError("\(failures.count) recipe\(failures.count == 1 ? "" : "s") failed:")
        for failure in failures {
            for diagnostic in failure.diagnostics { printError(CommandText.text(diagnostic)) }
        }
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

    static func printError(_ text: String) { RenderCommand.printError(text) }
}
