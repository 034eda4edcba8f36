/// Output container / codec: `output.format`, `--format`, and the extension of `-o`.
///
/// Everything known about one format is its row of `FormatFacts` (`facts`), the one table that
/// the recipe's check (`RecipeLimits`), `--check`, the usage text, the docs' format table and the
/// render read. AudioIO binds each row to its writer and reader (`FormatBinding.swift`) with an
/// exhaustive switch, so a new format is a case here, its row below, and its writer there.
public enum AudioFormat: String, Sendable, CaseIterable {
    /// `m4a`: AAC-LC in MP4; `alac`: Apple Lossless in MP4 (recipe-v1.1 § Output).
    case wav, flac, ogg, opus, mp3, caf, m4a, alac

    /// This format's row of the table.
    public var facts: FormatFacts {
        switch self {
        case .wav: FormatFacts.wav
        case .flac: FormatFacts.flac
        case .ogg: FormatFacts.ogg
        case .opus: FormatFacts.opus
        case .mp3: FormatFacts.mp3
        case .caf: FormatFacts.caf
        case .m4a: FormatFacts.m4a
        case .alac: FormatFacts.alac
        }
    }

    /// The file extension written for this format (both M4A codecs write `.m4a`).
    public var fileExtension: String { facts.fileExtension }

    /// Every extension a track may be written with, each once, in `allCases` order.
    public static let fileExtensions: [String] = allCases.map(\.fileExtension).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }

    /// Lossy formats have no bit depth and need decoding to check.
    public var isLossy: Bool { facts.decodedAndChecked }
    /// The file keeps the mix's channels in Vorbis order (Ogg Vorbis, Opus): for 6 to 8 channels
    /// the LFE is the last channel, not the 4th (the loudness meter weighs them so).
    public var hasVorbisOrder: Bool { facts.vorbisChannelOrder }

    /// Formats that hold integer samples only (16 or 24 bits).
    public var isIntegerOnly: Bool { !facts.bitDepths.isEmpty && !facts.bitDepths.contains(.float32) }

    /// Whether a file named with `ext` holds this format: `.m4a` is AAC, or ALAC when the
    /// recipe says so.
    public func matches(fileExtension ext: String) -> Bool {
        let ext = ext.lowercased()
        return ext == facts.fileExtension || facts.otherExtensions.contains(ext)
    }

    /// The format for a file extension (`oga` is Ogg Vorbis too): the first in `allCases` order
    /// that writes it, so `.m4a` is AAC.
    public init?(fileExtension ext: String) {
        guard let format = Self.allCases.first(where: { $0.matches(fileExtension: ext) }) else { return nil }
        self = format
    }

    /// The format a track is written in when neither `-o` nor `output.format` names one.
    public static let standard = AudioFormat.flac

    /// The bit rates any lossy format may be asked for (`output.bitrate`, recipe-v1.1 § Output),
    /// in bits per second: 32k to 320k; each format may take fewer (`FormatFacts.bitrates`).
    public static let bitrateRange: ClosedRange<Int> = 32_000...320_000
}

/// `bit_depth`: 16 | 24 | 32f.
public enum BitDepth: String, Sendable, CaseIterable {
    case int16 = "16", int24 = "24", float32 = "32f"

    /// Bytes of one uncompressed sample.
    public var bytes: Int {
        switch self {
        case .int16: 2
        case .int24: 3
        case .float32: 4
        }
    }
}

/// The sample rates a format can be written at.
public enum FormatSampleRates: Sendable, Equatable {
    /// Every rate a recipe may give (`RecipeLimits.sampleRates`).
    case any
    /// Every rate up to `max` Hz: beyond it `library` has no setup, and `nearest` is the rate to suggest.
    case upTo(Int, library: String, nearest: Int)
    /// Only these, ascending.
    case only([Int])
}

