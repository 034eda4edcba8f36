import AudioCore
import CAV
import Foundation

/// An AAC track assembled from packets of several encoders before it is muxed: the parts
/// of `AACPartLayout`, encoded apart (on as many threads as the caller runs them on), then
/// joined; patches that replace a stretch of it; its decoding, exactly as the muxed file
/// will decode, for any range of frames; and the M4A file itself (`mux`).
///
/// Perceptual noise substitution is off in every encoder (`Encoder.aacOptionsOff`), so a
/// decoded frame depends only on its own packet and the one before: decoding a range needs
/// only the packets from one before it, and a patch changes the decoded track only between
/// its joins (plus one packet). With PNS on, FFmpeg's decoder fills the substituted bands
/// from one random generator that runs through the whole stream, and a change anywhere
/// would change every sample after it.
public final class AACTrack: @unchecked Sendable {
    public let layout: AACPartLayout
    public let bitrate: Int
    public let sampleRate: Int
    public let channels: Int
    public let path: String
    private let parameters: UnsafeMutablePointer<AVCodecParameters>
    private var parts: [AACPacketStore?]
    /// Where part k (k ≥ 1) takes over from part k−1.
    private var partJoins: [Int64] = []
    private var patches: [(span: Range<Int64>, store: AACPacketStore)] = []
    private let lock = NSLock()
    /// Joins where the two encoders' windows differed everywhere within reach, so the nominal place was taken.
    public private(set) var unmatchedJoins = 0

