import AudioCore
import CSndfile
import Foundation

/// Reads any sound file libsndfile knows, as interleaved float frames. Owns one `SNDFILE*`.
///
/// What a header claims is checked before any audio is read: a damaged or
/// hostile file (hundreds of channels, a rate of 1 Hz or 10 MHz, no frames) is
/// refused with an error that says what is wrong, never decoded into a runaway
/// allocation. Failures of libsndfile itself are reported in plain words, with
/// libsndfile's own text after them.
public final class SoundFileReader {
    /// The most channels a readable file may have.
    ///
    /// Far above any bed or cue (stereo, 5.1, 7.1.4, third-order ambisonics = 16);
    /// a header claiming more is damaged, and every block would cost that many
    /// channels of memory before being averaged down.
    public static let channelLimit = 64

    /// The sample rates a readable file may have, in Hz.
    ///
    /// From telephone-band recordings to 768 kHz studio masters. A rate outside
    /// is a damaged header (1 Hz would make a 1-second file last 12 hours at the
    /// output rate), and libsamplerate converts by at most
    /// `SampleRateConverter.ratioLimit` either way.
    public static let rateRange = 1000...768_000

    /// The longest sound a header may claim, in seconds: 24 h, the longest track.
    ///
    /// A FLAC STREAMINFO can claim 2^36 frames (18 days at 44.1 kHz) in a few bytes;
    /// such a claim is refused here, before anything is decoded or `render --check`
    /// passes it. A header that does not say (`knownFrames` nil) is bounded while
    /// decoding instead (`AudioDecoder`'s `maximumFrames`).
    public static let durationLimit = 24 * 3600

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    /// The frame count the header claims (may be larger than what can be read from a truncated file);
    /// `Int64.max` when the header does not say (libsndfile's `SF_COUNT_MAX`, e.g. a FLAC stream
    /// whose STREAMINFO holds 0 samples). See `knownFrames`.
    public let frames: Int64
    /// Frames read so far.
    public private(set) var position: Int64 = 0
    private var handle: OpaquePointer?

    /// The frame count the header claims, or nil when it does not say.
    public var knownFrames: Int64? { frames == Int64.max ? nil : frames }

