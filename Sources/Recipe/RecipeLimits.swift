import AudioCore

/// The ceilings that keep any recipe, however hostile, to bounded time, memory and disk.
///
/// One table: each constant names where it is enforced, and every one is
/// reported as an error at the key (or the place in the text) that breaks it,
/// never by a crash, a hang or a silent cut. The code that checks a limit reads it from
/// here, under this name (no copies under other names).
public enum RecipeLimits {
    // MARK: - Text

    /// The largest recipe file: 1 MiB. Checked before parsing (`RecipeLoader`); a
    /// reader that reads at most one byte more (`RecipeLoader.read`) never holds more.
    public static let maxBytes = 1 << 20
    /// The deepest nesting of lists and mappings, the top-level mapping included: 64 (`YAMLReader`).
    public static let maxDepth = 64
    /// The most `*alias` uses in one recipe: 100 (`YAMLReader`). Aliases share their
    /// anchor's nodes, never copy them, so an alias bomb costs what its text costs.
    public static let maxAliases = 100
    /// The most YAML nodes (scalars, lists, mappings) in one recipe: 10,000 (`YAMLReader`).
    public static let maxNodes = 10_000
    /// The most problems reported for one recipe: 100, then "too many problems" (`DecodeContext`).
    public static let maxDiagnostics = 100

    /// The longest one-line text (`title`, `category`, `pattern.name`, a phase's `label`):
    /// 256 bytes of UTF-8 (`DecodeContext.string`). A title is written into every tag,
    /// chapter list and page of the track, a label into every phase's cue sheet entry,
    /// caption and marker, so a YAML alias of a 100 KB label used 99 times would write
    /// 110 MB of cue sheet.
    public static let maxTextBytes = 256
    /// The most label text one track writes: 4 MiB, the labels of all its phases
    /// (`cycles` × the labels of one cycle; checked at `duration` or `cycles`). Each phase
    /// label is repeated in the cue sheet, the captions and the WAV markers; 100,000
    /// phases labelled "Breathe In" hold 1 MB.
    public static let maxTrackTextBytes = 4 << 20

    // MARK: - Time

    /// The longest length anywhere in a recipe, and the longest track: 24 h
    /// (`Units.duration` for every length; `cycles` for `intro + N × cycle + outro`).
    public static let maxDuration = ExactSeconds(seconds: 86_400)
    /// The most phases in one pattern's cycle: 1,000 (`pattern.phases`).
    public static let maxPhasesPerPattern = 1000
    /// Accepted `cycles` values: 1 to 100,000.
    public static let cycles = 1...100_000
    /// The most phases in one track: 100,000 (`duration` or `cycles`). Each phase is
    /// an entry of the cue sheet, a caption and at most one cue event (plus `start`
    /// and `end`), so this is also the ceiling on cue events: 100,002. It lets
    /// every phase of a 24 h track be as short as 0.864 s (an 8 h track of 1 s
    /// phases holds 28,800).
    public static let maxPhasesPerTrack = 100_000
    /// The longest cue tone (`cues.<kind>.length`): 60 s. A cue file longer than
    /// that is an error when the renderer decodes it.
    public static let maxCueLength = ExactSeconds(seconds: 60)
    /// The most cue sound one track may mix, as a multiple of its length: 8. Cues
    /// overlap in full, so without it 100,000 cues of 60 s would mix ~70 times a 24 h
    /// track's samples per pass. A bell of 0.8 s on every 4 s phase is 0.2; a 10 s bowl
    /// on every 5.5 s phase is 1.8. Checked by the renderer, which knows a cue file's length.
    public static let maxCueSoundPerTrack = 8
    /// The most overtones of a cue tone (`cues.<kind>.harmonics`): 16.
    public static let maxHarmonics = 16

    // MARK: - Output

    /// Accepted `output.sample_rate` values, in Hz: 8,000 to 384,000.
    public static let sampleRates = 8000...384_000
    /// The rates `format: m4a` (AAC) takes: the AAC encoder's sampling-frequency table
    /// (`AudioIOTests` checks it against libavcodec's encoder).
    public static let aacSampleRates = [7350, 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]

    /// Why AAC cannot be written at `rate`, and which rates it takes.
    public static func aacRateMessage(_ rate: Int) -> String {
        "output.sample_rate: AAC (format m4a) cannot be written at \(rate) Hz; it takes \(aacSampleRates.map(String.init).joined(separator: ", ")) Hz (or use format: alac)"
    }
    /// Accepted `output.channels` values: 1 to 8.
    public static let channelCounts = 1...8
}
