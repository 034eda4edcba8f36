/// The spec's one rule between seconds and frames, used by the validator and the lookup alike.
enum FrameTime {
    /// `floor(t × rate + 1/2)`: the frame a time in seconds stands for, or nil if `t` is not finite or the
    /// frame does not fit `Int64`.
    ///
    /// A time written as `Double(frame) / Double(rate)` gives its frame back exactly: the
    /// product's error is under 10⁻⁶ frame even 24 hours in at 192 kHz, far from the ½ that would tip it.
    static func frame(atTime seconds: Double, sampleRate: Int) -> Int64? {
        Int64(exactly: (seconds * Double(sampleRate) + 0.5).rounded(.down))
    }

    /// `frame / rate` in seconds.
    static func time(atFrame frame: Int64, sampleRate: Int) -> Double {
        Double(frame) / Double(sampleRate)
    }
}
