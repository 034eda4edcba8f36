import AudioCore
import AudioIO
import DSP

/// Measures what is encoded: the true peak (8× oversampled) and, when asked, the
/// integrated loudness (`GatingMeter`). A plain-gain plan needs neither (pass 1 shifted
/// is exact); a limited one needs the true peak; `loudness: off` needs both.
final class MeterSink: Sink {
    private let loudnessMeter: GatingMeter?
    private let peakMeter: TruePeakMeter

    init(channels: Int, sampleRate: Int, loudness: Bool, vorbisOrder: Bool = false) throws(AudioError) {
        loudnessMeter = loudness ? try GatingMeter(channels: channels, sampleRate: sampleRate, vorbisOrder: vorbisOrder) : nil
        peakMeter = TruePeakMeter(channels: channels)
    }

    func consume(_ block: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) -> Flow {
        try StageClock.shared.time(.analysis) { () throws(AudioError) in
            try loudnessMeter?.add(block, frames: frames)
            peakMeter.add(block, frames: frames)
        }
        return .more
    }

    /// (LUFS or nil when not measured, dBTP); -inf for silence.
    func finish() -> (loudness: Double?, truePeak: Double) {
        (loudnessMeter?.loudness, peakMeter.finish())
    }
}
