import AudioCore
import CSndfile
import Glibc

/// Writes a sound file through libsndfile on a descriptor the caller owns. Owns one `SNDFILE*`.
///
/// Closing is what completes a file, so `finish()` calls `sf_close` and checks
/// it; `deinit` only frees. Nothing time-dependent is stamped into the file:
/// the float WAV `PEAK` chunk (which holds the current time) is switched off, and
/// RF64, where libsndfile 1.2 writes it all the same, has it blanked to `JUNK` once closed.
public final class SoundFileWriter {
    /// The libsndfile container and encoding of an output.
    public struct Format: Sendable, Equatable {
        public var major: Int32
        public var subtype: Int32
        public init(major: Int32, subtype: Int32) {
            self.major = major
            self.subtype = subtype
        }
        public static let wav16 = Format(major: Int32(SF_FORMAT_WAV), subtype: Int32(SF_FORMAT_PCM_16))
        public static let wav24 = Format(major: Int32(SF_FORMAT_WAV), subtype: Int32(SF_FORMAT_PCM_24))
        public static let wavFloat = Format(major: Int32(SF_FORMAT_WAV), subtype: Int32(SF_FORMAT_FLOAT))
        public static let flac16 = Format(major: Int32(SF_FORMAT_FLAC), subtype: Int32(SF_FORMAT_PCM_16))
        public static let flac24 = Format(major: Int32(SF_FORMAT_FLAC), subtype: Int32(SF_FORMAT_PCM_24))
        public static let caf16 = Format(major: Int32(SF_FORMAT_CAF), subtype: Int32(SF_FORMAT_ALAC_16))
        public static let caf24 = Format(major: Int32(SF_FORMAT_CAF), subtype: Int32(SF_FORMAT_ALAC_24))
        public static let opus = Format(major: Int32(SF_FORMAT_OGG), subtype: Int32(SF_FORMAT_OPUS))
        public static let mp3 = Format(major: Int32(SF_FORMAT_MPEG), subtype: Int32(SF_FORMAT_MPEG_LAYER_III))
        /// The same encoding in RF64 (EBU Tech 3306), the WAV that keeps 64-bit sizes past 4 GiB.
        public var rf64: Format { Format(major: Int32(SF_FORMAT_RF64), subtype: subtype) }
    }

    public let path: String
    public let channels: Int
    private let fileDescriptor: Int32
    private let format: Format
    private var handle: OpaquePointer?

    /// libsndfile's version, e.g. (1, 2, 0), from `sf_version_string`.
    public static let libraryVersion: (Int, Int, Int) = {
        let text = String(cString: sf_version_string()).drop { !$0.isNumber }
        let parts = text.split(whereSeparator: { !$0.isNumber }).prefix(3).map { Int($0) ?? 0 }
        return (parts.count > 0 ? parts[0] : 0, parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0)
    }()

    /// Why libsndfile cannot be trusted with a format, or nil.
    ///
    /// Before 1.2.2, `alac_pakt_encode` sizes the CAF packet table at 2 bytes a
    /// packet but writes up to 4 (libsndfile issue #973): a loud 24-bit stereo
    /// ALAC file corrupts the heap when it is closed.
    public static func defect(of format: Format) -> String? {
        let (major, minor, patch) = libraryVersion
        if format.major == Int32(SF_FORMAT_CAF), (major, minor, patch) < (1, 2, 2) {
            return
                "CAF (ALAC) output needs libsndfile 1.2.2 or later; \(major).\(minor).\(patch) here overruns its packet table on loud material (libsndfile issue #973)"
        }
        return nil
    }

