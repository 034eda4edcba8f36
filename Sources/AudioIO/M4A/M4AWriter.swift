import AudioCore
import CAV
import Glibc

/// Writes AAC-LC or Apple Lossless in an M4A file with libavcodec's native encoders and
/// libavformat's `ipod` muxer, on a descriptor the caller owns (`AtomicOutputFile`).
///
/// Exact timing: AAC starts with the encoder's delay (`initial_padding`, 1024 frames for
/// the native encoder) and ends padded to a whole packet. Every packet is muxed 1024 frames
/// long and an MP4 edit list hides both (`AACGapless`, QuickTime's explicit-delay layout): its
/// media time skips the delay (the first packet's timestamp is −1024), and its duration is
/// `frames`, exact because the movie timescale is set to the sample rate (the default, 1000,
/// rounds it up to a millisecond); an `iTunSMPB` tag says the same. A player that honours the
/// edit list (AVFoundation, Media3) puts frame 0 at time 0 and stops after `frames`; FFmpeg 5.1
/// skips the delay but plays the padding at the end.
///
/// The same input gives the same bytes: `AVFMT_FLAG_BITEXACT` and
/// `AV_CODEC_FLAG_BITEXACT` (no encoder version string), no creation time. The `moov`
/// box is moved before the audio (`+faststart`), so a player can start an on-demand
/// track before the whole file has arrived.
public final class M4AWriter {
    /// What goes in the file.
    public enum Codec: Sendable, Equatable {
        /// AAC-LC at this many bits per second.
        case aac(bitrate: Int)
        /// Apple Lossless, 16 or 24 bits.
        case alac(bitDepth: Int)
    }

    /// A chapter: its title and first frame (it lasts until the next one, the last until the end).
    public struct Chapter: Sendable, Equatable {
        public var title: String
        public var start: Int64
        public init(title: String, start: Int64) {
            self.title = title
            self.start = start
        }
    }

