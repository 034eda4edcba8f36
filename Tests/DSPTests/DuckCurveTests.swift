import Foundation
import Testing

@testable import DSP

/// The scheduled duck (recipe-v1.1): a dB-domain raised cosine, spans that meet merged, ends cut.
@Suite struct DuckCurveTests {
    @Test("the gain falls as -d(1 - cos πu)/2 over the attack, holds -d, and rises back over the release")
    func shape() {
        let curve = DuckCurve(prompts: [(start: 10_000, end: 20_000, depthDB: 12)], attack: 4000, release: 6000)
        #expect(curve.gainDB(at: 5999) == 0)
        #expect(curve.gainDB(at: 6000) == 0)
        #expect(abs(curve.gainDB(at: 8000) + 6) < 1e-12, "attack midpoint")
        #expect(abs(curve.gainDB(at: 7000) + 12 * (1 - cos(Double.pi * 0.25)) / 2) < 1e-12)
        #expect(curve.gainDB(at: 10_000) == -12)
        #expect(curve.gainDB(at: 19_999) == -12)
        #expect(curve.gainDB(at: 20_000) == -12, "the release starts after the prompt's last frame")
        #expect(abs(curve.gainDB(at: 23_000) + 6) < 1e-12, "release midpoint")
        #expect(curve.gainDB(at: 26_000) == 0)
    }

    @Test("prompts whose ramps meet share one span at the deeper depth; a gap between ramps keeps them apart")
    func merging() {
        // 20_000 + release 6000 = 26_000 = 30_000 - attack 4000: the ramps meet
        let met = DuckCurve(
            prompts: [(start: 10_000, end: 20_000, depthDB: 12), (start: 30_000, end: 35_000, depthDB: 18)], attack: 4000, release: 6000)
        #expect(met.spans.count == 1)
        #expect(met.spans.first?.depthDB == 18)
        #expect(met.gainDB(at: 25_000) == -18)
        let apart = DuckCurve(
            prompts: [(start: 10_000, end: 20_000, depthDB: 12), (start: 30_001, end: 35_000, depthDB: 12)], attack: 4000, release: 6000)
        #expect(apart.spans.count == 2)
        #expect(apart.gainDB(at: 26_000) == 0)
        #expect(DuckCurve(prompts: [(start: 10, end: 20, depthDB: 0)], attack: 5, release: 5).isFlat, "0 dB ducks nothing")
    }

    @Test("applied block by block, the curve scales each frame by its own gain, with whole blocks outside spans untouched")
    func apply() {
        let curve = DuckCurve(prompts: [(start: 2000, end: 5000, depthDB: 10), (start: 100, end: 900, depthDB: 6)], attack: 300, release: 700)
        let channels = 2, frames = 8000
        var samples = [Float](repeating: 1, count: frames * channels)
        // odd block sizes so spans start and end inside blocks
        var start = 0
        for size in [517, 1, 1024, 333, 4096, 2029] where start < frames {
            let count = min(size, frames - start)
            samples.withUnsafeMutableBufferPointer { p in
                let block = UnsafeMutableBufferPointer(rebasing: p[(start * channels)..<((start + count) * channels)])
                curve.apply(block, channels: channels, from: Int64(start), count: count)
            }
            start += count
        }
        for frame in 0..<frames {
            let expected = Float(pow(10, curve.gainDB(at: Int64(frame)) / 20))
            #expect(samples[frame * 2] == expected && samples[frame * 2 + 1] == expected, "frame \(frame)")
            if samples[frame * 2] != expected { break }
        }
        // the first prompt's attack starts at -200: cut at the file's first frame, part-way down
        #expect(curve.gainDB(at: 0) < 0 && curve.gainDB(at: 0) > -6)
    }
}
