import AudioCore
import CAV
import Glibc

/// Decodes an M4A file (AAC or ALAC) with libavformat's mov demuxer and libavcodec, to
/// interleaved floats: what the lossy check measures after encoding.
///
/// The demuxer turns the edit list's media time into skipped samples, so the first frame
/// handed on is frame 0; the trailing padding, which FFmpeg 5.1 still decodes, is cut at
/// the edit list's duration (the stream's duration in frames).
public enum M4AReader {
    /// Decodes the file open on `descriptor` (read from its start; the descriptor stays
    /// open), handing blocks of interleaved floats to `sink`; returns the frames decoded
    /// within the edit list's duration.
    @discardableResult
    public static func decode(
        descriptor: Int32, path: String, sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void
    ) throws(AudioError) -> Int64 {
        let demuxer = try Demuxer(descriptor: descriptor, path: path)
        guard let parameters = demuxer.stream.pointee.codecpar else {
            throw AudioError(file: path, operation: "avformat_find_stream_info", reason: "the audio stream has no codec parameters", kind: .data)
        }
        let decoder = try Decoder(parameters: parameters, timeBase: demuxer.stream.pointee.time_base, path: path)
        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw AudioError(file: path, operation: "av_frame_alloc", reason: "out of memory", kind: .software)
        }
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            av_frame_free(&framePointer)
            av_packet_free(&packetPointer)
        }
        let limit = demuxer.frames
        let channels = decoder.channels
        var out = [Float]()
        var produced: Int64 = 0

        func receive() throws(AudioError) {
            while true {
                let status = avcodec_receive_frame(decoder.context, frame)
                if status == cadence_averror(EAGAIN) || status == cadence_averror_eof() { return }
                try LibAV.check(status, path: path, "avcodec_receive_frame")
                var n = Int(frame.pointee.nb_samples)
                if let limit { n = Int(max(0, min(Int64(n), limit - produced))) }
                guard n > 0 else { continue }
                if out.count < n * channels { out = [Float](repeating: 0, count: n * channels) }
                try decoder.interleave(frame, frames: n, into: &out)
                produced += Int64(n)
                try out.withUnsafeBufferPointer { (p) throws(AudioError) in try sink(p, n) }
            }
        }

        while true {
            let status = av_read_frame(demuxer.context, packet)
            if status == cadence_averror_eof() { break }
            try LibAV.check(status, path: path, "av_read_frame")
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == demuxer.stream.pointee.index else { continue }
            try LibAV.check(avcodec_send_packet(decoder.context, packet), path: path, "avcodec_send_packet")
            try receive()
        }
        try LibAV.check(avcodec_send_packet(decoder.context, nil), path: path, "avcodec_send_packet")
        try receive()
        return produced
    }

    /// The edit list's duration in frames (the stream's duration) of the file open on
    /// `descriptor`, read from its boxes without decoding; nil when the file does not say.
    public static func frames(descriptor: Int32, path: String) throws(AudioError) -> Int64? {
        try Demuxer(descriptor: descriptor, path: path).frames
    }
}

