import AudioCore
import CVorbis
import Glibc

/// Writes Ogg Opus: libopus through libsndfile, then the Ogg pages again with a stream serial
/// the caller chooses and an `OpusTags` header holding the tags and the chapters.
///
/// libsndfile takes the Ogg stream serial from the clock, so two encodes of the same samples
/// differ. Here libsndfile encodes into a scratch file beside the output, and `finish()` copies
/// its pages to the output with libogg: the `OpusHead` page and every audio page keep their
/// bytes, granule positions and layout, only their serial (and, after a longer `OpusTags`,
/// their sequence number) and so their CRC change; the `OpusTags` packet is written again
/// with libsndfile's vendor string and the comments given (`TITLE`, `ALBUM`, `COMMENT`, then
/// `CHAPTER001=00:00:00.000`, `CHAPTER001NAME=…`, as Ogg Vorbis and FLAC carry them), on pages
/// of its own as RFC 7845 requires. The samples, pre-skip and end trimming are libsndfile's:
/// the same decode in every player, the same bytes on every run.
public final class OggOpusWriter {
    public let path: String
    private let fileDescriptor: Int32
    private let serial: Int32
    private let comments: [(String, String)]
    private let scratch: ScratchFile
    private let encoder: SoundFileWriter
    private var finished = false

    /// Opens libopus (through libsndfile) on a scratch file; `fd` receives the stream at `finish()`.
    public init(
        fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int, bitrate: Int?, serial: Int32, comments: [(String, String)]
    ) throws(AudioError) {
        for (name, value) in comments where !Self.isValidTagName(name) || value.utf8.contains(0) {
            throw AudioError(file: path, operation: "OpusTags", reason: "invalid tag name \(name.debugDescription) or value", kind: .software)
        }
        self.path = path
        self.fileDescriptor = fd
        self.serial = serial
        self.comments = comments
        scratch = try ScratchFile(channels: channels, name: path, folder: PathName.directory(of: path))
        encoder = try SoundFileWriter(
            fileDescriptor: scratch.fileDescriptor, path: path, format: .opus, sampleRate: sampleRate, channels: channels, bitrate: bitrate)
    }

