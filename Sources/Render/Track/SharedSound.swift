import AudioCore
import AudioIO
import Foundation
import Recipe

/// Renditions that sound the same, rendered once (issue 34): the audio a renderer delivered,
/// by what it sounds like (`Recipe.soundText` and the output format).
///
/// The renditions of a variant whose locales differ only in their texts (titles, labels, the
/// captions of the same clips) mix the same samples: their noise and dither are seeded from the
/// same `seedText`. The first is rendered; each later one takes its file's frames with its own
/// tags (`FLACRetag`), and its loudness, true peak and picture, instead of mixing, measuring
/// and encoding again. The file is byte for byte what rendering it would write
/// (`SharedSoundTests`). FLAC only; other formats render every rendition.
final class SharedSound: @unchecked Sendable {
    /// A delivered file and what was measured of it.
    struct Delivery {
        let path: String
        let identity: FileIdentity
        let delivered: Delivered
        let limited: Bool
    }

    private var delivered: [String: Delivery] = [:]
    /// The sounds a thread is rendering now.
    private var rendering: Set<String> = []
    private let condition = NSCondition()

    /// The key of `recipe`'s sound in `format`; nil when its audio is not shared: a recipe
    /// without locales (nothing could share it), or a format other than FLAC.
    static func key(of recipe: Recipe, format: AudioFormat) -> String? {
        guard recipe.locale != nil, format == .flac else { return nil }
        return SHA256Hasher.hex(SHA256Hasher.digest(Array((format.rawValue + "\n" + recipe.soundText).utf8)))
    }

    /// Delivers a track of sound `key` once: `body` gets the delivery to copy (nil: render it)
    /// and returns the track committed and what was delivered. While another thread renders the
    /// same sound, this one waits for it; a delivery that failed, or whose file has changed
    /// since, is rendered again.
    func once(_ key: String?, _ body: (Delivery?) throws -> (RenderedTrack, Delivered)) throws -> RenderedTrack {
        guard let key else { return try body(nil).0 }
        condition.lock()
        while rendering.contains(key) { condition.wait() }
        if let source = delivered[key], FileIdentity.of(path: source.path) == source.identity {
            condition.unlock()
            return try body(source).0
        }
        rendering.insert(key)
        condition.unlock()
        var kept: Delivery?
        defer {
            condition.lock()
            rendering.remove(key)
            if let kept { delivered[key] = kept }
            condition.broadcast()
            condition.unlock()
        }
        let (rendered, measured) = try body(nil)
        if let identity = FileIdentity.of(path: rendered.audioPath) {
            kept = Delivery(path: rendered.audioPath, identity: identity, delivered: measured, limited: rendered.limited)
        }
        return rendered
    }
}

extension SharedSound.Delivery {
    /// This delivery's file copied into a new file at `output`'s audio path with `metadata`'s
    /// tags, with what was measured of it.
    func copy(to output: OutputPlan, metadata: EmbeddedMetadata) throws -> (file: AtomicOutputFile, delivered: Delivered, limited: Bool) {
        let file = try AtomicOutputFile(path: output.audioPath)
        do {
            try FLACRetag.copy(
                from: path, toDescriptor: file.fileDescriptor, path: output.audioPath, comments: metadata.tags + metadata.chapterComments)
        } catch {
            file.discard()
            throw error
        }
        return (file, delivered, limited)
    }
}
