import AudioCore
import CAV
import Foundation

/// One encoder's AAC packets, in timestamp order, in an unnamed scratch file: a part of a
/// track waits there until it is joined, patched and muxed (`AACTrack`), so memory does not
/// grow with the track.
///
/// Each record is the packet's timestamp, duration, flags and size, then its bytes. Every
/// `indexStride`-th packet's offset is kept in memory, so reading from a timestamp starts
/// close to it. Records are written `bufferSize` bytes at a time and read a chunk at a time:
/// one system call per packet each way cost an hour of AAC about 2 s of CPU (1.4 million
/// calls; `docs/performance.md`).
final class AACPacketStore: @unchecked Sendable {
    private let file: ScratchFile
    private let name: String
    /// Bytes in the file, and bytes appended after them not written yet.
    private var written: Int64 = 0
    private var pending: [UInt8] = []
    private let lock = NSLock()
    private(set) var count = 0
    /// (timestamp, offset) of every `indexStride`-th packet.
    private var index: [(pts: Int64, offset: Int64)] = []
    private(set) var firstPTS: Int64?
    private(set) var lastPTS: Int64?
    static let indexStride = 256
    private static let headerSize = 24
    /// Appended records are written in pieces of about this size; reads fetch this much at a time.
    static let bufferSize = 1 << 16

    init(name: String) throws(AudioError) {
        self.name = name
        file = try ScratchFile(channels: 1, name: name)
        pending.reserveCapacity(Self.bufferSize + 2 * Self.headerSize)
    }

    /// Appends `packet` (its timestamps in 1/rate); packets come in timestamp order, from one thread.
    func append(_ packet: UnsafePointer<AVPacket>) throws(AudioError) {
        let size = Int(packet.pointee.size)
        if count % Self.indexStride == 0 { index.append((packet.pointee.pts, written + Int64(pending.count))) }
        var header: (Int64, Int64, Int32, Int32) = (
            packet.pointee.pts.littleEndian, packet.pointee.duration.littleEndian, packet.pointee.flags.littleEndian, Int32(size).littleEndian
        )
        withUnsafeBytes(of: &header) { pending.append(contentsOf: $0) }
        if size > 0, let data = packet.pointee.data { pending.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size)) }
        firstPTS = firstPTS ?? packet.pointee.pts
        lastPTS = packet.pointee.pts
        count += 1
        if pending.count >= Self.bufferSize { try flush() }
    }

    /// Writes the records appended since the last flush.
    private func flush() throws(AudioError) {
        guard !pending.isEmpty else { return }
        let result = pending.withUnsafeBytes { raw in Result { () throws(AudioError) in try write(raw, at: written) } }
        try result.get()
        written += Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(AudioError) {
        var done = 0
        while done < bytes.count {
            let n = pwrite(file.fileDescriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicOutputFile.writeError(path: name, operation: "write (scratch file)", errno)
            }
            done += n
        }
    }

    /// Reads packets from the first with timestamp ≥ `pts` on, handing each to `visit` (the
    /// packet is only valid during the call) until it returns false or the packets end.
    /// Several threads may read at once, once the packets are all appended.
    func read(from pts: Int64, _ visit: (UnsafeMutablePointer<AVPacket>) throws(AudioError) -> Bool) throws(AudioError) {
        lock.lock()
        let flushed = Result { () throws(AudioError) in try flush() }
        let length = written
        lock.unlock()
        try flushed.get()
        var offset = index.last(where: { $0.pts <= pts })?.offset ?? 0
        guard let packet = av_packet_alloc() else { throw Self.outOfMemory(name) }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        var chunk = Chunk(capacity: Self.bufferSize)
        defer { chunk.buffer.deallocate() }
        while offset < length {
            let header = try chunk.bytes(Self.headerSize, at: offset, length: length, store: self)
            let (timestamp, duration, flags, size) = (
                Int64(littleEndian: header.loadUnaligned(fromByteOffset: 0, as: Int64.self)),
                Int64(littleEndian: header.loadUnaligned(fromByteOffset: 8, as: Int64.self)),
                Int32(littleEndian: header.loadUnaligned(fromByteOffset: 16, as: Int32.self)),
                Int(Int32(littleEndian: header.loadUnaligned(fromByteOffset: 20, as: Int32.self)))
            )
            offset += Int64(Self.headerSize)
            defer { offset += Int64(size) }
            guard timestamp >= pts else { continue }
            av_packet_unref(packet)
            try LibAV.check(av_new_packet(packet, Int32(size)), path: name, "av_new_packet")
            if size > 0, let data = packet.pointee.data,
                let bytes = try chunk.bytes(size, at: offset, length: length, store: self).baseAddress
            {
                UnsafeMutableRawPointer(data).copyMemory(from: bytes, byteCount: size)
            }
            packet.pointee.pts = timestamp
            packet.pointee.dts = timestamp
            packet.pointee.duration = duration
            packet.pointee.flags = flags
            guard try visit(packet) else { return }
        }
    }

    /// A window on the file a reader holds: the bytes from `start`, read ahead.
    private struct Chunk {
        var buffer: UnsafeMutableRawBufferPointer
        var start: Int64 = 0
        var count = 0

        init(capacity: Int) { buffer = .allocate(byteCount: capacity, alignment: 8) }

        /// `size` bytes at `offset` (of a file of `length` bytes), valid until the next call.
        mutating func bytes(_ size: Int, at offset: Int64, length: Int64, store: AACPacketStore) throws(AudioError) -> UnsafeRawBufferPointer {
            if offset < start || offset + Int64(size) > start + Int64(count) {
                if size > buffer.count {
                    buffer.deallocate()
                    buffer = .allocate(byteCount: size, alignment: 8)
                }
                let n = Int(min(Int64(buffer.count), length - offset))
                guard n >= size else { throw store.endsEarly() }
                try store.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]), at: offset)
                (start, count) = (offset, n)
            }
            let from = Int(offset - start)
            return UnsafeRawBufferPointer(rebasing: buffer[from..<(from + size)])
        }
    }

    private func endsEarly() -> AudioError {
        AudioError(file: name, operation: "read (scratch file)", reason: "ends early", kind: .software)
    }

    private func read(into bytes: UnsafeMutableRawBufferPointer, at offset: Int64) throws(AudioError) {
        var done = 0
        while done < bytes.count {
            let n = pread(file.fileDescriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw AudioError(
                    file: name, operation: "read (scratch file)", reason: n < 0 ? String(cString: strerror(errno)) : "ends early", kind: .software)
            }
            done += n
        }
    }

    private static func outOfMemory(_ name: String) -> AudioError {
        AudioError(file: name, operation: "av_packet_alloc", reason: "out of memory", kind: .software)
    }
}
