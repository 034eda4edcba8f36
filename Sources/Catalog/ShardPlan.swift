/// Which shard renders which track: deterministic, and balanced by track length.
///
/// Longest tracks first (ties by id), each to the shard with the least audio so
/// far (ties to the lowest index): the classic longest-processing-time rule. The
/// same catalog gives the same split on every machine, whatever the order in
/// which the recipes were found.
public struct ShardPlan: Sendable {
    /// 1-based shard index per track id.
    public let assignment: [String: Int]
    public let count: Int

    public init(tracks: [(id: String, frames: Int64)], count: Int) {
        self.count = count
        var totals = [Int64](repeating: 0, count: count)
        var assignment: [String: Int] = [:]
        for track in tracks.sorted(by: { $0.frames != $1.frames ? $0.frames > $1.frames : $0.id < $1.id }) {
            var best = 0
            for k in 1..<count where totals[k] < totals[best] { best = k }
            totals[best] += track.frames
            assignment[track.id] = best + 1
        }
        self.assignment = assignment
    }
}

/// `--shard K/N`, or `auto` from the CI's environment.
public struct ShardSpec: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Shard `index` of `count`, with 1 ≤ index ≤ count ≤ `Manifest.Limits.maxShards`.
    public init?(index: Int, count: Int) {
        guard (1...Manifest.Limits.maxShards).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// `3/8` (1-based).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    /// From `CADENCE_SHARD=K/N`, GitLab's `CI_NODE_INDEX`/`CI_NODE_TOTAL` (1-based), or a
    /// Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (0-based) with `CADENCE_SHARD_TOTAL`.
    public static func fromEnvironment(_ env: [String: String]) -> ShardSpec? {
        if let text = env["CADENCE_SHARD"] { return ShardSpec(text) }
        if let k = env["CI_NODE_INDEX"].flatMap(Int.init), let n = env["CI_NODE_TOTAL"].flatMap(Int.init) {
            return ShardSpec(index: k, count: n)
        }
        if let k = env["JOB_COMPLETION_INDEX"].flatMap(Int.init), let n = env["CADENCE_SHARD_TOTAL"].flatMap(Int.init) {
            return ShardSpec(index: k + 1, count: n)
        }
        return nil
    }

    public var description: String { "\(index)/\(count)" }
}