    /// The sample rates libavcodec's AAC encoder lists (its `supported_samplerates`), ascending: what
    /// the tests check the output-format table's AAC rates against (`FormatFacts`, 7350 Hz left out there).
    public static func encoderSampleRates() -> [Int] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), var rate = codec.pointee.supported_samplerates else { return [] }
        var rates: [Int] = []
        while rate.pointee != 0 {
            rates.append(Int(rate.pointee))
            rate += 1
        }
        return rates.sorted()
    }

    public let path: String
    public let codec: Codec
    public let channels: Int
    public let sampleRate: Int
    private let muxer: Muxer
    private let packets: PacketEncoder
    private var finished = false
    /// Packets came from encoders outside the writer (`writeEncoded`); its own encoder took none.
    private var encodedOutside = false

    /// The frames of encoder delay before the first input frame (AAC: 1024; ALAC: 0).
    public var delay: Int { Int(packets.encoder.context.pointee.initial_padding) }

    /// Opens the encoder and writes the header. `metadata`: iTunes tags by libavformat name
    /// (`title`, `album`, `comment`); `chapters` become the QuickTime chapter track.
    public init(
        fileDescriptor: Int32, path: String, codec: Codec, sampleRate: Int, channels: Int, totalFrames: Int64,
        metadata: [(String, String)] = [], chapters: [Chapter] = []
    ) throws(AudioError) {
        self.path = path
        self.codec = codec
        self.channels = channels
        self.sampleRate = sampleRate
        if case .aac(let bitrate) = codec {
            let facts = AudioFormat.m4a.facts
            guard facts.takes(sampleRate: sampleRate) else {
                let list = if case .only(let rates) = facts.sampleRates { rates.map(String.init).joined(separator: ", ") } else { "" }
                throw AudioError(
                    file: path, operation: "open", reason: "AAC cannot be written at \(sampleRate) Hz (it takes \(list) Hz)", kind: .data)
            }
            guard AudioFormat.bitrateRange.contains(bitrate) else {
                let (low, high) = (AudioFormat.bitrateRange.lowerBound / 1000, AudioFormat.bitrateRange.upperBound / 1000)
                throw AudioError(file: path, operation: "open", reason: "bit rate \(bitrate) is outside \(low)k–\(high)k", kind: .data)
            }
        }
        let format: AudioFormat = if case .aac = codec { .m4a } else { .alac }
        if let counts = format.facts.channelCounts, !counts.contains(channels) {
            throw AudioError(
                file: path, operation: "open",
                reason:
                    "\(format.facts.name) cannot be written with \(channels) channels (it takes \(counts.map(String.init).joined(separator: ", ")))",
                kind: .data)
        }
        if case .alac(let depth) = codec, !format.facts.bitDepths.contains(where: { $0 != .float32 && $0.bytes * 8 == depth }) {
            throw AudioError(file: path, operation: "open", reason: "Apple Lossless takes 16 or 24 bits, not \(depth)", kind: .data)
        }
        let isAAC = if case .aac = codec { true } else { false }
        let muxer = try Muxer(fileDescriptor: fileDescriptor, path: path, wholePackets: isAAC ? Int64(AACPartLayout.packetFrames) : nil)
        let encoder = try Encoder(codec: codec, sampleRate: sampleRate, channels: channels, path: path, globalHeader: muxer.wantsGlobalHeader)
        try muxer.addStream(encoder: encoder, sampleRate: sampleRate)
        // AAC: the place the iTunSMPB tag takes once the file is written (`AACGapless`)
        try muxer.setMetadata(metadata + (isAAC ? [(AACGapless.placeholderKey, AACGapless.placeholder)] : []))
        try muxer.setChapters(chapters, sampleRate: sampleRate, totalFrames: totalFrames)
        try muxer.writeHeader(sampleRate: sampleRate)
        let timeBase = encoder.context.pointee.time_base
        self.muxer = muxer
        packets = try PacketEncoder(encoder: encoder, path: path) { (packet) throws(AudioError) in try muxer.write(packet, from: timeBase) }
    }

    /// Encodes `frames` interleaved float frames (AAC only; ±1.0 is full scale).
    public func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        guard case .aac = codec else { throw misuse("float samples go to AAC only") }
        guard !finished, !encodedOutside else { throw misuse("the writer is already finished, or muxes packets encoded outside it") }
        try packets.feed(samples, frames: frames, channels: channels)
    }

    /// Encodes `frames` interleaved, right-justified integer frames (ALAC only).
    public func write(_ samples: UnsafeBufferPointer<Int32>, frames: Int) throws(AudioError) {
        guard case .alac(let depth) = codec else { throw misuse("integer samples go to Apple Lossless only") }
        guard !finished else { throw misuse("the writer is already finished") }
        try packets.feed(frames: frames, channels: channels) { plane, channel, from, to, count in
            if depth == 16 {
                let out = plane.assumingMemoryBound(to: Int16.self)
                for i in 0..<count { out[to + i] = Int16(truncatingIfNeeded: samples[(from + i) * channels + channel]) }
            } else {
                // the encoder reads 24-bit samples from the top of 32 (`AV_SAMPLE_FMT_S32P`)
                let out = plane.assumingMemoryBound(to: Int32.self)
                for i in 0..<count { out[to + i] = samples[(from + i) * channels + channel] << 8 }
            }
        }
    }

    /// Muxes a packet an encoder outside the writer made (`AACTrack`: the same codec and
    /// parameters), its timestamps in 1/rate, in order; the writer's own encoder stays unused.
    func writeEncoded(_ packet: UnsafeMutablePointer<AVPacket>) throws(AudioError) {
        guard case .aac = codec, !finished, packets.fed == 0 else { throw misuse("encoded packets go to an AAC writer that encodes nothing itself") }
        encodedOutside = true
        try muxer.write(packet, from: AVRational(num: 1, den: Int32(sampleRate)))
    }

    /// Encodes what is left, drains the encoder and writes the trailer (the `moov` box,
    /// moved to the front); throws if any of it fails. Without it the file is not an M4A.
    public func finish() throws(AudioError) {
        guard !finished else { return }
        finished = true
        if !encodedOutside { try packets.flush(drain: true) }
        try muxer.finish()
    }

    private func misuse(_ why: String) -> AudioError {
        AudioError(file: path, operation: "M4A write", reason: why, kind: .software)
    }
}

// MARK: - One owner per libav context

/// The `AVFormatContext` of the `ipod` muxer and the `AVIOContext` it writes through.
private final class Muxer {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    private let io: DescriptorIO
    private var stream: UnsafeMutablePointer<AVStream>?
    private var headerWritten = false
    private var trailerWritten = false
    /// AAC: every packet is muxed this long (in 1/rate), and `AACGapless` lays out the file.
    private let wholePackets: Int64?
    /// Where the last packet's frames end by the encoder's durations (1/rate): the track's frames.
    private var end: Int64?

