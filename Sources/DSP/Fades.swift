import Foundation

/// Gain curves for fades and loop seams, evaluated at integer frame positions.
public enum FadeCurve {
    /// Raised-cosine fade-in over `length` frames: exactly 0 at position 0, rising toward 1.
    @inline(__always)
    public static func fadeIn(_ position: Int64, length: Int64) -> Float {
        if position >= length { return 1 }
        if position <= 0 { return 0 }
        return Float(0.5 - 0.5 * cos(Double.pi * Double(position) / Double(length)))
    }

    /// Equal-power crossfade gains at `position` of a seam of `length` frames:
    /// (outgoing, incoming), with out² + in² = 1.
    @inline(__always)
    public static func equalPower(_ position: Int64, length: Int64) -> (out: Float, in: Float) {
        let x = (Double(position) + 0.5) / Double(length) * (Double.pi / 2)
        return (Float(cos(x)), Float(sin(x)))
    }
}

/// A bed's fade envelope over a track: in from frame 0, out to the last frame.
public struct FadeEnvelope: Sendable {
    public let fadeInFrames: Int64
    public let fadeOutFrames: Int64
    public let totalFrames: Int64

    public init(fadeInFrames: Int64, fadeOutFrames: Int64, totalFrames: Int64) {
        self.fadeInFrames = fadeInFrames
        self.fadeOutFrames = fadeOutFrames
        self.totalFrames = totalFrames
    }

    /// The gain at a frame: 0 at frame 0 (with a fade in) and at the last frame (with a fade out).
    @inline(__always)
    public func gain(at frame: Int64) -> Float {
        var g: Float = 1
        if fadeInFrames > 0 { g *= FadeCurve.fadeIn(frame, length: fadeInFrames) }
        if fadeOutFrames > 0 { g *= FadeCurve.fadeIn(totalFrames - 1 - frame, length: fadeOutFrames) }
        return g
    }

    /// True when every frame of [start, start+count) has gain 1 (the fast path).
    public func isUnity(from start: Int64, count: Int) -> Bool {
        start >= fadeInFrames && start + Int64(count) <= totalFrames - fadeOutFrames - 1
    }

    /// Multiplies `count` frames of interleaved audio starting at track frame `start` by the envelope.
    public func apply(_ buffer: UnsafeMutableBufferPointer<Float>, channels: Int, from start: Int64, count: Int) {
        if isUnity(from: start, count: count) { return }
        for i in 0..<count {
            let g = gain(at: start + Int64(i))
            if g == 1 { continue }
            for c in 0..<channels { buffer[i * channels + c] *= g }
        }
    }
}
