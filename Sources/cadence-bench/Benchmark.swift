import Foundation

/// One benchmark run: prepares the inputs, runs the sections asked for, judges the goals.
struct Benchmark {
    let options: BenchOptions
    let tools: Tools
    let workspace: Workspace

    /// Runs every section in `options.sections`, printing progress to stderr.
    func run() throws(BenchError) -> BenchResults {
        var r = BenchResults(cores: ProcessInfo.processInfo.activeProcessorCount, renderVersion: try renderVersion())
        r.loadBefore = Self.loadAverage()
        r.checkRecipes = options.checkRecipes
        let sections = options.sections

        progress("generating the beds in \(workspace.beds)")
        var designs = [BedDesign.rain]
        if sections.contains(.catalog) || sections.contains(.check) { designs.append(.surf) }
        for design in designs {
            try BedFile.write(design, to: workspace.bed(design))
            r.beds.append(try BedFile.measure(workspace.bed(design)))
        }
        try BellTrack.write(to: workspace.bellTrack)
        r.forecast = try LimiterForecast.measure(
            bed: workspace.bed(.rain), bedGainDB: RecipeText.bedGainDB, target: RecipeText.targetLUFS, ceiling: RecipeText.ceilingDBTP)

        var rendered: String?
        var renderedShort: String?
        let seconds = options.referenceSeconds
        if sections.contains(.reference) {
            progress("render: reference job, \(RenderJobs.durationText(seconds))")
            let long = try RenderJobs.reference(
                seconds: seconds, label: "render reference \(RenderJobs.durationText(seconds))", tools: tools, workspace: workspace)
            r.reference = long.figures
            r.referenceLevels = long.levels
            rendered = long.output
            let short = options.shortSeconds
            if short < seconds {
                progress("render: reference job, \(RenderJobs.durationText(short)) (memory twin)")
                let twin = try RenderJobs.reference(
                    seconds: short, label: "render reference \(RenderJobs.durationText(short))", tools: tools, workspace: workspace)
                r.referenceShort = twin.figures
                renderedShort = twin.output
            }
            if r.reference?.stages == nil { r.notes.append("render printed no `cadence-stages:` line: no stage breakdown (n/a).") }
        }

        if sections.contains(.compare), let rendered {
            try compare(rendered: rendered, seconds: seconds, short: renderedShort.map { ($0, options.shortSeconds) }, into: &r)
        }

        if sections.contains(.aac) {
            let job = try AACJob.run(
                seconds: seconds, shortSeconds: options.minuteTwinSeconds, tools: tools, workspace: workspace, progress: progress)
            r.aac = job.render
            r.aacShort = job.renderShort
            r.aacLevels = job.levels
            r.ffmpegAAC = job.ffmpeg
            if job.ffmpeg == nil { r.notes.append("ffmpeg is not installed: no AAC comparison.") }
            if job.renderShort == nil { r.notes.append("The AAC job is 1 minute or shorter: no memory twin, so flat memory is n/a.") }
        }

        if sections.contains(.voice) {
            let job = try VoiceJob.run(
                seconds: seconds, shortSeconds: options.minuteTwinSeconds, tools: tools, workspace: workspace, progress: progress)
            r.voiced = job.voiced
            r.unvoiced = job.unvoiced
            r.voicedShort = job.voicedShort
            r.unvoicedShort = job.unvoicedShort
            r.voicePrompts = job.prompts
            if job.voicedShort == nil { r.notes.append("The voice job is 1 minute or shorter: no memory twins, so flat memory is n/a.") }
            if job.prompts.count != VoiceJob.promptTimes(seconds: seconds).count {
                let listed = job.prompts.count.map(String.init) ?? "no"
                r.notes.append(
                    "The voiced render's cue sheet lists \(listed) prompts, not the recipe's \(VoiceJob.promptTimes(seconds: seconds).count).")
            }
        }

        if sections.contains(.catalog) {
            let tracks = options.catalogTracks
            progress("render: catalog of \(tracks) × \(RenderJobs.durationText(options.catalogSeconds)), -j 1 then -j 2")
            let catalog = try RenderJobs.catalog(tracks: tracks, seconds: options.catalogSeconds, tools: tools, workspace: workspace)
            r.catalogJ1 = catalog.j1
            r.catalogJ2 = catalog.j2
            if !sections.contains(.compare) {
                r.notes.append("No --compare: no side-by-side flac -5 floors, so the -j 2 throughput goal is n/a.")
            }
        }

        if sections.contains(.check) {
            progress("render --check: \(options.checkRecipes) recipes")
            r.check = try RenderJobs.check(count: options.checkRecipes, tools: tools, workspace: workspace)
        }

        if sections.contains(.swell) {
            r.swell = try SwellJob.run(
                seconds: seconds, runs: options.swellRuns, tools: tools, workspace: workspace, progress: progress)
        }

        r.loadAfter = Self.loadAverage()
        let contended = r.runs.filter { run in run.cost.otherCPU.map { $0 > 0.1 * run.cost.wall } ?? false }
        if !contended.isEmpty {
            let list = contended.map { String(format: "%@ (%.1f s over %.1f s)", $0.label, $0.cost.otherCPU ?? 0, $0.cost.wall) }
            let advice = "Those figures are pessimistic; run again on a quiet machine."
            r.notes.append("Other work used the cores during: \(list.joined(separator: ", ")). \(advice)")
        }
        r.goals = Goals.judge(r)
        return r
    }

