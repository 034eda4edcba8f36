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
    /// on every 5.5 s phase is 1.8. Checked by `render --check` from a tone's length and a cue
    /// file's header, and by the renderer from the decoded sounds.
    public static let maxCueSoundPerTrack = 8
    /// The most overtones of a cue tone (`cues.<kind>.harmonics`): 16.
    public static let maxHarmonics = 16
    /// The shortest `every` of the tick cue: 100 ms (recipe-v1.1 § Ticks).
    public static let minTickInterval = ExactSeconds(nanoseconds: 100_000_000)
    /// The most ticks one track holds: 100,000 (a day of 1-second ticks is 86,400). Each is a cue
    /// event, a cue sheet entry and a sound mixed in.
    public static let maxTicksPerTrack = 100_000
    /// The most layers of a `bed:` list: 8 (each is decoded or synthesized for the whole track).
    public static let maxBedLayers = 8
    /// The most haptic events one track's haptics hold (`haptics: on`, recipe-v1.2 § Breath guidance;
    /// steps of at most 100 ms while the breath moves, plus a transient per cue): 400,000. Checked by the
    /// renderer before any audio is written, as an error at `haptics`. 8 hours of 1-second
    /// inhale/exhale phases with a cue on each make 316,800 (288,000 steps + 28,800 transients): a 76 MB `.ahap`.
    public static let maxHapticEventsPerTrack = 400_000
    /// The lowest `swell.tone`: 20 Hz (recipe-v1.2 § Breath guidance); the highest is below Nyquist.
    public static let minSwellHertz = 20.0

    // MARK: - Programs

    /// The most segments of a program (recipe-v1.1 § Programs), and so the highest `segment:` a
    /// prompt may name: 1,000. A recipe without `program:` has one segment.
    public static let maxSegments = 1000

    // MARK: - Voice

    /// The most lengths in `variants.duration`: 24 (a track per length; a catalog offers a few).
    public static let maxVariants = 24

    // MARK: - Locales

    /// The most tags in `locales:`: 50 (recipe-v1.2 § Locales; a rendition per locale).
    public static let maxLocales = 50
    /// The most renditions of one recipe, variants × locales: 150 (checked at `locales:`). Each is
    /// a whole render, a catalog track and a set of files: 150 is 50 locales in 3 lengths, or 25 in 6,
    /// more than any catalog offers of one session (Medito: a guide in 4 lengths; Headspace: 3), and
    /// keeps one recipe's catalog work within about 150 single renders, not the 1,200 that 24
    /// lengths × 50 locales would ask for.
    public static let maxRenditions = 150
    /// The most entries of `voice.prompts`: 1,000 (`DecodeContext.voice`).
    public static let maxPromptEntries = 1000
    /// The most prompts one track places, every `on:` prompt counted once per phase it lands on:
    /// 10,000 (`Timeline`). Each is a cue sheet entry, a caption and a duck of the bed; a prompt on
    /// every inhale of an 8-hour track of 4 s breaths is 7,200.
    public static let maxPromptsPerTrack = 10_000
    /// The longest prompt `text`: 1,024 bytes of UTF-8 (a few sentences), with no control
    /// characters (`DecodeContext.voice`); it is written into the cue sheet and the captions.
    public static let maxPromptTextBytes = 1024
    /// The longest recorded clip, a prompt's or a cue's file, and the longest draft prompt: 60 s
    /// (checked from the header by `--check` where it tells, and while the renderer decodes it).
    public static let maxClipSeconds = 60
    /// The longest espeak-ng may take to speak one draft prompt: 20 s (about 35 times the 0.55 s
    /// the longest text, 1,024 bytes, took on the loaded 2-core machine), then its worker is
    /// killed and the text is an error at the prompt's `text` (`DraftVoice`). libespeak-ng 1.51
    /// crashes on some texts and could loop on others; a render must not wait on it for ever.
    public static let draftSpeechSeconds = 20
    /// `voice.attack` and `voice.release`: at most 5 s.
    public static let maxDuckRamp = ExactSeconds(seconds: 5)

    // MARK: - Output

    /// Accepted `output.sample_rate` values, in Hz: 8,000 to 384,000. Each format's own rates are
    /// its row of the output-format table (`FormatFacts.sampleRates`, AudioCore), which the checks below read.
    public static let sampleRates = 8000...384_000

    /// The only rates `format` can be written at, for a format that has a fixed list (nil: any rate
    /// in `sampleRates`, up to its library's highest for Ogg Vorbis).
    public static func fixedSampleRates(of format: AudioFormat) -> [Int]? {
        if case .only(let rates) = format.facts.sampleRates { rates } else { nil }
    }

    /// Why `format` cannot be written at `rate`: the rates it takes, the nearest first, and what else would do.
    public static func sampleRateMessage(_ rate: Int, format: AudioFormat) -> String? {
        let facts = format.facts
        guard !facts.takes(sampleRate: rate) else { return nil }
        let instead = facts.rateAlternative.map { " Or use format: \($0.rawValue)" } ?? ""
        switch facts.sampleRates {
        case .any: return nil
        case .upTo(let top, let library, let nearest):
            return "output.sample_rate: \(facts.name) cannot be written at \(rate) Hz; \(library) goes up to \(top) Hz "
                + "(did you mean \(nearest)?\(instead))"
        case .only(let rates):
            let nearest = rates.min { abs($0 - rate) < abs($1 - rate) } ?? rates[0]
            return "output.sample_rate: \(facts.name) cannot be written at \(rate) Hz; it takes \(rates.map(String.init).joined(separator: ", ")) Hz "
                + "(did you mean \(nearest)?\(instead))"
        }
    }

    /// The bit rates a lossy format takes at `sampleRate` with `channels` channels, within
    /// `AudioFormat.bitrateRange`, and why it takes no more (or no less); nil for a format without a
    /// bit rate (`FormatFacts.bitrates`). Ogg Vorbis's range comes from libvorbis's tables, so it is
    /// checked by the renderer (`OggVorbisWriter.accepts`), and here it is the whole range.
    public static func bitrates(
        format: AudioFormat, sampleRate: Int, channels: Int
    ) -> (range: ClosedRange<Int>, why: String)? {
        format.facts.bitrates(sampleRate: sampleRate, channels: channels)
    }

    /// The bit rate a lossy format is encoded at when the recipe gives none (recipe-v1.1 § Output:
    /// m4a 128k, opus 96k, mp3 192k), or the most the format takes at that rate and channel
    /// count when that is less; nil for Ogg Vorbis (its v1 quality setting) and lossless formats.
    public static func defaultBitrate(format: AudioFormat, sampleRate: Int, channels: Int) -> Int? {
        format.facts.defaultBitrate(sampleRate: sampleRate, channels: channels)
    }

    /// Why `bitrate` cannot be used for `format` at `sampleRate` and `channels`, or nil when it can.
    public static func bitrateProblem(_ bitrate: Int, format: AudioFormat, sampleRate: Int, channels: Int) -> String? {
        func k(_ bits: Int) -> String { bits % 1000 == 0 ? "\(bits / 1000)k" : "\(Double(bits) / 1000)k" }
        guard let (range, why) = bitrates(format: format, sampleRate: sampleRate, channels: channels) else {
            // the formats with a bit rate, the one apps are delivered in (m4a) first
            let withRate = AudioFormat.allCases.filter { $0.facts.bitrates != nil }
            let lossy = (withRate.filter { $0 == .m4a } + withRate.filter { $0 != .m4a }).map(\.rawValue)
            return "\(format.rawValue) is lossless and has no bit rate; remove output.bitrate, or choose "
                + "\(lossy.dropLast().joined(separator: ", ")) or \(lossy.last ?? "")"
        }
        guard !range.contains(bitrate) else { return nil }
        let layout = channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"
        return "\(format.rawValue) at \(sampleRate) Hz \(layout) takes \(k(range.lowerBound)) to \(k(range.upperBound)), not \(k(bitrate)) (\(why))"
    }

    /// Accepted `output.channels` values: 1 to 8.
    public static let channelCounts = 1...8
    /// The only channel counts `format` can be written with, for a format that takes fewer than
    /// `channelCounts` (`FormatFacts.channelCounts`: Apple Lossless's layouts, AAC's channel configurations).
    public static func fixedChannelCounts(of format: AudioFormat) -> [Int]? {
        format.facts.channelCounts
    }

    /// Why `format` cannot be written with `channels` channels: the counts it takes, the nearest first, and what else would do.
    public static func channelCountMessage(_ channels: Int, format: AudioFormat) -> String? {
        guard let counts = fixedChannelCounts(of: format), !counts.contains(channels) else { return nil }
        let nearest = counts.min { abs($0 - channels) < abs($1 - channels) || (abs($0 - channels) == abs($1 - channels) && $0 > $1) } ?? counts[0]
        return "output.channels: \(format.facts.name) cannot be written with \(channels) channels; it takes "
            + "\(counts.map(String.init).joined(separator: ", ")) (did you mean \(nearest)?\(format.facts.channelNote); or use format: \(AudioFormat.standard.rawValue), "
            + "which takes \(channelCounts.lowerBound) to \(channelCounts.upperBound))"
    }
}
