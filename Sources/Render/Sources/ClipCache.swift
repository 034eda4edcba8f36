import AudioIO
import Foundation

/// Decoded clips (cue files and prompt clips) and spoken drafts, shared by the tracks of a
/// `TrackRenderer` (a catalog's tracks, that is), by file version or words and language, and by
/// rate and channels: a clip that ten guided tracks use is decoded once per output format.
/// A file is known by its identity (device, inode and version), never by how a recipe spells
/// its path: `t/c.wav`, `./t/c.wav`, a link to it and a hard link are one clip.
///
/// What is kept is the clip as decoded, before any gain (each recipe levels it its own way).
/// The cache holds at most `budgetBytes` of samples, dropping the clips used longest ago first,
/// so a catalog's memory does not grow with how many clips it names. A file that has no identity
/// (it cannot be stat'ed), or that is another version than a catalog's fingerprint, is not
/// served from the cache: decoding it again gives the error it deserves.
public final class ClipCache: @unchecked Sendable {
    enum Key: Hashable {
        case file(identity: FileIdentity, sampleRate: Int, channels: Int)
        case draft(text: String, language: String, sampleRate: Int, channels: Int)
    }

    /// 64 MiB of samples: about 170 s of 48 kHz stereo, far more clip than a catalog's tracks share.
    public static let defaultBudgetBytes = 64 << 20

    private let budgetBytes: Int
    private var clips: [Key: (samples: [Float], lastUse: Int)] = [:]
    private var bytes = 0
    private var clock = 0
    private let lock = NSLock()
    private var missCount = 0
    private var requestCount = 0

    /// Clips decoded (or spoken) because the cache did not have them.
    public var misses: Int {
        lock.lock()
        defer { lock.unlock() }
        return missCount
    }

    /// Clips asked for, found or not: a track asks once for each file it mixes (however its
    /// path is spelled) and each draft, and keeps what it got for every prompt and cue that plays it.
    public var requests: Int {
        lock.lock()
        defer { lock.unlock() }
        return requestCount
    }

    public init(budgetBytes: Int = ClipCache.defaultBudgetBytes) { self.budgetBytes = budgetBytes }

    /// The clip for `key`, made by `make` unless it is cached; errors are not cached.
    func clip<E: Error>(_ key: Key?, make: () throws(E) -> [Float]) throws(E) -> [Float] {
        lock.lock()
        requestCount += 1
        guard let key else {
            missCount += 1
            lock.unlock()
            return try make()
        }
        clock += 1
        if let found = clips[key] {
            clips[key]?.lastUse = clock
            lock.unlock()
            return found.samples
        }
        missCount += 1
        lock.unlock()
        // made outside the lock: other clips decode in parallel (two tracks asking for one
        // new clip at once may both decode it; the second result replaces the first)
        let samples = try make()
        let size = samples.count * MemoryLayout<Float>.size
        guard size <= budgetBytes else { return samples }
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if let old = clips.updateValue((samples, clock), forKey: key) { bytes -= old.samples.count * MemoryLayout<Float>.size }
        bytes += size
        while bytes > budgetBytes, let oldest = clips.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytes -= oldest.value.samples.count * MemoryLayout<Float>.size
            clips[oldest.key] = nil
        }
        return samples
    }

    /// The key of a file's clip: nil (not cached) when the file has no identity, or is not the
    /// version `expected` names. The path only finds the file: the key is its identity.
    static func fileKey(path: String, expected: FileIdentity?, sampleRate: Int, channels: Int) -> Key? {
        guard let identity = FileIdentity.of(path: path), expected.map({ $0 == identity }) ?? true else { return nil }
        return .file(identity: identity, sampleRate: sampleRate, channels: channels)
    }

    /// What names one file within a track however its path is spelled (`t/c.wav`, `./t/c.wav`, a
    /// link): its device and inode, or its resolved path when it cannot be stat'ed (decoding it then
    /// gives the error it deserves).
    static func fileName(resolved: String) -> String {
        guard let identity = FileIdentity.of(path: resolved) else { return "path:" + resolved }
        return "inode:\(identity.device):\(identity.inode)"
    }
}
