/// Seeds for the noise, the dither and the Ogg stream serial: 64-bit words of the recipe's
/// SHA-256, so they follow the recipe's meaning, not its spacing or comments.
enum Seed {
    /// Word `index` of `digest` (wrapping around its 32 bytes).
    static func word(_ digest: [UInt8], _ index: Int) -> UInt64 {
        var w: UInt64 = 0
        for k in 0..<8 { w = w << 8 | UInt64(digest[(index * 8 + k) % digest.count]) }
        return w
    }
}
