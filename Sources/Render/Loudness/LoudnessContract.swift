import AudioCore
import Foundation
import Recipe

/// recipe-v1 § Output: the target ±0.5 LU and the true-peak ceiling are a contract, checked
/// before encoding (a target the limiter cannot reach) and on the finished file: never a
/// file whose loudness misses its target, with exit 0.
struct LoudnessContract {
    let recipe: Recipe
    let format: AudioFormat

    /// Throws, at `output.loudness`, when a track of `loudness` and `truePeak` breaks the contract.
    /// `loweredCeiling`: the plan's ceiling was lowered for the codec's overshoot (the message says so).
    func check(loudness: Double, truePeak: Double, plan: LoudnessPlan?, loweredCeiling: Bool) throws(Diagnostic) {
        guard let target = recipe.output.loudness,
            let why = LoudnessPlan.shortfall(
                loudness: loudness, truePeak: truePeak, target: target, ceiling: recipe.output.truePeak,
                limited: plan?.limit ?? false, format: format, loweredCeiling: loweredCeiling ? plan?.limiterCeiling : nil)
        else { return }
        throw Diagnostic(why, at: recipe.location(of: "output.loudness"))
    }
}

extension LoudnessPlan {
    /// How far from its target a finished track may be: ±0.5 LU (recipe-v1 § Output).
    static let tolerance = 0.5

    /// Why a track of `loudness` LUFS and `truePeak` dBTP breaks its contract (the target
    /// ±0.5 LU, the true peak at most `ceiling`), in words an author acts on; nil when it keeps it.
    static func shortfall(
        loudness: Double, truePeak: Double, target: Double, ceiling: Double, limited: Bool, format: AudioFormat,
        loweredCeiling: Double?
    ) -> String? {
        let want = String(format: "%g LUFS", target)
        let peakText = String(format: "%g dBTP", ceiling)
        guard loudness.isFinite else {
            return "the mix is silent, so there is no level to bring to \(want); give it a bed or cues, or set 'loudness: off'"
        }
        let reached = String(format: "%.2f LUFS", loudness)
        if truePeak > ceiling + 1e-9 {
            return String(
                format:
                    "the %@ file's true peak is %.2f dBTP, over the ceiling of %@, and no lower limiter setting kept it under; raise output.true_peak or lower output.loudness",
                format.rawValue, truePeak, peakText)
        }
        guard abs(loudness - target) <= tolerance else {
            if loudness < target && limited {
                let overshoot =
                    loweredCeiling.map {
                        String(
                            format: " (the %@ decoder's peaks overshoot the limited signal, so the limiter had to hold %.2f dBTP)", format.rawValue,
                            $0)
                    } ?? ""
                return String(
                    format:
                        "cannot reach %@ under the true-peak ceiling of %@: the limiter brings this mix to %@ at most%@; lower output.loudness to %.0f LUFS or below, or raise output.true_peak",
                    want, peakText, reached, overshoot, (loudness - tolerance).rounded(.down))
            }
            return
                "the track measures \(reached), not \(want) ±\(tolerance) LU, and the gain could not be corrected; lower output.loudness or raise output.true_peak"
        }
        return nil
    }
}