    /// Opens a writer on `fd` (`sf_open_fd`, the descriptor stays open after `finish`).
    ///
    /// `bitrate` (bits per second) sets MP3's constant bit rate and Opus's target through
    /// libsndfile's compression level (`compressionLevel`); other formats ignore it.
    public init(
        fileDescriptor fd: Int32, path: String, format: Format, sampleRate: Int, channels: Int, bitrate: Int? = nil
    ) throws(AudioError) {
        self.path = path
        self.channels = channels
        self.fileDescriptor = fd
        self.format = format
        if let defect = Self.defect(of: format) {
            throw AudioError(file: path, operation: "open", reason: defect, kind: .data)
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        // more than 2 channels: WAVE_FORMAT_EXTENSIBLE, whose channel mask names the layout (a plain
        // WAVE_FORMAT_PCM header has none, and readers guess: FFmpeg takes 3 channels for 2.1)
        let major = format.major == Int32(SF_FORMAT_WAV) && channels > 2 ? Int32(SF_FORMAT_WAVEX) : format.major
        info.format = major | format.subtype
        guard sf_format_check(&info) != 0 else {
            throw AudioError(
                file: path, operation: "sf_format_check",
                reason: "libsndfile cannot write this format at \(sampleRate) Hz with \(channels) channels",
                kind: .data)
        }
        guard let handle = sf_open_fd(fd, Int32(SFM_WRITE), &info, 0) else {
            throw AudioError(file: path, operation: "sf_open_fd", reason: String(cString: sf_strerror(nil)), kind: .cannotCreate)
        }
        self.handle = handle
        sf_command(handle, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        if channels > 2, major == Int32(SF_FORMAT_WAVEX) || major == Int32(SF_FORMAT_RF64) {
            // WAVE_FORMAT_EXTENSIBLE's channel mask: the layout the loudness meter weighs
            // (LoudnessMeter.channelRoles); libsndfile writes none for 3, 5 and 7 channels, and
            // 8 as front left/right of centre, where players and FFmpeg guess other layouts
            var map = Self.channelMap(channels: channels)
            sf_command(handle, Int32(SFC_SET_CHANNEL_MAP_INFO), &map, Int32(map.count * MemoryLayout<Int32>.size))
        }
        if format.major == Int32(SF_FORMAT_MPEG) {
            // constant bit rate: deterministic size, and the LAME header carries delay and padding
            var mode = Int32(SF_BITRATE_MODE_CONSTANT)
            sf_command(handle, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
        }
        if let bitrate, var level = Self.compressionLevel(bitrate: bitrate, format: format, sampleRate: sampleRate, channels: channels) {
            guard sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size)) == Int32(SF_TRUE) else {
                throw AudioError(
                    file: path, operation: "SFC_SET_COMPRESSION_LEVEL",
                    reason: "libsndfile refused a bit rate of \(bitrate) bits/s: \(String(cString: sf_strerror(handle)))", kind: .data)
            }
        }
    }

    /// The WAVE channel positions of a `channels`-channel output (3.0, quad, 5.0, 5.1, 6.1, 7.1).
    static func channelMap(channels: Int) -> [Int32] {
        let (l, r, c, lfe) = (SF_CHANNEL_MAP_LEFT, SF_CHANNEL_MAP_RIGHT, SF_CHANNEL_MAP_CENTER, SF_CHANNEL_MAP_LFE)
        let (bl, br, bc) = (SF_CHANNEL_MAP_REAR_LEFT, SF_CHANNEL_MAP_REAR_RIGHT, SF_CHANNEL_MAP_REAR_CENTER)
        let (sl, sr) = (SF_CHANNEL_MAP_SIDE_LEFT, SF_CHANNEL_MAP_SIDE_RIGHT)
        let positions: [Int]
        switch channels {
        case 1: positions = [SF_CHANNEL_MAP_MONO]
        case 2: positions = [l, r]
        case 3: positions = [l, r, c]
        case 4: positions = [l, r, bl, br]
        case 5: positions = [l, r, c, bl, br]
        case 6: positions = [l, r, c, lfe, bl, br]
        case 7: positions = [l, r, c, lfe, bc, sl, sr]
        default: positions = [l, r, c, lfe, bl, br, sl, sr]
        }
        return positions.map { Int32($0) }
    }

    /// The libsndfile compression level (0 best … 1 smallest) that encodes at `bitrate` bits per
    /// second, for the formats whose level is a bit rate; nil for the others.
    ///
    /// libsndfile 1.2 maps the level linearly and truncates to an integer (src/mpeg_l3_encode.c,
    /// src/ogg_opus.c), so the level aims half a unit above the wanted value:
    /// - MP3 (constant bit rate): `320 − level × 288` kbps at 32 kHz and above, `160 − level × 152`
    ///   from 16 kHz, `64 − level × 56` below; LAME then takes the nearest MPEG bit rate
    ///   (128k, 160k, 192k…).
    /// - Opus: `(1 − level) × 250000 + 6000` bits/s per channel.
    public static func compressionLevel(bitrate: Int, format: Format, sampleRate: Int, channels: Int) -> Double? {
        let level: Double
        if format.major == Int32(SF_FORMAT_MPEG) {
            // the MPEG version's top (`FormatFacts.bitrates`) at level 0, libsndfile's bottom (MPEG-1 32k, else 8k) at 1
            guard let range = AudioFormat.mp3.facts.bitrates(sampleRate: sampleRate, channels: channels)?.range else { return nil }
            let (top, bottom) = (Double(range.upperBound) / 1000, sampleRate >= 32000 ? 32.0 : 8.0)
            level = (top - (Double(bitrate) / 1000 + 0.5)) / (top - bottom)
        } else if format.subtype == Int32(SF_FORMAT_OPUS) {
            // Opus's per-channel range (`FormatFacts.bitrates`) is libsndfile's level scale
            guard case .perChannel(let each) = AudioFormat.opus.facts.bitrates else { return nil }
            let perChannel = Double(bitrate) / Double(max(channels, 1))
            level = 1 - (perChannel - Double(each.lowerBound) + 0.5) / Double(each.upperBound - each.lowerBound)
        } else {
            return nil
        }
        return min(max(level, 0), 1)
    }

    deinit { if let handle { sf_close(handle) } }

    /// Sets a string tag (`sf_set_string`): title, album, comment…
    public func setString(_ kind: Int32, _ value: String) {
        guard let handle else { return }
        sf_set_string(handle, kind, value)
    }

    /// Sets the tags libsndfile writes of `tags` (`TITLE`, `ALBUM`, `COMMENT`; others are left out).
    public func setTags(_ tags: [(String, String)]) {
        for (key, value) in tags {
            switch key {
            case "TITLE": setString(Int32(SF_STR_TITLE), value)
            case "ALBUM": setString(Int32(SF_STR_ALBUM), value)
            case "COMMENT": setString(Int32(SF_STR_COMMENT), value)
            default: break
            }
        }
    }

    /// Writes `frames` frames of interleaved floats (`sf_writef_float`).
    public func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        errno = 0
        let written = sf_writef_float(try open(), samples.baseAddress, sf_count_t(frames))
        try check(written, frames, "sf_writef_float")
    }

