import CadenceCues
import Timeline

/// `OUT.ahap`: Apple's Core Haptics pattern (cues-v1.2 § OUT.ahap), from the haptic steps.
///
/// A `HapticContinuous` event per step whose level rounds (4 decimals) above 0, a `HapticTransient`
/// per transient; no `ParameterCurve` and no dynamic parameters (Core Haptics would apply them to
/// every event, transients included), so each event carries its own intensity. Times in seconds with
/// 3 decimals, events in time order, a transient before a step that starts at the same time.
/// Nothing in it depends on the time or the machine: the same steps, the same bytes.
public enum AHAP {
    /// A continuous event's sharpness; a transient's.
    public static let continuousSharpness = "0.2"
    public static let transientSharpness = "0.5"

    /// A step's level in ten-thousandths (4 decimals): what the file says, 0 for a step it leaves out.
    public static func level(_ x: Double) -> Int64 { Int64((min(max(x, 0), 1) * 10_000).rounded()) }

    /// The AHAP JSON of `haptics` for the track `id`.
    public static func text(of haptics: HapticSteps, id: String) -> String {
        var text = ""
        write(haptics, id: id) { text += $0 }
        return text
    }

    /// The text `text(of:id:)` gives, handed to `emit` in pieces of about `chunkBytes` bytes, in order:
    /// 8 hours of 1-second phases make a 76 MB file, which never has to be in memory at once.
    public static func write<E: Error>(
        _ haptics: HapticSteps, id: String, chunkBytes: Int = 1 << 20, to emit: (String) throws(E) -> Void
    ) throws(E) {
        var j = JSONText()
        j.open()
        j.raw("Version", "1.0")
        j.open("Metadata")
        j.field("Project", id)
        j.close()
        j.open("Pattern", array: true)
        var t = haptics.transients.startIndex
        func transient(_ tap: HapticSteps.Transient) {
            j.inlineObject([
                (
                    "Event",
                    "{ \"Time\": \(seconds(tap.ms)), \"EventType\": \"HapticTransient\", \"EventParameters\": ["
                        + parameter("HapticIntensity", decimals4(level(tap.intensity))) + ", "
                        + parameter("HapticSharpness", transientSharpness) + "] }"
                )
            ])
        }
        for step in haptics.steps {
            let k = level(step.level)
            guard k > 0 else { continue }
            // transients up to and at the step's start come first
            while t < haptics.transients.endIndex, haptics.transients[t].ms <= step.startMS {
                transient(haptics.transients[t])
                t += 1
            }
            j.inlineObject([
                (
                    "Event",
                    "{ \"Time\": \(seconds(step.startMS)), \"EventType\": \"HapticContinuous\", "
                        + "\"EventDuration\": \(seconds(step.endMS - step.startMS)), \"EventParameters\": ["
                        + parameter("HapticIntensity", decimals4(k)) + ", " + parameter("HapticSharpness", continuousSharpness) + "] }"
                )
            ])
            if j.pendingBytes >= chunkBytes { try emit(j.take()) }
        }
        while t < haptics.transients.endIndex {
            transient(haptics.transients[t])
            t += 1
        }
        j.close(array: true)
        j.close()
        try emit(j.text)
    }

    private static func parameter(_ id: String, _ value: String) -> String {
        "{ \"ParameterID\": \"\(id)\", \"ParameterValue\": \(value) }"
    }

    /// Milliseconds as seconds with 3 decimals: `10.050`.
    static func seconds(_ ms: Int64) -> String { fixed(ms, places: 3) }

    /// Ten-thousandths as a number with 4 decimals: `0.0004`, `1.0000`.
    static func decimals4(_ k: Int64) -> String { fixed(k, places: 4) }