    /// Opens `path` for reading (`sf_open`). Missing files throw `.noInput`; unknown, broken or
    /// out-of-range content `.data` (channels within `channelLimit`, rate within `rateRange`,
    /// at least one frame, at most `durationLimit` seconds claimed).
    public init(path: String) throws(AudioError) {
        self.path = path
        // one descriptor for every check and for libsndfile: what is checked is what is read
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw AudioError(file: path, operation: "open", reason: "no such file", kind: .noInput)
            case EACCES, EPERM: throw AudioError(file: path, operation: "open", reason: "permission denied", kind: .noInput)
            default:
                throw AudioError(file: path, operation: "open", reason: String(cString: strerror(code)), kind: .noInput)
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw AudioError(file: path, operation: "fstat", reason: reason, kind: .ioError)
        }
        func refuse(_ reason: String, _ kind: FailureKind) -> AudioError {
            Glibc.close(descriptor)
            return AudioError(file: path, operation: "open", reason: reason, kind: kind)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("is a directory, not a sound file", .noInput)
        // a pipe or a device would block sf_open, or never end
        default: throw refuse("not a regular file (a pipe, socket or device)", .data)
        }
        guard status.st_size > 0 else { throw refuse("the file is empty (0 bytes), not a sound file", .data) }
        identity = FileIdentity(status)
        // back to blocking reads for libsndfile (a regular file never blocks anyway)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var info = SF_INFO()
        // sf_open_fd closes the descriptor when the handle closes, or at once when it fails
        guard let handle = sf_open_fd(descriptor, Int32(SFM_READ), &info, 1) else {
            throw AudioError(
                file: path, operation: "sf_open", reason: Self.openFailure(String(cString: sf_strerror(nil))), kind: .data)
        }
        self.handle = handle
        self.descriptor = descriptor
        self.format = info.format
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        self.frames = Int64(info.frames)
        guard channels >= 1, channels <= Self.channelLimit else {
            throw AudioError(
                file: path, operation: "open",
                reason: "unsupported channel count \(channels) (expected 1–\(Self.channelLimit) channels)",
                kind: .data)
        }
        guard Self.rateRange.contains(sampleRate) else {
            throw AudioError(
                file: path, operation: "open",
                reason:
                    "unsupported sample rate \(sampleRate) Hz (expected \(Self.rateRange.lowerBound)–\(Self.rateRange.upperBound) Hz)",
                kind: .data)
        }
        guard frames > 0 else {
            throw AudioError(file: path, operation: "open", reason: "the file holds no audio (0 frames)", kind: .data)
        }
        if let claimed = knownFrames, claimed > Int64(Self.durationLimit) * Int64(sampleRate) {
            throw AudioError(
                file: path, operation: "open",
                reason:
                    "the header claims \(AudioDecoder.duration(claimed, rate: sampleRate)) of audio (\(claimed) frames at \(sampleRate) Hz), longer than the limit of \(AudioDecoder.duration(Int64(Self.durationLimit), rate: 1))",
                kind: .data)
        }
        if info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_OGG), let streams = OggStreamCount.streams(descriptor: descriptor),
            streams > 1
        {
            throw AudioError(
                file: path, operation: "open",
                reason:
                    "the Ogg file holds \(streams) logical streams (chained or multiplexed recordings), and libsndfile decodes only the first; join them into one stream (e.g. re-encode the whole file) or split them into separate files",
                kind: .data)
        }
    }

    /// libsndfile's container and codec (`SF_INFO.format`).
    private let format: Int32

    /// Whether `seek(to:)` lands on the very frame asked for, as reading up to it would:
    /// PCM containers and FLAC (computed or indexed positions), Ogg Vorbis (libsndfile
    /// bisects the pages, then decodes from the one before). MP3 and Opus are read through.
    public var seeksExactly: Bool {
        switch format & Int32(SF_FORMAT_TYPEMASK) {
        case Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_W64), Int32(SF_FORMAT_RF64), Int32(SF_FORMAT_AIFF), Int32(SF_FORMAT_FLAC):
            return true
        case Int32(SF_FORMAT_OGG):
            return format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_VORBIS)
        default:
            return false
        }
    }

    /// Moves to `frame` (`sf_seek`); false when libsndfile cannot (past the end of a file
    /// that holds less than its header claims): nothing more is read then.
    public func seek(to frame: Int64) -> Bool {
        guard let handle else { return false }
        guard sf_seek(handle, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
            close()
            return false
        }
        position = frame
        return true
    }

    /// The file as it was opened: a decoder compares it with `checkUnchanged()` at the end.
    public let identity: FileIdentity
    private let descriptor: Int32

    /// Throws when the file changed since it was opened (written to in place, or cut):
    /// what was decoded is then a mix of two versions, and no render may keep it.
    public func checkUnchanged() throws(AudioError) {
        guard handle != nil, let now = FileIdentity.of(descriptor: descriptor) else { return }
        guard now == identity else {
            throw FileIdentity.changedError(path: path, "while it was being read (\(identity.size) bytes when opened, \(now.size) now)")
        }
    }

    deinit { if let handle { sf_close(handle) } }

    /// Reads up to `frames` frames into `buffer` (`sf_readf_float`); returns the number read, 0 at the end.
    /// A decoder error (a FLAC stream that loses sync, a channel count that changes midway) throws `.data`.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(AudioError) -> Int {
        guard let handle else { return 0 }
        precondition(buffer.count >= frames * channels)
        let got = sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames))
        if got < 0 || (got == 0 && sf_error(handle) != 0) {
            let seconds = String(format: "%.3f", Double(position) / Double(sampleRate))
            let library = Self.trimmed(String(cString: sf_strerror(handle)))
            throw AudioError(
                file: path, operation: "decode",
                reason: "the audio is damaged or cut short after \(seconds) s (frame \(position)) (libsndfile: \(library))",
                kind: .data)
        }
        try checkSamples(UnsafeBufferPointer(rebasing: buffer[0..<(Int(got) * channels)]))
        position += Int64(got)
        return Int(got)
    }

    /// The largest sample magnitude a readable file may hold: 1000 (+60 dBFS).
    ///
    /// Float files may go past ±1.0 (a mix bus left hot), but a value a thousand
    /// times full scale is a damaged or hostile file, as are NaN and infinity: any
    /// of them would turn the loudness gain into noise, DC or silence.
    public static let sampleLimit: Float = 1000

    /// Throws at the first sample that is NaN, infinite or beyond `sampleLimit`, naming its frame.
    private func checkSamples(_ samples: UnsafeBufferPointer<Float>) throws(AudioError) {
        // the common case in one branch-free pass: the largest magnitude as bits (positive
        // floats order like their bit patterns, and NaN and infinity sort above every number)
        var largest: UInt32 = 0
        for x in samples { largest = Swift.max(largest, x.bitPattern & 0x7fff_ffff) }
        guard largest > Self.sampleLimit.bitPattern else { return }
        guard let index = samples.firstIndex(where: { !(Swift.abs($0) <= Self.sampleLimit) }) else { return }
        let value = samples[index]
        let frame = position + Int64(index / channels)
        let seconds = String(format: "%.6f", Double(frame) / Double(sampleRate))
        let what =
            value.isNaN
            ? "a NaN (not-a-number) sample"
            : value.isInfinite
                ? "an infinite sample"
                : String(format: "the sample value %g, beyond ±%g (+60 dBFS)", Double(value), Double(Self.sampleLimit))
        throw AudioError(
            file: path, operation: "decode",
            reason: "frame \(frame) (\(seconds) s), channel \(index % channels + 1), holds \(what): the file is damaged",
            kind: .data)
    }

    /// Closes the file now (`sf_close`).
    public func close() {
        if let handle { sf_close(handle) }
        handle = nil
    }

    /// `sf_open`'s complaint in words a user acts on, libsndfile's own text after it.
    static func openFailure(_ libsndfile: String) -> String {
        let text = trimmed(libsndfile)
        let lower = text.lowercased()
        let what: String
        if lower.contains("sf_info") {
            // libsndfile's wording when the header's rate or channel count is 0 or negative
            what = "the header holds no valid sample rate or channel count"
        } else if lower.contains("too many channels") {
            what = "the header claims more channels than libsndfile accepts"
        } else if lower.contains("channel count is zero") {
            what = "the header claims 0 channels"
        } else if lower.contains("not recognised") || lower.contains("unknown format") {
            what = "not a sound file in a format libsndfile knows (a damaged header, or not audio at all)"
        } else if lower.contains("unimplemented") || lower.contains("unsupported") {
            what = "an unsupported encoding, or a damaged or cut-short header"
        } else {
            what = "the file is damaged or cut short"
        }
        return "\(what) (libsndfile: \(text))"
    }

    /// libsndfile's text without the `Error : ` prefix some messages carry, or its final period.
    private static func trimmed(_ text: String) -> String {
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["Error : ", "Error: "] where t.hasPrefix(prefix) { t.removeFirst(prefix.count) }
        if t.hasSuffix(".") { t.removeLast() }
        return t
    }
}
