import AudioIO
import CatalogManifest
import Foundation
import Recipe
import Render

/// The input fingerprint of a track: what decides whether it must be rendered again.
///
/// SHA-256 over the renderer's version, the recipe's meaning (`canonicalText`:
/// not its spacing, comments or key order), the output file name and format,
/// the sidecar files asked for, the bytes of every asset it uses (prompt clips included), and
/// the espeak-ng version when a prompt is spoken by the draft voice. A changed bed changes exactly the
/// fingerprints of the tracks that use it.
public enum Fingerprint {
    public static func of(recipe: Recipe, outputFile: String, sidecars: [String], assets: [String], hashes: AssetHashes) throws -> String {
        var text = "cadence \(CadenceVersion.string)\n" + recipe.canonicalText + "file=\(outputFile)\n"
        text += "sidecars=\(sidecars.joined(separator: ","))\n"
        // a draft prompt sounds as the espeak-ng that speaks it: another version, another track
        if recipe.voice?.prompts.contains(where: \.isDraft) == true { text += "espeak-ng=\(DraftVoice.version)\n" }
        for path in assets {
            text += "asset=\((path as NSString).lastPathComponent) \(try hashes.hash(of: path))\n"
        }
        return SHA256Hasher.hex(SHA256Hasher.digest(Array(text.utf8)))
    }
}

/// SHA-256 of asset files, each read once per catalog run however many tracks share it,
/// with the version of the file (`FileIdentity`) the hash describes.
public final class AssetHashes: @unchecked Sendable {
    private var hashes: [String: (hash: String, identity: FileIdentity)] = [:]
    private let lock = NSLock()

    public init() {}

    /// The file's SHA-256. A file that changes while it is hashed is an error: the
    /// fingerprint must describe one version, the one `identity(of:)` names.
    public func hash(of path: String) throws -> String {
        lock.lock()
        if let known = hashes[path] {
            lock.unlock()
            return known.hash
        }
        lock.unlock()
        let before = FileIdentity.of(path: path)
        guard let hex = SHA256Hasher.hex(ofFile: path), let before else {
            throw ManifestError(path: path, reason: "cannot read the asset to fingerprint it")
        }
        guard FileIdentity.of(path: path) == before else {
            throw ManifestError(path: path, reason: "the asset changed while it was being fingerprinted; render again once it is written")
        }
        lock.lock()
        hashes[path] = (hex, before)
        lock.unlock()
        return hex
    }

    /// The version of the file that `hash(of:)` hashed, if it was hashed.
    public func identity(of path: String) -> FileIdentity? {
        lock.lock()
        defer { lock.unlock() }
        return hashes[path]?.identity
    }
}
