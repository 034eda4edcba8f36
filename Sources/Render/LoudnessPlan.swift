import AudioCore
import AudioIO
import DSP
import Foundation

/// The gain that brings a mix to its loudness target, found by measuring before encoding.
///
/// Pass 1 measures the mix's integrated loudness and true peak. The gain
/// `target − measured` is applied as one constant (no gain riding: fades and
/// quiet passages keep their shape). Where that gain would push the true peak
/// over the ceiling, the look-ahead limiter is needed; it lowers loudness a
/// little, so a further analysis pass measures the limited mix and corrects
/// the gain, until the result is within 0.1 LU of the target.
struct LoudnessPlan {
    /// Linear gain applied before the limiter.
    var gain: Float
    /// Whether the limiter runs in the final pass.
    var limit: Bool
    /// Loudness and true peak of the mix as first measured.
    var measuredLoudness: Double
    var measuredTruePeak: Double
    /// Analysis passes run (for the report).
    var passes: Int

    /// Headroom kept below the ceiling when deciding whether the limiter is needed,
    /// and aimed for by it, so rounding and dither never reach the ceiling.
    static let margin = 0.05

    static func plan(target: Double, ceiling: Double, sampleRate: Int, channels: Int,
                     makeMix: () throws(AudioError) -> MixSource) throws(AudioError) -> LoudnessPlan {
        var mix = try makeMix()
        let meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: true)
        var block = [Float](repeating: 0, count: Block.frames * channels)
        while true {
            let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try mix.render(into: p) }
            if n == 0 { break }
            try block.withUnsafeBufferPointer { (p) throws(AudioError) in try meter.add(p, frames: n) }
        }
        let loudness = meter.integratedLoudness()
        let peak = meter.truePeakDB()
        guard loudness.isFinite else {
            // silence (or below the gate): nothing to normalize
            return LoudnessPlan(gain: 1, limit: false, measuredLoudness: loudness, measuredTruePeak: peak, passes: 1)
        }
        var gainDB = target - loudness
        guard peak + gainDB > ceiling - margin else {
            return LoudnessPlan(gain: Float(Gain.linear(dB: gainDB)), limit: false,
                                measuredLoudness: loudness, measuredTruePeak: peak, passes: 1)
        }
        var passes = 1
        for _ in 0..<3 {
            let limited = try measureLimited(gainDB: gainDB, ceiling: ceiling, sampleRate: sampleRate, channels: channels,
                                             makeMix: makeMix, block: &block)
            passes += 1
            let error = target - limited
            if abs(error) < 0.1 || !limited.isFinite { break }
            gainDB += error
        }
        return LoudnessPlan(gain: Float(Gain.linear(dB: gainDB)), limit: true,
                            measuredLoudness: loudness, measuredTruePeak: peak, passes: passes)
    }

    /// The integrated loudness of the mix after `gainDB` and the limiter.
    private static func measureLimited(gainDB: Double, ceiling: Double, sampleRate: Int, channels: Int,
                                       makeMix: () throws(AudioError) -> MixSource, block: inout [Float]) throws(AudioError) -> Double {
        var mix = try makeMix()
        let meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false)
        var stage = LimiterStage(channels: channels, sampleRate: sampleRate, ceiling: ceiling - margin)
        let gain = Float(Gain.linear(dB: gainDB))
        try stage.run(mix: &mix, gain: gain, block: &block) { (p, n) throws(AudioError) in try meter.add(p, frames: n) }
        return meter.integratedLoudness()
    }
}

/// The limiter with its latency hidden: N frames in, the same N frames out, aligned.
struct LimiterStage {
    private var limiter: TruePeakLimiter
    private let channels: Int

    init(channels: Int, sampleRate: Int, ceiling: Double) {
        self.channels = channels
        self.limiter = TruePeakLimiter(channels: channels, sampleRate: sampleRate, ceilingDBTP: ceiling)
    }

    /// Renders the whole mix through gain and limiter, handing aligned blocks to `sink`.
    mutating func run(mix: inout MixSource, gain: Float, block: inout [Float],
                      sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void) throws(AudioError) {
        var skip = limiter.latency
        while true {
            let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try mix.render(into: p) }
            if n == 0 { break }
            try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in
                limiter.process(p, frames: n, preGain: gain)
                let dropped = min(skip, n)
                skip -= dropped
                if n > dropped {
                    try sink(UnsafeBufferPointer(rebasing: p[(dropped * channels)..<(n * channels)]), n - dropped)
                }
            }
        }
        try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in
            // the flush holds the last `latency` output frames; a track shorter than the
            // latency still owes only its own frames, the last ones of the flush
            let n = limiter.flush(into: p)
            if n > skip { try sink(UnsafeBufferPointer(rebasing: p[(skip * channels)..<(n * channels)]), n - skip) }
        }
    }
}
