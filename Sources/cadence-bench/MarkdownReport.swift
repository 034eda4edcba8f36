import Foundation

/// The report as Markdown: the jobs' figures, the stage breakdown, the ratios and the goals.
enum MarkdownReport {
    static func text(_ r: BenchResults) -> String {
        var out = "## cadence-bench\n\n"
        out += "`render` \(r.renderVersion), \(r.cores) cores. Peak RSS is `ru_maxrss` (1 MB = 10⁶ bytes); "
        out += "CPU is user + system time from `wait4`; × realtime is audio seconds per wall second."
        if let before = r.loadBefore, let after = r.loadAfter {
            out += String(format: " Load average %.2f before, %.2f after.", before, after)
        }
        out += "\n\n"
        out += beds(r)
        out += figures(r)
        out += stages(r)
        out += ratios(r)
        out += goals(r)
        if !r.notes.isEmpty {
            out += "\nNotes:\n\n" + r.notes.map { "- \($0)\n" }.joined()
        }
        return out
    }

    private static func beds(_ r: BenchResults) -> String {
        var out = ""
        for bed in r.beds {
            out += String(
                format: "- Bed `%@`: %.0f s at %.1f kHz, %.2f LUFS, %.2f dBTP (crest %.1f dB), sha256 %@…\n",
                bed.file, bed.seconds, Double(bed.sampleRate) / 1000, bed.loudness, bed.truePeak, bed.crest,
                String(bed.sha256.prefix(16)))
        }
        if let f = r.forecast {
            out += String(
                format: "- Limiter forecast: the bed at -14 dB with the bells measures %.2f LUFS, %.2f dBTP; a plain gain to -16 LUFS "
                    + "would put its true peak at %.2f dBTP, %@ render's plain-gain limit of %.1f dBTP: the limiter is %@.\n",
                f.mixLoudness, f.mixTruePeak, f.peakAtTarget, f.limiterNeeded ? "over" : "under", f.plainGainLimit,
                f.limiterNeeded ? "needed" : "NOT needed")
        }
        if let levels = r.referenceLevels, let lufs = levels.loudness, let peak = levels.truePeak {
            var line = String(format: "- Reference output: %.2f LUFS, %.2f dBTP", lufs, peak)
            if let limiter = r.reference?.stages?.seconds["limiter"] {
                line += String(format: "; limiter time %.2f s (%@)", limiter, limiter > 0 ? "the limiter ran" : "the limiter did not run")
            }
            out += line + ".\n"
        }
        if let levels = r.aacLevels, let lufs = levels.loudness, let peak = levels.truePeak {
            var line = String(format: "- AAC output (decoded by render's lossy check): %.2f LUFS, %.2f dBTP", lufs, peak)
            if let passes = r.aac?.stages?.passes {
                // pass 1 measures; every later pass over the mix is one encoding (the lossy check may ask for more)
                line += "; \(passes - 1) encoding\(passes == 2 ? "" : "s") of the mix"
            }
            out += line + ".\n"
        }
        if let prompts = r.voicePrompts {
            let count = prompts.count.map { "\($0) prompts" } ?? "no prompts (no `voice` list in its cue sheet)"
            let depths = prompts.duckDB.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            out += "- Voiced output (its cue sheet): \(count) of \(VoiceJob.clipSeconds) s"
            out += (depths.isEmpty ? "" : ", the bed ducked \(depths) dB") + ".\n"
        }
        return out.isEmpty ? "" : out + "\n"
    }

