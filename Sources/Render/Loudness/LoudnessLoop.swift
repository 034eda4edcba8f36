import AudioCore
import AudioIO
import DSP
import Foundation
import Recipe

/// A track's loudness, from the mix to the delivered file: measure → plan → contract →
/// encode → verify, encoding again while a decoded result misses.
///
/// 1. **Measure** (pass 1, `Measurement`): the mix's loudness, true peak, and the gating
///    blocks and hop peaks the plan needs later without another pass.
/// 2. **Plan** (`LoudnessPlan`): the gain to the target, and the limiter when that gain would
///    pass the delivery's ceiling. A delivery that samples its codec first (AAC's
///    `Delivery.expectedShift`) has the plan aimed past what the codec will do.
/// 3. **Contract** (`LoudnessContract`): a target the limiter cannot reach is refused before
///    anything is encoded.
/// 4. **Encode** (`Delivery.deliver`): the file, with its loudness and true peak (as decoded,
///    for a lossy format).
/// 5. **Verify** (`Aim.again`): a decoded result more than `LoudnessPlan.acceptance` (0.3 LU) off the target, or
///    whose peaks pass `LoudnessPlan.allowedPeak`, has the target and ceiling corrected by as
///    much and is encoded again, at most `Aim.attempts` times in all; the contract is then
///    checked on what was delivered.
///
/// With `loudness: off` there is nothing to measure or plan: the mix is delivered as it is.
struct LoudnessLoop {
    /// The track to deliver: its mix, its output (whose format the contract's messages name;
    /// Ogg Vorbis and Opus keep Vorbis channel order, the meters put the LFE last), its threads.
    let input: DeliveryInput

    init(_ input: DeliveryInput) { self.input = input }

    /// Delivers the track, through its codec family's `Delivery`, into a new file at the
    /// output's audio path; returns the file (not yet in place), what was delivered, and
    /// whether the limiter ran.
    func run() throws -> (file: AtomicOutputFile, delivered: Delivered, limited: Bool) {
        let delivery = input.delivery
        let (recipe, sources, format, threads, observer) = (input.recipe, input.sources, input.output.format, input.threads, input.observer)
        let path = input.output.audioPath
        let (channels, rate, target) = (recipe.output.channels, recipe.output.sampleRate, recipe.output.loudness)
        let contract = LoudnessContract(recipe: recipe, format: format)
        let measured = try target.map { _ in
            try Measurement.run(sources, sampleRate: rate, channels: channels, threads: threads, vorbisOrder: format.hasVorbisOrder)
        }
        var aim = Aim(target: target, truePeakCeiling: recipe.output.truePeak, ceiling: delivery.ceiling)
        /// The plan for a target and ceiling; the last one made is kept, so an aim that changed neither is not planned again.
        var last: (plan: LoudnessPlan, target: Double, ceiling: Double)?
        func plan(_ measured: Measurement, target: Double, ceiling: Double) -> LoudnessPlan {
            if let last, last.target == target, last.ceiling == ceiling { return last.plan }
            let made = LoudnessPlan.plan(measured, target: target, ceiling: ceiling, channels: channels)
            last = (made, target, ceiling)
            return made
        }
        /// The limited gain's correction (dB) after an encoding measured off its target, and how many were made.
        var correction: (gainDB: Double, count: Int, measured: (gainDB: Double, loudness: Double)?) = (0, 0, nil)
        if let measured, let target {
            // the codec's loudness change and overshoot, sampled before the one encoding it should take
            let first = plan(measured, target: target, ceiling: aim.ceiling)
            if let shift = try delivery.expectedShift(of: first) {
                aim.aim(shift: shift.loudness, overshoot: shift.overshoot, plannedPeak: first.truePeak ?? first.limiterCeiling)
                observer?.lossy(
                    String(
                        format: "probe: %+.2f LU, overshoot %+.2f dB over %.2f dBTP planned", shift.loudness, shift.overshoot,
                        first.truePeak ?? first.limiterCeiling ?? .nan))
            }
        }
        while true {
            var plan = measured.map { plan($0, target: (target ?? 0) + aim.targetOffset, ceiling: aim.ceiling) }
            if correction.gainDB != 0, let limited = plan, limited.limit {
                plan?.gain = Float(Gain.linear(dB: Gain.decibels(linear: Double(limited.gain)) + correction.gainDB))
            }
            // a target the limiter cannot reach is known before encoding
            if let plan {
                try contract.check(loudness: plan.loudness - aim.targetOffset, truePeak: -.infinity, plan: plan, loweredCeiling: aim.loweredCeiling)
            }
            let file = try AtomicOutputFile(path: path)
            let delivered = try delivery.deliver(plan, into: file)
            if delivery.isDecoded {
                observer?.lossy(
                    String(
                        format: "encoding %d: %.2f LUFS, %.2f dBTP decoded (aimed %+.2f LU, ceiling %.2f dBTP)", aim.attempt,
                        delivered.loudness, delivered.truePeak, aim.targetOffset, aim.ceiling))
                // the codec's overshoot and loudness change are only known after encoding
                if aim.again(loudness: delivered.loudness, truePeak: delivered.truePeak) {
                    file.discard()
                    continue
                }
            }
            // a limited encoding measured in its own pass: kept within `acceptance` of the
            // target and under the ceiling, else encoded again with the gain corrected by the miss
            if !delivery.isDecoded, let target, let limited = plan, limited.limit, correction.count < Self.corrections,
                delivered.loudness.isFinite
            {
                let miss = target + aim.targetOffset - delivered.loudness
                if abs(miss) > LoudnessPlan.acceptance {
                    // the model's slope first; after a second encoding, the slope between the two measured
                    var slope = limited.slope
                    if let plain = limited.plainLoudness, plain - limited.loudness > 0.01 {
                        // the limiter took k times what the model said: the loudness rises as much slower
                        let k = min(5, max(0.2, (plain - delivered.loudness) / (plain - limited.loudness)))
                        slope = min(1, max(0.05, 1 - k * (1 - limited.slope)))
                    }
                    if let tried = correction.measured, tried.gainDB != correction.gainDB {
                        let rise = (delivered.loudness - tried.loudness) / (correction.gainDB - tried.gainDB)
                        if rise.isFinite { slope = min(1.5, max(0.05, rise)) }
                    }
                    correction.measured = (correction.gainDB, delivered.loudness)
                    correction.gainDB += max(-6, min(6, miss / slope))
                    correction.count += 1
                    StageClock.shared.countRemeasured(frames: sources.totalFrames)
                    observer?.lossy(
                        String(
                            format: "limited encoding %d: %.2f LUFS, %.2f dBTP (target %.2f LUFS): encoding again %+.2f dB", correction.count,
                            delivered.loudness, delivered.truePeak, target + aim.targetOffset, correction.gainDB))
                    file.discard()
                    continue
                }
            }
            if !delivery.isDecoded, let target, let limited = plan, limited.limit {
                observer?.lossy(
                    String(
                        format: "limited: %.2f LUFS, %.2f dBTP measured; the model planned %.2f LUFS (target %.2f, %d encoding(s) again)",
                        delivered.loudness, delivered.truePeak, limited.loudness, target + aim.targetOffset, correction.count))
            }
            do {
                try contract.check(loudness: delivered.loudness, truePeak: delivered.truePeak, plan: plan, loweredCeiling: aim.loweredCeiling)
            } catch {
                file.discard()
                throw error
            }
            return (file, delivered, plan?.limit ?? false)
        }
    }

