import Foundation

/// One goal of issue 12 (or 13, 14) with what was measured against it.
struct GoalResult: Codable, Sendable {
    var goal: String
    var target: String
    /// The figure, as shown; "n/a" when the run did not measure it.
    var measured: String
    /// true PASS, false MISS, nil not measured.
    var pass: Bool?

    var verdict: String { pass.map { $0 ? "PASS" : "MISS" } ?? "n/a" }
}

/// Judges the goals of issue 12 from a run's figures, with the goals of issue 5 it keeps,
/// issue 13's for AAC and issue 14's for voice prompts.
///
/// Every floor is `flac -5` on PCM `render` wrote in the same run: the reference hour against
/// the hour's floor, the 10-minute twin against its own, the `-j 2` catalog against two floors
/// run side by side. The AAC hour's yardstick is ffmpeg's `aac` encoder on the same recipe's
/// PCM, in the same run; the voiced hour's is the same recipe rendered without voice.
enum Goals {
    static let megabyte = 1_000_000.0
    /// The lengths the goals speak of; a run at other lengths says what it measured.
    static let referenceSeconds = 3600.0
    static let twinSeconds = 600.0
    static let catalogAudioSeconds = 20 * 600.0

    static func judge(_ r: BenchResults) -> [GoalResult] {
        var goals: [GoalResult] = []
        func add(_ goal: String, _ target: String, _ value: Double?, format: (Double) -> String, pass: (Double) -> Bool) {
            goals.append(judged(goal, target, value, format: format, pass: pass))
        }
        let ref = r.reference
        let twin = r.referenceShort
        let refNote = lengthNote(ref, expected: referenceSeconds)
        add("reference hour, wall time" + refNote, "≥ 250× realtime", ref?.realtime, format: { times($0) }, pass: { $0 >= 250 })
        add(
            "wall vs flac -5 floor", "≤ 1.4× the floor", ratio(ref?.cost.wall, r.flacFloor?.cost.wall), format: { times($0, 2) },
            pass: { $0 <= 1.4 })
        add(
            "CPU vs flac -5 floor", "≤ 1.8× the floor's CPU", ratio(ref?.cost.cpu, r.flacFloor?.cost.cpu), format: { times($0, 2) },
            pass: { $0 <= 1.8 })
        add(
            "10-minute twin, wall vs its flac -5 floor" + lengthNote(twin, expected: twinSeconds), "≤ 1.7× its floor",
            ratio(twin?.cost.wall, r.flacFloorShort?.cost.wall), format: { times($0, 2) }, pass: { $0 <= 1.7 })
        goals.append(passesGoal(ref, note: refNote))
        add(
            "faster than ffmpeg (wall)", "≥ 10×", ratio(r.ffmpeg?.cost.wall, ref?.cost.wall), format: { times($0, 1) },
            pass: { $0 >= 10 })
        add(
            "faster than SoX (wall)", "≥ 1.5×", ratio(r.sox?.cost.wall, ref?.cost.wall), format: { times($0, 2) },
            pass: { $0 >= 1.5 })
        let peak = [ref, twin].compactMap { $0?.cost.maxRSSKiB }.max().map { Double($0) * 1024 / megabyte }
        add("peak RSS (reference runs)", "≤ 64 MB", peak, format: { String(format: "%.1f MB", $0) }, pass: { $0 <= 64 })
        add(
            "RSS long vs short run", "same within 10 %",
            ratio(ref.map { Double($0.cost.maxRSSKiB) }, twin.map { Double($0.cost.maxRSSKiB) }),
            format: { String(format: "%.2f×", $0) }, pass: { abs($0 - 1) <= 0.1 })
        add(
            "catalog -j 2 vs two flac -5 side by side (throughput)" + lengthNote(r.catalogJ2, expected: catalogAudioSeconds, catalog: true),
            "≥ 60 % of theirs", ratio(r.catalogJ2?.realtime, r.flacFloorPair?.realtime), format: { percent($0, 0) },
            pass: { $0 >= 0.6 })
        add(
            "catalog -j 2 vs -j 1 (wall)", "≥ 1.8× faster", ratio(r.catalogJ1?.cost.wall, r.catalogJ2?.cost.wall),
            format: { times($0, 2) }, pass: { $0 >= 1.8 })
        goals.append(bedsGoal(r))
        add(
            "render --check of \(r.checkRecipes) recipes", "< 1 s", r.check?.cost.wall, format: { String(format: "%.2f s", $0) },
            pass: { $0 < 1 })
        add(
            "AAC 128k hour, wall vs ffmpeg's aac on the same PCM (issue 13)" + lengthNote(r.aac, expected: referenceSeconds),
            "≤ 1.3× ffmpeg's", ratio(r.aac?.cost.wall, r.ffmpegAAC?.cost.wall), format: { times($0, 2) }, pass: { $0 <= 1.3 })
        add(
            "AAC: RSS long vs 1-minute run (issue 13)", "same within 10 %",
            ratio(r.aac.map { Double($0.cost.maxRSSKiB) }, r.aacShort.map { Double($0.cost.maxRSSKiB) }),
            format: { String(format: "%.2f×", $0) }, pass: { abs($0 - 1) <= 0.1 })
        goals.append(contentsOf: voiceGoals(r))
        goals.append(contentsOf: swellGoals(r))
        return goals
    }

