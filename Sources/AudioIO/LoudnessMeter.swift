import AudioCore
import CEBUR128
import Foundation

/// EBU R128 / ITU-R BS.1770 measurement with libebur128. Owns one `ebur128_state*`.
public final class LoudnessMeter {
    public let channels: Int
    public let measuresTruePeak: Bool
    /// libebur128 gates the blocks itself (`EBUR128_MODE_I`).
    public let gates: Bool
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// `ebur128_init`: integrated loudness always, true peak when asked (it costs more than the rest).
    ///
    /// `vorbisOrder`: the channels are in Vorbis order (Ogg Vorbis and Opus files keep the mix's
    /// channels as they are, and Vorbis puts the LFE of 6 to 8 channels last, not 4th).
    ///
    /// `gating: false`: libebur128 keeps no gating blocks (`EBUR128_MODE_M`, only the K-filtered
    /// last 400 ms), and `integratedLoudness` is not available: the caller reads windows and gates
    /// them itself (the renderer's `GatingMeter`), which saves libebur128 summing every 400 ms
    /// block anew after each 100 ms hop.
    public init(channels: Int, sampleRate: Int, truePeak: Bool, vorbisOrder: Bool = false, gating: Bool = true) throws(AudioError) {
        self.channels = channels
        self.measuresTruePeak = truePeak
        self.gates = gating
        // histogram mode: constant memory however long the track
        // (no sample-peak mode unless true peak is asked for: tracking it costs time on every
        // sample, and the renderer measures peaks with its own skipping true-peak meter)
        var mode =
            gating ? Int32(EBUR128_MODE_I.rawValue) | Int32(EBUR128_MODE_HISTOGRAM.rawValue) : Int32(EBUR128_MODE_M.rawValue)
        if truePeak { mode |= Int32(EBUR128_MODE_TRUE_PEAK.rawValue) }
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else {
            throw AudioError(
                file: "loudness", operation: "ebur128_init", reason: "cannot measure \(channels) channels at \(sampleRate) Hz", kind: .software)
        }
        self.state = state
        // libebur128's own map leaves channels 7 and 8 out (EBUR128_UNUSED): every channel gets its role
        for (c, role) in Self.channelRoles(channels: channels, vorbisOrder: vorbisOrder).enumerated() {
            guard ebur128_set_channel(state, UInt32(c), role) == Int32(EBUR128_SUCCESS.rawValue) else {
                throw AudioError(file: "loudness", operation: "ebur128_set_channel", reason: "channel \(c + 1)", kind: .software)
            }
        }
    }

    /// The libebur128 role (`enum channel`), so the BS.1770 weight, of each channel of a `channels`-channel output, in the layouts WAVE
    /// (WAVE_FORMAT_EXTENSIBLE), FLAC and FFmpeg give each count: 1 mono, 2 L R, 3 L R C,
    /// 4 L R Ls Rs (quad), 5 L R C Ls Rs, 6 L R C LFE Ls Rs (5.1), 7 L R C LFE Cs Ls Rs (6.1),
    /// 8 L R C LFE Lb Rb Ls Rs (7.1). Front channels weigh 1, every surround, side or back
    /// channel +1.5 dB (1.41, as FFmpeg's `ebur128` filter weighs them), the LFE nothing.
    /// In Vorbis order (`vorbisOrder`) the weights are the same but for the LFE of 6 to 8 channels,
    /// which is the last channel (5.1: L C R Ls Rs LFE; 6.1: L C R Ls Rs Cs LFE; 7.1: L C R Ls Rs Lb Rb LFE).
    public static func channelRoles(channels: Int, vorbisOrder: Bool = false) -> [Int32] {
        var roles = roles(channels: channels)
        if vorbisOrder && (6...8).contains(channels) { roles.swapAt(3, channels - 1) }
        return roles.map { Int32($0.rawValue) }
    }

    private static func roles(channels: Int) -> [channel] {
        let front = [EBUR128_LEFT, EBUR128_RIGHT, EBUR128_CENTER]
        let surround = [EBUR128_LEFT_SURROUND, EBUR128_RIGHT_SURROUND]
        switch channels {
        case 1: return [EBUR128_CENTER]
        case 2: return [EBUR128_LEFT, EBUR128_RIGHT]
        case 3: return front
        case 4: return [EBUR128_LEFT, EBUR128_RIGHT] + surround
        case 5: return front + surround
        case 6: return front + [EBUR128_UNUSED] + surround
        case 7: return front + [EBUR128_UNUSED, EBUR128_LEFT_SURROUND] + surround
        default:
            // 8 (7.1) and, past the recipe's limit, every further channel as a surround
            return front + [EBUR128_UNUSED] + surround + Array(repeating: EBUR128_LEFT_SURROUND, count: max(0, channels - 6))
        }
    }

    deinit { ebur128_destroy(&state) }

