import AudioCore
import AudioIO
import DSP
import Foundation

/// Whether the reference mix needs the limiter, measured on a stand-in for the mix.
///
/// The stand-in is one pass of the bed at its own rate, at -14 dB, with the bell on every 4 s,
/// measured as `render`'s pass 1 measures a mix: integrated loudness (libebur128) and true
/// peak. A plain gain to the target then puts the peak at `truePeak + (target − loudness)`;
/// over the ceiling minus `render`'s 0.3 dB margin, only the limiter can meet both. The bed
/// loops, so its 3 minutes stand for the hour; fades, crossfades and resampling are left out.
///
/// The bells cannot be measured apart and added as powers: alone they are gated (the silence
/// between them falls under libebur128's absolute gate), in the mix they are not.
struct LimiterForecast: Codable, Sendable {
    /// The stand-in mix before normalization.
    var mixLoudness: Double
    var mixTruePeak: Double
    /// The mix's true peak after a plain gain to the target, dBTP.
    var peakAtTarget: Double
    /// The highest true peak a plain gain may reach in `render`, dBTP.
    var plainGainLimit: Double

    var limiterNeeded: Bool { peakAtTarget > plainGainLimit }

    /// Decodes the bed at `path`, mixes it as described and measures it.
    static func measure(bed path: String, bedGainDB: Double, target: Double, ceiling: Double) throws(BenchError) -> LimiterForecast {
        do {
            let reader = try SoundFileReader(path: path)
            guard reader.channels == BellTrack.channels else {
                throw BenchError("\(path): the forecast expects a stereo bed, not \(reader.channels) channels")
            }
            let channels = reader.channels
            let bell = BellTrack.period(rate: reader.sampleRate)
            let loudness = try LoudnessMeter(channels: channels, sampleRate: reader.sampleRate, truePeak: false)
            let peak = TruePeakMeter(channels: channels)
            let gain = Float(Gain.linear(dB: bedGainDB))
            var block = [Float](repeating: 0, count: 4096 * channels)
            var position = 0
            while true {
                let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try reader.read(into: p, frames: 4096) }
                if n == 0 { break }
                for i in 0..<(n * channels) {
                    block[i] = block[i] * gain + bell[(position * channels + i) % bell.count]
                }
                try block.withUnsafeBufferPointer { (p) throws(AudioError) in
                    try loudness.add(p, frames: n)
                    peak.add(p, frames: n)
                }
                position += n
            }
            let mixLoudness = loudness.integratedLoudness()
            let mixTruePeak = peak.finish()
            return LimiterForecast(
                mixLoudness: mixLoudness, mixTruePeak: mixTruePeak, peakAtTarget: mixTruePeak + target - mixLoudness,
                plainGainLimit: ceiling - 0.3)
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("\(path): measuring the reference mix failed: \(error)")
        }
    }
}
