import Foundation

/// The jobs that run `render` itself: the reference track, the catalog and `--check`.
///
/// Every run has `CADENCE_STAGES=1` in its environment, so a `render` with the stage
/// instrumentation reports its breakdown (see `StageBreakdown`).
enum RenderJobs {
    static let stagesEnvironment = ["CADENCE_STAGES": "1"]

    /// Renders the reference job at `seconds` into `DIR/reference/<id>.flac` and reads its levels
    /// back from the cue sheet.
    static func reference(
        seconds: Int, label: String, tools: Tools, workspace: Workspace
    ) throws(BenchError) -> (figures: RunFigures, output: String, levels: OutputLevels) {
        let id = "ref-\(durationName(seconds))"
        let recipe = "\(workspace.reference)/\(id).yml"
        let output = "\(workspace.reference)/\(id).flac"
        try Workspace.write(RecipeText.reference(id: id, seconds: seconds, bed: BedDesign.rain.name), to: recipe)
        try Workspace.remove(output)
        let arguments = [recipe, "-o", output, "--assets", workspace.assets, "--quiet"]
        let result = try ChildProcess.runChecked(
            tools.render, arguments, environment: stagesEnvironment, logPrefix: workspace.log(id), what: "render \(id).yml")
        let figures = RunFigures(
            label: label, audioSeconds: Double(seconds), cost: result.cost, stages: StageBreakdown.parse(stderr: result.stderr),
            command: commandLine(tools.render, arguments), sampleRate: RecipeText.sampleRate)
        let levels = readLevels(cueSheet: "\(workspace.reference)/\(id).cues.json")
        return (figures, output, levels)
    }

    /// Writes `tracks` catalog recipes of `seconds` each, alternating between the two beds, into a
    /// fresh `DIR/catalog/recipes/`, then renders the catalog with `-j 1` and with `-j 2`, each
    /// into a fresh folder (so nothing is up to date).
    static func catalog(
        tracks: Int, seconds: Int, tools: Tools, workspace: Workspace
    ) throws(BenchError) -> (j1: RunFigures, j2: RunFigures) {
        let recipes = workspace.catalog + "/recipes"
        try Workspace.freshFolder(recipes)
        for index in 0..<tracks {
            let id = String(format: "bench-cat-%02d", index + 1)
            let bed = index % 2 == 0 ? BedDesign.rain : BedDesign.surf
            try Workspace.write(
                RecipeText.catalogTrack(id: id, index: index, seconds: seconds, bed: bed.name), to: "\(recipes)/\(id).yml")
        }
        let label = "catalog \(tracks) × \(durationText(seconds))"
        var runs: [RunFigures] = []
        for jobs in [1, 2] {
            let dist = "\(workspace.catalog)/dist-j\(jobs)"
            try Workspace.freshFolder(dist)
            let arguments = [recipes, "-o", dist, "-j", "\(jobs)", "--assets", workspace.assets, "--quiet"]
            let result = try ChildProcess.runChecked(
                tools.render, arguments, environment: stagesEnvironment, logPrefix: workspace.log("catalog-j\(jobs)"),
                what: "render catalog -j \(jobs)")
            runs.append(
                RunFigures(
                    label: "\(label), -j \(jobs)", audioSeconds: Double(tracks * seconds), cost: result.cost,
                    stages: StageBreakdown.parse(stderr: result.stderr), command: commandLine(tools.render, arguments),
                    sampleRate: RecipeText.sampleRate))
        }
        return (runs[0], runs[1])
    }

    /// Writes `count` small recipes with distinct ids over the two beds into a fresh
    /// `DIR/check/recipes/` and times `render --check` on the folder.
    static func check(count: Int, tools: Tools, workspace: Workspace) throws(BenchError) -> RunFigures {
        let recipes = workspace.check + "/recipes"
        try Workspace.freshFolder(recipes)
        for index in 0..<count {
            let id = String(format: "bench-check-%03d", index + 1)
            let bed = index % 2 == 0 ? BedDesign.rain : BedDesign.surf
            let seconds = 300 + 60 * (index % 10)
            try Workspace.write(
                RecipeText.catalogTrack(id: id, index: index, seconds: seconds, bed: bed.name), to: "\(recipes)/\(id).yml")
        }
        let arguments = ["--check", recipes, "--assets", workspace.assets, "--quiet"]
        let result = try ChildProcess.runChecked(
            tools.render, arguments, environment: stagesEnvironment, logPrefix: workspace.log("check"),
            what: "render --check (\(count) recipes)")
        return RunFigures(
            label: "render --check, \(count) recipes", audioSeconds: 0, cost: result.cost,
            stages: StageBreakdown.parse(stderr: result.stderr), command: commandLine(tools.render, arguments))
    }

    /// `audio.loudness_lufs`, `audio.true_peak_dbtp` and `audio.frames` of a cue sheet; empty when unreadable.
    static func readLevels(cueSheet path: String) -> OutputLevels {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let audio = object["audio"] as? [String: Any]
        else { return OutputLevels() }
        return OutputLevels(
            loudness: (audio["loudness_lufs"] as? NSNumber)?.doubleValue,
            truePeak: (audio["true_peak_dbtp"] as? NSNumber)?.doubleValue,
            frames: (audio["frames"] as? NSNumber)?.intValue)
    }

    /// `3600` → `60m`, `90` → `1m30s`: for file names.
    static func durationName(_ seconds: Int) -> String {
        seconds % 60 == 0 ? "\(seconds / 60)m" : seconds < 60 ? "\(seconds)s" : "\(seconds / 60)m\(seconds % 60)s"
    }

    /// `3600` → `60 min`, `90` → `1.5 min`, `28` → `28 s`: for the table.
    static func durationText(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        return seconds % 60 == 0 ? "\(seconds / 60) min" : String(format: "%.1f min", Double(seconds) / 60)
    }

    /// A command line as a shell would show it (arguments with spaces or quotes are quoted).
    static func commandLine(_ executable: String, _ arguments: [String]) -> String {
        ([executable] + arguments).map { word in
            word.contains(where: { " '\"|;&$()[]*".contains($0) }) ? "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" : word
        }.joined(separator: " ")
    }
}
