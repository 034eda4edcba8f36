import Foundation

/// The swell job of issue 33: the reference recipe (box breathing over the rain bed, bells,
/// -16 LUFS, FLAC 24-bit) without a swell, with a tone swell and with a pink-noise swell, each
/// `runs` times, in turn (none, tone, pink, none, …), so that a change in the machine's load
/// falls on all three alike. The goals: a swell costs at most 1.1 × the CPU time and 1.1 × the
/// wall time of the same track without one (the medians of the runs; the wall time only on a
/// quiet machine: a noise swell once kept pass 1 on one core, which cost wall time, not CPU).
enum SwellJob {
    /// What the recipe adds: nothing, a sine, or pink noise, at the level of the docs' example.
    enum Variant: String, CaseIterable, Codable, Sendable {
        case none, tone, pink

        /// The recipe's `swell:` line; empty without one.
        var recipeLine: String {
            switch self {
            case .none: ""
            case .tone: "\nswell: { tone: 174 Hz, gain: -26 dB }\n"
            case .pink: "\nswell: { synth: pink-noise, gain: -26 dB }\n"
            }
        }

        var label: String {
            switch self {
            case .none: "without a swell"
            case .tone: "with a tone swell (174 Hz)"
            case .pink: "with a pink-noise swell"
            }
        }
    }

    /// The runs of each variant, in the order they ran.
    struct Figures: Codable, Sendable {
        var plain: [RunFigures] = []
        var tone: [RunFigures] = []
        var pink: [RunFigures] = []
    }

    /// Renders the three variants at `seconds`, `runs` rounds.
    static func run(
        seconds: Int, runs: Int, tools: Tools, workspace: Workspace, progress: (String) -> Void
    ) throws(BenchError) -> Figures {
        var figures = Figures()
        for round in 1...runs {
            for variant in Variant.allCases {
                progress("render: reference recipe \(variant.label), \(RenderJobs.durationText(seconds)) (round \(round) of \(runs))")
                let run = try render(seconds: seconds, variant: variant, round: round, tools: tools, workspace: workspace)
                switch variant {
                case .none: figures.plain.append(run)
                case .tone: figures.tone.append(run)
                case .pink: figures.pink.append(run)
                }
            }
        }
        return figures
    }

    /// The median CPU seconds (user + system) of `runs`; nil without any.
    static func medianCPU(_ runs: [RunFigures]) -> Double? { median(runs.map(\.cost.cpu)) }

    /// The median wall seconds of `runs`; nil without any.
    static func medianWall(_ runs: [RunFigures]) -> Double? { median(runs.map(\.cost.wall)) }

    private static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `render DIR/swell/<id>.yml -o DIR/swell/<id>.flac`, timed; the FLAC is removed after.
    private static func render(
        seconds: Int, variant: Variant, round: Int, tools: Tools, workspace: Workspace
    ) throws(BenchError) -> RunFigures {
        let id = "swell-\(variant.rawValue)-\(RenderJobs.durationName(seconds))"
        let recipe = "\(workspace.swell)/\(id).yml"
        let output = "\(workspace.swell)/\(id).flac"
        try Workspace.write(RecipeText.reference(id: id, seconds: seconds, bed: BedDesign.rain.name) + variant.recipeLine, to: recipe)
        try Workspace.remove(output)
        let arguments = [recipe, "-o", output, "--assets", workspace.assets, "--quiet"]
        let result = try ChildProcess.runChecked(
            tools.render, arguments, environment: RenderJobs.stagesEnvironment, logPrefix: workspace.log("\(id)-\(round)"),
            what: "render \(id).yml")
        try Workspace.remove(output)
        return RunFigures(
            label: "render \(variant.label) \(RenderJobs.durationText(seconds)), run \(round)", audioSeconds: Double(seconds),
            cost: result.cost, stages: StageBreakdown.parse(stderr: result.stderr), command: RenderJobs.commandLine(tools.render, arguments),
            sampleRate: RecipeText.sampleRate)
    }
}
