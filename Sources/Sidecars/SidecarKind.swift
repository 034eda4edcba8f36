/// The files that can be written beside a track, besides its audio and cue sheet.
///
/// Chosen per track (`output.sidecars` in the recipe) or for a whole run
/// (`--sidecars vtt,chapters`); the two lists are joined. Markers inside the
/// audio (WAV cue points, FLAC/Ogg chapter comments) are always written.
public enum SidecarKind: String, CaseIterable, Sendable, Comparable {
    /// WebVTT captions, one cue per phase: `<stem>.vtt`.
    case vtt
    /// Podcasting 2.0 JSON chapters: `<stem>.chapters.json`.
    case chapters
    /// An SVG picture of the track (waveform, phase bands, cue marks): `<stem>.svg`.
    case waveform
    /// WebVTT captions of the voice prompts, one cue per prompt with its text: `<stem>.captions.vtt` (cues-v1.1).
    case captions
    /// Core Haptics' AHAP pattern for iOS, from the breath envelope and the cues: `<stem>.ahap` (cues-v1.2).
    case ahap
    /// The Android vibration waveform (`VibrationEffect.createWaveform`): `<stem>.haptics.json` (cues-v1.2).
    case haptics

    /// The file name suffix that replaces the audio file's extension.
    public var suffix: String {
        switch self {
        case .vtt: ".vtt"
        case .chapters: ".chapters.json"
        case .waveform: ".svg"
        case .captions: ".captions.vtt"
        case .ahap: ".ahap"
        case .haptics: ".haptics.json"
        }
    }

    public static func < (a: SidecarKind, b: SidecarKind) -> Bool {
        // the order of the cases as declared (every case is in allCases)
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }

    /// An unknown word in a sidecar list.
    public struct UnknownKind: Error, Sendable { public let word: String }

    /// The kinds written from the haptic steps (`HapticSteps`) rather than from the cue sheet alone.
    public var isHaptic: Bool { self == .ahap || self == .haptics }

    /// Parses `vtt,chapters` (also `all` and `none`).
    public static func parseList(_ text: String) throws(UnknownKind) -> Set<SidecarKind> {
        var kinds = Set<SidecarKind>()
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingSpaces }) {
            switch word {
            case "all": kinds.formUnion(allCases)
            case "none": continue
            default:
                guard let kind = SidecarKind(rawValue: word) else { throw UnknownKind(word: word) }
                kinds.insert(kind)
            }
        }
        return kinds
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