    /// Writes `frames` frames of interleaved 16-bit samples (`sf_writef_short`).
    public func write(_ samples: UnsafeBufferPointer<Int16>, frames: Int) throws(AudioError) {
        errno = 0
        let written = sf_writef_short(try open(), samples.baseAddress, sf_count_t(frames))
        try check(written, frames, "sf_writef_short")
    }

    /// Writes `frames` frames of interleaved left-justified 32-bit samples (`sf_writef_int`).
    public func write(_ samples: UnsafeBufferPointer<Int32>, frames: Int) throws(AudioError) {
        errno = 0
        let written = sf_writef_int(try open(), samples.baseAddress, sf_count_t(frames))
        try check(written, frames, "sf_writef_int")
    }

    /// Completes the file (`sf_close`): headers, FLAC's MD5, the encoder's last frames. Throws if that fails.
    public func finish() throws(AudioError) {
        guard let handle else { return }
        self.handle = nil
        errno = 0
        let result = sf_close(handle)
        guard result == 0 else {
            if AtomicOutputFile.meansNoRoom(errno) { throw AtomicOutputFile.writeError(path: path, operation: "sf_close", errno) }
            throw AudioError(file: path, operation: "sf_close", reason: String(cString: sf_error_number(result)), kind: .ioError)
        }
        let isFloat = format.subtype == Int32(SF_FORMAT_FLOAT) || format.subtype == Int32(SF_FORMAT_DOUBLE)
        if format.major == Int32(SF_FORMAT_RF64), isFloat { try Self.blankPeakChunk(fileDescriptor: fileDescriptor, path: path) }
    }

