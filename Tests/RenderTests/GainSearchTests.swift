import AudioCore
import Foundation
import Testing

@testable import Render

/// The gain search under the limiter (`LoudnessPlan.search`, on `LimiterModel`'s curve in a
/// render), in-process on model curves of limited loudness against gain: a refusal only when the target cannot be reached, its figure
/// the most the limiter reaches, and monotonic over targets (issue 30, item 4).
@Suite struct GainSearchTests {
    /// A limiter's loudness at a gain: the plain gain's loudness until `knee`, then rising ever
    /// more slowly toward `saturation` (the square wave), plus a ripple of `ripple` LU such as
    /// a model's gating gives.
    struct Curve {
        var unlimited: Double
        var knee: Double
        var saturation: Double
        var ripple: Double
        /// A stretch of `width` dB of gain, from where the loudness is `at`, over which it rises by
        /// only 0.01 LU per dB (the gates letting no new block in while the limiter takes the
        /// peaks), then climbs again: two tries inside it must not end the search.
        var plateau: (at: Double, width: Double)? = nil

        func loudness(gainDB: Double) -> Double {
            var gainDB = gainDB
            var flat = 0.0
            if let plateau {
                let start = plateau.at - unlimited
                let inside = min(max(gainDB - start, 0), plateau.width)
                flat = 0.01 * inside
                gainDB -= inside
            }
            let plain = unlimited + gainDB + flat
            let start = saturation - knee
            let smooth = plain <= start ? plain : saturation - knee * exp(-(plain - start) / knee)
            return smooth + ripple * sin(gainDB * 37)
        }
    }

    static let curves = [
        Curve(unlimited: -30, knee: 3, saturation: -10, ripple: 0),
        Curve(unlimited: -30, knee: 6, saturation: -11.5, ripple: 0.03),
        Curve(unlimited: -22, knee: 10, saturation: -9, ripple: 0.04),
        Curve(unlimited: -25, knee: 2, saturation: -13.2, ripple: 0.02),
        Curve(unlimited: -30, knee: 4, saturation: -9, ripple: 0, plateau: (at: -14.7, width: 1.5)),
        Curve(unlimited: -28, knee: 3, saturation: -10, ripple: 0.01, plateau: (at: -16.2, width: 3)),
    ]

    /// The loudness the plan for `target` on `curve` expects to reach.
    static func search(_ curve: Curve, target: Double) -> Double {
        LoudnessPlan.search(target: target, from: target - curve.unlimited, ceiling: -1.3) { curve.loudness(gainDB: $0) }.loudness
    }

    @Test("a target the limiter reaches is reached; the others are refused with the most it reaches", arguments: 0..<curves.count)
    func monotonic(_ index: Int) {
        let curve = Self.curves[index]
        // the most the limiter can reach: the curve far up
        let most = (0...400).map { curve.loudness(gainDB: Double($0) * 0.25) }.max() ?? 0
        var refused = false
        for step in 0...40 {
            let target = -20 + Double(step) * 0.25
            let reached = Self.search(curve, target: target)
            let kept = abs(reached - target) <= LoudnessPlan.tolerance
            if target <= most - LoudnessPlan.tolerance - 0.05 {
                #expect(kept, "curve \(index): \(target) LUFS is reachable (up to \(most)), the search stopped at \(reached)")
            }
            // monotonic: once refused, every louder target is refused
            if refused { #expect(!kept, "curve \(index): \(target) LUFS kept after a quieter target was refused") }
            if !kept {
                refused = true
                // the refusal's figure is (nearly) the most the limiter reaches
                #expect(reached >= most - 0.2, "curve \(index): refused \(target) LUFS at \(reached), but the limiter reaches \(most)")
            }
        }
    }
}
