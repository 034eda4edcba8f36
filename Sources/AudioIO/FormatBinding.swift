import AudioCore

/// The writer an output format is written with (`AudioFormat.writer`), with what it needs from the
/// format's row of the table (`FormatFacts`, AudioCore).
public enum FormatWriter: Sendable, Equatable {
    /// `SoundFileWriter` (libsndfile) in this container and encoding; `riff`: a WAV, written as
    /// RF64 when it would pass 4 GiB (`SoundFileWriter.Format.rf64`), with its markers appended (`WAVMarkers`).
    case soundFile(SoundFileWriter.Format, riff: Bool)
    /// `FLACWriter` (libFLAC), at 16 or 24 bits.
    case flac(bits: Int)
    /// `OggVorbisWriter` (libvorbis) at the recipe's bit rate, or else at this quality.
    case vorbis(quality: Float)
    /// `OggOpusWriter` (libopus through libsndfile).
    case opus
    /// `MP3Writer` (LAME through libsndfile).
    case mp3
    /// `M4AWriter` with `.aac`, fed packets encoded in parts on several threads (`AACTrack`).
    case aacInParts
    /// `M4AWriter` with `.alac`, at 16 or 24 bits.
    case alac(bits: Int)
}

/// The reader a written file of a format is decoded with (the lossy check, the tests).
public enum FormatReader: Sendable, Equatable {
    /// `AudioDecoder` (libsndfile).
    case soundFile
    /// `M4AReader` (libavformat and libavcodec).
    case m4a
}

extension AudioFormat {
    /// This format's writer at `depth` (a depth it stores: `FormatFacts.bitDepths`; lossy formats
    /// take floats whatever it is). One exhaustive switch: a format added to the table does not
    /// build until it is bound to a writer here and the render opens that writer (`TrackEncoder`).
    public func writer(bitDepth depth: BitDepth) -> FormatWriter {
        let bits = depth == .int16 ? 16 : 24
        switch self {
        case .wav: return .soundFile(depth == .int16 ? .wav16 : depth == .int24 ? .wav24 : .wavFloat, riff: true)
        case .flac: return .flac(bits: bits)
        case .ogg: return .vorbis(quality: Float(facts.vorbisQuality ?? 0))
        case .opus: return .opus
        case .mp3: return .mp3
        case .caf: return .soundFile(depth == .int16 ? .caf16 : .caf24, riff: false)
        case .m4a: return .aacInParts
        case .alac: return .alac(bits: bits)
        }
    }

    /// The reader a file of this format is decoded with.
    public var reader: FormatReader {
        switch self {
        case .wav, .flac, .ogg, .opus, .mp3, .caf: .soundFile
        case .m4a, .alac: .m4a
        }
    }
}
