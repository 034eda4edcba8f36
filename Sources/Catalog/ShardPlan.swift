import CatalogManifest
/// Which shard renders which track: deterministic, and balanced by track length.
///
/// A session's renditions (recipe-v1.2 § Sessions in the catalog) go to one shard together, so each
/// shard's `catalog.json` lists its sessions whole, in their order, and one render shares the
/// session's prepared beds and clips. Longest sessions first (their tracks' frames summed; ties by
/// id), each to the shard with the least audio so far (ties to the lowest index): the classic
/// longest-processing-time rule. The same catalog gives the same split on every machine, whatever
/// the order in which the recipes were found.
public struct ShardPlan: Sendable {
    /// 1-based shard index per track id.
    public let assignment: [String: Int]
    public let count: Int

    /// Tracks each of its own session.
    public init(tracks: [(id: String, frames: Int64)], count: Int) {
        self.init(tracks: tracks.map { (id: $0.id, session: $0.id, frames: $0.frames) }, count: count)
    }

    public init(tracks: [(id: String, session: String, frames: Int64)], count: Int) {
        self.count = count
        var sessions: [String: (frames: Int64, ids: [String])] = [:]
        for track in tracks {
            sessions[track.session, default: (0, [])].frames += track.frames
            sessions[track.session, default: (0, [])].ids.append(track.id)
        }
        var totals = [Int64](repeating: 0, count: count)
        var assignment: [String: Int] = [:]
        for (_, session) in sessions.sorted(by: { $0.value.frames != $1.value.frames ? $0.value.frames > $1.value.frames : $0.key < $1.key }) {
            var best = 0
            for k in 1..<count where totals[k] < totals[best] { best = k }
            totals[best] += session.frames
            for id in session.ids { assignment[id] = best + 1 }
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
    /// Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (0-based) with `CADENCE_SHARD_TOTAL`;
    /// nil when none of them is set. A variable that is set but not a shard (`3/2`, `x`, an
    /// index without its total) throws, naming the variable and its value.
    public static func fromEnvironment(_ env: [String: String]) throws(EnvironmentError) -> ShardSpec? {
        func shard(_ k: String?, _ n: String?, names: (String, String), base: Int) throws(EnvironmentError) -> ShardSpec? {
            switch (k, n) {
            case (nil, nil): return nil
            case (let k?, let n?):
                guard let index = Int(k), let count = Int(n) else {
                    throw EnvironmentError(message: "\(names.0)=\(k) and \(names.1)=\(n) are not whole numbers")
                }
                guard count >= 1 else { throw EnvironmentError(message: "\(names.1)=\(n): the shard count must be at least 1") }
                guard let spec = ShardSpec(index: index + base, count: count) else {
                    // `base` 0: the variable counts from 1 (GitLab); 1: from 0 (Kubernetes)
                    let (low, high) = base == 0 ? (1, count) : (0, count - 1)
                    throw EnvironmentError(message: "\(names.0)=\(k) is out of range for \(names.1)=\(n) (expected \(low) to \(high))")
                }
                return spec
            case (let k?, nil): throw EnvironmentError(message: "\(names.0)=\(k) is set but \(names.1) is not")
            case (nil, let n?): throw EnvironmentError(message: "\(names.1)=\(n) is set but \(names.0) is not")
            }
        }
        if let text = env["CADENCE_SHARD"] {
            guard let spec = ShardSpec(text) else {
                let parts = text.split(separator: "/", omittingEmptySubsequences: false)
                if parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) {
                    throw EnvironmentError(
                        message: n < 1
                            ? "CADENCE_SHARD=\(text): the shard count must be at least 1"
                            : "CADENCE_SHARD=\(text): shard \(k) is out of range (expected 1 to \(n))")
                }
                throw EnvironmentError(message: "CADENCE_SHARD=\(text) is not K/N (e.g. 3/8)")
            }
            return spec
        }
        if let spec = try shard(env["CI_NODE_INDEX"], env["CI_NODE_TOTAL"], names: ("CI_NODE_INDEX", "CI_NODE_TOTAL"), base: 0) {
            return spec
        }
        return try shard(env["JOB_COMPLETION_INDEX"], env["CADENCE_SHARD_TOTAL"], names: ("JOB_COMPLETION_INDEX", "CADENCE_SHARD_TOTAL"), base: 1)
    }

    /// A shard variable that is set but cannot be used.
    public struct EnvironmentError: Error, Sendable {
        public let message: String
    }

    public var description: String { "\(index)/\(count)" }
}
