import AudioCore
import AudioIO
import Foundation

/// A bed file decoded and resampled once, kept in a scratch file, read at any frame.
///
/// Resampling a whole hour costs more than encoding it, so a bed is converted
/// once per file and output format and every loop pass reads the result.
/// `BedCache` shares them between the passes of a render (and between tracks).
public final class PreparedBed: @unchecked Sendable {
    public let frames: Int64
    public let channels: Int
    let store: ScratchFile

    init(path: String, sampleRate: Int, channels: Int) throws(AudioError) {
        let store = try ScratchFile(channels: channels, name: path)
        self.frames = try AudioDecoder.decode(
            path: path, sampleRate: sampleRate, channels: channels,
            maximumFrames: Int64(sampleRate) * 24 * 3600
        ) { (p, n) throws(AudioError) in
            try store.append(p, frames: n)
        }
        self.store = store
        self.channels = channels
        StageClock.shared.countBed()
    }

    /// Reads `count` frames from bed position `frame`.
    func read(frame: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws(AudioError) {
        try store.read(frame: frame, count: count, into: out)
    }
}

/// Prepared beds by file, rate and channel count; a file changed on disk is prepared again.
public final class BedCache: @unchecked Sendable {
    private struct Key: Hashable {
        let path: String
        let size: Int64
        let modified: Double
        let sampleRate: Int
        let channels: Int
    }
    private var beds: [Key: PreparedBed] = [:]
    private var inFlight: Set<Key> = []
    private let condition = NSCondition()

    public init() {}

    /// The prepared bed for `path` at the given format, decoding it on first use.
    ///
    /// Each bed is decoded once however many tracks ask for it at the same time:
    /// the first caller decodes while the others wait for its result; beds of
    /// other files decode in parallel.
    public func bed(path: String, sampleRate: Int, channels: Int) throws(AudioError) -> PreparedBed {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let key = Key(
            path: path, size: (attributes?[.size] as? NSNumber)?.int64Value ?? -1,
            modified: (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0,
            sampleRate: sampleRate, channels: channels)
        condition.lock()
        while inFlight.contains(key) { condition.wait() }
        if let bed = beds[key] {
            condition.unlock()
            return bed
        }
        inFlight.insert(key)
        condition.unlock()
        let result: Result<PreparedBed, AudioError>
        do { result = .success(try PreparedBed(path: path, sampleRate: sampleRate, channels: channels)) } catch { result = .failure(error) }
        condition.lock()
        inFlight.remove(key)
        if case .success(let bed) = result { beds[key] = bed }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}
