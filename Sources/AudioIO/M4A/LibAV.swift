import AudioCore
import CAV
import Glibc

/// libav's error codes in our words: `av_strerror`'s text, and the kind of failure
/// (a full disk or quota is `cannotCreate`, like every other writer's).
enum LibAV {
    /// libav prints warnings and statistics to stderr (the ipod muxer's note on the file's
    /// extension, the AAC encoder's "Qavg"); every failure reaches the user as our own error
    /// instead, so its log is silenced once, before the first context is made.
    static let quiet: Void = av_log_set_level(AV_LOG_QUIET)

    static func text(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The error for a libav call that returned `code` (< 0).
    static func error(_ code: Int32, path: String, operation: String) -> AudioError {
        let posix = -code
        if posix > 0, AtomicOutputFile.meansNoRoom(posix) { return AtomicOutputFile.writeError(path: path, operation: operation, posix) }
        return AudioError(file: path, operation: operation, reason: text(code), kind: .software)
    }

    /// Throws for a negative `code`.
    static func check(_ code: Int32, path: String, _ operation: String) throws(AudioError) {
        if code < 0 { throw error(code, path: path, operation: operation) }
    }
}

/// The output side of an `AVIOContext`: positioned reads and writes on a descriptor the
/// caller owns, so that libavformat writes into the renderer's unnamed temporary file
/// (`AtomicOutputFile`) and never opens a path of its own. It reads too: the mov muxer
/// reads the file back to move the `moov` box to the front (`+faststart`).
final class DescriptorIO {
    let descriptor: Int32
    private(set) var position: Int64 = 0
    /// The first failure of a write (errno), for the message: libav only passes the code on.
    private(set) var failure: Int32 = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    func write(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int32 {
        var done = 0
        while done < count {
            let n = pwrite(descriptor, bytes + done, count - done, off_t(position) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return cadence_averror(errno)
            }
            done += n
        }
        position += Int64(count)
        return Int32(count)
    }

    func read(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
        while true {
            let n = pread(descriptor, bytes, count, off_t(position))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return cadence_averror(errno) }
            if n == 0 { return cadence_averror_eof() }
            position += Int64(n)
            return Int32(n)
        }
    }

    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return Int64(cadence_averror(errno)) }
        let size = Int64(info.st_size)
        if whence & cadence_avseek_size() != 0 { return size }
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: position = offset
        case SEEK_CUR: position += offset
        case SEEK_END: position = size + offset
        default: return Int64(cadence_averror(EINVAL))
        }
        return position
    }

    /// An `AVIOContext` over this descriptor (`writable`: also writes); its opaque pointer
    /// holds this object until `close(_:)`.
    func makeContext(writable: Bool) -> UnsafeMutablePointer<AVIOContext>? {
        let size = 1 << 16
        guard let buffer = av_malloc(size)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let opaque = Unmanaged.passRetained(self).toOpaque()
        // libavformat always passes the opaque pointer given here and a buffer; a null one is EINVAL
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
            guard let opaque, let bytes else { return cadence_averror(EINVAL) }
            return Unmanaged<DescriptorIO>.fromOpaque(opaque).takeUnretainedValue().read(bytes, count: Int(count))
        }
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
            guard let opaque, let bytes else { return cadence_averror(EINVAL) }
            return Unmanaged<DescriptorIO>.fromOpaque(opaque).takeUnretainedValue().write(bytes, count: Int(count))
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            guard let opaque else { return Int64(cadence_averror(EINVAL)) }
            return Unmanaged<DescriptorIO>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
        }
        guard let context = avio_alloc_context(buffer, Int32(size), writable ? 1 : 0, opaque, read, writable ? write : nil, seek) else {
            Unmanaged<DescriptorIO>.fromOpaque(opaque).release()
            av_free(buffer)
            return nil
        }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        return context
    }

    /// Frees a context made by `makeContext` (its buffer, and the hold on its `DescriptorIO`).
    static func close(_ context: UnsafeMutablePointer<AVIOContext>?) {
        guard let context else { return }
        if let opaque = context.pointee.opaque { Unmanaged<DescriptorIO>.fromOpaque(opaque).release() }
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }
}
