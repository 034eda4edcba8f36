import DSP
import Foundation

/// The recipe of a generated bed: a rain-like texture from seeded noise, with slow swells and
/// sparse drops that give it its peaks.
///
/// The texture is pink noise (the body) plus band-passed white noise (the hiss), both riding
/// two slow sine swells. Drops are short decaying sine pings at random pitches, their
/// amplitudes drawn from a steep power law: most are faint, a few are loud. The few loud
/// ones set the bed's peak while the texture sets its loudness, so the bed has a high crest
/// factor, as real rain on a close surface does, and at -16 LUFS its true peak is over the
/// renderer's ceiling: the limiter has work to do.
struct BedDesign: Sendable {
    var name: String
    var seed: UInt64
    var sampleRate = 44_100
    var channels = 2
    var seconds = 180
    /// Linear level of the texture before the bed is scaled to its peak.
    var textureLevel: Float
    /// Share of hiss in the texture (the rest is pink body), 0…1.
    var hiss: Float
    /// Drops per second per channel, at full swell.
    var dropRate: Double
    /// Exponent of the drop amplitude law (`u^k`): the larger, the rarer the loud drops.
    var dropSkew: Double
    /// Periods (seconds) and depths of the two swells: the texture's gain is 1 + d₀ sin(…) + d₁ sin(…).
    var swellPeriods: (Double, Double)
    var swellDepths: (Float, Float)
    /// The sample peak the finished bed is scaled to, in dBFS.
    var peakDBFS = -1.0

    /// The reference job's bed: steady rain with many drops.
    static let rain = BedDesign(
        name: "bench-rain", seed: 0x5241_494E, textureLevel: 0.06, hiss: 0.55, dropRate: 30, dropSkew: 4,
        swellPeriods: (23, 61), swellDepths: (0.2, 0.1))
    /// The catalog's second bed: slow surf-like swells under fewer drops.
    static let surf = BedDesign(
        name: "bench-surf", seed: 0x5355_5246, textureLevel: 0.07, hiss: 0.3, dropRate: 8, dropSkew: 3,
        swellPeriods: (9, 37), swellDepths: (0.45, 0.15))

    var frames: Int { seconds * sampleRate }
}

/// Streams a `BedDesign`'s samples block by block; the same design gives the same samples.
struct BedSynth {
    private struct Drop {
        var amplitude: Double
        var decay: Double
        var re: Double, im: Double
        let cr: Double, ci: Double
        var left: Int
    }

    private let design: BedDesign
    private var body: NoiseGenerator
    private var random: [SeededRandom]
    private var low: [Float]
    private var band: [Float]
    private var drops: [[Drop]]
    private var bodyBlock: [Float] = []
    private var frame = 0

    /// The most drops ringing at once per channel; a new drop replaces the oldest beyond this.
    private static let maximumDrops = 12

    init(_ design: BedDesign) {
        self.design = design
        body = NoiseGenerator(kind: .pink, channels: design.channels, sampleRate: design.sampleRate, seed: design.seed)
        random = (0..<design.channels).map { SeededRandom(seed: design.seed ^ (0xD509_0000 + UInt64($0))) }
        low = [Float](repeating: 0, count: design.channels)
        band = [Float](repeating: 0, count: design.channels)
        drops = [[Drop]](repeating: [], count: design.channels)
    }

    /// Writes the next `frames` interleaved frames into `out` (overwriting), unscaled.
    mutating func render(into out: UnsafeMutableBufferPointer<Float>, frames: Int) {
        let channels = design.channels
        let rate = Double(design.sampleRate)
        if bodyBlock.count < frames * channels { bodyBlock = [Float](repeating: 0, count: frames * channels) }
        bodyBlock.withUnsafeMutableBufferPointer { body.render(into: $0, frames: frames) }
        // one-pole filters: the hiss is white noise above ~1.5 kHz and below ~9 kHz
        let highCut = Float(1 - exp(-2 * Double.pi * 1500 / rate))
        let lowCut = Float(1 - exp(-2 * Double.pi * 9000 / rate))
        let hiss = design.hiss
        let level = design.textureLevel
        for c in 0..<channels {
            let phase = Double(c) * 1.7
            for i in 0..<frames {
                let t = Double(frame + i) / rate
                let swell =
                    1 + design.swellDepths.0 * Float(sin(2 * Double.pi * t / design.swellPeriods.0 + phase))
                    + design.swellDepths.1 * Float(sin(2 * Double.pi * t / design.swellPeriods.1 + 2 * phase))
                let white = random[c].nextBipolar()
                low[c] += highCut * (white - low[c])
                band[c] += lowCut * ((white - low[c]) - band[c])
                var sample = level * swell * ((1 - hiss) * bodyBlock[i * channels + c] * 4 + hiss * band[c])
                maybeStartDrop(channel: c, swell: Double(swell), rate: rate)
                sample += ringDrops(channel: c)
                out[i * channels + c] = sample
            }
        }
        frame += frames
    }

    /// Starts a drop with probability rate × swell / sampleRate.
    private mutating func maybeStartDrop(channel c: Int, swell: Double, rate: Double) {
        let u = Double(random[c].next() >> 11) * 0x1p-53
        guard u < design.dropRate * swell / rate else { return }
        let size = Double(random[c].next() >> 11) * 0x1p-53
        let pitch = 1800 + Double(random[c].next() >> 11) * 0x1p-53 * 4200
        let tau = (0.002 + Double(random[c].next() >> 11) * 0x1p-53 * 0.010) * rate
        let step = 2 * Double.pi * pitch / rate
        let drop = Drop(
            amplitude: pow(size, design.dropSkew), decay: exp(-1 / tau), re: 1, im: 0, cr: cos(step), ci: sin(step),
            left: Int(8 * tau))
        if drops[c].count >= Self.maximumDrops { drops[c].removeFirst() }
        drops[c].append(drop)
    }

    /// The sum of the ringing drops at this frame; advances them and retires those that ended.
    private mutating func ringDrops(channel c: Int) -> Float {
        guard !drops[c].isEmpty else { return 0 }
        var sum = 0.0
        for k in drops[c].indices {
            let d = drops[c][k]
            sum += d.amplitude * d.im
            drops[c][k].amplitude *= d.decay
            (drops[c][k].re, drops[c][k].im) = (d.re * d.cr - d.im * d.ci, d.re * d.ci + d.im * d.cr)
            drops[c][k].left -= 1
        }
        drops[c].removeAll { $0.left <= 0 }
        return Float(sum)
    }
}
