import AudioCore
import CAV
import Foundation

/// Decodes the packets an `M4AWriter` muxes, while it muxes them, and hands the decoded
/// track to a sink: the lossy check of an M4A without reading the file back afterwards.
///
/// The decoder is the one the file's reader opens (`M4AReader`), fed the very packets the
/// muxer writes, so what reaches the sink is what decoding the file gives: the encoder's
/// delay (`initial_padding`, which the file's edit list skips) is dropped, and decoding
/// stops at the track's frames (the edit list's duration), before the trailing padding.
///
/// Threaded, the packets cross to a thread of its own through a ring of `depth` packet
/// references (`av_packet_ref`: the encoder's buffers are shared, not copied), so decoding
/// and metering run beside the encoder: an hour of AAC is about 170,000 packets, and the
/// encoder, the slowest stage of an M4A render, does not wait for them. Unthreaded, each
/// packet is decoded when it is written. Memory is the ring, allocated once.
public final class M4AMonitor: @unchecked Sendable {
    /// Receives interleaved decoded frames (on the monitor's thread when threaded).
    public typealias Sink = (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void

    /// Packets queued at most (about 11 s of 48 kHz AAC).
    static let depth = 512

    private let path: String
    private let sink: Sink
    private let decoder: Decoder
    private let frame: UnsafeMutablePointer<AVFrame>
    private var out: [Float] = []
    /// Frames of encoder delay still to drop.
    private var skip: Int
    /// Frames of the track still to hand on.
    private var wanted: Int64
    /// Frames handed to the sink.
    private(set) var decoded: Int64 = 0

    // The ring (threaded only); the condition guards head, filled, ended, stopped and failure.
    private let ring: [UnsafeMutablePointer<AVPacket>]
    private var head = 0
    private var filled = 0
    private var ended = false
    private var stopped = false
    private var failure: AudioError?
    private let condition = NSCondition()

    /// A monitor of the encoder `context` (opened) for a track of `totalFrames`, handing frames to `sink`.
    init(encoder context: UnsafeMutablePointer<AVCodecContext>, totalFrames: Int64, threaded: Bool, path: String, sink: @escaping Sink)
        throws(AudioError)
    {
        self.path = path
        self.sink = sink
        skip = Int(context.pointee.initial_padding)
        wanted = totalFrames
        guard let parameters = avcodec_parameters_alloc() else { throw Self.outOfMemory(path) }
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        defer { avcodec_parameters_free(&owned) }
        try LibAV.check(avcodec_parameters_from_context(parameters, context), path: path, "avcodec_parameters_from_context")
        decoder = try Decoder(parameters: parameters, timeBase: context.pointee.time_base, path: path)
        guard let frame = av_frame_alloc() else { throw Self.outOfMemory(path) }
        self.frame = frame
        var slots: [UnsafeMutablePointer<AVPacket>] = []
        if threaded {
            for _ in 0..<Self.depth {
                guard let packet = av_packet_alloc() else {
                    for var made in slots as [UnsafeMutablePointer<AVPacket>?] { av_packet_free(&made) }
                    var owned: UnsafeMutablePointer<AVFrame>? = frame
                    av_frame_free(&owned)
                    throw Self.outOfMemory(path)
                }
                slots.append(packet)
            }
        }
        ring = slots
        if threaded {
            let thread = Thread { [self] in run() }
            thread.name = "cadence-m4a-monitor"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    // the thread holds the monitor until it ends: `close` (the writer's deinit) ends it when `finish` was never called
    deinit {
        for var packet in ring as [UnsafeMutablePointer<AVPacket>?] { av_packet_free(&packet) }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
    }

    /// Takes a packet the encoder gave, before the muxer takes it over (the buffer is shared).
    func add(_ packet: UnsafeMutablePointer<AVPacket>) throws(AudioError) {
        guard !ring.isEmpty else { return try decode(packet) }
        condition.lock()
        defer { condition.unlock() }
        while filled == ring.count && !stopped { condition.wait() }
        if stopped { throw failure ?? Self.stoppedEarly(path) }
        let slot = ring[(head + filled) % ring.count]
        try LibAV.check(av_packet_ref(slot, packet), path: path, "av_packet_ref")
        filled += 1
        condition.broadcast()
    }

    /// After the encoder's last packet: decodes what is queued and flushes the decoder;
    /// returns the frames handed to the sink, or throws the first failure (the sink's too).
    func finish() throws(AudioError) -> Int64 {
        if ring.isEmpty {
            try flush()
        } else {
            endAndWait()
            if let failure { throw failure }
        }
        return decoded
    }

    // MARK: - The monitor's thread

    private func run() {
        var failed: AudioError?
        while true {
            condition.lock()
            while filled == 0 && !ended { condition.wait() }
            guard filled > 0 else {
                condition.unlock()
                break
            }
            let packet = ring[head]
            condition.unlock()
            do throws(AudioError) {
                try decode(packet)
            } catch {
                failed = error
            }
            av_packet_unref(packet)
            condition.lock()
            head = (head + 1) % ring.count
            filled -= 1
            condition.broadcast()
            condition.unlock()
            if failed != nil { break }
        }
        if failed == nil {
            do throws(AudioError) { try flush() } catch { failed = error }
        }
        condition.lock()
        failure = failed
        // packets a failed decode left queued go back (the producer is told by `stopped`)
        while filled > 0 {
            av_packet_unref(ring[head])
            head = (head + 1) % ring.count
            filled -= 1
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the thread (what is queued is still decoded) and waits for it; again, it returns at once.
    func close() {
        guard !ring.isEmpty else { return }
        endAndWait()
    }

    private func endAndWait() {
        condition.lock()
        ended = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    // MARK: - Decoding

    private func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws(AudioError) {
        try StageClock.shared.time(.decode) { () throws(AudioError) in
            try LibAV.check(avcodec_send_packet(decoder.context, packet), path: path, "avcodec_send_packet")
        }
        try receive()
    }

    private func flush() throws(AudioError) {
        try LibAV.check(avcodec_send_packet(decoder.context, nil), path: path, "avcodec_send_packet")
        try receive()
    }

    /// Hands every frame the decoder has ready on, past the delay and up to the track's end.
    private func receive() throws(AudioError) {
        while true {
            let status = StageClock.shared.time(.decode) { avcodec_receive_frame(decoder.context, frame) }
            if status == cadence_averror(EAGAIN) || status == cadence_averror_eof() { return }
            try LibAV.check(status, path: path, "avcodec_receive_frame")
            let got = Int(frame.pointee.nb_samples)
            let dropped = min(skip, got)
            skip -= dropped
            let n = Int(min(Int64(got - dropped), wanted))
            guard n > 0 else { continue }
            if out.count < n * decoder.channels { out = [Float](repeating: 0, count: n * decoder.channels) }
            try decoder.interleave(frame, from: dropped, frames: n, into: &out)
            wanted -= Int64(n)
            decoded += Int64(n)
            try out.withUnsafeBufferPointer { (p) throws(AudioError) in try sink(p, n) }
        }
    }

    private static func outOfMemory(_ path: String) -> AudioError {
        AudioError(file: path, operation: "M4A monitor", reason: "out of memory", kind: .software)
    }

    private static func stoppedEarly(_ path: String) -> AudioError {
        AudioError(file: path, operation: "M4A monitor", reason: "the monitor's thread stopped", kind: .software)
    }
}