/// How many bits per second a lossy format takes at a rate and channel count, within
/// `AudioFormat.bitrateRange`.
public enum FormatBitrates: Sendable, Equatable {
    /// At most this many bits per channel per frame (AAC: 6144 in a packet of 1024 frames is 6).
    case perChannelFrame(Int)
    /// This range for each channel (Opus: 6k to 256k).
    case perChannel(ClosedRange<Int>)
    /// The MPEG versions' tops: from each rate (Hz, descending) up, at most this many bits per second.
    case fromRate([Tier])
    /// The encoder's own tables decide (libvorbis: `OggVorbisWriter.accepts`); here the whole range.
    case encoderTables

    /// One step of `fromRate`.
    public struct Tier: Sendable, Equatable {
        public let fromRate: Int
        public let top: Int
    }
}

/// One row of the output-format table: what a format is, what it takes, and how a render treats it.
public struct FormatFacts: Sendable {
    public let format: AudioFormat
    /// How messages name it: `Opus`, `AAC (format m4a)`.
    public let name: String
    /// The codec, and the container it is written in.
    public let codec: String
    public let container: String
    /// The extension written, and others read as this format from `-o` (`.oga`, `.wave`).
    public let fileExtension: String
    public let otherExtensions: [String]
    public let sampleRates: FormatSampleRates
    /// The only channel counts it is written with (nil: every count a recipe may give, 1 to 8),
    /// and why no others (added to the message).
    public let channelCounts: [Int]?
    public let channelNote: String
    /// The bit depths it stores, the first the default when the recipe gives none; empty for lossy formats.
    public let bitDepths: [BitDepth]
    /// The bit rates it takes (nil: lossless), why no more, and the rate when the recipe gives none
    /// (recipe-v1.1 § Output; nil with a bit rate: `vorbisQuality`).
    public let bitrates: FormatBitrates?
    public let bitrateWhy: String
    public let defaultBitrate: Int?
    /// Ogg Vorbis's VBR quality when the recipe gives no bit rate (about 160 kbps stereo at 48 kHz).
    public let vorbisQuality: Double?
    /// dB the limiter's ceiling is set under the recipe's `true_peak`: a lossy decoder's peaks
    /// exceed its input's.
    public let ceilingHeadroom: Double
    /// The file is decoded and measured after it is written (lossy), and encoded again when the
    /// codec moved its loudness or peaks.
    public let decodedAndChecked: Bool
    /// The mix's channels are kept in Vorbis order (for 6 to 8 channels the LFE is last).
    public let vorbisChannelOrder: Bool
    /// Encoded in parts on several threads, probed and repaired (AAC), not through one encoder sink.
    public let encodedInParts: Bool
    /// The format to suggest when a rate or a channel count is refused.
    public let rateAlternative: AudioFormat?
    /// What the docs' table says in place of the rates, for a format refused on this system.
    public let caveat: String?

    /// The bit rates it takes at `sampleRate` with `channels` channels, within `AudioFormat.bitrateRange`,
    /// and why it takes no more (or no less); nil for a lossless format.
    public func bitrates(sampleRate: Int, channels: Int) -> (range: ClosedRange<Int>, why: String)? {
        let all = AudioFormat.bitrateRange
        func within(_ low: Int, _ high: Int, _ why: String) -> (ClosedRange<Int>, String) {
            (max(all.lowerBound, low)...max(max(all.lowerBound, low), min(all.upperBound, high)), why)
        }
        switch bitrates {
        case nil: return nil
        case .perChannelFrame(let bits): return within(all.lowerBound, bits * sampleRate * channels, bitrateWhy)
        case .perChannel(let each): return within(each.lowerBound * channels, each.upperBound * channels, bitrateWhy)
        case .fromRate(let tiers):
            let top = tiers.first { sampleRate >= $0.fromRate }?.top ?? all.upperBound
            return within(all.lowerBound, top, "\(bitrateWhy) at \(sampleRate) Hz goes up to \(top / 1000)k")
        case .encoderTables: return (all, "")
        }
    }