/// The mov demuxer on a descriptor, and the file's one audio stream.
private final class Demuxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    let stream: UnsafeMutablePointer<AVStream>
    /// The edit list's duration in frames (the stream's duration), when the file says.
    let frames: Int64?

    init(descriptor: Int32, path: String) throws(AudioError) {
        LibAV.quiet
        guard let pb = DescriptorIO(descriptor: descriptor).makeContext(writable: false) else {
            throw AudioError(file: path, operation: "avio_alloc_context", reason: "out of memory", kind: .software)
        }
        guard let made = avformat_alloc_context() else {
            DescriptorIO.close(pb)
            throw AudioError(file: path, operation: "avformat_alloc_context", reason: "out of memory", kind: .software)
        }
        made.pointee.pb = pb
        made.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = made
        let status = avformat_open_input(&opened, nil, av_find_input_format("mov"), nil)
        guard status >= 0, let context = opened else {
            // avformat_open_input frees the context on failure, not the custom I/O
            DescriptorIO.close(pb)
            throw LibAV.error(status, path: path, operation: "avformat_open_input")
        }
        self.context = context
        try LibAV.check(avformat_find_stream_info(context, nil), path: path, "avformat_find_stream_info")
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else {
            throw AudioError(file: path, operation: "decode", reason: "the file holds no audio stream", kind: .data)
        }
        self.stream = stream
        let duration = stream.pointee.duration
        let base = stream.pointee.time_base
        let rate = stream.pointee.codecpar.pointee.sample_rate
        frames =
            duration > 0 && base.num > 0 && rate > 0
            ? av_rescale_q(duration, base, AVRational(num: 1, den: rate)) : nil
    }

    deinit {
        let pb = context.pointee.pb
        var pointer: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&pointer)
        DescriptorIO.close(pb)
    }
}

/// A stream's decoder, opened, and its planar samples made interleaved floats: the file's
/// (`M4AReader`) or a track's packets before they are muxed (`AACTrack.decode`).
final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let channels: Int
    private let path: String

    /// A decoder for the stream `parameters` describe, its packets' timestamps in `timeBase`.
    init(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, path: String) throws(AudioError) {
        self.path = path
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id), let context = avcodec_alloc_context3(codec) else {
            throw AudioError(file: path, operation: "avcodec_find_decoder", reason: "no decoder for this stream", kind: .data)
        }
        self.context = context
        try LibAV.check(avcodec_parameters_to_context(context, parameters), path: path, "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = timeBase
        try LibAV.check(avcodec_open2(context, codec, nil), path: path, "avcodec_open2")
        channels = Int(context.pointee.ch_layout.nb_channels)
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// `frames` frames of `frame`, from its frame `first`, into `out` from its frame `at`,
    /// interleaved, full scale ±1.0; `out` must hold them.
    func interleave(
        _ frame: UnsafeMutablePointer<AVFrame>, from first: Int = 0, frames: Int, into out: inout [Float], at: Int = 0
    ) throws(AudioError) {
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planes = frame.pointee.extended_data
        let (path, channels) = (path, channels)
        precondition(out.count >= (at + frames) * channels, "the interleaved buffer is too short")
        /// Channel `c`'s plane from frame `first`, as `T`s.
        func plane<T>(_ c: Int, of _: T.Type) throws(AudioError) -> UnsafeMutablePointer<T> {
            guard let plane = planes?[c] else {
                throw AudioError(file: path, operation: "decode", reason: "a decoded frame has no plane for channel \(c + 1)", kind: .software)
            }
            return plane.withMemoryRebound(to: T.self, capacity: first + frames) { $0 } + first
        }
        /// Each channel's plane converted by `convert`, interleaved into `out`.
        func spread<T>(_: T.Type, _ convert: (T) -> Float) throws(AudioError) {
            let sources = try (0..<channels).map { (c) throws(AudioError) in try plane(c, of: T.self) }
            out.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let target = base + at * channels
                if channels == 2 {
                    let (left, right) = (sources[0], sources[1])
                    for i in 0..<frames {
                        target[2 * i] = convert(left[i])
                        target[2 * i + 1] = convert(right[i])
                    }
                } else {
                    for (c, source) in sources.enumerated() {
                        for i in 0..<frames { target[i * channels + c] = convert(source[i]) }
                    }
                }
            }
        }
        switch format {
        case AV_SAMPLE_FMT_FLTP: try spread(Float.self) { $0 }
        case AV_SAMPLE_FMT_S16P: try spread(Int16.self) { Float($0) / 32768 }
        case AV_SAMPLE_FMT_S32P: try spread(Int32.self) { Float(Double($0) / 2_147_483_648) }
        default:
            throw AudioError(file: path, operation: "decode", reason: "unexpected sample format \(format.rawValue)", kind: .software)
        }
    }
}
