import CadenceCues
import Recipe

/// The haptic steps of cues-v1.2 § Haptic steps: what both haptics files (`OUT.ahap`, `OUT.haptics.json`)
/// are written from, in whole milliseconds.
///
/// Haptics move only while the breath moves: each moving span of the envelope (rise and fall phases,
/// the outro's fall) covers the milliseconds [ms(s), ms(e)) and is cut into n = ceil(len / 100) steps,
/// the first `len mod n` one millisecond longer; a step's level is E at its middle, the fractional
/// frame (a + b) × rate / 2000. A transient sounds at every cue that sounds, ticks left out, at its
/// frame's millisecond: intensity 1.0 for `start` and `end`, 0.8 for the others.
public struct HapticSteps: Sendable, Equatable {
    /// A step of a moving span: milliseconds [startMS, endMS) at `level` (E at its middle).
    public struct Step: Sendable, Equatable {
        public let startMS: Int64
        public let endMS: Int64
        public let level: Double
    }

    /// A tap at a cue.
    public struct Transient: Sendable, Equatable {
        public let ms: Int64
        public let intensity: Double
        /// The cue's name (a phase kind, `start`, `end`).
        public let cue: String
    }

    /// The longest step, in milliseconds.
    public static let maxStepMS: Int64 = 100
    /// A `start` or `end` cue's intensity; the other cues'.
    public static let boundaryIntensity = 1.0
    public static let cueIntensity = 0.8
    /// The events a track's haptics may hold (steps + transients; AHAP writes at most this many):
    /// `RecipeLimits.maxHapticEventsPerTrack`.
    public static let maxEventsPerTrack = RecipeLimits.maxHapticEventsPerTrack

    /// ms(frames): the length of the track in milliseconds; the Android timings add up to it.
    public let totalMS: Int64
    /// Every step, in time order (the moving spans' steps, span after span).
    public let steps: [Step]
    /// Every transient, in time order (cue order where two share a millisecond).
    public let transients: [Transient]

    /// Steps + transients: the events of the AHAP file at most.
    public var eventCount: Int { steps.count + transients.count }

    /// ms(f) = floor(f × 1000 / rate + 1/2), in integers: floor((2000 f + rate) / (2 rate)).
    public static func ms(_ frame: Int64, rate: Int) -> Int64 {
        let r = Int64(rate)
        let n = 2000 * frame + r
        let d = 2 * r
        // floor division for a negative frame too
        return n >= 0 ? n / d : -((-n + d - 1) / d)
    }

    /// The steps and transients of `timeline` with `envelope` (built from that timeline).
    public init(timeline: Timeline, envelope: BreathEnvelope) {
        let phases = timeline.phases
        let cues = timeline.cues.filter { cue in
            // a tick is named `tick` inside a phase of another kind; a phase's own cue is named by its kind
            cue.name == "start" || cue.name == "end" || (phases.indices.contains(cue.phase) && phases[cue.phase].kind == cue.name)
        }
        self.init(envelope: envelope, cues: cues.map { ($0.name, $0.frame) })
    }

    /// The steps of `envelope`'s moving spans and a transient per cue of `cues` (name, frame; cues that
    /// sound, ticks left out), in frame order.
    public init(envelope: BreathEnvelope, cues: [(name: String, frame: Int64)]) {
        let rate = envelope.sampleRate
        totalMS = Self.ms(envelope.totalFrames, rate: rate)
        var steps: [Step] = []
        for span in envelope.pieces where span.moving {
            let (s, e) = (Self.ms(span.start, rate: rate), Self.ms(span.end, rate: rate))
            let length = e - s
            guard length > 0 else { continue }
            let n = (length + Self.maxStepMS - 1) / Self.maxStepMS
            let (q, r) = (length / n, length % n)
            var a = s
            for k in 0..<n {
                let b = a + q + (k < r ? 1 : 0)
                // the middle (a + b) / 2 ms is the frame (a + b) × rate / 2000
                steps.append(Step(startMS: a, endMS: b, level: envelope.value(atFrame: (a + b) * Int64(rate), over: 2000)))
                a = b
            }
        }
        self.steps = steps
        let indexed = cues.enumerated().map { (offset, cue) in
            (
                offset,
                Transient(
                    ms: Self.ms(cue.frame, rate: rate),
                    intensity: cue.name == "start" || cue.name == "end" ? Self.boundaryIntensity : Self.cueIntensity, cue: cue.name)
            )
        }
        transients = indexed.sorted { ($0.1.ms, $0.0) < ($1.1.ms, $1.0) }.map(\.1)
    }
}
