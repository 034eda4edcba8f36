import Foundation

/// Why a cue sheet could not be read: one case per kind of problem, each with a message for people.
///
/// Paths name the offending key as it is spelt in the JSON, `phases[3].start_frame`
/// (arrays count from 0). `description` (and on Apple platforms `errorDescription`,
/// hence `localizedDescription`) is the whole message, e.g.
/// `phases[3].start_frame: expected an integer, found "480000"`.
public enum CueSheetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not JSON (or not UTF-8): the parser's reason, at a 1-based line and column.
    case malformed(reason: String, line: Int, column: Int)
    /// A required key is absent (a key present with `null` is a `typeMismatch`).
    case missingKey(path: String)
    /// A key holds the wrong kind of value; `expected` and `found` are phrases for the message.
    case typeMismatch(path: String, expected: String, found: String)
    /// `format` is not `session-cues`: this is some other JSON file.
    case notACueSheet(format: String)
    /// The sheet's major version is not `CueSheet.supportedVersion`; the version as written.
    case unsupportedVersion(String)
    /// A value outside its domain: a sample rate of 0, negative frames, an unknown section kind,
    /// a phase `index` that is not its position, a repeated section.
    case invalidValue(path: String, reason: String)
    /// A time in seconds that does not give its frame back by `floor(t × rate + 1/2)`.
    case timeMismatch(path: String, time: Double, frame: Int64, expectedFrame: Int64)
    /// Two neighbours out of order: the second starts before the first (or, for sections, is of an earlier kind).
    case unsorted(Span, Span)
    /// The first span runs `frames` frames into the second.
    case overlap(Span, Span, frames: Int64)
    /// Frames between two phases that no phase covers; `nil` is the practice section's start (first) or end (second).
    case gap(after: Span?, before: Span?, frames: Range<Int64>)
    /// A frame, span or index outside what holds it: a cue after the end of the file, a phase outside the practice
    /// section, a cue's `phase` that is not a phase index.
    case outOfRange(path: String, reason: String)

    /// A phase (by index) or a section (by kind), as named in messages about order, overlaps and gaps.
    public enum Span: Sendable, Equatable, CustomStringConvertible {
        /// A phase, by its index in `phases` (from 0).
        case phase(Int)
        /// A section, by its kind (`intro`, `practice`, `outro`).
        case section(String)

        /// `phase 3`, `section intro`: as messages name it.
        public var description: String {
            switch self {
            case .phase(let i): "phase \(i)"
            case .section(let kind): "section \(kind)"
            }
        }
    }

    /// The whole message, one line: the path first when there is one (`phases[3].start_frame: …`).
    public var description: String {
        switch self {
        case .malformed(let reason, let line, let column):
            return "malformed JSON at line \(line), column \(column): \(reason)"
        case .missingKey(let path):
            return "\(path): missing (a required key)"
        case .typeMismatch(let path, let expected, let found):
            return "\(path): expected \(expected), found \(found)"
        case .notACueSheet(let format):
            return "not a cue sheet: format is \(JSONText.string(format)), expected \"session-cues\""
        case .unsupportedVersion(let version):
            return "cue sheet version \(version) is not supported by this reader (supports \(CueSheet.supportedVersion))"
        case .invalidValue(let path, let reason), .outOfRange(let path, let reason):
            return "\(path): \(reason)"
        case .timeMismatch(let path, let time, let frame, let expectedFrame):
            return "\(path): \(JSONText.number(time)) s is frame \(frame), but the sheet says frame \(expectedFrame)"
        case .unsorted(let first, let second):
            return "\(Self.pair(first, second)) are out of order: \(second) starts before \(first)"
        case .overlap(let first, let second, let frames):
            return "\(Self.pair(first, second)) overlap by \(frames) frame\(frames == 1 ? "" : "s")"
        case .gap(let after, let before, let frames):
            let span = "frames \(frames.lowerBound)…\(frames.upperBound)"
            switch (after, before) {
            case (let a?, let b?): return "gap between \(Self.pair(a, b)) (\(span))"
            case (nil, let b?): return "gap between the start of the practice section and \(b) (\(span))"
            case (let a?, nil): return "gap between \(a) and the end of the practice section (\(span))"
            case (nil, nil): return "the practice section (\(span)) has no phases"
            }
        }
    }

    /// `phases 4 and 5`, `sections intro and practice`, or `phase 0 and section outro`.
    private static func pair(_ a: Span, _ b: Span) -> String {
        switch (a, b) {
        case (.phase(let i), .phase(let j)): "phases \(i) and \(j)"
        case (.section(let x), .section(let y)): "sections \(x) and \(y)"
        default: "\(a) and \(b)"
        }
    }
}

extension CueSheetError: LocalizedError {
    /// `description`, so that `localizedDescription` is the message.
    public var errorDescription: String? { description }
}
