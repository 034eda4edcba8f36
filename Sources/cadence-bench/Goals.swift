import Foundation

/// One goal of issue 5 with what was measured against it.
struct GoalResult: Codable, Sendable {
    var goal: String
    var target: String
    /// The figure, as shown; "n/a" when the run did not measure it.
    var measured: String
    /// true PASS, false MISS, nil not measured.
    var pass: Bool?

    var verdict: String { pass.map { $0 ? "PASS" : "MISS" } ?? "n/a" }
}

/// Judges the goals of issue 5 from a run's figures.
enum Goals {
    static let megabyte = 1_000_000.0

    static func judge(_ r: BenchResults) -> [GoalResult] {
        var goals: [GoalResult] = []
        func add(_ goal: String, _ target: String, _ value: Double?, format: (Double) -> String, pass: (Double) -> Bool) {
            guard let value, value.isFinite else {
                goals.append(GoalResult(goal: goal, target: target, measured: "n/a", pass: nil))
                return
            }
            goals.append(GoalResult(goal: goal, target: target, measured: format(value), pass: pass(value)))
        }
        let ref = r.reference
        let lengthNote = ref.map { $0.audioSeconds == 3600 ? "" : " (measured at \(RenderJobs.durationText(Int($0.audioSeconds))))" } ?? ""
        add("reference hour, wall time" + lengthNote, "≥ 250× realtime", ref?.realtime, format: { times($0) }, pass: { $0 >= 250 })
        add(
            "wall vs flac -5 floor", "≤ 1.4× the floor", ratio(ref?.cost.wall, r.flacFloor?.cost.wall), format: { times($0, 2) },
            pass: { $0 <= 1.4 })
        add(
            "CPU vs flac -5 floor", "≤ 2× the floor's CPU", ratio(ref?.cost.cpu, r.flacFloor?.cost.cpu), format: { times($0, 2) },
            pass: { $0 <= 2 })
        add(
            "faster than ffmpeg (wall)", "≥ 10×", ratio(r.ffmpeg?.cost.wall, ref?.cost.wall), format: { times($0, 1) },
            pass: { $0 >= 10 })
        add(
            "faster than SoX (wall)", "≥ 1.5×", ratio(r.sox?.cost.wall, ref?.cost.wall), format: { times($0, 2) },
            pass: { $0 >= 1.5 })
        let peak = [ref, r.referenceShort].compactMap { $0?.cost.maxRSSKiB }.max().map { Double($0) * 1024 / megabyte }
        add("peak RSS (reference runs)", "≤ 64 MB", peak, format: { String(format: "%.1f MB", $0) }, pass: { $0 <= 64 })
        add(
            "RSS long vs short run", "same within 10 %",
            ratio(ref.map { Double($0.cost.maxRSSKiB) }, r.referenceShort.map { Double($0.cost.maxRSSKiB) }),
            format: { String(format: "%.2f×", $0) }, pass: { abs($0 - 1) <= 0.1 })
        add(
            "catalog -j 2 vs -j 1 (wall)", "≥ 1.8× faster", ratio(r.catalogJ1?.cost.wall, r.catalogJ2?.cost.wall),
            format: { times($0, 2) }, pass: { $0 >= 1.8 })
        let beds = [r.catalogJ1, r.catalogJ2].compactMap { $0 }
        let prepared = beds.compactMap { $0.stages?.bedsPrepared }
        if beds.isEmpty || prepared.count < beds.count {
            goals.append(
                GoalResult(
                    goal: "beds prepared once per catalog", target: "2 (two shared beds)",
                    measured: beds.isEmpty ? "n/a" : "n/a (no stage line)", pass: nil))
        } else {
            goals.append(
                GoalResult(
                    goal: "beds prepared once per catalog", target: "2 (two shared beds)",
                    measured: prepared.map(String.init).joined(separator: " (-j 1), ") + " (-j 2)",
                    pass: prepared.allSatisfy { $0 == 2 }))
        }
        add(
            "render --check of \(r.checkRecipes) recipes", "< 2 s", r.check?.cost.wall, format: { String(format: "%.2f s", $0) },
            pass: { $0 < 2 })
        return goals
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
}
