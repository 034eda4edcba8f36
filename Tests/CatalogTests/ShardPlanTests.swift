import Catalog
import Testing

@Suite struct ShardPlanUnit {
    /// Every track goes to exactly one shard, the split does not depend on input order,
    /// and no shard carries more than the longest track above the average.
    @Test func balancedDeterministicAndComplete() {
        var rng: UInt64 = 7
        func next() -> UInt64 {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return rng >> 33
        }
        let tracks = (0..<200).map { (id: "t\($0)", frames: Int64(next() % 48_000_000) + 48_000) }
        for count in [1, 2, 3, 8] {
            let plan = ShardPlan(tracks: tracks, count: count)
            let reversed = ShardPlan(tracks: tracks.reversed(), count: count)
            #expect(plan.assignment == reversed.assignment)
            #expect(plan.assignment.count == tracks.count)
            var totals = [Int64](repeating: 0, count: count)
            for t in tracks {
                let k = plan.assignment[t.id] ?? 0
                #expect((1...count).contains(k))
                totals[k - 1] += t.frames
            }
            let average = tracks.reduce(0) { $0 + $1.frames } / Int64(count)
            let longest = tracks.map(\.frames).max() ?? 0
            #expect((totals.max() ?? 0) <= average + longest)
        }
    }

    @Test(arguments: [("3/8", 3, 8), ("1/1", 1, 1), ("8/8", 8, 8), ("10000/10000", 10000, 10000)])
    func parsesShardSpecs(text: String, index: Int, count: Int) {
        #expect(ShardSpec(text) == ShardSpec(index: index, count: count))
    }

    @Test(arguments: ["0/8", "9/8", "3", "a/b", "3/0", "-1/2", "", "1/10001"])
    func rejectsBadShardSpecs(text: String) {
        #expect(ShardSpec(text) == nil)
    }

    @Test func readsCIEnvironments() throws {
        #expect(try ShardSpec.fromEnvironment(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "5"]) == ShardSpec(index: 2, count: 5))
        #expect(try ShardSpec.fromEnvironment(["JOB_COMPLETION_INDEX": "0", "CADENCE_SHARD_TOTAL": "4"]) == ShardSpec(index: 1, count: 4))
        #expect(try ShardSpec.fromEnvironment(["CADENCE_SHARD": "4/4", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"]) == ShardSpec(index: 4, count: 4))
        #expect(try ShardSpec.fromEnvironment([:]) == nil)
    }

    /// A shard variable that is set but unusable is named with its value, never "no shard found".
    @Test(arguments: [
        (["CADENCE_SHARD": "3/2"], "CADENCE_SHARD=3/2: shard 3 is out of range (expected 1 to 2)"),
        (["CADENCE_SHARD": "1/0"], "CADENCE_SHARD=1/0: the shard count must be at least 1"),
        (["CADENCE_SHARD": "two"], "CADENCE_SHARD=two is not K/N"),
        (["CI_NODE_INDEX": "6", "CI_NODE_TOTAL": "5"], "CI_NODE_INDEX=6 is out of range for CI_NODE_TOTAL=5 (expected 1 to 5)"),
        (["CI_NODE_INDEX": "2"], "CI_NODE_INDEX=2 is set but CI_NODE_TOTAL is not"),
        (
            ["JOB_COMPLETION_INDEX": "4", "CADENCE_SHARD_TOTAL": "4"],
            "JOB_COMPLETION_INDEX=4 is out of range for CADENCE_SHARD_TOTAL=4 (expected 0 to 3)"
        ),
        (["JOB_COMPLETION_INDEX": "x", "CADENCE_SHARD_TOTAL": "4"], "are not whole numbers"),
    ])
    func namesAnUnusableShardVariable(environment: [String: String], message: String) {
        #expect(throws: ShardSpec.EnvironmentError.self) { try ShardSpec.fromEnvironment(environment) }
        do {
            _ = try ShardSpec.fromEnvironment(environment)
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
