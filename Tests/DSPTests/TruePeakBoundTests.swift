import DSP
import Foundation
import TestKit
import Testing

/// `TruePeakMeter.addBounded`: the bound it returns for a stretch is exact wherever it could
/// matter, and conservative elsewhere; what "could matter" means is its `fraction` and `level`.
@Suite struct TruePeakBoundTests {
    /// 100 ms hops of 48 kHz stereo.
    static let hop = 4800

    /// The bounds of each hop of `samples` (`addBounded` with `fraction` and `level`), and the meter's peak.
    static func bounds(_ samples: [Float], fraction: Float, level: Float = .infinity) -> (bounds: [Float], peak: Float) {
        let meter = TruePeakMeter(channels: 2)
        var bounds: [Float] = []
        samples.withUnsafeBufferPointer { p in
            var start = 0
            while start < p.count / 2 {
                let n = min(hop, p.count / 2 - start)
                let piece = UnsafeBufferPointer(rebasing: p[(start * 2)..<((start + n) * 2)])
                bounds.append(meter.addBounded(piece, frames: n, fraction: fraction, level: level))
                start += n
            }
        }
        return (bounds, meter.peak)
    }

    /// Pink noise at a level that wanders over 18 dB, with a loud burst every 1.7 s: 20 s.
    static func wanderingNoise() -> [Float] {
        let noise = LimiterSignal.pinkNoise.samples(seconds: 20)
        var random = SplitMix64(seed: 11)
        return noise.enumerated().map { i, x in
            let t = Double(i / 2) / 48000
            let wander = 0.125 * pow(8, 0.5 + 0.5 * sin(2 * Double.pi * t / 7))
            let burst = t.truncatingRemainder(dividingBy: 1.7) < 0.05 ? 3 + random.bipolar() * 0.5 : 1
            return Float(Double(x) * wander * burst)
        }
    }

    @Test("with a level, every hop that passes it is exact, the others' bounds stay under it, and the peak is the same")
    func levelBoundsAreExactOverTheLevel() throws {
        let samples = Self.wanderingNoise()
        // fraction 0: every chunk interpolated, every bound exact
        let exact = Self.bounds(samples, fraction: 0)
        let peak = try #require(exact.bounds.max())
        #expect(peak > 0.3, "the signal should be loud enough to test: \(peak)")
        for levelDB in [-1.0, -4, -9] {
            let level = peak * Float(Gain.linear(dB: levelDB))
            let measured = Self.bounds(samples, fraction: 1, level: level)
            #expect(measured.peak == exact.peak, "level \(levelDB) dB: peak \(measured.peak), interpolating everything \(exact.peak)")
            var over = 0, inexact = 0
            for (h, (bound, truth)) in zip(measured.bounds, exact.bounds).enumerated() {
                #expect(bound >= truth, "hop \(h): a bound \(bound) under the true peak \(truth)")
                if truth > level {
                    over += 1
                    #expect(bound == truth, "hop \(h) passes the level \(level): bound \(bound), true peak \(truth)")
                } else if bound != truth {
                    inexact += 1
                    #expect(bound <= level, "hop \(h): an inexact bound \(bound) over the level \(level)")
                }
            }
            // the test means something: some hops pass the level, and some were not interpolated
            #expect(over > 0 && inexact > 0, "level \(levelDB) dB: \(over) hops over it, \(inexact) hops bounded without interpolating")
        }
    }

    @Test("with a fraction, every hop within it of the peak so far is exact; a level at the peak instead interpolates fewer hops")
    func fractionBoundsAreExactNearThePeak() throws {
        let samples = Self.wanderingNoise()
        let exact = Self.bounds(samples, fraction: 0)
        let half = Self.bounds(samples, fraction: 0.5)
        #expect(half.peak == exact.peak)
        var runningPeak: Float = 0
        var inexactHalf = 0
        for (h, (bound, truth)) in zip(half.bounds, exact.bounds).enumerated() {
            runningPeak = max(runningPeak, truth)
            #expect(bound >= truth, "hop \(h)")
            // a hop within 6 dB of the peak so far (its own included) is exact
            if truth > 0.5 * runningPeak { #expect(bound == truth, "hop \(h): bound \(bound), true peak \(truth), peak so far \(runningPeak)") }
            if bound != truth { inexactHalf += 1 }
        }
        let peak = try #require(exact.bounds.max())
        let levelled = Self.bounds(samples, fraction: 1, level: peak)
        let inexactLevel = zip(levelled.bounds, exact.bounds).filter { $0 != $1 }.count
        #expect(inexactLevel > inexactHalf, "a level at the peak leaves \(inexactLevel) hops bounded, the fraction 0.5 \(inexactHalf)")
    }

    /// Feeds `samples` in 4096-frame blocks to `add(_:frames:from:bound:)` with each hop's `bounds` (per 4800-frame hop).
    static func knownPeak(_ samples: [Float], bounds: [Float]) -> TruePeakMeter {
        let meter = TruePeakMeter(channels: 2)
        samples.withUnsafeBufferPointer { p in
            var start = 0
            while start < p.count / 2 {
                let n = min(4096, p.count / 2 - start)
                meter.add(UnsafeBufferPointer(rebasing: p[(start * 2)..<((start + n) * 2)]), frames: n, from: Int64(start)) { frames in
                    (Int(frames.lowerBound) / hop...Int(frames.upperBound - 1) / hop).map { bounds[$0] }.max() ?? .infinity
                }
                start += n
            }
        }
        return meter
    }

    @Test("with each hop's true peak known, the peak is the same, from a fraction of the interpolation; a bound that lies is believed")
    func knownBoundsSkipInterpolation() throws {
        let samples = Self.wanderingNoise()
        let exact = Self.bounds(samples, fraction: 0)
        let plain = TruePeakMeter(channels: 2)
        samples.withUnsafeBufferPointer { plain.add($0, frames: samples.count / 2) }
        let known = Self.knownPeak(samples, bounds: exact.bounds)
        #expect(known.peak == plain.peak && known.peak == exact.peak)
        #expect(known.interpolatedFrames * 4 < plain.interpolatedFrames, "\(known.interpolatedFrames) against \(plain.interpolatedFrames) frames")
        // the bounds are used: told every hop is silent but the first, the meter misses the bursts
        let lied = Self.knownPeak(samples, bounds: exact.bounds.enumerated().map { $0.offset == 0 ? $0.element : 0 })
        #expect(lied.peak < exact.peak / 2)
    }
}