    private static func figures(_ r: BenchResults) -> String {
        let runs = r.runs
        guard !runs.isEmpty else { return "" }
        var out = "| job | audio | wall s | × realtime | CPU s | CPU / wall | peak RSS MB | other CPU s |\n"
        out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for run in runs {
            out += "| \(run.label) | \(run.audioSeconds > 0 ? clock(run.audioSeconds) : "—") | "
            out += String(format: "%.2f | ", run.cost.wall)
            out += (run.realtime.map { String(format: "%.0f×", $0) } ?? "—") + " | "
            out += String(format: "%.2f | %.2f | %.1f | ", run.cost.cpu, run.cpuShare, Double(run.cost.maxRSSKiB) * 1024 / Goals.megabyte)
            out += (run.cost.otherCPU.map { String(format: "%.1f", $0) } ?? "n/a") + " |\n"
        }
        out += "\n*other CPU s*: CPU time the rest of the machine used during the job (`/proc/stat`); "
        out += "well above 0, other work competed for the cores and the job's figures are pessimistic.\n"
        if let type = r.ffmpegNormalization { out += "\nffmpeg's loudnorm pass 2 reported `normalization_type: \(type)`.\n" }
        return out + "\n"
    }

    private static func stages(_ r: BenchResults) -> String {
        let runs =
            [
                r.reference, r.referenceShort, r.aac, r.aacShort, r.unvoiced, r.voiced, r.unvoicedShort, r.voicedShort,
                r.catalogJ1, r.catalogJ2,
            ]
            .compactMap { $0 } + (r.swell.map { $0.plain + $0.tone + $0.pink } ?? [])
        guard !runs.isEmpty else { return "" }
        let names = runs.compactMap(\.stages).first?.stageNames ?? StageBreakdown.stageOrder
        var out = "### Stages (thread seconds, from `CADENCE_STAGES=1`)\n\n"
        out += "| run | " + names.joined(separator: " | ") + " | sum | passes | remeasured | beds prepared |\n"
        out += "| --- |" + String(repeating: " ---: |", count: names.count + 4) + "\n"
        for run in runs {
            out += "| \(run.label) | "
            guard let stages = run.stages else {
                out += Array(repeating: "n/a", count: names.count + 4).joined(separator: " | ") + " |\n"
                continue
            }
            out += names.map { stages.seconds[$0].map { String(format: "%.2f", $0) } ?? "n/a" }.joined(separator: " | ")
            out += String(format: " | %.2f | ", stages.total)
            out += (stages.passes.map(String.init) ?? "n/a") + " | " + remeasured(run) + " | "
            out += (stages.bedsPrepared.map(String.init) ?? "n/a") + " |\n"
        }
        out += "\n*remeasured*: audio rendered again under the limiter to correct its gain (`remeasured_frames`), "
        out += "in seconds and as a share of the run's audio; summed over the gains the limiter's search tried, "
        out += "so it can pass 100 %; not counted in *passes*.\n"
        return out + "\n"
    }