    /// `partSeconds`: the shortest part (`AACPartLayout`).
    public init(
        bitrate: Int, sampleRate: Int, channels: Int, totalFrames: Int64, path: String, partSeconds: Int64 = AACPartLayout.partSeconds
    ) throws(AudioError) {
        layout = AACPartLayout(totalFrames: totalFrames, sampleRate: sampleRate, partSeconds: partSeconds)
        self.bitrate = bitrate
        self.sampleRate = sampleRate
        self.channels = channels
        self.path = path
        guard let parameters = avcodec_parameters_alloc() else {
            throw AudioError(file: path, operation: "avcodec_parameters_alloc", reason: "out of memory", kind: .software)
        }
        self.parameters = parameters
        parts = Array(repeating: nil, count: layout.count)
        // an encoder opened only for the stream's parameters (the AudioSpecificConfig every encoder writes alike)
        let template = try Encoder(codec: .aac(bitrate: bitrate), sampleRate: sampleRate, channels: channels, path: path, globalHeader: true)
        try LibAV.check(avcodec_parameters_from_context(parameters, template.context), path: path, "avcodec_parameters_from_context")
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&owned)
    }

    // MARK: - Parts

    /// The encoder of part `k`: it takes the frames `layout.input(k)`, in order. Parts may be
    /// encoded on different threads at once.
    public func partEncoder(_ k: Int) throws(AudioError) -> AACPartEncoder {
        let store = try AACPacketStore(name: path)
        let encoder = try AACPartEncoder(track: self, input: layout.input(k), store: store)
        lock.withLock { parts[k] = store }
        return encoder
    }

    /// After every part's encoder has finished: where each part takes over from the one before.
    public func joinParts() throws(AudioError) {
        var joins: [Int64] = []
        for k in 1..<max(1, layout.count) {
            guard let before = parts[k - 1], let after = parts[k] else { throw misuse("part \(k) was not encoded") }
            joins.append(try join(near: layout.boundaries[k], before, after))
        }
        partJoins = joins
    }

    // MARK: - Patches

    /// An encoder for a patch replacing the frames `span` (widened to whole packets): it takes
    /// the frames `encoder.input`, in order; `install` puts it in the track.
    public func patchEncoder(for span: Range<Int64>) throws(AudioError) -> AACPartEncoder {
        let packet = AACPartLayout.packetFrames
        let aligned = (span.lowerBound / packet * packet)..<((span.upperBound + packet - 1) / packet * packet)
        let input = AACPartLayout.input(around: aligned, totalFrames: layout.totalFrames)
        return try AACPartEncoder(track: self, input: input, store: try AACPacketStore(name: path), span: aligned)
    }

    /// Puts a finished patch in the track, from a join near its span's start to one near its
    /// end (or from the track's start, or to its end, where its input reaches them); returns the
    /// frames whose decoding may have changed.
    @discardableResult
    public func install(_ patch: AACPartEncoder) throws(AudioError) -> Range<Int64> {
        guard let span = patch.span else { throw misuse("a part is not a patch") }
        let current = Stream(self)
        let entry = patch.input.lowerBound == 0 ? Int64.min : try join(near: span.lowerBound, current, patch.store)
        let exit = patch.input.upperBound == layout.totalFrames ? Int64.max : try join(near: span.upperBound, patch.store, current)
        patches.append((entry..<exit, patch.store))
        return max(0, entry)..<min(layout.totalFrames, exit == Int64.max ? exit : exit + AACPartLayout.packetFrames)
    }

    // MARK: - Joins

    /// The first candidate near `boundary` at which the packet before has the same window in
    /// both `before` and `after`, else `boundary` itself.
    private func join(near boundary: Int64, _ before: some AACPackets, _ after: some AACPackets) throws(AudioError) -> Int64 {
        let candidates = AACPartLayout.joins(near: boundary)
        for q in candidates {
            let previous = q - AACPartLayout.packetFrames
            if let a = try Self.window(before, at: previous), try a == Self.window(after, at: previous) { return q }
        }
        unmatchedJoins += 1
        return boundary
    }

    private static func window(_ source: some AACPackets, at pts: Int64) throws(AudioError) -> AACWindow? {
        var found: AACWindow?
        try source.read(from: pts) { packet in
            if packet.pointee.pts == pts, let data = packet.pointee.data {
                found = AACWindow(packet: UnsafeRawBufferPointer(start: data, count: Int(packet.pointee.size)))
            }
            return false
        }
        return found
    }

    // MARK: - The track's packets, in order

    /// The packets the file will hold: each part between its joins, with the patches over them (the latest on top).
    private struct Stream: AACPackets {
        let track: AACTrack
        init(_ track: AACTrack) { self.track = track }

        func read(from pts: Int64, _ visit: (UnsafeMutablePointer<AVPacket>) throws(AudioError) -> Bool) throws(AudioError) {
            let bounds = (track.partJoins + track.patches.flatMap { [$0.span.lowerBound, $0.span.upperBound] }).sorted()
            var at = pts
            while true {
                let end = bounds.first { $0 > at } ?? Int64.max
                guard let store = track.store(at: at) else { return }
                var more = true
                var next = at
                try store.read(from: at) { (packet) throws(AudioError) -> Bool in
                    guard packet.pointee.pts < end else {
                        next = end
                        return false
                    }
                    more = try visit(packet)
                    next = packet.pointee.pts + AACPartLayout.packetFrames
                    return more
                }
                // a store that ended before `end` is the track's end
                guard more, next == end, end != Int64.max else { return }
                at = end
            }
        }
    }

    private func store(at pts: Int64) -> AACPacketStore? {
        if let patch = patches.last(where: { $0.span.contains(pts) }) { return patch.store }
        let k = partJoins.lastIndex { $0 <= pts }.map { $0 + 1 } ?? 0
        return parts[k]
    }

    // MARK: - Decoding

    /// Decodes the frames `range` of the track as the muxed file will decode (its edit list
    /// applied), handing blocks of interleaved floats (`Block.frames`, the last shorter) to
    /// `sink` until it returns false. Safe to call from several threads at once, once the
    /// parts are joined.
    public func decode(_ range: Range<Int64>, into sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Bool) throws(AudioError) {
        let range = range.clamped(to: 0..<layout.totalFrames)
        guard !range.isEmpty else { return }
        let packet = AACPartLayout.packetFrames
        // the packet before the first wanted one primes the decoder's overlap (the stream's first, its delay)
        let first = max(-packet, range.lowerBound / packet * packet - packet)
        var skip = Int(range.lowerBound - first)
        var wanted = range.count
        let decoder = try Decoder(parameters: parameters, timeBase: AVRational(num: 1, den: Int32(sampleRate)), path: path)
        guard let frame = av_frame_alloc() else {
            throw AudioError(file: path, operation: "av_frame_alloc", reason: "out of memory", kind: .software)
        }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&owned) }
        // decoded frames gather in `out` and go to the sink a block at a time (a packet at a time
        // cost the meter's per-call work and two clock reads 4 times as often)
        var out = [Float](repeating: 0, count: (Block.frames + Int(packet)) * channels)
        var filled = 0
        var clock = StageClock.threadNanoseconds()
        /// Hands the gathered frames to the sink; false when it wants no more.
        func hand() throws(AudioError) -> Bool {
            StageClock.shared.add(since: clock, to: .decode)
            defer { clock = StageClock.threadNanoseconds() }
            let n = filled
            filled = 0
            return try out.withUnsafeBufferPointer { (p) throws(AudioError) in try sink(UnsafeBufferPointer(rebasing: p[0..<(n * channels)]), n) }
        }
        func receive() throws(AudioError) -> Bool {
            while true {
                let status = avcodec_receive_frame(decoder.context, frame)
                if status == cadence_averror(EAGAIN) || status == cadence_averror_eof() { return wanted > 0 }
                try LibAV.check(status, path: path, "avcodec_receive_frame")
                let got = Int(frame.pointee.nb_samples)
                let dropped = min(skip, got)
                skip -= dropped
                let n = min(got - dropped, wanted)
                guard n > 0 else { continue }
                if out.count < (filled + n) * channels { out += [Float](repeating: 0, count: (filled + n) * channels - out.count) }
                try decoder.interleave(frame, from: dropped, frames: n, into: &out, at: filled)
                filled += n
                wanted -= n
                guard filled < Block.frames, wanted > 0 else {
                    guard try hand(), wanted > 0 else { return false }
                    continue
                }
            }
        }
        var more = true
        try Stream(self).read(from: first) { (packet) throws(AudioError) -> Bool in
            try LibAV.check(avcodec_send_packet(decoder.context, packet), path: path, "avcodec_send_packet")
            more = try receive()
            return more
        }
        if more {
            try LibAV.check(avcodec_send_packet(decoder.context, nil), path: path, "avcodec_send_packet")
            _ = try receive()
        }
        if filled > 0 { _ = try hand() } else { StageClock.shared.add(since: clock, to: .decode) }
    }

    // MARK: - The file

    /// Muxes the track's packets into an M4A on `fd` (`M4AWriter`: edit list, chapters, tags).
    public func mux(
        fileDescriptor fd: Int32, path: String, metadata: [(String, String)] = [], chapters: [M4AWriter.Chapter] = []
    ) throws(AudioError) {
        let writer = try M4AWriter(
            fileDescriptor: fd, path: path, codec: .aac(bitrate: bitrate), sampleRate: sampleRate, channels: channels,
            totalFrames: layout.totalFrames, metadata: metadata, chapters: chapters)
        try Stream(self).read(from: Int64.min) { (packet) throws(AudioError) -> Bool in
            try writer.writeEncoded(packet)
            return true
        }
        try writer.finish()
    }

    private func misuse(_ why: String) -> AudioError {
        AudioError(file: path, operation: "AAC track", reason: why, kind: .software)
    }
}