    /// Turns the `PEAK` chunk of the closed RF64 file on `fd` into a zero-filled `JUNK` chunk of
    /// the same size, if it has one; nothing else moves. The renderer's descriptors are open for
    /// reading and writing; on a write-only one nothing can be read back, and the chunk stays.
    ///
    /// libsndfile 1.2's RF64 writer adds a `PEAK` chunk to float files whatever
    /// `SFC_SET_ADD_PEAK_CHUNK` says, stamped with `time(NULL)`: two renders of one recipe
    /// differed in those 4 bytes. `JUNK` is the filler every RIFF reader skips (ffprobe,
    /// libsndfile); a plain RIFF float WAV has no `PEAK` chunk either.
    public static func blankPeakChunk(fileDescriptor fd: Int32, path: String) throws(AudioError) {
        guard fcntl(fd, F_GETFL) & O_ACCMODE == O_RDWR else { return }
        let headerBytes = 1 << 16
        var header = [UInt8](repeating: 0, count: headerBytes)
        let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, headerBytes, 0) }
        guard count >= 0 else {
            throw AudioError(file: path, operation: "pread", reason: String(cString: strerror(errno)), kind: .ioError)
        }
        guard count >= 12, header[0..<4] == [0x52, 0x46, 0x36, 0x34][...], header[8..<12] == [0x57, 0x41, 0x56, 0x45][...] else {
            throw AudioError(file: path, operation: "RF64 PEAK", reason: "not an RF64/WAVE file", kind: .software)
        }
        var offset = 12
        while offset + 8 <= count {
            let id = header[offset..<(offset + 4)]
            let size = (0..<4).reduce(0) { $0 | Int(header[offset + 4 + $1]) << (8 * $1) }
            if id == [0x64, 0x61, 0x74, 0x61][...] { return }  // "data": the header ends here
            if id == [0x50, 0x45, 0x41, 0x4B][...] {  // "PEAK"
                let blank = Array("JUNK".utf8) + header[(offset + 4)..<(offset + 8)] + [UInt8](repeating: 0, count: size)
                var done = 0
                while done < blank.count {
                    let n = blank.withUnsafeBytes { pwrite(fd, $0.baseAddress?.advanced(by: done), blank.count - done, off_t(offset + done)) }
                    guard n > 0 else {
                        if AtomicOutputFile.meansNoRoom(errno) { throw AtomicOutputFile.writeError(path: path, operation: "pwrite", errno) }
                        throw AudioError(file: path, operation: "pwrite", reason: String(cString: strerror(errno)), kind: .ioError)
                    }
                    done += n
                }
                return
            }
            offset += 8 + size + size % 2
        }
    }

    private func open() throws(AudioError) -> OpaquePointer {
        guard let handle else {
            throw AudioError(file: path, operation: "sf_write", reason: "the writer is already finished", kind: .software)
        }
        return handle
    }

    /// A short write: a full disk or a quota (libsndfile leaves write(2)'s `errno`) is `cannotCreate`
    /// with words that say so; anything else is libsndfile's own message, `ioError`.
    private func check(_ written: sf_count_t, _ frames: Int, _ operation: String) throws(AudioError) {
        guard written == frames else {
            if AtomicOutputFile.meansNoRoom(errno) { throw AtomicOutputFile.writeError(path: path, operation: operation, errno) }
            throw AudioError(file: path, operation: operation, reason: String(cString: sf_strerror(handle)), kind: .ioError)
        }
    }
}