    /// Encodings again of a limited lossless track that measured more than
    /// `LoudnessPlan.acceptance` off its target, at most.
    static let corrections = 3

    /// Where the plan aims, corrected for what the codec does: the target offset by the
    /// loudness it takes away (or adds), the ceiling lowered by its overshoot.
    struct Aim {
        /// Encodings tried before the measured result is taken as it is.
        static let attempts = 4

        /// The recipe's target (LUFS) and true-peak ceiling (dBTP).
        let target: Double?
        let truePeakCeiling: Double
        /// The ceiling the plan is made for: the delivery's, lowered by what the codec overshot.
        private(set) var ceiling: Double
        /// Added to the target the plan aims at: what the codec took away (or added).
        private(set) var targetOffset = 0.0
        private(set) var attempt = 1
        private let deliveryCeiling: Double

        init(target: Double?, truePeakCeiling: Double, ceiling: Double) {
            self.target = target
            self.truePeakCeiling = truePeakCeiling
            self.ceiling = ceiling
            self.deliveryCeiling = ceiling
        }

        /// Whether the ceiling was lowered for the codec (the contract's message says so).
        var loweredCeiling: Bool { ceiling < deliveryCeiling }

        /// Aims the plan past what the codec is expected to do (`CodecProbe`): a loudness change of
        /// `shift` LU (negative when it takes loudness away; under 0.05 LU it is left alone), and an
        /// overshoot of `overshoot` dB over `plannedPeak`, the plan's true peak, which lowers the
        /// ceiling as `again` would after encoding.
        mutating func aim(shift: Double, overshoot: Double, plannedPeak: Double?) {
            if shift.isFinite, abs(shift) >= 0.05 { targetOffset -= shift }
            guard let plannedPeak, overshoot.isFinite, overshoot > 0 else { return }
            let over = plannedPeak + overshoot - LoudnessPlan.allowedPeak(truePeakCeiling)
            if over > 0 { ceiling -= over + 0.1 }
        }

        /// After an encoding that decodes to `loudness` and `truePeak`: true (with the target
        /// and ceiling corrected) when it should be encoded again.
        mutating func again(loudness: Double, truePeak: Double) -> Bool {
            guard let target, loudness.isFinite, attempt < Self.attempts else { return false }
            let over = truePeak - LoudnessPlan.allowedPeak(truePeakCeiling)
            let off = target - loudness
            guard over > 0 || abs(off) > LoudnessPlan.acceptance else { return false }
            if over > 0 { ceiling -= over + 0.1 }
            targetOffset += off
            attempt += 1
            return true
        }
    }
}