    /// The bit rate it is encoded at when the recipe gives none, or the most it takes at that rate
    /// and channel count when that is less; nil for Ogg Vorbis (its quality setting) and lossless formats.
    public func defaultBitrate(sampleRate: Int, channels: Int) -> Int? {
        guard let wanted = defaultBitrate, let range = bitrates(sampleRate: sampleRate, channels: channels)?.range else { return nil }
        return min(max(wanted, range.lowerBound), range.upperBound)
    }

    /// The highest rate it is written at, for a format that stops below the recipe's highest.
    public var highestSampleRate: Int? {
        switch sampleRates {
        case .any: nil
        case .upTo(let top, _, _): top
        case .only(let rates): rates.last
        }
    }

    /// `bitDepths` in `BitDepth.allCases` order, as messages list them: `16 or 24`.
    public func depthList(_ separator: String) -> String {
        BitDepth.allCases.filter(bitDepths.contains).map(\.rawValue).joined(separator: separator)
    }

    /// Whether it is written at `rate` (a rate a recipe may give).
    public func takes(sampleRate rate: Int) -> Bool {
        switch sampleRates {
        case .any: true
        case .upTo(let top, _, _): rate <= top
        case .only(let rates): rates.contains(rate)
        }
    }
}

extension FormatFacts {
    static let lossyHeadroom = 0.5

