import Foundation

/// `render`'s own account of where its time went, from the line it prints to stderr
/// when `CADENCE_STAGES=1` is set (one line, broken here):
///
///     cadence-stages: {"decode":1.23,"resample":0.5,"mix":2.0,"analysis":3.1,"limiter":1.2,"encode":9.8,
///                      "passes":2,"remeasured_frames":7992000,"beds_prepared":1}
///
/// Stage figures are seconds of thread time summed over threads; `passes` counts full
/// renders of the mix, `remeasured_frames` the frames rendered again under the limiter to
/// correct its gain (stretches, not a whole pass, summed over the gains tried; older renders
/// do not print it),
/// `beds_prepared` the beds decoded and resampled in that process.
/// A render without the instrumentation prints no such line: then there is no breakdown.
struct StageBreakdown: Codable, Sendable {
    /// The stages in the order the table shows them.
    static let stageOrder = ["decode", "resample", "mix", "analysis", "limiter", "encode"]
    static let linePrefix = "cadence-stages: "

    /// Seconds per stage, as printed (known stages and any others the renderer adds).
    var seconds: [String: Double]
    var passes: Int?
    /// Frames re-measured under the limiter, summed over the process's tracks; nil when not printed.
    var remeasuredFrames: Int?
    var bedsPrepared: Int?

    /// The breakdown in `stderr` (its last `cadence-stages:` line), or nil when there is none
    /// or it is not a JSON object.
    static func parse(stderr: String) -> StageBreakdown? {
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix(linePrefix) }) else { return nil }
        let json = line.dropFirst(linePrefix.count)
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        var breakdown = StageBreakdown(seconds: [:])
        for (key, value) in object {
            guard let number = (value as? NSNumber)?.doubleValue else { continue }
            switch key {
            case "passes": breakdown.passes = Int(number)
            case "remeasured_frames": breakdown.remeasuredFrames = Int(number)
            case "beds_prepared": breakdown.bedsPrepared = Int(number)
            default: breakdown.seconds[key] = number
            }
        }
        return breakdown
    }

    /// Stage names to show: the known ones first, then any others in name order.
    var stageNames: [String] {
        Self.stageOrder + seconds.keys.filter { !Self.stageOrder.contains($0) }.sorted()
    }

    /// The sum of every stage's seconds.
    var total: Double { seconds.values.reduce(0, +) }

    /// The re-measured frames as seconds of audio at `sampleRate`; nil when not printed.
    func remeasuredSeconds(sampleRate: Int) -> Double? {
        guard let frames = remeasuredFrames, sampleRate > 0 else { return nil }
        return Double(frames) / Double(sampleRate)
    }

    /// The re-measured frames as a fraction of `audioSeconds` of audio at `sampleRate`
    /// (0.046 is 4.6 % of the track rendered again); nil when not printed or there is no audio.
    func remeasuredFraction(audioSeconds: Double, sampleRate: Int) -> Double? {
        guard let seconds = remeasuredSeconds(sampleRate: sampleRate), audioSeconds > 0 else { return nil }
        return seconds / audioSeconds
    }
}
