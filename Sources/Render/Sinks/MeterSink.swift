import AudioCore
import AudioIO
import DSP

/// Measures what is encoded: the true peak (8× oversampled) and, when asked, the
/// integrated loudness. A plain-gain plan needs neither (pass 1 shifted is exact); a
/// limited one needs the true peak, and the loudness where the limiter worked
/// (`LimitedGatingMeter`: elsewhere pass 1's blocks × gain²); `loudness: off` needs both
/// (`GatingMeter`).
final class MeterSink: Sink {
    private enum Loudness {
        case none
        case whole(GatingMeter)
        case limited(LimitedGatingMeter)
    }
    private let loudnessMeter: Loudness
    private let peakMeter: TruePeakMeter
    /// A limited pass's limiter, and the true-peak bounds where it left the mix alone: pass 1's
    /// hop peaks × the gain (with room for float rounding); the frames consumed so far.
    private let limiter: LimiterStage?
    private let knownPeaks: (hopPeaks: [Float], gain: Float, hop: Int64)?
    private var position: Int64 = 0

    init(channels: Int, sampleRate: Int, loudness: Bool, vorbisOrder: Bool = false) throws(AudioError) {
        loudnessMeter = loudness ? .whole(try GatingMeter(channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder)) : .none
        peakMeter = TruePeakMeter(channels: channels)
        limiter = nil
        knownPeaks = nil
    }

    /// Meters the output of `limiter`, whose input is the mix pass 1 measured (`passOne`, its
    /// hop windows; `hopPeaks`, its bounds on each hop's true peak) × `gain`; at rates whose hop
    /// is not libebur128's window, the loudness of every frame.
    init(
        channels: Int, sampleRate: Int, limiter: LimiterStage, gain: Float, passOne: [Double], hopPeaks: [Float],
        totalFrames: Int64, vorbisOrder: Bool = false
    ) throws(AudioError) {
        self.limiter = limiter
        knownPeaks = hopPeaks.isEmpty ? nil : (hopPeaks, gain, Measurement.hopFrames(sampleRate: sampleRate))
        if LoudnessMeter.hopIsWindow(sampleRate: sampleRate) && !passOne.isEmpty {
            loudnessMeter = .limited(
                try LimitedGatingMeter(
                    passOne: passOne, gain: gain, totalFrames: totalFrames, channels: channels, sampleRate: sampleRate,
                    vorbisOrder: vorbisOrder))
        } else {
            loudnessMeter = .whole(try GatingMeter(channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder))
        }
        peakMeter = TruePeakMeter(channels: channels)
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        try StageClock.shared.time(.analysis) { () throws(AudioError) in
            switch loudnessMeter {
            case .none: break
            case .whole(let meter): try meter.add(block, frames: frames)
            case .limited(let meter): try meter.add(block, frames: frames, reducedThrough: limiter?.lastReducedFrame ?? .max)
            }
            // where no frame the interpolator reads was reduced, the block is the mix × the gain
            if let known = knownPeaks, let limiter, limiter.lastReducedFrame < position - Int64(TruePeakInterpolator.span) {
                peakMeter.add(block, frames: frames, from: position) { frames in
                    let first = Int(frames.lowerBound / known.hop), last = Int((frames.upperBound - 1) / known.hop)
                    guard last < known.hopPeaks.count else { return .infinity }
                    var peak: Float = 0
                    for h in first...last { peak = max(peak, known.hopPeaks[h]) }
                    return peak * known.gain * Self.roundingRoom
                }
            } else {
                peakMeter.add(block, frames: frames)
            }
        }
        position += Int64(frames)
        return .more
    }

    /// How far the interpolated peaks of a float signal × a gain may differ from the gain × the
    /// signal's (rounding x × gain to a float, then 20 products summed: about 3e-6 of the bound).
    static let roundingRoom: Float = 1.0001

    /// Frames whose true peak was interpolated.
    var interpolatedFrames: Int64 { peakMeter.interpolatedFrames }

    /// (LUFS or nil when not measured, dBTP); -inf for silence.
    func finish() throws(AudioError) -> (loudness: Double?, truePeak: Double) {
        let loudness: Double?
        switch loudnessMeter {
        case .none: loudness = nil
        case .whole(let meter): loudness = meter.loudness
        case .limited(let meter): loudness = try meter.finish()
        }
        return (loudness, peakMeter.finish())
    }

    /// Hop windows measured and taken from pass 1, and hops K-filtered (a limited meter's; nil otherwise).
    var hops: (measured: Int, shifted: Int, fed: Int)? {
        if case .limited(let meter) = loudnessMeter { return (meter.measuredHops, meter.shiftedHops, meter.fedHops) }
        return nil
    }
}