    /// `n / 10^places` written exactly with `places` decimals (n ≥ 0).
    static func fixed(_ n: Int64, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let fraction = String(n % scale)
        return String(n / scale) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

/// `OUT.haptics.json`: the whole track as an Android vibration waveform (cues-v1.2 § OUT.haptics.json),
/// for `VibrationEffect.createWaveform(timings, amplitudes, -1)`.
///
/// Consecutive pieces: still time amplitude 0 (the still time between two moving spans one piece), each
/// step its own piece at round(255 × level); then each transient overrides [m, min(m + 20, end)) with
/// round(255 × intensity), the pieces it overlaps keeping their amplitude on either side, the higher
/// transient holding where two overlap. No piece of 0 ms, neighbours not merged, the timings adding up to
/// exactly ms(frames).
public enum AndroidHaptics {
    /// The format's name and version in the file.
    public static let format = "cadence-haptics"
    public static let version = 1
    /// How long a transient's piece lasts, in milliseconds.
    public static let transientMS: Int64 = 20

    /// A piece of the waveform: `ms` milliseconds at `amplitude` (0–255).
    public struct Piece: Sendable, Equatable {
        public let ms: Int64
        public let amplitude: Int
    }

    /// round(255 × x) for x in [0, 1].
    public static func amplitude(_ x: Double) -> Int { Int((min(max(x, 0), 1) * 255).rounded()) }

    /// The waveform of `haptics`, piece by piece.
    public static func pieces(of haptics: HapticSteps) -> [Piece] {
        let end = haptics.totalMS
        // the base: still time and steps, tiling [0, end)
        var base: [(start: Int64, end: Int64, amplitude: Int)] = []
        base.reserveCapacity(haptics.steps.count * 2 + 1)
        var cursor: Int64 = 0
        for step in haptics.steps where step.endMS > step.startMS {
            if step.startMS > cursor { base.append((cursor, step.startMS, 0)) }
            base.append((step.startMS, step.endMS, amplitude(step.level)))
            cursor = step.endMS
        }
        if end > cursor { base.append((cursor, end, 0)) }
        let taps = overlay(haptics.transients, end: end)
        // the base with the transients' windows laid over it
        var out: [Piece] = []
        out.reserveCapacity(base.count + 2 * taps.count)
        var o = 0
        var t: Int64 = 0
        for piece in base {
            t = max(t, piece.start)
            while t < piece.end {
                while o < taps.count, taps[o].end <= t { o += 1 }
                if o < taps.count, taps[o].start <= t {
                    out.append(Piece(ms: taps[o].end - t, amplitude: taps[o].amplitude))
                    t = taps[o].end
                } else {
                    let stop = o < taps.count ? min(piece.end, taps[o].start) : piece.end
                    out.append(Piece(ms: stop - t, amplitude: piece.amplitude))
                    t = stop
                }
            }
        }
        return out
    }

    /// The transients' windows as disjoint spans in time order: each [m, min(m + 20, end)) at its amplitude,
    /// laid in order of amplitude (then time) so the higher holds where two overlap.
    static func overlay(_ transients: [HapticSteps.Transient], end: Int64) -> [(start: Int64, end: Int64, amplitude: Int)] {
        var out: [(start: Int64, end: Int64, amplitude: Int)] = []
        var cluster: [(start: Int64, end: Int64, amplitude: Int)] = []
        var clusterEnd = Int64.min
        func flush() {
            // a few overlapping windows: paint the lower first, the higher over it
            var painted: [(start: Int64, end: Int64, amplitude: Int)] = []
            for w in cluster.enumerated().sorted(by: { ($0.element.amplitude, $0.offset) < ($1.element.amplitude, $1.offset) }).map(\.element) {
                var next: [(start: Int64, end: Int64, amplitude: Int)] = []
                for p in painted {
                    if p.start < w.start { next.append((p.start, min(p.end, w.start), p.amplitude)) }
                    if p.end > w.end { next.append((max(p.start, w.end), p.end, p.amplitude)) }
                }
                next.append(w)
                painted = next.sorted { $0.start < $1.start }
            }
            out.append(contentsOf: painted)
            cluster.removeAll()
        }
        for tap in transients {
            let window = (start: tap.ms, end: min(tap.ms + transientMS, end), amplitude: amplitude(tap.intensity))
            guard window.end > window.start else { continue }
            if window.start >= clusterEnd { flush() }
            cluster.append(window)
            clusterEnd = max(clusterEnd, window.end)
        }
        flush()
        return out
    }

    /// The JSON text: `format`, `version`, `id`, `timings_ms` and `amplitudes` (one line each).
    public static func jsonText(of haptics: HapticSteps, id: String) -> String {
        let pieces = pieces(of: haptics)
        var j = JSONText()
        j.open()
        j.field("format", format)
        j.field("version", version)
        j.field("id", id)
        j.raw("timings_ms", "[" + pieces.map { String($0.ms) }.joined(separator: ", ") + "]")
        j.raw("amplitudes", "[" + pieces.map { String($0.amplitude) }.joined(separator: ", ") + "]")
        j.close()
        return j.text
    }
}
