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

    @Test func readsCIEnvironments() {
        #expect(ShardSpec.fromEnvironment(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "5"]) == ShardSpec(index: 2, count: 5))
        #expect(ShardSpec.fromEnvironment(["JOB_COMPLETION_INDEX": "0", "CADENCE_SHARD_TOTAL": "4"]) == ShardSpec(index: 1, count: 4))
        #expect(ShardSpec.fromEnvironment(["CADENCE_SHARD": "4/4", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"]) == ShardSpec(index: 4, count: 4))
        #expect(ShardSpec.fromEnvironment([:]) == nil)
    }
}
