import AudioCore
import AudioIO
import DSP
import Dispatch

/// One analysis pass over a track's mix (optionally through gain and limiter): its integrated
/// loudness and true peak, measured on two threads when the mix can start part-way.
///
/// The track is cut at a frame F on libebur128's 100 ms grid. The first thread
/// renders [0, F + lead) and meters loudness on [0, F); the second renders from
/// F − lead (warming up the limiter and the true-peak filter) and meters loudness
/// from F − 300 ms, so that between them they hold exactly the gating blocks of one
/// continuous meter (`ebur128_loudness_global_multiple` joins them). True peaks are
/// detected on [0, F + δ) and [F, end): every instant, each from a filter history
/// of real samples. The cut depends only on the track's length, so the result is
/// the same however many cores there are.
struct AnalysisPass {
    let sources: TrackSources
    let sampleRate: Int
    let channels: Int
    let totalFrames: Int64
    /// More than 1: the spans run on two threads; 1: one after the other. The spans
    /// themselves never depend on it, so neither does the result (nor the bytes).
    var threads = 2

    /// Lead-in before (and run-on after) the cut: covers the limiter's look-ahead and release.
    var lead: Int64 { Int64(sampleRate) / 2 }
    /// libebur128's block hop (`samples_in_100ms`).
    var hop: Int64 { Int64((sampleRate + 5) / 10) }

    /// The frames metered by one thread.
    struct Span {
        var start: Int64
        var end: Int64
        var loudness: Range<Int64>
        var peaks: Range<Int64>
        /// The span reaches the end of the track: flush the limiter and the peak filter.
        var isLast: Bool
    }

    /// The spans: two when the mix is long enough and can start part-way, else one.
    var spans: [Span] {
        let whole = Span(start: 0, end: totalFrames, loudness: 0..<totalFrames, peaks: 0..<totalFrames, isLast: true)
        let cut = (totalFrames / 2) / hop * hop
        guard sources.canStartAnywhere, cut - 3 * hop - lead > 0, cut + lead < totalFrames, totalFrames >= 60 * Int64(sampleRate)
        else { return [whole] }
        let delay = Int64(2 * TruePeakInterpolator.delay)
        return [
            Span(start: 0, end: cut + lead, loudness: 0..<cut, peaks: 0..<(cut + delay), isLast: false),
            Span(start: cut - lead, end: totalFrames, loudness: (cut - 3 * hop)..<totalFrames, peaks: cut..<totalFrames, isLast: true),
        ]
    }

    /// Measures the mix scaled by `gain`, through a limiter at `ceiling` dBTP if given.
    func run(gain: Float = 1, limiterCeiling: Double? = nil) throws(AudioError) -> (loudness: Double, truePeak: Double) {
        StageClock.shared.countPass()
        let spans = self.spans
        var meters: [LoudnessMeter] = []
        for _ in spans { meters.append(try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false)) }
        let peaks = spans.map { _ in TruePeakMeter(channels: channels) }
        var results = [Result<Double, AudioError>](repeating: .success(0), count: spans.count)
        results.withUnsafeMutableBufferPointer { slots in
            nonisolated(unsafe) let slots = slots
            let work = { (k: Int) in
                slots[k] = Result { () throws(AudioError) in
                    try measure(spans[k], meter: meters[k], peakMeter: peaks[k], gain: gain, limiterCeiling: limiterCeiling)
                }
            }
            if spans.count == 1 || threads == 1 {
                for k in spans.indices { work(k) }
            } else {
                // each iteration owns its span's meters and result slot
                nonisolated(unsafe) let work = work
                DispatchQueue.concurrentPerform(iterations: spans.count) { work($0) }
            }
        }
        var truePeak: Float = 0
        for result in results { truePeak = max(truePeak, Float(try result.get())) }
        let loudness = LoudnessMeter.integratedLoudness(of: meters)
        return (loudness, truePeak > 0 ? Gain.decibels(linear: Double(truePeak)) : -.infinity)
    }

    /// One thread's share; returns its linear true peak.
    private func measure(_ span: Span, meter: LoudnessMeter, peakMeter: TruePeakMeter, gain: Float, limiterCeiling: Double?)
        throws(AudioError) -> Double
    {
        var mix = try sources.makeMix(from: span.start, to: span.end)
        var block = [Float](repeating: 0, count: Block.frames * channels)
        var position = span.start
        let sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void = { (p, n) throws(AudioError) in
            try StageClock.shared.time(.analysis) { () throws(AudioError) in
                let range = position..<(position + Int64(n))
                func part(_ r: Range<Int64>) -> UnsafeBufferPointer<Float> {
                    let a = Int(r.lowerBound - position) * channels, b = Int(r.upperBound - position) * channels
                    return UnsafeBufferPointer(rebasing: p[a..<b])
                }
                let loud = range.clamped(to: span.loudness)
                if !loud.isEmpty { try meter.add(part(loud), frames: loud.count) }
                let lead = range.clamped(to: span.start..<span.peaks.lowerBound)
                if !lead.isEmpty { peakMeter.prime(part(lead), frames: lead.count) }
                let detect = range.clamped(to: span.peaks)
                if !detect.isEmpty { peakMeter.add(part(detect), frames: detect.count) }
            }
            position += Int64(n)
        }
        if let limiterCeiling {
            let stage = LimiterStage(channels: channels, sampleRate: sampleRate, ceiling: limiterCeiling)
            try stage.run(mix: &mix, gain: gain, block: &block, sink: sink)
        } else {
            while true {
                let n = try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try mix.render(into: p) }
                if n == 0 { break }
                try block.withUnsafeMutableBufferPointer { (p) throws(AudioError) in
                    if gain != 1 { for i in 0..<(n * channels) { p[i] *= gain } }
                    try sink(UnsafeBufferPointer(p), n)
                }
            }
        }
        if span.isLast { return pow10dB(peakMeter.finish()) }
        return Double(peakMeter.peak)
    }

    private func pow10dB(_ db: Double) -> Double { db.isFinite ? Gain.linear(dB: db) : 0 }
}