    /// Issue 33's goal: a track with a swell (a tone, pink noise) within 1.1 × the time of the same
    /// track without one, the medians of the rounds: CPU time, and wall time (a swell that kept a pass
    /// on one core would cost wall time, not CPU).
    private static func swellGoals(_ r: BenchResults) -> [GoalResult] {
        let note = lengthNote(r.swell?.plain.first, expected: referenceSeconds)
        let measures: [(name: String, median: ([RunFigures]) -> Double?)] = [("CPU", SwellJob.medianCPU), ("wall", SwellJob.medianWall)]
        return measures.flatMap { measure in
            let plain = r.swell.flatMap { measure.median($0.plain) }
            return [("tone", r.swell?.tone), ("pink-noise", r.swell?.pink)].map { name, runs in
                judged(
                    "swell: a \(name) swell vs none, \(measure.name), median of \(runs?.count ?? 0) (issue 33)" + note, "≤ 1.1× no swell",
                    ratio(runs.flatMap { measure.median($0) }, plain), format: { times($0, 3) }, pass: { $0 <= 1.1 })
            }
        }
    }

    /// Issue 14's goals: the voiced run's wall time against the unvoiced run's, and its memory
    /// (peak RSS) against the unvoiced run's and, for flatness, against its own 1-minute twin's,
    /// with the unvoiced run's own long / 1-minute ratio beside it.
    private static func voiceGoals(_ r: BenchResults) -> [GoalResult] {
        func rss(_ run: RunFigures?) -> Double? { run.map { Double($0.cost.maxRSSKiB) } }
        let note = lengthNote(r.voiced, expected: referenceSeconds)
        var goals = [
            judged(
                "voice: a prompt a minute, ducking, vs no voice, wall (issue 14)" + note, "≤ 1.15× unvoiced",
                ratio(r.voiced?.cost.wall, r.unvoiced?.cost.wall), format: { times($0, 2) }, pass: { $0 <= 1.15 }),
            judged(
                "voice: peak RSS voiced vs unvoiced (issue 14)" + note, "same within 10 %", ratio(rss(r.voiced), rss(r.unvoiced)),
                format: { String(format: "%.2f×", $0) }, pass: { abs($0 - 1) <= 0.1 }),
        ]
        let unvoicedFlat = ratio(rss(r.unvoiced), rss(r.unvoicedShort))
        var flat = judged(
            "voice: peak RSS voiced long vs 1-minute run (issue 14)", "same within 10 %", ratio(rss(r.voiced), rss(r.voicedShort)),
            format: { String(format: "%.2f×", $0) }, pass: { abs($0 - 1) <= 0.1 })
        if let unvoicedFlat, flat.pass != nil { flat.measured += String(format: " (unvoiced %.2f×)", unvoicedFlat) }
        goals.append(flat)
        return goals
    }

    /// A goal with its figure formatted and judged; n/a when the figure is missing or not finite.
    private static func judged(
        _ goal: String, _ target: String, _ value: Double?, format: (Double) -> String, pass: (Double) -> Bool
    ) -> GoalResult {
        guard let value, value.isFinite else { return GoalResult(goal: goal, target: target, measured: "n/a", pass: nil) }
        return GoalResult(goal: goal, target: target, measured: format(value), pass: pass(value))
    }

    /// `passes` of the reference run, at most 2 (pass 1 and the encode pass), with the share of
    /// the track re-measured under the limiter beside it: `2 (remeasured 4.6 %)`.
    private static func passesGoal(_ ref: RunFigures?, note: String) -> GoalResult {
        var goal = GoalResult(goal: "passes (reference hour)" + note, target: "≤ 2", measured: "n/a", pass: nil)
        guard let ref else { return goal }
        guard let passes = ref.stages?.passes else {
            goal.measured = "n/a (no stage line)"
            return goal
        }
        goal.measured = "\(passes) (remeasured \(ref.remeasuredFraction.map { percent($0) } ?? "n/a"))"
        goal.pass = passes <= 2
        return goal
    }

    /// Beds prepared by each catalog render, 2 each (the two shared beds, once per process).
    private static func bedsGoal(_ r: BenchResults) -> GoalResult {
        let goal = "beds prepared once per catalog"
        let target = "2 (two shared beds)"
        let runs = [r.catalogJ1, r.catalogJ2].compactMap { $0 }
        let prepared = runs.compactMap { $0.stages?.bedsPrepared }
        guard !runs.isEmpty, prepared.count == runs.count else {
            return GoalResult(goal: goal, target: target, measured: runs.isEmpty ? "n/a" : "n/a (no stage line)", pass: nil)
        }
        return GoalResult(
            goal: goal, target: target, measured: prepared.map(String.init).joined(separator: " (-j 1), ") + " (-j 2)",
            pass: prepared.allSatisfy { $0 == 2 })
    }

    /// ` (measured at 6 min)` when `run` is not of the length the goal names, for a catalog
    /// ` (measured on 0:20:00 of audio)`; empty when it is, or did not run.
    private static func lengthNote(_ run: RunFigures?, expected: Double, catalog: Bool = false) -> String {
        guard let run, run.audioSeconds != expected else { return "" }
        return catalog
            ? " (measured on \(MarkdownReport.clock(run.audioSeconds)) of audio)"
            : " (measured at \(RenderJobs.durationText(Int(run.audioSeconds))))"
    }

    /// a / b, or nil when either is missing or b is 0.
    static func ratio(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b, b > 0 else { return nil }
        return a / b
    }

    /// `253×`, or with decimals `1.35×`.
    static func times(_ value: Double, _ decimals: Int = 0) -> String {
        String(format: "%.\(decimals)f×", value)
    }

    /// `0.046` → `4.6 %`, or with no decimals `5 %`.
    static func percent(_ fraction: Double, _ decimals: Int = 1) -> String {
        String(format: "%.\(decimals)f %%", fraction * 100)
    }
}