    private static func ratios(_ r: BenchResults) -> String {
        let ref = r.reference
        let rows: [(String, Double?)] = [
            ("render wall / flac -5 floor wall", Goals.ratio(ref?.cost.wall, r.flacFloor?.cost.wall)),
            ("render CPU / flac -5 floor CPU", Goals.ratio(ref?.cost.cpu, r.flacFloor?.cost.cpu)),
            ("twin wall / its flac -5 floor wall", Goals.ratio(r.referenceShort?.cost.wall, r.flacFloorShort?.cost.wall)),
            ("twin CPU / its flac -5 floor CPU", Goals.ratio(r.referenceShort?.cost.cpu, r.flacFloorShort?.cost.cpu)),
            ("ffmpeg wall / render wall", Goals.ratio(r.ffmpeg?.cost.wall, ref?.cost.wall)),
            ("ffmpeg CPU / render CPU", Goals.ratio(r.ffmpeg?.cost.cpu, ref?.cost.cpu)),
            ("sox wall / render wall", Goals.ratio(r.sox?.cost.wall, ref?.cost.wall)),
            ("sox CPU / render CPU", Goals.ratio(r.sox?.cost.cpu, ref?.cost.cpu)),
            ("catalog -j 1 wall / -j 2 wall", Goals.ratio(r.catalogJ1?.cost.wall, r.catalogJ2?.cost.wall)),
            ("catalog -j 2 throughput / two side-by-side floors'", Goals.ratio(r.catalogJ2?.realtime, r.flacFloorPair?.realtime)),
            (
                "peak RSS, long / short reference",
                Goals.ratio(ref.map { Double($0.cost.maxRSSKiB) }, r.referenceShort.map { Double($0.cost.maxRSSKiB) })
            ),
            ("voiced wall / unvoiced wall", Goals.ratio(r.voiced?.cost.wall, r.unvoiced?.cost.wall)),
            (
                "peak RSS, voiced / unvoiced",
                Goals.ratio(r.voiced.map { Double($0.cost.maxRSSKiB) }, r.unvoiced.map { Double($0.cost.maxRSSKiB) })
            ),
            (
                "peak RSS, voiced long / voiced 1-minute",
                Goals.ratio(r.voiced.map { Double($0.cost.maxRSSKiB) }, r.voicedShort.map { Double($0.cost.maxRSSKiB) })
            ),
            (
                "peak RSS, unvoiced long / unvoiced 1-minute",
                Goals.ratio(r.unvoiced.map { Double($0.cost.maxRSSKiB) }, r.unvoicedShort.map { Double($0.cost.maxRSSKiB) })
            ),
            ("render AAC wall / ffmpeg aac wall", Goals.ratio(r.aac?.cost.wall, r.ffmpegAAC?.cost.wall)),
            ("render AAC CPU / ffmpeg aac CPU", Goals.ratio(r.aac?.cost.cpu, r.ffmpegAAC?.cost.cpu)),
            (
                "peak RSS, long / 1-minute AAC",
                Goals.ratio(r.aac.map { Double($0.cost.maxRSSKiB) }, r.aacShort.map { Double($0.cost.maxRSSKiB) })
            ),
        ]
        let plainSwell = r.swell.flatMap { SwellJob.medianCPU($0.plain) }
        let plainSwellWall = r.swell.flatMap { SwellJob.medianWall($0.plain) }
        let swellRows: [(String, Double?)] = [
            ("tone swell CPU / no swell CPU (medians)", Goals.ratio(r.swell.flatMap { SwellJob.medianCPU($0.tone) }, plainSwell)),
            ("pink-noise swell CPU / no swell CPU (medians)", Goals.ratio(r.swell.flatMap { SwellJob.medianCPU($0.pink) }, plainSwell)),
            ("tone swell wall / no swell wall (medians)", Goals.ratio(r.swell.flatMap { SwellJob.medianWall($0.tone) }, plainSwellWall)),
            ("pink-noise swell wall / no swell wall (medians)", Goals.ratio(r.swell.flatMap { SwellJob.medianWall($0.pink) }, plainSwellWall)),
        ]
        let present = (rows + swellRows).filter { $0.1 != nil }
        guard !present.isEmpty else { return "" }
        var out = "### Ratios\n\n| ratio | value |\n| --- | ---: |\n"
        for (name, value) in present { out += "| \(name) | \(String(format: "%.2f", value ?? 0)) |\n" }
        return out + "\n"
    }

    private static func goals(_ r: BenchResults) -> String {
        var out =
            "### Goals (issue 12; AAC: issue 13; voice: issue 14; swell: issue 33)\n\n| goal | target | measured | verdict |\n| --- | --- | ---: | --- |\n"
        for g in r.goals { out += "| \(g.goal) | \(g.target) | \(g.measured) | \(g.verdict) |\n" }
        return out
    }

    /// `166.5 s (4.6 %)`: the audio a run re-measured under the limiter; n/a when its stage line has no count.
    static func remeasured(_ run: RunFigures) -> String {
        guard let seconds = run.remeasuredSeconds else { return "n/a" }
        return String(format: "%.1f s", seconds) + (run.remeasuredFraction.map { " (\(Goals.percent($0)))" } ?? "")
    }

    /// `3600` → `60:00`, `5400` → `1:30:00`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole >= 3600
            ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60) : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}