    static let wav = FormatFacts(
        format: .wav, name: "WAV", codec: "PCM", container: "RIFF WAVE (RF64 past 4 GiB)", fileExtension: "wav", otherExtensions: ["wave"],
        sampleRates: .any, channelCounts: nil, channelNote: "", bitDepths: [.int24, .int16, .float32], bitrates: nil, bitrateWhy: "",
        defaultBitrate: nil, vorbisQuality: nil, ceilingHeadroom: 0, decodedAndChecked: false, vorbisChannelOrder: false,
        encodedInParts: false, rateAlternative: nil, caveat: nil)
    static let flac = FormatFacts(
        format: .flac, name: "FLAC", codec: "FLAC", container: "FLAC", fileExtension: "flac", otherExtensions: [],
        sampleRates: .any, channelCounts: nil, channelNote: "", bitDepths: [.int24, .int16], bitrates: nil, bitrateWhy: "",
        defaultBitrate: nil, vorbisQuality: nil, ceilingHeadroom: 0, decodedAndChecked: false, vorbisChannelOrder: false,
        encodedInParts: false, rateAlternative: nil, caveat: nil)
    static let ogg = FormatFacts(
        format: .ogg, name: "Ogg Vorbis", codec: "Vorbis", container: "Ogg", fileExtension: "ogg", otherExtensions: ["oga"],
        // libvorbis's setup tables stop at 200 kHz (`AudioIOTests` checks this at every channel count)
        sampleRates: .upTo(200_000, library: "libvorbis", nearest: 192_000), channelCounts: nil, channelNote: "", bitDepths: [],
        bitrates: .encoderTables, bitrateWhy: "", defaultBitrate: nil, vorbisQuality: 0.5, ceilingHeadroom: lossyHeadroom,
        decodedAndChecked: true, vorbisChannelOrder: true, encodedInParts: false, rateAlternative: .flac, caveat: nil)
    static let opus = FormatFacts(
        format: .opus, name: "Opus", codec: "Opus", container: "Ogg", fileExtension: "opus", otherExtensions: [],
        // Opus's own rates (libsndfile refuses any other when it opens the file)
        sampleRates: .only([8000, 12000, 16000, 24000, 48000]), channelCounts: nil, channelNote: "", bitDepths: [],
        // libsndfile's compression-level scale
        bitrates: .perChannel(6000...256_000), bitrateWhy: "Opus takes 6k to 256k per channel", defaultBitrate: 96_000,
        vorbisQuality: nil, ceilingHeadroom: lossyHeadroom, decodedAndChecked: true, vorbisChannelOrder: true, encodedInParts: false,
        rateAlternative: nil, caveat: nil)
    static let mp3 = FormatFacts(
        format: .mp3, name: "MP3", codec: "MPEG Layer III (LAME, constant bit rate)", container: "MP3, ID3v2.4 tag", fileExtension: "mp3",
        otherExtensions: [],
        // MPEG-1's 32, 44.1 and 48 kHz, MPEG-2's halves and MPEG-2.5's quarters
        sampleRates: .only([8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]), channelCounts: nil, channelNote: "",
        bitDepths: [],
        // MPEG-1 up to 320k, MPEG-2 up to 160k, MPEG-2.5 up to 64k
        bitrates: .fromRate([.init(fromRate: 32000, top: 320_000), .init(fromRate: 16000, top: 160_000), .init(fromRate: 0, top: 64_000)]),
        bitrateWhy: "MPEG audio", defaultBitrate: 192_000, vorbisQuality: nil, ceilingHeadroom: lossyHeadroom, decodedAndChecked: true,
        vorbisChannelOrder: false, encodedInParts: false, rateAlternative: nil, caveat: nil)
    static let caf = FormatFacts(
        format: .caf, name: "CAF", codec: "ALAC", container: "CAF", fileExtension: "caf", otherExtensions: [],
        sampleRates: .any, channelCounts: nil, channelNote: "", bitDepths: [.int24, .int16], bitrates: nil, bitrateWhy: "",
        defaultBitrate: nil, vorbisQuality: nil, ceilingHeadroom: 0, decodedAndChecked: false, vorbisChannelOrder: false,
        encodedInParts: false, rateAlternative: nil,
        // `SoundFileWriter.defect`: libsndfile issue #973
        caveat: "refused with libsndfile older than 1.2.2 (Debian 12 has 1.2.0)")
    static let m4a = FormatFacts(
        format: .m4a, name: "AAC (format m4a)", codec: "AAC-LC", container: "MP4", fileExtension: "m4a", otherExtensions: [],
        // the AAC encoder's sampling-frequency table from 8 kHz up: its lowest, 7350 Hz, is below what any
        // output is rendered at, so it is offered nowhere (`M4AOutputTests` checks this list against
        // libavcodec's encoder, and `BitrateTests` renders every rate of it)
        sampleRates: .only([8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]),
        // an AAC channel configuration's counts (1 to 6, and 8 for 7.1). Seven channels have none: libavcodec
        // encodes them, but ffprobe reads an unknown layout and ffmpeg's loudness meter refuses the stream
        channelCounts: [1, 2, 3, 4, 5, 6, 8], channelNote: "; 7 channels have no AAC channel configuration", bitDepths: [],
        // the AAC buffer libavcodec's encoder clamps to: 6144 bits per channel per 1024-frame packet
        bitrates: .perChannelFrame(6), bitrateWhy: "AAC holds at most 6144 bits per channel in each packet of 1024 frames",
        defaultBitrate: 128_000, vorbisQuality: nil, ceilingHeadroom: lossyHeadroom, decodedAndChecked: true, vorbisChannelOrder: false,
        encodedInParts: true, rateAlternative: .alac, caveat: nil)
    static let alac = FormatFacts(
        format: .alac, name: "Apple Lossless (format alac)", codec: "Apple Lossless", container: "MP4", fileExtension: "m4a",
        otherExtensions: [], sampleRates: .any,
        // the layouts ALAC defines: 3, 7 and 8 channels would be written as 2.1, 6.1 and 7.1, which
        // libavcodec's encoder refuses (`ChannelCountTests` renders each count)
        channelCounts: [1, 2, 4, 5, 6], channelNote: "", bitDepths: [.int24, .int16], bitrates: nil, bitrateWhy: "",
        defaultBitrate: nil, vorbisQuality: nil, ceilingHeadroom: 0, decodedAndChecked: false, vorbisChannelOrder: false,
        encodedInParts: false, rateAlternative: nil, caveat: nil)
}