    /// The 1-minute load average from `/proc/loadavg`, or nil where there is none.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// The flac floors, ffmpeg and SoX, each where installed.
    ///
    /// The floors: `flac -5` on the reference's PCM and on its twin's (`short`, when there is a
    /// twin), then two `flac -5` side by side on the twin's PCM (on the reference's without a twin).
    private func compare(
        rendered: String, seconds: Int, short: (rendered: String, seconds: Int)?, into r: inout BenchResults
    ) throws(BenchError) {
        if let flac = tools.flac {
            progress("flac -5: the floor on the same PCM")
            let long = try FlacFloorJob.run(
                flac: flac, rendered: rendered, seconds: seconds, name: "floor", label: "flac -5 of the same PCM (floor)",
                sideBySide: short == nil, workspace: workspace)
            r.flacFloor = long.floor
            r.flacFloorPair = long.pair
            if let short {
                let length = RenderJobs.durationText(short.seconds)
                progress("flac -5: the floor on the \(length) twin's PCM, alone then two side by side")
                let twin = try FlacFloorJob.run(
                    flac: flac, rendered: short.rendered, seconds: short.seconds, name: "floor-\(RenderJobs.durationName(short.seconds))",
                    label: "flac -5 of the \(length) PCM (its floor)", sideBySide: true, workspace: workspace)
                r.flacFloorShort = twin.floor
                r.flacFloorPair = twin.pair
            }
        } else {
            r.notes.append("flac is not installed: no floor.")
        }
        if let ffmpeg = tools.ffmpeg {
            progress("ffmpeg: filter graph, two-pass loudnorm")
            let job = try FFmpegJob.run(ffmpeg: ffmpeg, seconds: seconds, workspace: workspace)
            r.ffmpeg = job.figures
            r.ffmpegNormalization = job.normalization
        } else {
            r.notes.append("ffmpeg is not installed: no ffmpeg comparison.")
        }
        if let sox = tools.sox {
            progress("sox: repeat, rate, gain, fade, mix, gain -n")
            r.sox = try SoxJob.run(sox: sox, bedSeconds: r.beds.first?.seconds ?? 180, seconds: seconds, workspace: workspace)
        } else {
            r.notes.append("sox is not installed: no SoX comparison.")
        }
    }

    /// `render --version`'s first line.
    private func renderVersion() throws(BenchError) -> String {
        let result = try ChildProcess.runChecked(
            tools.render, ["--version"], logPrefix: workspace.log("version"), what: "render --version")
        let line = result.stdout.split(separator: "\n").first.map(String.init) ?? "?"
        return line.trimmingCharacters(in: .whitespaces)
    }

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("cadence-bench: \(message)…\n".utf8))
    }
}
