import AudioCore

/// The cue presets (`bell`, `chime`, `click`), the tone defaults, and the cues of a recipe without `cues:`.
public enum CuePresets {
    /// The preset names, in the order messages list them.
    public static let names = ["bell", "chime", "click"]

    /// 528 Hz, 1.2 s, -18 dB, bell envelope, two soft overtones.
    public static let bell = Tone(
        frequency: 528, length: ExactSeconds(nanoseconds: 1_200_000_000), gainDB: -18,
        envelope: .bell, harmonics: [0.3, 0.12])
    /// 880 Hz, 1.5 s, -20 dB, bell envelope, three overtones.
    public static let chime = Tone(
        frequency: 880, length: ExactSeconds(nanoseconds: 1_500_000_000), gainDB: -20,
        envelope: .bell, harmonics: [0.5, 0.25, 0.12])
    /// 2 kHz, 30 ms, -24 dB, click envelope.
    public static let click = Tone(
        frequency: 2000, length: ExactSeconds(nanoseconds: 30_000_000), gainDB: -24,
        envelope: .click)

    /// Default `length` of a tone cue: 800 ms.
    public static let toneDefaultLength = ExactSeconds(nanoseconds: 800_000_000)
    /// Default `gain` of a tone cue: -18 dB.
    public static let toneDefaultGainDB: Double = -18
    /// Default `envelope` of a tone cue: bell.
    public static let toneDefaultEnvelope = Envelope.bell

    /// The preset called `name`, or nil.
    public static func named(_ name: String) -> Tone? {
        switch name {
        case "bell": return bell
        case "chime": return chime
        case "click": return click
        default: return nil
        }
    }

    /// The cues of a recipe without a `cues` key, for a pattern's kinds.
    ///
    /// A soft higher bell on `inhale` (528 Hz), a soft lower one on `exhale`
    /// (396 Hz), both 1 s at -20 dB; a chime at `start` and `end`; other kinds silent.
    public static func defaults(forKinds kinds: Set<String>) -> [String: CueSound] {
        var cues: [String: CueSound] = ["start": .tone(chime), "end": .tone(chime)]
        if kinds.contains("inhale") {
            cues["inhale"] = .tone(Tone(frequency: 528, length: ExactSeconds(seconds: 1), gainDB: -20, envelope: .soft))
        }
        if kinds.contains("exhale") {
            cues["exhale"] = .tone(Tone(frequency: 396, length: ExactSeconds(seconds: 1), gainDB: -20, envelope: .soft))
        }
        return cues
    }

    /// `harmonics: N`: N overtones with amplitude 1/k for partial k = 2 … N+1.
    public static func harmonicSeries(_ count: Int) -> [Double] {
        count <= 0 ? [] : (2...(count + 1)).map { 1 / Double($0) }
    }
}
