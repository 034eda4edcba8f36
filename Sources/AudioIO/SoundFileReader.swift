import AudioCore
import CSndfile
import Foundation

/// Reads any sound file libsndfile knows, as interleaved float frames. Owns one `SNDFILE*`.
public final class SoundFileReader {
    /// Formats with more channels, or rates outside this range, are refused as corrupt or absurd.
    public static let channelLimit = 64
    public static let rateRange = 1000...768_000

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    /// The frame count the header claims (may be larger than what can be read from a truncated file).
    public let frames: Int64
    private var handle: OpaquePointer?

    /// Opens `path` for reading (`sf_open`). Missing files throw `.noInput`; unknown or broken content `.data`.
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
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            throw AudioError(file: path, operation: "sf_open", reason: reason, kind: .data)
        }
        self.handle = handle
        self.sampleRate = Int(info.samplerate)
        self.channels = Int(info.channels)
        self.frames = Int64(info.frames)
        guard channels >= 1, channels <= Self.channelLimit else {
            throw AudioError(
                file: path, operation: "sf_open",
                reason: "\(channels) channels is not a usable sound (at most \(Self.channelLimit))", kind: .data)
        }
        guard Self.rateRange.contains(sampleRate) else {
            throw AudioError(
                file: path, operation: "sf_open",
                reason: "sample rate \(sampleRate) Hz is outside \(Self.rateRange.lowerBound)…\(Self.rateRange.upperBound) Hz",
                kind: .data)
        }
        guard frames > 0 else {
            throw AudioError(file: path, operation: "sf_open", reason: "the file holds no audio frames", kind: .data)
        }
    }

    deinit { if let handle { sf_close(handle) } }

    /// Reads up to `frames` frames into `buffer` (`sf_readf_float`); returns the number read, 0 at the end.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws(AudioError) -> Int {
        guard let handle else { return 0 }
        precondition(buffer.count >= frames * channels)
        let got = sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames))
        if got < 0 || (got == 0 && sf_error(handle) != 0) {
            throw AudioError(file: path, operation: "sf_readf_float", reason: String(cString: sf_strerror(handle)), kind: .data)
        }
        return Int(got)
    }

    /// Closes the file now (`sf_close`).
    public func close() {
        if let handle { sf_close(handle) }
        handle = nil
    }
}
