/// The window an AAC-LC packet's first channel element uses (ISO/IEC 14496-3, `ics_info`):
/// read from the raw packet's first bits, enough to tell whether two encoders' packets for
/// the same frames overlap-add alike.
public struct AACWindow: Sendable, Equatable {
    /// `window_sequence`: 0 long, 1 long-start, 2 eight short, 3 long-stop.
    public var sequence: UInt8
    /// `window_shape`: 0 sine, 1 Kaiser-Bessel-derived.
    public var shape: UInt8

    /// The window of a raw AAC packet's first element: a single channel element, or a channel
    /// pair with one common window; nil for anything else (a pair whose channels have windows
    /// of their own, whose second window is deep inside the first channel's data).
    public init?(packet bytes: UnsafeRawBufferPointer) {
        var reader = BitReader(bytes)
        guard let element = reader.read(3), reader.read(4) != nil else { return nil }
        switch element {
        case 0:  // SCE: global_gain, then ics_info
            guard reader.read(8) != nil else { return nil }
        case 1:  // CPE: common_window, then ics_info when set
            guard reader.read(1) == 1 else { return nil }
        default:
            return nil
        }
        guard reader.read(1) == 0, let sequence = reader.read(2), let shape = reader.read(1) else { return nil }
        self.sequence = UInt8(sequence)
        self.shape = UInt8(shape)
    }

    private struct BitReader {
        let bytes: UnsafeRawBufferPointer
        var bit = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
        /// The next `count` bits, most significant first; nil past the end.
        mutating func read(_ count: Int) -> UInt32? {
            guard bit + count <= bytes.count * 8 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<count {
                value = value << 1 | UInt32(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
                bit += 1
            }
            return value
        }
    }
}
