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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw AudioError(file: path, operation: "open", reason: "no such file", kind: .noInput)
        }
        guard !isDirectory.boolValue else {
            throw AudioError(file: path, operation: "open", reason: "is a directory, not a sound file", kind: .noInput)
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw AudioError(file: path, operation: "open", reason: "permission denied", kind: .noInput)
        }
        var status = stat()
        if stat(path, &status) == 0 {
            // a pipe or a device would block sf_open, or never end
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw AudioError(file: path, operation: "open", reason: "not a regular file (a pipe, socket or device)", kind: .data)
            }
            guard status.st_size > 0 else {
                throw AudioError(file: path, operation: "open", reason: "the file is empty (0 bytes), not a sound file", kind: .data)
            }
        }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioError(
                file: path, operation: "sf_open", reason: Self.openFailure(String(cString: sf_strerror(nil))), kind: .data)
        }
        self.handle = handle
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
        position += Int64(got)
        return Int(got)
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
