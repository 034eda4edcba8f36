import AudioCore
import Glibc

/// The explicit-delay layout of an AAC track in a finished M4A: every packet 1024 frames long
/// (one `stts` entry), the edit list cutting the encoder delay at the start and the padding at
/// the end, and the same figures in an `iTunSMPB` tag.
///
/// FFmpeg 5.1's encoder gives the last packet a shortened duration (512, 384…) so that the
/// media ends at the edit's end. Media3/ExoPlayer trims (media duration − edit end) frames
/// at the end, which is then 0: Android played up to 1023 frames of padding past the cue
/// sheet's end. With whole packets the media runs on to the last packet's end, and every
/// player that reads the edit list (AVFoundation, Media3) stops at `frames`; the `sgpd`/`sbgp`
/// roll groups the muxer writes are untouched. Older Apple tools and some players read only
/// `iTunSMPB`.
///
/// The muxer cannot write either, so `M4AWriter` has it write the track with whole packets and
/// a placeholder `©lyr` tag of exactly the size of the `iTunSMPB` tag, and `apply` then
/// rewrites, in place, what the muxer counted from whole packets: the sound track's edit
/// duration and `tkhd` duration and the `mvhd` duration, in the movie timescale (the sample
/// rate), back to `frames`; and the placeholder into the `----` tag. Nothing moves, so the
/// chunk offsets stay right.
enum AACGapless {
    /// The iTunes tag `----` (mean `com.apple.iTunes`, name `iTunSMPB`) with these figures: the
    /// standard text of 12 hexadecimal fields, the 2nd the delay, the 3rd the padding, the 4th
    /// (64-bit) the frames.
    static func smpbText(delay: Int64, padding: Int64, frames: Int64) -> String {
        func hex(_ value: Int64, _ digits: Int) -> String {
            let text = String(UInt64(max(0, value)), radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return " 00000000 \(hex(delay, 8)) \(hex(padding, 8)) \(hex(frames, 16))" + String(repeating: " 00000000", count: 8)
    }

    /// Characters of `smpbText` (always 116).
    static let smpbLength = 116

    /// The `----` box of the tag: its size is 72 + 116 bytes.
    static func smpbBox(delay: Int64, padding: Int64, frames: Int64) -> [UInt8] {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(UInt32(8 + body.count)) + Array(type.utf8) + body }
        let mean = box("mean", be32(0) + Array("com.apple.iTunes".utf8))
        let name = box("name", be32(0) + Array("iTunSMPB".utf8))
        let data = box("data", be32(1) + be32(0) + Array(smpbText(delay: delay, padding: padding, frames: frames).utf8))
        return box("----", mean + name + data)
    }

    /// The libavformat tag whose box (`©lyr`, 24 bytes + its text) takes the place of the
    /// `----` box, and its text: a box of the same size.
    static let placeholderKey = "lyrics"
    static let placeholder = String(repeating: "~", count: 72 + smpbLength - 24)

    /// Rewrites the finished M4A on `fd` as the type says, for an AAC track of `frames` frames
    /// (its `mdhd` duration, whole packets, and edit list media time, the delay, are read from the file).
    static func apply(fileDescriptor fd: Int32, path: String, frames: Int64) throws(AudioError) {
        let file = try Boxes(fd: fd, path: path)
        guard let moov = file.top.first(where: { $0.type == "moov" }) else { throw file.malformed("no moov box") }
        let inMoov = try file.children(moov)
        guard let mvhd = inMoov.first(where: { $0.type == "mvhd" }) else { throw file.malformed("no mvhd box") }
        var longest = frames
        var sound: (tkhd: Box, elst: Box, mdhd: Box)?
        for trak in inMoov where trak.type == "trak" {
            let inTrak = try file.children(trak)
            guard let tkhd = inTrak.first(where: { $0.type == "tkhd" }) else { throw file.malformed("a trak without tkhd") }
            guard let mdia = inTrak.first(where: { $0.type == "mdia" }) else { throw file.malformed("a trak without mdia") }
            let inMdia = try file.children(mdia)
            guard let hdlr = inMdia.first(where: { $0.type == "hdlr" }), let mdhd = inMdia.first(where: { $0.type == "mdhd" }) else {
                throw file.malformed("a trak without hdlr or mdhd")
            }
            if try file.bytes(hdlr.payload + 8, 4) == Array("soun".utf8) {
                guard let edts = inTrak.first(where: { $0.type == "edts" }), let elst = try file.children(edts).first(where: { $0.type == "elst" })
                else { throw file.malformed("the sound track has no edit list") }
                sound = (tkhd, elst, mdhd)
            } else {
                longest = max(longest, try file.duration(tkhd, at: 20, wideAt: 28))
            }
        }
        guard let sound else { throw file.malformed("no sound track") }
        // elst: version, flags, count, then (duration, media time) in 32 or 64 bits
        let elstVersion = try file.bytes(sound.elst.payload, 1)[0]
        guard try file.uint(sound.elst.payload + 4, 4) == 1 else { throw file.malformed("the edit list has more than one entry") }
        let wide = elstVersion == 1
        let delay = try file.uint(sound.elst.payload + 8 + (wide ? 8 : 4), wide ? 8 : 4)
        let media = try file.duration(sound.mdhd, at: 16, wideAt: 24)
        try file.write(sound.elst.payload + 8, frames, wide ? 8 : 4)
        try file.setDuration(sound.tkhd, at: 20, wideAt: 28, frames)
        try file.setDuration(mvhd, at: 16, wideAt: 24, longest)

        guard let udta = inMoov.first(where: { $0.type == "udta" }), let meta = try file.children(udta).first(where: { $0.type == "meta" }),
            let ilst = try file.children(meta, skip: 4).first(where: { $0.type == "ilst" }),
            let lyrics = try file.children(ilst).first(where: { $0.type == "\u{A9}lyr" })
        else { throw file.malformed("no placeholder tag for iTunSMPB") }
        let box = smpbBox(delay: Int64(delay), padding: media - Int64(delay) - frames, frames: frames)
        guard lyrics.end - lyrics.start == box.count else {
            throw file.malformed("the placeholder tag is \(lyrics.end - lyrics.start) bytes, not \(box.count)")
        }
        try file.write(box, at: lyrics.start)
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    struct Box {
        var type: String
        var start: Int64
        var payload: Int64
        var end: Int64
    }

    /// The boxes of the file on `fd`, read with `pread` and patched with `pwrite`.
    private struct Boxes {
        let fd: Int32
        let path: String
        var top: [Box] = []

        init(fd: Int32, path: String) throws(AudioError) {
            self.fd = fd
            self.path = path
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw AudioError(file: path, operation: "fstat", reason: String(cString: strerror(errno)), kind: .ioError)
            }
            top = try boxes(0, Int64(info.st_size))
        }

        func malformed(_ why: String) -> AudioError {
            AudioError(file: path, operation: "M4A gapless layout", reason: "the muxer's file is not as expected: \(why)", kind: .software)
        }

        func children(_ box: Box, skip: Int64 = 0) throws(AudioError) -> [Box] { try boxes(box.payload + skip, box.end) }

        func boxes(_ start: Int64, _ end: Int64) throws(AudioError) -> [Box] {
            var found: [Box] = []
            var at = start
            while at + 8 <= end {
                var size = Int64(try uint(at, 4))
                var header: Int64 = 8
                if size == 1 {
                    size = Int64(try uint(at + 8, 8))
                    header = 16
                } else if size == 0 {
                    size = end - at
                }
                guard size >= header, at + size <= end else { throw malformed("a box overruns its parent at byte \(at)") }
                // each byte one character (Latin-1): "©lyr" is A9 6C 79 72
                let type = String(String.UnicodeScalarView(try bytes(at + 4, 4).map { Unicode.Scalar($0) }))
                found.append(Box(type: type, start: at, payload: at + header, end: at + size))
                at += size
            }
            return found
        }

        func bytes(_ at: Int64, _ count: Int) throws(AudioError) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(at)) }
            guard n == count else {
                throw AudioError(file: path, operation: "pread", reason: n < 0 ? String(cString: strerror(errno)) : "short read", kind: .ioError)
            }
            return out
        }

        func uint(_ at: Int64, _ size: Int) throws(AudioError) -> UInt64 {
            try bytes(at, size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }

        /// A full box's duration: 32 bits at `at` in version 0, 64 at `wideAt` in version 1 (offsets in the payload).
        func duration(_ box: Box, at: Int64, wideAt: Int64) throws(AudioError) -> Int64 {
            try bytes(box.payload, 1)[0] == 1 ? Int64(bitPattern: try uint(box.payload + wideAt, 8)) : Int64(try uint(box.payload + at, 4))
        }

        func setDuration(_ box: Box, at: Int64, wideAt: Int64, _ value: Int64) throws(AudioError) {
            if try bytes(box.payload, 1)[0] == 1 {
                try write(box.payload + wideAt, value, 8)
            } else {
                guard value <= Int64(UInt32.max) else { throw malformed("\(box.type) holds 32-bit durations, \(value) needs 64") }
                try write(box.payload + at, value, 4)
            }
        }

        func write(_ at: Int64, _ value: Int64, _ size: Int) throws(AudioError) {
            guard size == 8 || value <= Int64(UInt32.max) else { throw malformed("\(value) does not fit in 32 bits") }
            try write((0..<size).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (8 * UInt64(size - 1 - $0))) }, at: at)
        }

        func write(_ bytes: [UInt8], at: Int64) throws(AudioError) {
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress?.advanced(by: done), bytes.count - done, off_t(at) + off_t(done)) }
                guard n > 0 else {
                    if AtomicOutputFile.meansNoRoom(errno) { throw AtomicOutputFile.writeError(path: path, operation: "pwrite", errno) }
                    throw AudioError(file: path, operation: "pwrite", reason: String(cString: strerror(errno)), kind: .ioError)
                }
                done += n
            }
        }
    }
}
