/// Float → integer PCM, with TPDF dither for 16-bit output.
///
/// libsndfile has no dither, so 16-bit output is quantized here: triangular
/// dither of ±1 LSB from a seeded generator, then rounding and clamping.
/// Exact digital silence stays silent (no dither noise where the input is 0),
/// so a track still starts and ends in true silence.
public struct Quantizer: Sendable {
    public enum Depth: Sendable { case int16, int24 }
    private let depth: Depth
    private var random: SeededRandom

    public init(depth: Depth, seed: UInt64) {
        self.depth = depth
        self.random = SeededRandom(seed: seed)
    }

    /// 16-bit: dithered samples into `out`.
    public mutating func quantize16(_ input: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Int16>, count: Int) {
        for i in 0..<count {
            let x = input[i]
            if x == 0 { out[i] = 0; continue }
            let d = (random.nextBipolar() + random.nextBipolar()) * 0.5
            var v = (x * 32767 + d).rounded()
            v = min(32767, max(-32768, v))
            out[i] = Int16(v)
        }
    }

    /// 24-bit: rounded samples, left-justified in 32-bit ints (libsndfile's `sf_writef_int` convention).
    public func quantize24(_ input: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Int32>, count: Int) {
        for i in 0..<count { out[i] = Self.round24(input[i]) << 8 }
    }

    /// 24-bit: rounded samples, right-justified (libFLAC's convention).
    public func quantize24Right(_ input: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<Int32>, count: Int) {
        for i in 0..<count { out[i] = Self.round24(input[i]) }
    }

    /// `(x · 8388607).rounded()` clamped to 24 bits, without a call into libm per sample:
    /// truncate, then step away from zero when the (exact) remainder is at least ½ —
    /// `roundf`'s result, bit for bit, in instructions the compiler can vectorize.
    @inline(__always)
    static func round24(_ x: Float) -> Int32 {
        let v = min(8_388_607, max(-8_388_608, x * 8_388_607))
        let t = Int32(v)
        let f = v - Float(t)
        return t &+ (f >= 0.5 ? 1 : 0) &- (f <= -0.5 ? 1 : 0)
    }
}