    /// Adds interleaved frames (`ebur128_add_frames_float`).
    public func add(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        guard frames > 0 else { return }
        let error = ebur128_add_frames_float(state, samples.baseAddress, frames)
        guard error == Int32(EBUR128_SUCCESS.rawValue) else {
            throw AudioError(file: "loudness", operation: "ebur128_add_frames_float", reason: "error \(error)", kind: .software)
        }
    }

    /// Integrated loudness in LUFS (`ebur128_loudness_global`); -inf for silence.
    public func integratedLoudness() -> Double {
        precondition(gates, "integratedLoudness needs a meter made with gating: true")
        var value = -Double.infinity
        ebur128_loudness_global(state, &value)
        return value
    }

    /// The loudness of the last `milliseconds` (at most 400), ungated: the K-weighted, channel-weighted
    /// mean square over that window in LUFS (`ebur128_loudness_window`); -inf for silence. Frames
    /// before the first added count as silence.
    public func windowLoudness(milliseconds: Int) throws(AudioError) -> Double {
        precondition((1...400).contains(milliseconds), "the window must be 1 to 400 ms")
        var value = -Double.infinity
        let error = ebur128_loudness_window(state, UInt(milliseconds), &value)
        guard error == Int32(EBUR128_SUCCESS.rawValue) else {
            throw AudioError(file: "loudness", operation: "ebur128_loudness_window", reason: "error \(error)", kind: .software)
        }
        return value
    }

    /// The K-weighted mean-square loudness of a whole clip, ungated, in LUFS: the energies of its
    /// 400 ms windows (and the shorter last one) averaged by length; -inf for silence. For a clip
    /// shorter than 400 ms this is recipe-v1.1's rule for levelling it, and for any span it is the
    /// level `duck: wcag` compares.
    public static func meanSquareLoudness(
        of samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int, sampleRate: Int
    ) throws(AudioError) -> Double {
        let meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false)
        let window = max(1, sampleRate * 400 / 1000)
        var energy = 0.0
        var counted = 0
        var done = 0
        while done < frames {
            let n = min(window, frames - done)
            try meter.add(UnsafeBufferPointer(rebasing: samples[(done * channels)..<((done + n) * channels)]), frames: n)
            // libebur128 reads a window of floor(rate × ms / 1000) frames: whole milliseconds of this chunk
            let milliseconds = n * 1000 / sampleRate
            if milliseconds >= 1 {
                let loudness = try meter.windowLoudness(milliseconds: min(400, milliseconds))
                let measured = sampleRate * milliseconds / 1000
                if loudness.isFinite { energy += pow(10, (loudness + 0.691) / 10) * Double(measured) }
                counted += measured
            }
            done += n
        }
        guard counted > 0, energy > 0 else { return -.infinity }
        return -0.691 + 10 * log10(energy / Double(counted))
    }

    /// The mean-square energy (channel-weighted, K-weighted) of the last `milliseconds` (at most 400),
    /// ungated: `10^((window + 0.691) / 10)` of `windowLoudness`; 0 for silence. Over 100 ms it reads a
    /// quarter of the samples `momentaryEnergy` reads (libebur128 sums its window anew on each call).
    public func windowEnergy(milliseconds: Int) throws(AudioError) -> Double {
        let value = try windowLoudness(milliseconds: milliseconds)
        return value.isFinite ? pow(10, (value + 0.691) / 10) : 0
    }

    /// Whether libebur128's 100 ms window (`rate × 100 / 1000` frames) is its hop, `samples_in_100ms`
    /// (`(rate + 5) / 10`): true for every rate whose last digit is under 5 (48000, 44100, 22050), so
    /// a gating block's energy is the mean of its four hops' `windowEnergy(milliseconds: 100)`.
    public static func hopIsWindow(sampleRate: Int) -> Bool { sampleRate * 100 / 1000 == (sampleRate + 5) / 10 }

    /// The mean-square energy (channel-weighted, K-weighted) of the last 400 ms, as BS.1770
    /// defines a gating block's: `10^((momentary + 0.691) / 10)` of `ebur128_loudness_momentary`.
    /// Read right after a 100 ms hop, it is the energy of the gating block ending there.
    public func momentaryEnergy() -> Double {
        var value = -Double.infinity
        ebur128_loudness_momentary(state, &value)
        return value.isFinite ? pow(10, (value + 0.691) / 10) : 0
    }

    /// The highest true peak over all channels, in dBTP (`ebur128_true_peak`); needs `truePeak: true`.
    public func truePeakDB() -> Double {
        precondition(measuresTruePeak, "truePeakDB needs a meter made with truePeak: true")
        var peak = 0.0
        for c in 0..<channels {
            var value = 0.0
            ebur128_true_peak(state, UInt32(c), &value)
            peak = max(peak, value)
        }
        return peak > 0 ? 20 * log10(peak) : -.infinity
    }
}
