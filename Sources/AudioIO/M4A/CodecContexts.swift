import AudioCore
import CAV

/// The `AVCodecContext` of the native `aac` or `alac` encoder, opened.
final class Encoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// Frames per packet (AAC 1024, ALAC 4096).
    let frameSize: Int

    /// The native AAC encoder's tools Cadence switches off (see `init`).
    static let aacOptionsOff = ["aac_tns", "aac_pns"]

    init(codec: M4AWriter.Codec, sampleRate: Int, channels: Int, path: String, globalHeader: Bool) throws(AudioError) {
        let id: AVCodecID
        let format: AVSampleFormat
        switch codec {
        case .aac: (id, format) = (AV_CODEC_ID_AAC, AV_SAMPLE_FMT_FLTP)
        case .alac(let depth): (id, format) = (AV_CODEC_ID_ALAC, depth == 16 ? AV_SAMPLE_FMT_S16P : AV_SAMPLE_FMT_S32P)
        }
        LibAV.quiet  // an encoder made alone (the codec probe's) prints its "Qavg" on close otherwise
        guard let found = avcodec_find_encoder(id), let context = avcodec_alloc_context3(found) else {
            throw AudioError(file: path, operation: "avcodec_find_encoder", reason: "this libavcodec has no \(codec) encoder", kind: .software)
        }
        self.context = context
        context.pointee.sample_rate = Int32(sampleRate)
        context.pointee.sample_fmt = format
        if channels == 3 {
            // 3.0 (L R C), the layout the loudness meter weighs: FFmpeg's default for 3 is 2.1, an LFE
            av_channel_layout_from_mask(&context.pointee.ch_layout, 0x7)  // AV_CH_FRONT_LEFT | FRONT_RIGHT | FRONT_CENTER
        } else {
            av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        }
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        context.pointee.flags |= cadence_codec_flag_bitexact()
        if globalHeader { context.pointee.flags |= cadence_codec_flag_global_header() }
        switch codec {
        case .aac(let bitrate): context.pointee.bit_rate = Int64(bitrate)
        case .alac(let depth): context.pointee.bits_per_raw_sample = Int32(depth)
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if case .aac = codec {
            // Temporal noise shaping off: on noise beds FFmpeg 5.1's native encoder lets it burst (the
            // benchmark's rain hour, -1.3 dBTP in, decoded to +6.7 dBTP at 2736.7 s: a click 8 dB over
            // its surroundings; with TNS off, +0.2 dB there). The lossy check would lower the whole
            // track's ceiling by such a burst.
            // Perceptual noise substitution off: the decoder fills substituted bands from a random
            // generator that runs through the whole stream (FFmpeg's; Apple's has its own), so with
            // it a decoded true peak depends on the decoder, and any change to one packet changes
            // every sample after it. Without it a track's decoding is local (`AACTrack` joins,
            // patches and decodes ranges on that) and the same on every player.
            for name in Self.aacOptionsOff { av_dict_set(&options, name, "0", 0) }
        }
        try LibAV.check(avcodec_open2(context, found, &options), path: path, "avcodec_open2")
        // what the encoder did not take is left in the dictionary: an option it does not know
        if let left = av_dict_get(options, "", nil, cadence_dict_ignore_suffix()) {
            throw AudioError(
                file: path, operation: "avcodec_open2", reason: "the encoder does not take the option \(String(cString: left.pointee.key))",
                kind: .software)
        }
        frameSize = Int(context.pointee.frame_size)
        guard frameSize > 0 else {
            throw AudioError(file: path, operation: "avcodec_open2", reason: "the encoder has no frame size", kind: .software)
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }
}

/// An opened encoder fed a packet's worth of planar samples at a time: frames in (copied into
/// one `AVFrame`), packets out to `output`, which may take the packet's reference over (the
/// muxer does); what it leaves is released. The one loop of `M4AWriter` and `AACPartEncoder`.
final class PacketEncoder {
    let encoder: Encoder
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let path: String
    private let output: (UnsafeMutablePointer<AVPacket>) throws(AudioError) -> Void
    /// The timestamp of the first frame, and of the next frame to send.
    private let start: Int64
    private var next: Int64
    /// Frames waiting in `frame` for a whole packet's worth.
    private var pending = 0

    /// Feeds `encoder` frames whose first has timestamp `start` (1/rate).
    init(
        encoder: Encoder, start: Int64 = 0, path: String, output: @escaping (UnsafeMutablePointer<AVPacket>) throws(AudioError) -> Void
    ) throws(AudioError) {
        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw AudioError(file: path, operation: "av_frame_alloc", reason: "out of memory", kind: .software)
        }
        (self.encoder, self.frame, self.packet, self.path, self.output) = (encoder, frame, packet, path, output)
        (self.start, next) = (start, start)
        frame.pointee.nb_samples = Int32(encoder.frameSize)
        frame.pointee.format = encoder.context.pointee.sample_fmt.rawValue
        frame.pointee.sample_rate = encoder.context.pointee.sample_rate
        try LibAV.check(av_channel_layout_copy(&frame.pointee.ch_layout, &encoder.context.pointee.ch_layout), path: path, "av_channel_layout_copy")
        try LibAV.check(av_frame_get_buffer(frame, 0), path: path, "av_frame_get_buffer")
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
    }

    /// Frames taken so far.
    var fed: Int64 { next - start + Int64(pending) }

    /// Copies `frames` frames into the frame's planes, `copy(plane, channel, source frame,
    /// plane index, count)`, sending each full frame.
    func feed(frames: Int, channels: Int, copy: (UnsafeMutableRawPointer, Int, Int, Int, Int) -> Void) throws(AudioError) {
        let size = encoder.frameSize
        var done = 0
        while done < frames {
            if pending == 0 { try LibAV.check(av_frame_make_writable(frame), path: path, "av_frame_make_writable") }
            let n = min(frames - done, size - pending)
            for c in 0..<channels {
                guard let plane = frame.pointee.extended_data[c] else {
                    throw AudioError(
                        file: path, operation: "av_frame_get_buffer", reason: "the frame has no plane for channel \(c + 1)", kind: .software)
                }
                copy(plane, c, done, pending, n)
            }
            pending += n
            done += n
            if pending == size { try send() }
        }
    }

    /// Feeds `frames` interleaved float frames (±1.0 full scale) to an encoder of planar floats.
    func feed(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) throws(AudioError) {
        try feed(frames: frames, channels: channels) { plane, channel, from, to, count in
            let out = plane.assumingMemoryBound(to: Float.self)
            for i in 0..<count { out[to + i] = samples[(from + i) * channels + channel] }
        }
    }

    /// Sends the frames still waiting (a shorter last packet); `drain`: then drains the
    /// encoder to its end, its last packets saying how long they are (the track's end).
    func flush(drain: Bool) throws(AudioError) {
        if pending > 0 { try send() }
        guard drain else { return }
        try LibAV.check(avcodec_send_frame(encoder.context, nil), path: path, "avcodec_send_frame")
        try receive()
    }

    private func send() throws(AudioError) {
        frame.pointee.nb_samples = Int32(pending)
        frame.pointee.pts = next
        next += Int64(pending)
        pending = 0
        try LibAV.check(avcodec_send_frame(encoder.context, frame), path: path, "avcodec_send_frame")
        try receive()
    }

    /// Hands every packet the encoder has ready to `output`.
    private func receive() throws(AudioError) {
        while true {
            let status = avcodec_receive_packet(encoder.context, packet)
            if status == cadence_averror(EAGAIN) || status == cadence_averror_eof() { return }
            try LibAV.check(status, path: path, "avcodec_receive_packet")
            try output(packet)
            av_packet_unref(packet)
        }
    }
}
