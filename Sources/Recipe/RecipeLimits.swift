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

    // MARK: - Programs

    /// The most segments of a program (recipe-v1.1 § Programs), and so the highest `segment:` a
    /// prompt may name: 1,000. A recipe without `program:` has one segment.
    public static let maxSegments = 1000

    // MARK: - Voice

    /// The most lengths in `variants.duration`: 24 (a track per length; a catalog offers a few).
    public static let maxVariants = 24
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

    /// Accepted `output.sample_rate` values, in Hz: 8,000 to 384,000.
    public static let sampleRates = 8000...384_000
    /// The rates `format: m4a` (AAC) takes: the AAC encoder's sampling-frequency table from
    /// `sampleRates`' 8 kHz up. Its lowest, 7350 Hz, is below what any output is rendered at, so it is
    /// offered nowhere (`M4AOutputTests` checks this list against libavcodec's encoder, and
    /// `BitrateTests` renders every rate of it). The one list the recipe's check, the errors, the
    /// schema and docs/recipes.md's table give.
    public static let aacSampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]

    /// The rates `format: opus` takes: Opus's own (libsndfile refuses any other when it opens the file).
    public static let opusSampleRates = [8000, 12000, 16000, 24000, 48000]
    /// The rates `format: mp3` takes: MPEG-1's 32, 44.1 and 48 kHz, MPEG-2's halves and MPEG-2.5's quarters.
    public static let mp3SampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]

    /// The only rates `format` can be written at, for a format that has a fixed list (nil: any rate
    /// in `sampleRates` up to `vorbisMaxSampleRate` for Ogg Vorbis).
    public static func fixedSampleRates(of format: AudioFormat) -> [Int]? {
        switch format {
        case .m4a: aacSampleRates
        case .opus: opusSampleRates
        case .mp3: mp3SampleRates
        case .wav, .flac, .ogg, .caf, .alac: nil
        }
    }

    /// The highest rate Ogg Vorbis is written at: libvorbis's setup tables stop at 200 kHz
    /// (`AudioIOTests` checks this against libvorbis at every channel count).
    public static let vorbisMaxSampleRate = 200_000

    /// Why `format` cannot be written at `rate`: the rates it takes, the nearest first, and what else would do.
    public static func sampleRateMessage(_ rate: Int, format: AudioFormat) -> String? {
        if format == .ogg, rate > vorbisMaxSampleRate {
            return "output.sample_rate: Ogg Vorbis cannot be written at \(rate) Hz; libvorbis goes up to \(vorbisMaxSampleRate) Hz "
                + "(did you mean 192000? Or use format: flac)"
        }
        guard let rates = fixedSampleRates(of: format), !rates.contains(rate) else { return nil }
        let name: String =
            switch format {
            case .m4a: "AAC (format m4a)"
            case .opus: "Opus"
            default: "MP3"
            }
        let nearest = rates.min { abs($0 - rate) < abs($1 - rate) } ?? rates[0]
        let instead = format == .m4a ? " Or use format: alac" : ""
        return "output.sample_rate: \(name) cannot be written at \(rate) Hz; it takes \(rates.map(String.init).joined(separator: ", ")) Hz "
            + "(did you mean \(nearest)?\(instead))"
    }

    /// The bit rates a lossy format takes at `sampleRate` with `channels` channels, within
    /// `Units.bitrateRange`, and why it takes no more (or no less); nil for a format without a
    /// bit rate. Ogg Vorbis's range comes from libvorbis's tables, so it is checked by the
    /// renderer (`OggVorbisWriter.accepts`), and here it is the whole range.
    /// - m4a (AAC): at most 6144 bits per channel per 1024-frame packet, the AAC buffer
    ///   libavcodec's encoder clamps to (264k mono at 44.1 kHz, 48k mono at 8 kHz).
    /// - opus: 6k to 256k per channel (libsndfile's compression-level scale).
    /// - mp3: the MPEG version's bit rates: 32k–320k at 32 kHz and above, up to 160k from 16 kHz,
    ///   up to 64k below.
    public static func bitrates(
        format: AudioFormat, sampleRate: Int, channels: Int
    ) -> (range: ClosedRange<Int>, why: String)? {
        let all = Units.bitrateRange
        func within(_ low: Int, _ high: Int, _ why: String) -> (ClosedRange<Int>, String) {
            (max(all.lowerBound, low)...max(max(all.lowerBound, low), min(all.upperBound, high)), why)
        }
        switch format {
        case .m4a:
            return within(all.lowerBound, 6 * sampleRate * channels, "AAC holds at most 6144 bits per channel in each packet of 1024 frames")
        case .opus:
            return within(6000 * channels, 256_000 * channels, "Opus takes 6k to 256k per channel")
        case .mp3:
            let top = sampleRate >= 32000 ? 320_000 : sampleRate >= 16000 ? 160_000 : 64_000
            return within(all.lowerBound, top, "MPEG audio at \(sampleRate) Hz goes up to \(top / 1000)k")
        case .ogg:
            return (all, "")
        case .wav, .flac, .caf, .alac:
            return nil
        }
    }

    /// The bit rate a lossy format is encoded at when the recipe gives none (recipe-v1.1 § Output:
    /// m4a 128k, opus 96k, mp3 192k), or the most the format takes at that rate and channel
    /// count when that is less; nil for Ogg Vorbis (its v1 quality setting) and lossless formats.
    public static func defaultBitrate(format: AudioFormat, sampleRate: Int, channels: Int) -> Int? {
        let wanted: Int
        switch format {
        case .m4a: wanted = 128_000
        case .opus: wanted = 96_000
        case .mp3: wanted = 192_000
        case .ogg, .wav, .flac, .caf, .alac: return nil
        }
        guard let range = bitrates(format: format, sampleRate: sampleRate, channels: channels)?.range else { return nil }
        return min(max(wanted, range.lowerBound), range.upperBound)
    }

    /// Why `bitrate` cannot be used for `format` at `sampleRate` and `channels`, or nil when it can.
    public static func bitrateProblem(_ bitrate: Int, format: AudioFormat, sampleRate: Int, channels: Int) -> String? {
        func k(_ bits: Int) -> String { bits % 1000 == 0 ? "\(bits / 1000)k" : "\(Double(bits) / 1000)k" }
        guard let (range, why) = bitrates(format: format, sampleRate: sampleRate, channels: channels) else {
            return "\(format.rawValue) is lossless and has no bit rate; remove output.bitrate, or choose m4a, ogg, opus or mp3"
        }
        guard !range.contains(bitrate) else { return nil }
        let layout = channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"
        return "\(format.rawValue) at \(sampleRate) Hz \(layout) takes \(k(range.lowerBound)) to \(k(range.upperBound)), not \(k(bitrate)) (\(why))"
    }

    /// Accepted `output.channels` values: 1 to 8.
    public static let channelCounts = 1...8
    /// The channel counts `format: alac` (Apple Lossless in MP4) takes: 1, 2, 4, 5 and 6. libavcodec's
    /// ALAC encoder opens only the layouts ALAC defines, and 3, 7 and 8 channels are written in another
    /// one (2.1, 6.1, 7.1), so `avcodec_open2` refuses them (`ChannelCountTests` renders each count).
    public static let alacChannelCounts = [1, 2, 4, 5, 6]
    /// The channel counts `format: m4a` (AAC) takes: those of an AAC channel configuration (1 to 6, and 8
    /// for 7.1). Seven channels have none: libavcodec encodes them, but ffprobe reads an unknown layout
    /// and ffmpeg's loudness meter refuses the stream, so a player cannot be trusted to place them.
    public static let aacChannelCounts = [1, 2, 3, 4, 5, 6, 8]

    /// The only channel counts `format` can be written with, for a format that takes fewer than `channelCounts`.
    public static func fixedChannelCounts(of format: AudioFormat) -> [Int]? {
        switch format {
        case .alac: alacChannelCounts
        case .m4a: aacChannelCounts
        default: nil
        }
    }

    /// Why `format` cannot be written with `channels` channels: the counts it takes, the nearest first, and what else would do.
    public static func channelCountMessage(_ channels: Int, format: AudioFormat) -> String? {
        guard let counts = fixedChannelCounts(of: format), !counts.contains(channels) else { return nil }
        let nearest = counts.min { abs($0 - channels) < abs($1 - channels) || (abs($0 - channels) == abs($1 - channels) && $0 > $1) } ?? counts[0]
        let name = format == .alac ? "Apple Lossless (format alac)" : "AAC (format m4a)"
        let why = format == .alac ? "" : "; 7 channels have no AAC channel configuration"
        return "output.channels: \(name) cannot be written with \(channels) channels; it takes "
            + "\(counts.map(String.init).joined(separator: ", ")) (did you mean \(nearest)?\(why); or use format: flac, which takes 1 to 8)"
    }
}
