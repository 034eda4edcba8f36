import AudioCore
import AudioIO

/// Integrated loudness of a stream handed over in blocks of any size: libebur128's K-weighting
/// in its momentary mode, and after every 100 ms hop from the fourth the energy of the gating
/// block ending there, counted in a `BlockHistogram`. The energy is the mean of the last four
/// hops' 100 ms windows where libebur128's hop is its window (`LoudnessMeter.hopIsWindow`), else
/// its momentary 400 ms. The loudness is the one libebur128 integrates over the same frames
/// (`GatingMeterTests`), for about a quarter of its summing: in `EBUR128_MODE_I` it sums each
/// 400 ms block anew after every hop, and pass 1 reads the blocks' energies besides.
final class GatingMeter {
    private let meter: LoudnessMeter
    private(set) var histogram = BlockHistogram()
    private let channels: Int
    /// libebur128's hop (`samples_in_100ms`), and the frames added into the current one.
    private let hop: Int
    private var into = 0
    private let hopWindows: Bool
    /// The last four hops' window energies, in a ring, and how many whole hops were added.
    private var recent = SIMD4<Double>()
    private(set) var hops = 0

    init(channels: Int, sampleRate: Int, vorbisOrder: Bool = false) throws(AudioError) {
        meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false, vorbisOrder: vorbisOrder, gating: false)
        self.channels = channels
        hop = (sampleRate + 5) / 10
        hopWindows = LoudnessMeter.hopIsWindow(sampleRate: sampleRate)
    }

    /// Adds interleaved frames; `block(k, energy)` follows each gating block, the one ending after
    /// the k-th whole hop (k ≥ 4), with its energy (channel-weighted mean square); `window(h, energy)`
    /// each whole hop h's own 100 ms window (from 0; only where the hop is the window).
    func add(
        _ samples: UnsafeBufferPointer<Float>, frames: Int, block: (Int, Double) -> Void = { _, _ in },
        window: (Int, Double) -> Void = { _, _ in }
    ) throws(AudioError) {
        var done = 0
        while done < frames {
            let n = min(frames - done, hop - into)
            try meter.add(UnsafeBufferPointer(rebasing: samples[(done * channels)..<((done + n) * channels)]), frames: n)
            done += n
            into += n
            guard into == hop else { continue }
            into = 0
            if hopWindows {
                recent[hops & 3] = try meter.windowEnergy(milliseconds: 100)
                window(hops, recent[hops & 3])
            }
            hops += 1
            guard hops >= 4 else { continue }
            let energy = hopWindows ? blockEnergy() : meter.momentaryEnergy()
            histogram.add(energy: energy)
            block(hops, energy)
        }
    }

    /// Integrated loudness (LUFS) of what was added; -inf when no block passes the gates.
    var loudness: Double { histogram.integrated }

    /// The gating block's energy after the last hop: the mean of the last four hops', summed oldest
    /// first (the same sum wherever the meter started).
    private func blockEnergy() -> Double {
        let r = recent, k = hops
        return Self.blockEnergy(r[k & 3], r[(k + 1) & 3], r[(k + 2) & 3], r[(k + 3) & 3])
    }

    /// A gating block's energy from its four hops' window energies, oldest first, summed in that
    /// order (every meter that builds blocks from windows sums them so, for the same `Double`).
    static func blockEnergy(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double { (((a + b) + c) + d) / 4 }
}
