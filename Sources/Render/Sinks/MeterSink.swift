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
        case limited(LimitedGatingMeter, LimiterStage)
    }
    private let loudnessMeter: Loudness
    private let peakMeter: TruePeakMeter

    init(channels: Int, sampleRate: Int, loudness: Bool, vorbisOrder: Bool = false) throws(AudioError) {
        loudnessMeter = loudness ? .whole(try GatingMeter(channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder)) : .none
        peakMeter = TruePeakMeter(channels: channels)
    }

    /// Meters the output of `limiter`, whose input is the mix pass 1 measured (`passOne`, its
    /// hop windows) × `gain`; at rates whose hop is not libebur128's window, every frame.
    init(
        channels: Int, sampleRate: Int, limiter: LimiterStage, gain: Float, passOne: [Double], totalFrames: Int64,
        vorbisOrder: Bool = false
    ) throws(AudioError) {
        if LoudnessMeter.hopIsWindow(sampleRate: sampleRate) && !passOne.isEmpty {
            loudnessMeter = .limited(
                try LimitedGatingMeter(
                    passOne: passOne, gain: gain, totalFrames: totalFrames, channels: channels, sampleRate: sampleRate,
                    vorbisOrder: vorbisOrder),
                limiter)
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
            case .limited(let meter, let limiter): try meter.add(block, frames: frames, reducedThrough: limiter.lastReducedFrame)
            }
            peakMeter.add(block, frames: frames)
        }
        return .more
    }

    /// (LUFS or nil when not measured, dBTP); -inf for silence.
    func finish() throws(AudioError) -> (loudness: Double?, truePeak: Double) {
        let loudness: Double?
        switch loudnessMeter {
        case .none: loudness = nil
        case .whole(let meter): loudness = meter.loudness
        case .limited(let meter, _): loudness = try meter.finish()
        }
        return (loudness, peakMeter.finish())
    }

    /// Hop windows measured and taken from pass 1, and hops K-filtered (a limited meter's; nil otherwise).
    var hops: (measured: Int, shifted: Int, fed: Int)? {
        if case .limited(let meter, _) = loudnessMeter { return (meter.measuredHops, meter.shiftedHops, meter.fedHops) }
        return nil
    }
}
