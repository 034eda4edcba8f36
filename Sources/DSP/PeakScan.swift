/// The largest magnitude in a run of samples, eight lanes at a time.
///
/// The scalar `max(peak, abs(x))` loop does not vectorize (float `max` must
/// order NaNs), and it ran on every sample of every pass: the true-peak meter's
/// skip test and the waveform picture's columns.
public enum PeakScan {
    /// max |x| over `count` samples from `base` (0 for none).
    @inline(__always)
    public static func peak(_ base: UnsafePointer<Float>, count: Int) -> Float {
        var lanes = SIMD8<Float>()
        var i = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let m = unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
            lanes = lanes.replacing(with: m, where: lanes .< m)
            i += 8
        }
        var peak = lanes.max()
        while i < count {
            peak = max(peak, abs(base[i]))
            i += 1
        }
        return peak
    }
}