    init(fileDescriptor: Int32, path: String, wholePackets: Int64?) throws(AudioError) {
        self.path = path
        self.wholePackets = wholePackets
        LibAV.quiet
        var made: UnsafeMutablePointer<AVFormatContext>?
        try LibAV.check(avformat_alloc_output_context2(&made, nil, "ipod", nil), path: path, "avformat_alloc_output_context2")
        guard let made else { throw AudioError(file: path, operation: "avformat_alloc_output_context2", reason: "no context", kind: .software) }
        context = made
        io = DescriptorIO(descriptor: fileDescriptor)
        guard let pb = io.makeContext(writable: true) else {
            avformat_free_context(made)
            throw AudioError(file: path, operation: "avio_alloc_context", reason: "out of memory", kind: .software)
        }
        context.pointee.pb = pb
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
        // +faststart reads the file back through a second context on the same descriptor
        context.pointee.opaque = Unmanaged.passUnretained(io).toOpaque()
        context.pointee.io_open = { format, pb, _, flags, _ in
            guard let format, let pb, let opaque = format.pointee.opaque else { return cadence_averror(EINVAL) }
            let main = Unmanaged<DescriptorIO>.fromOpaque(opaque).takeUnretainedValue()
            guard let reader = DescriptorIO(descriptor: main.descriptor).makeContext(writable: flags & AVIO_FLAG_WRITE != 0) else {
                return cadence_averror(ENOMEM)
            }
            pb.pointee = reader
            return 0
        }
        context.pointee.io_close2 = { _, pb in
            DescriptorIO.close(pb)
            return 0
        }
    }

    deinit {
        DescriptorIO.close(context.pointee.pb)
        context.pointee.pb = nil
        avformat_free_context(context)
    }

    var wantsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    func addStream(encoder: Encoder, sampleRate: Int) throws(AudioError) {
        guard let stream = avformat_new_stream(context, nil) else {
            throw AudioError(file: path, operation: "avformat_new_stream", reason: "out of memory", kind: .software)
        }
        try LibAV.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), path: path, "avcodec_parameters_from_context")
        stream.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        self.stream = stream
    }

    func setMetadata(_ tags: [(String, String)]) throws(AudioError) {
        for (key, value) in tags {
            try LibAV.check(av_dict_set(&context.pointee.metadata, key, value, 0), path: path, "av_dict_set")
        }
    }

    /// Chapters in frames (time base 1/rate): each until the next, the last until `totalFrames`.
    func setChapters(_ chapters: [M4AWriter.Chapter], sampleRate: Int, totalFrames: Int64) throws(AudioError) {
        guard !chapters.isEmpty else { return }
        guard let list = av_calloc(chapters.count, MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride) else {
            throw AudioError(file: path, operation: "av_calloc", reason: "out of memory", kind: .software)
        }
        let slots = list.assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self)
        // avformat_free_context frees the list, each chapter and its metadata
        context.pointee.chapters = slots
        for (k, chapter) in chapters.enumerated() {
            guard let raw = av_mallocz(MemoryLayout<AVChapter>.size) else {
                throw AudioError(file: path, operation: "av_mallocz", reason: "out of memory", kind: .software)
            }
            let item = raw.assumingMemoryBound(to: AVChapter.self)
            item.pointee.id = Int64(k + 1)
            item.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
            item.pointee.start = chapter.start
            item.pointee.end = k + 1 < chapters.count ? chapters[k + 1].start : totalFrames
            slots[k] = item
            context.pointee.nb_chapters = UInt32(k + 1)
            try LibAV.check(av_dict_set(&item.pointee.metadata, "title", chapter.title, 0), path: path, "av_dict_set")
        }
    }

    func writeHeader(sampleRate: Int) throws(AudioError) {
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        // the edit list's duration in frames, not rounded up to a millisecond
        av_dict_set(&options, "movie_timescale", "\(sampleRate)", 0)
        av_dict_set(&options, "movflags", "+faststart", 0)
        try LibAV.check(avformat_write_header(context, &options), path: path, "avformat_write_header")
        headerWritten = true
    }

    func write(_ packet: UnsafeMutablePointer<AVPacket>, from timeBase: AVRational) throws(AudioError) {
        guard let stream else { return }
        if let wholePackets {
            // the encoder shortens the last packet to end at the last frame: the edit list cuts it instead
            // (packets come in 1/rate, the encoders' time base and the movie timescale)
            let last = packet.pointee.pts + packet.pointee.duration
            end = max(end ?? last, last)
            packet.pointee.duration = wholePackets
        }
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        try LibAV.check(av_interleaved_write_frame(context, packet), path: path, "av_interleaved_write_frame")
    }

    func finish() throws(AudioError) {
        guard headerWritten, !trailerWritten else { return }
        trailerWritten = true
        try LibAV.check(av_write_trailer(context), path: path, "av_write_trailer")
        avio_flush(context.pointee.pb)
        let status = context.pointee.pb.pointee.error
        if status < 0 { throw LibAV.error(status, path: path, operation: "avio_flush") }
        if wholePackets != nil { try AACGapless.apply(fileDescriptor: io.descriptor, path: path, frames: end ?? 0) }
    }
}
