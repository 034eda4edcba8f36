import AudioCore
import AudioIO

/// What `render --check` learns from opening an asset, kept per file version: a catalog
/// of 500 recipes over one bed opens it once, not 500 times (libsndfile reads a whole
/// Ogg file to count its frames, about 4 ms for a 3-minute bed).
///
/// An entry is used again only while the file's identity (`stat`: device, inode, size,
/// modification and status-change times) is the one it had when opened, so a file
/// changed between two recipes is opened again. Not thread-safe: one per checking thread.
public final class AssetHeaders {
    /// The facts `TrackRenderer.checkHeader` reads, or why the file could not be opened.
    struct Header {
        var sampleRate: Int
        var knownFrames: Int64?
    }

    private var entries: [String: (identity: FileIdentity, header: Result<Header, AudioError>)] = [:]
    /// Files opened so far (a file opened again after it changed counts twice).
    public private(set) var opened = 0

    public init() {}

    /// The header of `path`, opened now unless this version of the file was opened before.
    func header(of path: String) throws(AudioError) -> Header {
        if let kept = entries[path], let now = FileIdentity.of(path: path), now == kept.identity {
            return try kept.header.get()
        }
        let result: Result<Header, AudioError>
        let identity: FileIdentity?
        opened += 1
        do {
            let reader = try SoundFileReader(path: path)
            result = .success(Header(sampleRate: reader.sampleRate, knownFrames: reader.knownFrames))
            identity = reader.identity
        } catch {
            result = .failure(error)
            identity = FileIdentity.of(path: path)
        }
        if let identity { entries[path] = (identity, result) }
        return try result.get()
    }
}
