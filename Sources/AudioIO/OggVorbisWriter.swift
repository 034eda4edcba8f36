import AudioCore
import CVorbis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Encodes interleaved float audio to Ogg Vorbis on an open file descriptor.
///
/// libsndfile's Ogg Vorbis writer takes the stream serial number from the clock. Here the
/// caller chooses it, so the same samples, rate, channels, quality, serial and comments give
/// byte-identical files on every run. The bytes do not depend on how the samples are split
/// into `write` calls, because libvorbis always receives them in `chunkFrames`-frame chunks
/// counted from the start. (libvorbis's output does depend on its chunks: it extrapolates the
/// start of the stream from whatever it has buffered at that point.)
///
/// Streaming: memory stays the same however long the audio is. One chunk is staged, and each
/// page is written as soon as libogg completes it (`ogg_stream_pageout`). The header packets
/// are flushed (`ogg_stream_flush`) before any audio.
///
/// Frame-exact: the last page's granule position is the number of frames written, and
/// Vorbis has no encoder delay. So libsndfile, vorbisfile and FFmpeg decode exactly that many
/// frames, aligned with the input (see `audioPackets` for FFmpeg and ogginfo).
///
/// Samples are in Vorbis channel order, which is the same as WAV order for mono and stereo only.
///
/// `finish()` completes the file. `deinit` only frees the libvorbis and libogg state and never
/// writes. A writer dropped without `finish()` leaves a stream that has no end.
public final class OggVorbisWriter {
    /// The `write(2)` call, which tests replace to inject short writes, `EINTR` and failures.
    /// It returns the number of bytes written, or -1 with `errno` set.
    typealias WriteFunction = (_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int

    /// libvorbis receives frames in chunks of exactly this size (the last one may be shorter).
    static let chunkFrames = 4096

    private enum State {
        case open, finished
        case failed(AudioError)
    }

    private let fd: Int32
    private let path: String
    private let channels: Int
    private let writeFunction: WriteFunction
    private var state: State = .open

    // libvorbis keeps pointers between these structs (the dsp state points at the info, the
    // block at the dsp state). So they live at fixed addresses, not in Swift stored properties.
    private let info: UnsafeMutablePointer<vorbis_info>
    private let comment: UnsafeMutablePointer<vorbis_comment>
    private let dsp: UnsafeMutablePointer<vorbis_dsp_state>
    private let block: UnsafeMutablePointer<vorbis_block>
    private let stream: UnsafeMutablePointer<ogg_stream_state>
    private var dspReady = false
    private var blockReady = false
    private var streamReady = false

    /// Frames that do not yet fill a chunk, one channel after another (`chunkFrames` each).
    private let staging: UnsafeMutablePointer<Float>
    private var stagedFrames = 0

    /// Audio packets queued so far.
    ///
    /// The first audio packet decodes to no samples (it only starts the overlap). It goes on
    /// the first audio page together with the second, and that page is flushed at once, so the
    /// page ends at the second packet's exact, positive granule position (half a short block:
    /// 128 frames at 48 kHz) and the audio never fits in a single page:
    /// - `ogginfo` rejects a page that completes packets at granule position 0 ("Negative or
    ///   zero granulepos (0) … created by a buggy encoder"), which the first packet alone on its
    ///   page gave every file before.
    /// - Left to `ogg_stream_pageout`, a short or quiet stream (under about 4 KiB of packets) is
    ///   one page that is both first and last. libvorbis and libsndfile trim that correctly, but
    ///   FFmpeg 5.1 counts half a short block (128 samples at 48 kHz) for the first packet and
    ///   cuts that many from the end, so it decodes 1000 frames as 872 and 48000 as 47872. With
    ///   the first page closed after the second packet, FFmpeg, libsndfile and vorbisfile all
    ///   decode exactly N frames for every N longer than that half block.
    ///
    /// A stream of half a short block or less (128 frames at 32 kHz and above, 256 below) has
    /// only two audio packets, the second the last: they cannot share a page without FFmpeg
    /// playing the whole half block, so the first keeps a page of its own (granule position 0:
    /// `ogginfo` warns on these few-millisecond files, FFmpeg stays exact).
    private var audioPackets = 0

    /// Sets up the encoder and writes the three Vorbis header packets onto their own pages.
    ///
    /// - Parameters:
    ///   - fd: an open, writable file descriptor (the writer does NOT close it; the caller owns it).
    ///   - path: the file's name, only for error messages.
    ///   - rate: a VBR quality (-0.1…1.0) or an average bit rate.
    ///   - serial: the Ogg stream serial number.
    ///   - comments: Vorbis comment tags, e.g. `[("TITLE", "Box Breathing")]`, written in the
    ///     given order. A tag name is printable ASCII without `=`. No name or value may hold NUL.
    /// - Throws: `AudioError` (`.cannotCreate`) naming the call that failed:
    ///   `vorbis_encode_init_vbr` or `vorbis_encode_init` (unsupported rate, channel count, quality or bit rate),
    ///   `vorbis_comment_add_tag`, `vorbis_analysis_init`, `vorbis_block_init`,
    ///   `ogg_stream_init`, `vorbis_analysis_headerout`, `ogg_stream_packetin` or `write`.
    public convenience init(
        fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int, rate: Rate,
        serial: Int32, comments: [(String, String)]
    ) throws(AudioError) {
        try self.init(
            fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels,
            rate: rate, serial: serial, comments: comments, writeFunction: systemWrite)
    }

    /// How the encoder spends bits.
    public enum Rate: Sendable, Equatable {
        /// VBR at a quality, -0.1…1.0 (`vorbis_encode_init_vbr`; Cadence uses 0.5).
        case quality(Float)
        /// An average bit rate in bits per second (`vorbis_encode_init` with a nominal rate and no
        /// hard limits: libvorbis's bit-rate management holds the average).
        case bitrate(Int)
    }

    /// Whether libvorbis has a mode for `bitrate` at `sampleRate` with `channels` channels: its
    /// tables cover a range per rate and channel count (about 45k to 500k for 48 kHz stereo).
    public static func accepts(bitrate: Int, sampleRate: Int, channels: Int) -> Bool {
        guard (1...255).contains(channels), sampleRate > 0, sampleRate <= Int(Int32.max), bitrate > 0 else { return false }
        let info = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
        defer { info.deallocate() }
        vorbis_info_init(info)
        defer { vorbis_info_clear(info) }
        return vorbis_encode_setup_managed(info, channels, sampleRate, -1, bitrate, -1) == 0
    }

    /// True when libvorbis has a VBR mode for `quality` (-0.1…1) at `sampleRate` with `channels`
    /// (it has none above 192 kHz, among others): what `vorbis_encode_init_vbr` would refuse.
    public static func accepts(quality: Float, sampleRate: Int, channels: Int) -> Bool {
        guard (1...255).contains(channels), sampleRate > 0, sampleRate <= Int(Int32.max), (-0.1...1).contains(quality) else { return false }
        let info = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
        defer { info.deallocate() }
        vorbis_info_init(info)
        defer { vorbis_info_clear(info) }
        return vorbis_encode_setup_vbr(info, channels, sampleRate, quality) == 0
    }

    /// The bit rates, in whole kbps from 32k to 320k, that `accepts` takes at `sampleRate` with
    /// `channels`, for a message; nil when it takes none of them.
    public static func bitrates(sampleRate: Int, channels: Int) -> ClosedRange<Int>? {
        let taken = stride(from: 32_000, through: 320_000, by: 1000).filter { accepts(bitrate: $0, sampleRate: sampleRate, channels: channels) }
        guard let low = taken.first, let high = taken.last else { return nil }
        return low...high
    }

    /// The designated initializer, with a replaceable `write(2)` for tests.
    init(
        fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int, rate: Rate,
        serial: Int32, comments: [(String, String)], writeFunction: @escaping WriteFunction
    ) throws(AudioError) {
        let (operation, setting): (String, String)
        let valid: Bool
        switch rate {
        case .quality(let quality):
            // libvorbis takes qualities above 1 as 1; refuse them (and NaN) rather than guess.
            (operation, setting, valid) = ("vorbis_encode_init_vbr", "quality \(quality)", (-0.1...1).contains(quality))
        case .bitrate(let bitrate):
            (operation, setting, valid) = ("vorbis_encode_init", "\(bitrate) bits/s", bitrate > 0 && bitrate <= Int(Int32.max))
        }
        guard (1...255).contains(channels), sampleRate > 0, sampleRate <= Int(Int32.max), valid else {
            throw AudioError(
                file: path, operation: operation,
                reason: "unsupported format: \(channels) channels at \(sampleRate) Hz, \(setting)",
                kind: .cannotCreate)
        }
        self.fd = fd
        self.path = path
        self.channels = channels
        self.writeFunction = writeFunction
        info = .allocate(capacity: 1)
        comment = .allocate(capacity: 1)
        dsp = .allocate(capacity: 1)
        block = .allocate(capacity: 1)
        stream = .allocate(capacity: 1)
        staging = .allocate(capacity: Self.chunkFrames * channels)
        vorbis_info_init(info)
        vorbis_comment_init(comment)
        // From here on, `deinit` runs if the initializer throws. It clears whatever is ready.

        func fail(_ operation: String, _ reason: String) -> AudioError {
            let error = AudioError(file: path, operation: operation, reason: reason, kind: .cannotCreate)
            state = .failed(error)
            return error
        }

        let initStatus: Int32
        switch rate {
        case .quality(let quality): initStatus = vorbis_encode_init_vbr(info, channels, sampleRate, quality)
        case .bitrate(let bitrate): initStatus = vorbis_encode_init(info, channels, sampleRate, -1, bitrate, -1)
        }
        guard initStatus == 0 else {
            throw fail(operation, "\(Self.describe(initStatus)) (\(channels) channels at \(sampleRate) Hz, \(setting))")
        }
        for (name, value) in comments {
            guard Self.isValidTagName(name), !value.utf8.contains(0) else {
                throw fail("vorbis_comment_add_tag", "invalid tag name \(name.debugDescription) or value")
            }
            vorbis_comment_add_tag(comment, name, value)
        }
        let analysisStatus = vorbis_analysis_init(dsp, info)
        guard analysisStatus == 0 else { throw fail("vorbis_analysis_init", Self.describe(analysisStatus)) }
        dspReady = true
        let blockStatus = vorbis_block_init(dsp, block)
        guard blockStatus == 0 else { throw fail("vorbis_block_init", Self.describe(blockStatus)) }
        blockReady = true
        guard ogg_stream_init(stream, serial) == 0 else {
            throw fail("ogg_stream_init", "cannot initialise the Ogg stream")
        }
        streamReady = true

        var identification = ogg_packet()
        var commentHeader = ogg_packet()
        var codebooks = ogg_packet()
        let headerStatus = vorbis_analysis_headerout(dsp, comment, &identification, &commentHeader, &codebooks)
        guard headerStatus == 0 else { throw fail("vorbis_analysis_headerout", Self.describe(headerStatus)) }
        guard ogg_stream_packetin(stream, &identification) == 0,
            ogg_stream_packetin(stream, &commentHeader) == 0,
            ogg_stream_packetin(stream, &codebooks) == 0
        else {
            throw fail("ogg_stream_packetin", "libogg rejected a header packet")
        }
        do {
            // libogg puts the identification header alone on the first page, as the spec requires.
            try writePages(flush: true)
        } catch {
            throw fail(error.operation, error.reason)
        }
    }

    deinit {
        // This only frees. It never writes, whether or not `finish()` was called.
        if streamReady { ogg_stream_clear(stream) }
        if blockReady { vorbis_block_clear(block) }
        if dspReady { vorbis_dsp_clear(dsp) }
        vorbis_comment_clear(comment)
        vorbis_info_clear(info)
        info.deallocate()
        comment.deallocate()
        dsp.deallocate()
        block.deallocate()
        stream.deallocate()
        staging.deallocate()
    }

    /// Encodes `frames` frames of interleaved samples (channels × frames floats) and writes
    /// every page that libogg completes.
    ///
    /// - Throws: `AudioError` (`.ioError`) from `vorbis_analysis_buffer`, `vorbis_analysis_wrote`,
    ///   `vorbis_analysis`, `vorbis_bitrate_addblock`, `ogg_stream_packetin` or `write`.
    ///   After a failure the writer cannot be used: every later `write` or `finish` throws the
    ///   same error. Calling `write` after `finish()` is a programming error and traps.
    public func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        try checkOpen()
        precondition(frames >= 0 && samples.count >= frames * channels, "fewer samples than frames × channels")
        guard frames > 0, let source = samples.baseAddress else { return }
        let chunk = Self.chunkFrames
        do throws(AudioError) {
            var done = 0
            while done < frames {
                let interleaved = source + done * channels
                if stagedFrames == 0 && frames - done >= chunk {
                    // A whole chunk: de-interleave it straight into libvorbis's buffer.
                    try fillAnalysisBuffer(frames: chunk) { channel, destination in
                        Self.deinterleave(interleaved + channel, stride: channels, into: destination, count: chunk)
                    }
                    try submit(frames: chunk)
                    done += chunk
                } else {
                    // Part of a chunk: stage it until the chunk is full (or `finish()`).
                    let count = min(chunk - stagedFrames, frames - done)
                    for channel in 0..<channels {
                        let destination = staging + channel * chunk + stagedFrames
                        Self.deinterleave(interleaved + channel, stride: channels, into: destination, count: count)
                    }
                    stagedFrames += count
                    done += count
                    if stagedFrames == chunk { try submitStaged() }
                }
            }
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Ends the stream and checks every write. It encodes the last frames and writes the final
    /// page, which is marked end of stream and has the total frame count as its granule
    /// position. The file is complete only after this returns. The descriptor stays open.
    /// Calling it again does nothing.
    ///
    /// - Throws: `AudioError` (`.ioError`) from `vorbis_analysis_wrote`, `vorbis_analysis`,
    ///   `vorbis_bitrate_addblock`, `ogg_stream_packetin` or `write`.
    public func finish() throws(AudioError) {
        if case .finished = state { return }
        try checkOpen()
        do throws(AudioError) {
            if stagedFrames > 0 { try submitStaged() }
            try submit(frames: 0)  // 0 marks the end of the stream
            try writePages(flush: true)
            state = .finished
        } catch {
            state = .failed(error)
            throw error
        }
    }

    // MARK: - Encoding

    private func checkOpen() throws(AudioError) {
        switch state {
        case .open: return
        case .failed(let error): throw error
        case .finished: preconditionFailure("\(path): OggVorbisWriter used after finish()")
        }
    }

    /// libvorbis's input buffer for `frames` more frames: calls `fill` with each channel's part.
    private func fillAnalysisBuffer(
        frames: Int, _ fill: (_ channel: Int, _ destination: UnsafeMutablePointer<Float>) -> Void
    ) throws(AudioError) {
        guard let buffers = vorbis_analysis_buffer(dsp, Int32(frames)) else {
            throw error("vorbis_analysis_buffer", "no buffer returned")
        }
        for channel in 0..<channels {
            guard let destination = buffers[channel] else {
                throw error("vorbis_analysis_buffer", "no buffer for channel \(channel)")
            }
            fill(channel, destination)
        }
    }

    /// Moves the staged frames into libvorbis.
    private func submitStaged() throws(AudioError) {
        let count = stagedFrames
        try fillAnalysisBuffer(frames: count) { channel, destination in
            destination.update(from: staging + channel * Self.chunkFrames, count: count)
        }
        stagedFrames = 0
        try submit(frames: count)
    }

    /// Tells libvorbis that `frames` frames are in its buffer (`0`: end of stream), then encodes.
    private func submit(frames: Int) throws(AudioError) {
        let status = vorbis_analysis_wrote(dsp, Int32(frames))
        guard status == 0 else { throw error("vorbis_analysis_wrote", Self.describe(status)) }
        try encodeBlocks()
    }

    /// Analyses every block libvorbis has ready, queues the packets and writes finished pages.
    private func encodeBlocks() throws(AudioError) {
        var packet = ogg_packet()
        while true {
            let ready = vorbis_analysis_blockout(dsp, block)
            guard ready >= 0 else { throw error("vorbis_analysis_blockout", Self.describe(ready)) }
            if ready == 0 { return }
            let analysis = vorbis_analysis(block, nil)
            guard analysis == 0 else { throw error("vorbis_analysis", Self.describe(analysis)) }
            let added = vorbis_bitrate_addblock(block)
            guard added == 0 else { throw error("vorbis_bitrate_addblock", Self.describe(added)) }
            while true {
                let flushed = vorbis_bitrate_flushpacket(dsp, &packet)
                guard flushed >= 0 else { throw error("vorbis_bitrate_flushpacket", Self.describe(flushed)) }
                if flushed == 0 { break }
                audioPackets += 1
                // a two-packet stream (128 frames or fewer): the first packet alone on its page
                if audioPackets == 2 && packet.e_o_s != 0 { try writePages(flush: true) }
                guard ogg_stream_packetin(stream, &packet) == 0 else {
                    throw error("ogg_stream_packetin", "libogg rejected an audio packet")
                }
                // the first audio page: closed after the second packet (see `audioPackets`)
                if audioPackets >= 2 { try writePages(flush: audioPackets == 2) }
            }
        }
    }

    /// Writes every page libogg has completed (`ogg_stream_pageout`), or, with `flush`, every
    /// page of the queued packets whether complete or not (`ogg_stream_flush`).
    private func writePages(flush: Bool) throws(AudioError) {
        var page = ogg_page()
        while (flush ? ogg_stream_flush(stream, &page) : ogg_stream_pageout(stream, &page)) != 0 {
            try writeAll(page.header, page.header_len)
            try writeAll(page.body, page.body_len)
        }
        guard ogg_stream_check(stream) == 0 else {
            throw error(flush ? "ogg_stream_flush" : "ogg_stream_pageout", "the Ogg stream is in an error state")
        }
    }

    /// Writes all `count` bytes. It retries on `EINTR` and continues after short writes.
    private func writeAll(_ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int) throws(AudioError) {
        guard count > 0, let bytes else { return }
        var offset = 0
        while offset < count {
            let written = writeFunction(fd, bytes + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 {
                throw error("write", String(cString: strerror(errno)))
            } else {
                throw error("write", "wrote 0 of \(count - offset) bytes")
            }
        }
    }

    private func error(_ operation: String, _ reason: String) -> AudioError {
        AudioError(file: path, operation: operation, reason: reason, kind: .ioError)
    }

    // MARK: - Helpers

    private static func deinterleave(
        _ source: UnsafePointer<Float>, stride: Int, into destination: UnsafeMutablePointer<Float>, count: Int
    ) {
        var from = source
        for frame in 0..<count {
            destination[frame] = from.pointee
            from += stride
        }
    }

    /// Whether `name` is a tag name the Vorbis comment spec allows: ASCII 0x20…0x7D except `=`, not empty.
    private static func isValidTagName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (0x20...0x7D).contains($0) && $0 != UInt8(ascii: "=") }
    }

    /// What a libvorbis status code means.
    private static func describe(_ status: Int32) -> String {
        switch status {
        case OV_EFAULT: "internal libvorbis fault (OV_EFAULT)"
        case OV_EINVAL: "invalid argument (OV_EINVAL)"
        case OV_EIMPL: "mode not implemented: unsupported sample rate, channel count or quality (OV_EIMPL)"
        default: "libvorbis error \(status)"
        }
    }
}

/// `write(2)`, under a name that the writer's own `write` method does not shadow.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
