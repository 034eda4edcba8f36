import Foundation

/// Why a `catalog.json` could not be read by `TrackCatalog.decode(from:)`: one case per kind of problem.
///
/// Paths name the offending key as it is spelt in the JSON, `tracks[3].premium` (arrays count
/// from 0), as in `CueSheetError`. `description` (and on Apple platforms `errorDescription`,
/// hence `localizedDescription`) is the whole message, e.g.
/// `tracks[3].premium: expected true or false, found "yes"`.
public enum TrackCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not JSON (or not UTF-8): the parser's reason, at a 1-based line and column.
    case malformed(reason: String, line: Int, column: Int)
    /// A required key is absent (a key present with `null` is a `typeMismatch`).
    case missingKey(path: String)
    /// A key holds the wrong kind of value; `expected` and `found` are phrases for the message.
    case typeMismatch(path: String, expected: String, found: String)
    /// `format` is not `cadence-catalog`: this is some other JSON file.
    case notACatalog(format: String)
    /// The catalog's major version is not `TrackCatalog.supportedVersion`; the version as written.
    case unsupportedVersion(String)
    /// A value outside its domain: a file name with a folder part, an id listed twice, negative bytes,
    /// a `bundle.bytes` that is not the bundled tracks' total; cues-v1.2: a track in no session or in two,
    /// a session listing an id that is no track's, a track's `session` that does not list it, a `locale`
    /// that is not a BCP 47 tag.
    case invalidValue(path: String, reason: String)

    /// The whole message, one line: the path first when there is one (`tracks[3].premium: …`).
    public var description: String {
        switch self {
        case .malformed(let reason, let line, let column):
            "malformed JSON at line \(line), column \(column): \(reason)"
        case .missingKey(let path):
            "\(path): missing (a required key)"
        case .typeMismatch(let path, let expected, let found):
            "\(path): expected \(expected), found \(found)"
        case .notACatalog(let format):
            "not a track catalog: format is \(JSONText.string(format)), expected \(JSONText.string(TrackCatalog.formatName))"
        case .unsupportedVersion(let version):
            "catalog version \(version) is not supported by this reader (supports \(TrackCatalog.supportedVersion))"
        case .invalidValue(let path, let reason):
            "\(path): \(reason)"
        }
    }

    /// A problem of the JSON reader shared with cue sheets (syntax, a missing key, a type), as a catalog's.
    init(_ error: CueSheetError) {
        switch error {
        case .malformed(let reason, let line, let column): self = .malformed(reason: reason, line: line, column: column)
        case .missingKey(let path): self = .missingKey(path: path)
        case .typeMismatch(let path, let expected, let found): self = .typeMismatch(path: path, expected: expected, found: found)
        case .invalidValue(let path, let reason), .outOfRange(let path, let reason): self = .invalidValue(path: path, reason: reason)
        // the JSON reader raises none of these, which are about a cue sheet's frames
        case .notACueSheet, .unsupportedVersion, .timeMismatch, .unsorted, .overlap, .gap:
            self = .invalidValue(path: "document", reason: error.description)
        }
    }
}

extension TrackCatalogError: LocalizedError {
    /// `description`, so that `localizedDescription` is the message.
    public var errorDescription: String? { description }
}