    /// A Vorbis comment field name: printable ASCII except `=`, not empty.
    static func isValidTagName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (0x20...0x7D).contains($0) && $0 != 0x3D }
    }

    /// Encodes `frames` frames of interleaved floats.
    public func write(_ samples: UnsafeBufferPointer<Float>, frames: Int) throws(AudioError) {
        try encoder.write(samples, frames: frames)
    }

    /// Completes libsndfile's stream, then writes its pages to the output with the serial and the tags.
    public func finish() throws(AudioError) {
        guard !finished else { return }
        finished = true
        try encoder.finish()
        try Repaginator(writer: self).run()
    }

    // MARK: - Pages

    /// One pass over the scratch file's pages, in order.
    private struct Repaginator: ~Copyable {
        let writer: OggOpusWriter
        let sync = UnsafeMutablePointer<ogg_sync_state>.allocate(capacity: 1)
        let reader = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
        let tags = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)

        init(writer: OggOpusWriter) {
            self.writer = writer
            ogg_sync_init(sync)
            ogg_stream_init(reader, 0)
            ogg_stream_init(tags, writer.serial)
        }

        deinit {
            ogg_stream_clear(tags)
            ogg_stream_clear(reader)
            ogg_sync_clear(sync)
            tags.deallocate()
            reader.deallocate()
            sync.deallocate()
        }

        private enum Stage { case head, tags, audio }

        func run() throws(AudioError) {
            let source = writer.scratch.fileDescriptor
            var offset: off_t = 0
            var stage = Stage.head
            var originalSerial: Int32 = 0
            var shift = 0  // new OpusTags pages minus old ones
            var page = ogg_page()
            while true {
                let status = ogg_sync_pageout(sync, &page)
                if status < 0 { throw malformed("the stream lost its page sync") }
                if status == 0 {
                    let size = 1 << 16
                    guard let buffer = ogg_sync_buffer(sync, size) else { throw malformed("ogg_sync_buffer failed") }
                    var n: Int
                    repeat { n = pread(source, buffer, size, offset) } while n < 0 && errno == EINTR
                    guard n >= 0 else { throw writer.failure("pread (scratch file)", errno) }
                    if n == 0 { break }
                    ogg_sync_wrote(sync, n)
                    offset += off_t(n)
                    continue
                }
                switch stage {
                case .head:
                    guard ogg_page_bos(&page) != 0, hasPrefix(page.body, Int(page.body_len), "OpusHead") else {
                        throw malformed("the first page is not an OpusHead page")
                    }
                    originalSerial = ogg_page_serialno(&page)
                    ogg_stream_reset_serialno(reader, originalSerial)
                    try emit(&page, sequence: 0)
                    stage = .tags
                case .tags:
                    guard ogg_page_serialno(&page) == originalSerial else { throw malformed("a second logical stream") }
                    guard ogg_stream_pagein(reader, &page) == 0 else { throw malformed("libogg refused a header page") }
                    shift -= 1
                    var packet = ogg_packet()
                    guard ogg_stream_packetout(reader, &packet) == 1 else { continue }
                    guard let data = packet.packet, hasPrefix(data, packet.bytes, "OpusTags"),
                        let vendor = Self.vendor(of: UnsafeBufferPointer(start: data, count: packet.bytes))
                    else { throw malformed("the second packet is not OpusTags") }
                    var after = ogg_packet()
                    guard ogg_stream_packetout(reader, &after) == 0 else { throw malformed("audio shares the OpusTags page") }
                    shift += try writeTags(vendor: vendor)
                    stage = .audio
                case .audio:
                    guard ogg_page_serialno(&page) == originalSerial else { throw malformed("a second logical stream") }
                    try emit(&page, sequence: Int(ogg_page_pageno(&page)) + shift)
                }
            }
            guard stage == .audio, ogg_sync_check(sync) == 0 else { throw malformed("the stream ends inside its headers") }
        }

        /// Writes the `OpusTags` packet on pages of its own (numbered from 1); returns how many.
        private func writeTags(vendor: [UInt8]) throws(AudioError) -> Int {
            var body = Array("OpusTags".utf8) + Self.le32(vendor.count) + vendor + Self.le32(writer.comments.count)
            for (name, value) in writer.comments {
                let field = Array((name + "=" + value).utf8)
                body += Self.le32(field.count) + field
            }
            // the OpusHead page went out unchanged: continue after it, not as a second first page
            tags.pointee.b_o_s = 1
            tags.pointee.pageno = 1
            var count = 0
            try body.withUnsafeMutableBufferPointer { (bytes) throws(AudioError) in
                var packet = ogg_packet()
                packet.packet = bytes.baseAddress
                packet.bytes = bytes.count
                packet.granulepos = 0
                packet.packetno = 1
                guard ogg_stream_packetin(tags, &packet) == 0 else { throw malformed("libogg refused the OpusTags packet") }
                var page = ogg_page()
                while ogg_stream_flush(tags, &page) != 0 {
                    try writer.writeAll(page.header, page.header_len)
                    try writer.writeAll(page.body, page.body_len)
                    count += 1
                }
            }
            return count
        }

        /// Writes `page` with the chosen serial and `sequence`, its CRC computed again.
        private func emit(_ page: inout ogg_page, sequence: Int) throws(AudioError) {
            guard let header = page.header, page.header_len >= 27 else { throw malformed("a page header is short") }
            let serial = UInt32(bitPattern: writer.serial)
            for k in 0..<4 {
                header[14 + k] = UInt8(truncatingIfNeeded: serial >> (8 * UInt32(k)))
                header[18 + k] = UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: sequence) >> (8 * UInt32(k)))
            }
            ogg_page_checksum_set(&page)
            try writer.writeAll(page.header, page.header_len)
            try writer.writeAll(page.body, page.body_len)
        }

        /// The vendor string of an `OpusTags` packet.
        static func vendor(of packet: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            guard packet.count >= 12 else { return nil }
            let length = Int(packet[8]) | Int(packet[9]) << 8 | Int(packet[10]) << 16 | Int(packet[11]) << 24
            guard length <= packet.count - 12 else { return nil }
            return Array(packet[12..<(12 + length)])
        }

        static func le32(_ n: Int) -> [UInt8] {
            (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) }
        }

        private func hasPrefix(_ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int, _ prefix: String) -> Bool {
            guard let bytes else { return false }
            let p = Array(prefix.utf8)
            return count >= p.count && (0..<p.count).allSatisfy { bytes[$0] == p[$0] }
        }

        private func malformed(_ why: String) -> AudioError {
            AudioError(file: writer.path, operation: "Ogg Opus pages", reason: "libsndfile's stream: \(why)", kind: .software)
        }
    }

    fileprivate func writeAll(_ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int) throws(AudioError) {
        guard let bytes else { return }
        try AtomicOutputFile.writeAll(UnsafeRawBufferPointer(start: bytes, count: count), to: fileDescriptor, path: path)
    }

    fileprivate func failure(_ operation: String, _ code: Int32) -> AudioError {
        AtomicOutputFile.writeError(path: path, operation: operation, code)
    }
}
