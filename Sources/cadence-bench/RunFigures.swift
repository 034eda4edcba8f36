/// One timed run of one job: how much audio it made and what that cost.
struct RunFigures: Codable, Sendable {
    /// What ran, as the table names it (`render reference 60 min`).
    var label: String
    /// Seconds of audio produced; 0 for runs that produce none (`--check`).
    var audioSeconds: Double
    var cost: ChildCost
    /// `render`'s stage line, when it printed one.
    var stages: StageBreakdown?
    /// What the run's command line was, for the record.
    var command: String
    /// The output's sample rate, for `render` runs (turns re-measured frames into seconds).
    var sampleRate: Int?

    /// Audio seconds per wall second; nil when the run makes no audio.
    var realtime: Double? { audioSeconds > 0 && cost.wall > 0 ? audioSeconds / cost.wall : nil }
    /// CPU seconds per wall second: 1.0 is one core busy the whole time.
    var cpuShare: Double { cost.wall > 0 ? cost.cpu / cost.wall : 0 }
    /// Seconds of audio `render` rendered again under the limiter; nil without a stage line that counts them.
    var remeasuredSeconds: Double? { sampleRate.flatMap { stages?.remeasuredSeconds(sampleRate: $0) } }
    /// Those seconds as a fraction of the run's audio (over every track of a catalog); above 1
    /// when the limiter's search re-rendered more than the whole track over its tries.
    var remeasuredFraction: Double? { sampleRate.flatMap { stages?.remeasuredFraction(audioSeconds: audioSeconds, sampleRate: $0) } }
}

/// What a rendered track's cue sheet says about its levels.
struct OutputLevels: Codable, Sendable {
    var loudness: Double?
    var truePeak: Double?
    var frames: Int?
}
