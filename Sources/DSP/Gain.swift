import Foundation

/// Decibel ↔ linear conversions, in one place.
public enum Gain {
    /// 10^(dB/20).
    public static func linear(dB: Double) -> Double { pow(10, dB / 20) }
    /// 20·log10(x); -inf for 0.
    public static func decibels(linear x: Double) -> Double { x > 0 ? 20 * log10(x) : -.infinity }
}
