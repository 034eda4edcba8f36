import AudioIO
import Recipe

/// Seeds for the noise, the dither and the Ogg stream serial: 64-bit words of the SHA-256
/// of the recipe's canonical text, so they follow the recipe's meaning, not its spacing or comments.
/// A rendition of a recipe with locales hashes its locale-free text (`Recipe.seedText`), so that
/// two renditions differ only where their texts, clips or timings do (recipe-v1.2 § Locales).
struct Seed {
    let digest: [UInt8]

    init(recipe: Recipe) {
        digest = SHA256Hasher.digest(Array(recipe.seedText.utf8))
    }

    /// The bed's noise (word 0), the dither (word 1), the Ogg stream serial (word 2).
    var noise: UInt64 { word(0) }
    var dither: UInt64 { word(1) }
    var serial: Int32 { Int32(truncatingIfNeeded: word(2)) }

    /// Word `index` of the digest (wrapping around its 32 bytes).
    private func word(_ index: Int) -> UInt64 {
        var w: UInt64 = 0
        for k in 0..<8 { w = w << 8 | UInt64(digest[(index * 8 + k) % digest.count]) }
        return w
    }
}
