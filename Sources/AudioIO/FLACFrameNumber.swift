/// A FLAC frame given another frame number: what `FLACLaneWriter` does to each frame a lane's
/// encoder wrote, since every lane's libFLAC counts its frames from 0.
///
/// A fixed-block-size frame (RFC 9639 §9.1) starts with its header: the sync code and the
/// block size, rate, channel and depth codes (4 bytes), the frame number in FLAC's extended
/// UTF-8 (1–7 bytes), the block size and the rate when their codes say they follow (0–2 bytes
/// each), then the header's CRC-8. The subframes follow byte-aligned, then the frame's CRC-16
/// over everything before it. Only the number and the two CRCs change; the number's length
/// can (frame 127 takes one byte, frame 128 two), the subframes move with it unchanged.
///
/// libFLAC computes both CRCs but does not export them, so they are here: CRC-8 (polynomial
/// x⁸+x²+x+1) over the few header bytes, and CRC-16 (x¹⁶+x¹⁵+x²+1) corrected for the new
/// header without reading the subframes again. Both CRCs start at zero with no final xor, so
/// they are linear: CRC(H ‖ B) = CRC(H)·x^(8|B|) ⊕ CRC(B) mod P, and swapping header H for
/// H′ changes the frame's CRC by (CRC(H) ⊕ CRC(H′))·x^(8|B|) mod P, a few hundred bit
/// operations per frame whatever its size.
public enum FLACFrameNumber {
    /// `frame` (one whole frame as libFLAC's write callback gives it) numbered `number`;
    /// nil when it is not a fixed-block-size frame this can read.
    public static func renumbered(_ frame: UnsafeRawBufferPointer, as number: UInt32) -> [UInt8]? {
        guard frame.count >= 8, frame[0] == 0xFF, frame[1] == 0xF8 else { return nil }
        let oldNumberBytes = codedLength(first: frame[4])
        guard oldNumberBytes > 0 else { return nil }
        let extras = extraBytes(blockCode: frame[2] >> 4) + extraBytes(rateCode: frame[2] & 0x0F)
        let oldHeaderEnd = 4 + oldNumberBytes + extras + 1  // through the CRC-8
        guard frame.count >= oldHeaderEnd + 2 else { return nil }
        let body = frame.count - oldHeaderEnd - 2

        var out: [UInt8] = []
        out.reserveCapacity(frame.count + 4)
        out.append(contentsOf: frame[0..<4])
        appendCoded(number, to: &out)
        out.append(contentsOf: frame[(4 + oldNumberBytes)..<(oldHeaderEnd - 1)])
        out.append(crc8(out[...]))
        let newHeaderEnd = out.count
        out.append(contentsOf: frame[oldHeaderEnd..<(frame.count - 2)])

        let oldCRC = UInt16(frame[frame.count - 2]) << 8 | UInt16(frame[frame.count - 1])
        let headerChange = crc16(frame[0..<oldHeaderEnd]) ^ crc16(out[0..<newHeaderEnd])
        let crc = oldCRC ^ multiply(headerChange, power(body))
        out.append(UInt8(crc >> 8))
        out.append(UInt8(crc & 0xFF))
        return out
    }

    /// Bytes of an extended-UTF-8 number whose first byte is `first`; 0 if it cannot start one.
    static func codedLength(first: UInt8) -> Int {
        switch first {
        case 0x00..<0x80: 1
        case 0xC0..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0..<0xF8: 4
        case 0xF8..<0xFC: 5
        case 0xFC..<0xFE: 6
        case 0xFE: 7
        default: 0
        }
    }

    /// `value` in FLAC's extended UTF-8 (a frame number takes at most 31 bits: 6 bytes).
    static func appendCoded(_ value: UInt32, to out: inout [UInt8]) {
        if value < 0x80 {
            out.append(UInt8(value))
            return
        }
        let continuation = value < 0x800 ? 1 : value < 0x1_0000 ? 2 : value < 0x20_0000 ? 3 : value < 0x400_0000 ? 4 : 5
        let lead: UInt8 = [0xC0, 0xE0, 0xF0, 0xF8, 0xFC][continuation - 1]
        out.append(lead | UInt8(truncatingIfNeeded: value >> (6 * continuation)))
        for k in stride(from: continuation - 1, through: 0, by: -1) {
            out.append(0x80 | UInt8(truncatingIfNeeded: (value >> (6 * k)) & 0x3F))
        }
    }

    /// Bytes after the number that hold the block size (codes 6 and 7).
    static func extraBytes(blockCode code: UInt8) -> Int { code == 6 ? 1 : code == 7 ? 2 : 0 }
    /// Bytes that hold the sample rate (codes 12, 13 and 14).
    static func extraBytes(rateCode code: UInt8) -> Int { code == 12 ? 1 : code == 13 || code == 14 ? 2 : 0 }

    // MARK: CRCs

    private static let crc8Table: [UInt8] = (0..<256).map { byte in
        var c = UInt8(byte)
        for _ in 0..<8 { c = c & 0x80 != 0 ? (c << 1) ^ 0x07 : c << 1 }
        return c
    }

    private static let crc16Table: [UInt16] = (0..<256).map { byte in
        var c = UInt16(byte) << 8
        for _ in 0..<8 { c = c & 0x8000 != 0 ? (c << 1) ^ 0x8005 : c << 1 }
        return c
    }

    /// FLAC's header CRC-8 of `bytes`.
    static func crc8<C: Collection<UInt8>>(_ bytes: C) -> UInt8 {
        var c: UInt8 = 0
        for b in bytes { c = crc8Table[Int(c ^ b)] }
        return c
    }

    /// FLAC's frame CRC-16 of `bytes`.
    static func crc16<C: Collection<UInt8>>(_ bytes: C) -> UInt16 {
        var c: UInt16 = 0
        for b in bytes { c = (c << 8) ^ crc16Table[Int(UInt8(c >> 8) ^ b)] }
        return c
    }

    /// a·b mod P, P = x¹⁶+x¹⁵+x²+1, polynomials over GF(2) as their bits.
    static func multiply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        var product: UInt16 = 0
        for bit in stride(from: 15, through: 0, by: -1) {
            product = product & 0x8000 != 0 ? (product << 1) ^ 0x8005 : product << 1
            if b >> UInt16(bit) & 1 != 0 { product ^= a }
        }
        return product
    }

    /// x^(8·bytes) mod P: what appending `bytes` zero bytes multiplies a CRC by.
    static func power(_ bytes: Int) -> UInt16 {
        var result: UInt16 = 1
        var square: UInt16 = 0x100  // x⁸
        var n = bytes
        while n > 0 {
            if n & 1 != 0 { result = multiply(result, square) }
            square = multiply(square, square)
            n >>= 1
        }
        return result
    }
}