/// Something AAC packets can be read from by timestamp: a store, or a track as it stands.
protocol AACPackets {
    func read(from pts: Int64, _ visit: (UnsafeMutablePointer<AVPacket>) throws(AudioError) -> Bool) throws(AudioError)
}

extension AACPacketStore: AACPackets {}

/// Encodes one part of an `AACTrack`, or a patch, with an AAC encoder of its own: it takes
/// the frames `input` in order, as interleaved floats, and keeps the packets in a scratch file.
public final class AACPartEncoder {
    /// The frames this encoder takes.
    public let input: Range<Int64>
    /// A patch's frames to replace (whole packets, and the joins around them); nil for a part.
    public let span: Range<Int64>?
    let store: AACPacketStore
    private let packets: PacketEncoder
    private let channels: Int
    private let path: String
    /// The encoder is drained at the end of the track (its last packets say how long they are).
    private let reachesEnd: Bool
    private var finished = false

    fileprivate init(track: AACTrack, input: Range<Int64>, store: AACPacketStore, span: Range<Int64>? = nil) throws(AudioError) {
        self.input = input
        self.span = span
        self.store = store
        channels = track.channels
        path = track.path
        reachesEnd = input.upperBound == track.layout.totalFrames
        let encoder = try Encoder(
            codec: .aac(bitrate: track.bitrate), sampleRate: track.sampleRate, channels: track.channels, path: track.path, globalHeader: true)
        packets = try PacketEncoder(encoder: encoder, start: input.lowerBound, path: track.path) { (packet) throws(AudioError) in
            try store.append(packet)
        }
    }

    /// Encodes the next `frames` interleaved frames of `input`.
    public func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        guard !finished, packets.fed + Int64(frames) <= Int64(input.count) else {
            throw AudioError(file: path, operation: "AAC encode", reason: "more frames than the part's \(input.count)", kind: .software)
        }
        try StageClock.shared.time(.encode) { () throws(AudioError) in try packets.feed(samples, frames: frames, channels: channels) }
    }

    /// After the last frame of `input`: encodes what is left (draining the encoder at the
    /// track's end); the packets are then the part's.
    public func finish() throws(AudioError) {
        guard !finished else { return }
        guard packets.fed == Int64(input.count) else {
            throw AudioError(file: path, operation: "AAC encode", reason: "got \(packets.fed) of \(input.count) frames", kind: .software)
        }
        finished = true
        try StageClock.shared.time(.encode) { () throws(AudioError) in try packets.flush(drain: reachesEnd) }
    }
}
