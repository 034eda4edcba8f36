import AudioCore
import CAV
import Foundation

/// One encoder's AAC packets, in timestamp order, in an unnamed scratch file: a part of a
/// track waits there until it is joined, patched and muxed (`AACTrack`), so memory does not
/// grow with the track.
///
/// Each record is the packet's timestamp, duration, flags and size, then its bytes. Every
/// `indexStride`-th packet's offset is kept in memory, so reading from a timestamp starts
/// close to it.
final class AACPacketStore: @unchecked Sendable {
    private let file: ScratchFile
    private let name: String
    private var length: Int64 = 0
    private(set) var count = 0
    /// (timestamp, offset) of every `indexStride`-th packet.
    private var index: [(pts: Int64, offset: Int64)] = []
    private(set) var firstPTS: Int64?
    private(set) var lastPTS: Int64?
    static let indexStride = 256
    private static let headerSize = 24

    init(name: String) throws(AudioError) {
        self.name = name
        file = try ScratchFile(channels: 1, name: name)
    }

    /// Appends `packet` (its timestamps in 1/rate); packets come in timestamp order.
    func append(_ packet: UnsafePointer<AVPacket>) throws(AudioError) {
        let size = Int(packet.pointee.size)
        if count % Self.indexStride == 0 { index.append((packet.pointee.pts, length)) }
        var header = [UInt8](repeating: 0, count: Self.headerSize)
        header.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: packet.pointee.pts.littleEndian, toByteOffset: 0, as: Int64.self)
            raw.storeBytes(of: packet.pointee.duration.littleEndian, toByteOffset: 8, as: Int64.self)
            raw.storeBytes(of: packet.pointee.flags.littleEndian, toByteOffset: 16, as: Int32.self)
            raw.storeBytes(of: Int32(size).littleEndian, toByteOffset: 20, as: Int32.self)
        }
        try write(header)
        if size > 0, let data = packet.pointee.data { try write(UnsafeRawBufferPointer(start: data, count: size)) }
        firstPTS = firstPTS ?? packet.pointee.pts
        lastPTS = packet.pointee.pts
        count += 1
    }

    private func write(_ bytes: [UInt8]) throws(AudioError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(AudioError) in try write(raw) } }
        try result.get()
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws(AudioError) {
        var done = 0
        while done < bytes.count {
            let n = pwrite(file.fileDescriptor, bytes.baseAddress?.advanced(by: done), bytes.count - done, off_t(length) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicOutputFile.writeError(path: name, operation: "write (scratch file)", errno)
            }
            done += n
        }
        length += Int64(bytes.count)
    }

    /// Reads packets from the first with timestamp ≥ `pts` on, handing each to `visit` (the
    /// packet is only valid during the call) until it returns false or the packets end.
    func read(from pts: Int64, _ visit: (UnsafeMutablePointer<AVPacket>) throws(AudioError) -> Bool) throws(AudioError) {
        var offset = index.last(where: { $0.pts <= pts })?.offset ?? 0
        guard let packet = av_packet_alloc() else { throw Self.outOfMemory(name) }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        var header = [UInt8](repeating: 0, count: Self.headerSize)
        while offset < length {
            try read(into: &header, at: offset)
            let (timestamp, duration, flags, size) = header.withUnsafeBytes { raw in
                (
                    Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: Int64.self)),
                    Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)),
                    Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: Int32.self)),
                    Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 20, as: Int32.self)))
                )
            }
            offset += Int64(Self.headerSize)
            defer { offset += Int64(size) }
            guard timestamp >= pts else { continue }
            av_packet_unref(packet)
            try LibAV.check(av_new_packet(packet, Int32(size)), path: name, "av_new_packet")
            if size > 0 { try read(into: UnsafeMutableRawBufferPointer(start: packet.pointee.data, count: size), at: offset) }
            packet.pointee.pts = timestamp
            packet.pointee.dts = timestamp
            packet.pointee.duration = duration
            packet.pointee.flags = flags
            guard try visit(packet) else { return }
        }
    }

    private func read(into bytes: inout [UInt8], at offset: Int64) throws(AudioError) {
        let result = bytes.withUnsafeMutableBytes { raw in Result { () throws(AudioError) in try read(into: raw, at: offset) } }
        try result.get()
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
