import Foundation

extension CueSheet {
    /// The value of `format` in every cue sheet.
    public static let formatName = "session-cues"

    /// The major version this reader understands: 1.
    ///
    /// `version` is a JSON number. Any number whose whole part is 1 is accepted: `1` (cues-v1),
    /// `1.1` (cues-v1.1's keys), and any later 1.x, since version 1 only gains keys and this reader
    /// ignores those it does not know. Any other major version is refused with
    /// `CueSheetError.unsupportedVersion`. The decoded sheet's `version` is the major version and
    /// its `minorVersion` the digits after the point (`1.1` → 1), so the sheet writes back as it was.
    public static let supportedVersion = 1

    /// Reads and validates a cue sheet (cues-v1, cues-v1.1 or cues-v1.2) from its JSON bytes.
    ///
    /// This is the entry point: `CueSheet` is not `Decodable`, and needs no `JSONDecoder`.
    /// In order: the bytes must be JSON (UTF-8, strict RFC 8259; a byte order mark is skipped);
    /// `format` must be `session-cues`; the major version must be `supportedVersion`, checked
    /// before anything else so a later version is reported as such rather than as a missing key;
    /// then every key of cues-v1, cues-v1.1 and cues-v1.2 is read with its type (integers must be whole
    /// numbers, `4.8e5` and `480000.0` included; times finite numbers; `category`,
    /// `loudness_lufs` and `true_peak_dbtp` may be null or absent, and so may every cues-v1.1
    /// and cues-v1.2 key); keys it does not know are ignored wherever they are; last, `validate()`.
    ///
    /// Times in seconds are kept as written and pattern lengths as exact decimals, so
    /// `jsonText()` of a sheet the renderer wrote gives back its bytes exactly. O(n) in the
    /// size of the document.
    ///
    /// - Throws: `CueSheetError`: `.malformed` (with a 1-based line and column) for bytes that are
    ///   not JSON, `.notACueSheet`, `.unsupportedVersion`, `.missingKey` and `.typeMismatch`
    ///   while reading, and whatever `validate()` finds.
    public static func decode(from data: Data) throws(CueSheetError) -> CueSheet {
        let root = try JSONObjectReader(try JSONParser.parse([UInt8](data)), path: "")
        let format = try root.string(Key.format)
        guard format == formatName else { throw .notACueSheet(format: format) }
        var sheet = try CueSheet(reading: root, version: try majorVersion(root))
        sheet.minorVersion = Self.minorVersion(written: try root.majorVersion(Key.version).written)
        try sheet.validate()
        return sheet
    }

    /// Reads and validates a cue sheet from JSON text: `decode(from: Data(text.utf8))`.
    ///
    /// - Throws: `CueSheetError`, as `decode(from:)` for data.
    public static func decode(from text: String) throws(CueSheetError) -> CueSheet {
        try decode(from: Data(text.utf8))
    }

    /// The major version, if it is the supported one.
    private static func majorVersion(_ root: JSONObjectReader) throws(CueSheetError) -> Int {
        let version = try root.majorVersion(Key.version)
        guard version.major == Int64(supportedVersion) else { throw .unsupportedVersion(version.written) }
        return supportedVersion
    }

    /// The minor version of a version number as written: `1` and `1.0` are 0, `1.1` is 1.
    private static func minorVersion(written: String) -> Int {
        guard let dot = written.firstIndex(of: ".") else { return 0 }
        let digits = written[written.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits.prefix(9)) ?? 0
    }

    // Each stored property is read by its key (CueSheetKeys.swift), in the keys' order, so the first
    // problem reported is the first in the order the keys are written.

    private init(reading root: JSONObjectReader, version: Int) throws(CueSheetError) {
        self.format = Self.formatName
        self.version = version
        self.id = try root.string(Key.id)
        self.session = try root.optionalString(Key.session)
        self.locale = try root.optionalString(Key.locale)
        self.title = try root.string(Key.title)
        self.category = try root.optionalString(Key.category)
        self.audio = try Audio(reading: try root.object(Key.audio))
        self.pattern = try PatternInfo(reading: try root.object(Key.pattern))
        self.guide = try root.optionalObject(Key.guide).map { (o) throws(CueSheetError) in try Guide(reading: o) }
        self.sections = try root.objects(Key.sections).map(Section.init(reading:))
        self.phases = try root.objects(Key.phases).map(Phase.init(reading:))
        self.cues = try root.objects(Key.cues).map(Cue.init(reading:))
        self.voice = try root.optionalObjects(Key.voice)?.map(VoicePrompt.init(reading:))
    }
}

extension CueSheet.Guide {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        let text = try o.string(Key.shape)
        guard let shape = BreathShape(rawValue: text) else {
            throw .invalidValue(path: o.path(Key.shape), reason: "expected sine or linear, found \(JSONText.string(text))")
        }
        self.init(shape: shape)
    }
}

extension CueSheet.Audio {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.file = try o.string(Key.file)
        self.sampleRate = try o.int(Key.sampleRate)
        self.channels = try o.int(Key.channels)
        self.frames = try o.int64(Key.frames)
        self.duration = try o.double(Key.duration)
        self.sha256 = try o.string(Key.sha256)
        self.loudnessLUFS = try o.optionalDouble(Key.loudnessLUFS)
        self.truePeakDBTP = try o.optionalDouble(Key.truePeakDBTP)
    }
}

extension CueSheet.PatternInfo {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.name = try o.string(Key.name)
        self.cycle = try o.decimal(Key.cycle)
        self.phases = try o.objects(Key.phases).map(CueSheet.PatternPhase.init(reading:))
    }
}

extension CueSheet.PatternPhase {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.kind = try o.string(Key.kind)
        self.label = try o.string(Key.label)
        self.length = try o.decimal(Key.length)
    }
}

extension CueSheet.Section {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.kind = try o.string(Key.kind)
        self.segment = try o.optionalInt(Key.segment)
        self.name = try o.optionalString(Key.name)
        self.startFrame = try o.int64(Key.startFrame)
        self.endFrame = try o.int64(Key.endFrame)
        self.start = try o.double(Key.start)
        self.end = try o.double(Key.end)
        self.ramp = try o.optionalObject(Key.ramp).map { r throws(CueSheetError) in try CueSheet.Ramp(reading: r) }
    }
}

extension CueSheet.Ramp {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.fromBPM = try o.decimal(Key.fromBPM)
        self.toBPM = try o.decimal(Key.toBPM)
        self.over = try o.int(Key.over)
    }
}

extension CueSheet.Phase {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.index = try o.int(Key.index)
        self.segment = try o.optionalInt(Key.segment)
        self.cycle = try o.int(Key.cycle)
        self.kind = try o.string(Key.kind)
        self.label = try o.string(Key.label)
        self.guide = try o.optionalString(Key.guide).map { (text) throws(CueSheetError) in
            guard let guide = BreathGuide(rawValue: text) else {
                throw .invalidValue(path: o.path(Key.guide), reason: "expected rise, fall, hold or none, found \(JSONText.string(text))")
            }
            return guide
        }
        self.length = try o.optionalDecimal(Key.length)
        self.startFrame = try o.int64(Key.startFrame)
        self.endFrame = try o.int64(Key.endFrame)
        self.start = try o.double(Key.start)
        self.end = try o.double(Key.end)
    }
}

extension CueSheet.Cue {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.name = try o.string(Key.name)
        self.phase = try o.int(Key.phase)
        self.frame = try o.int64(Key.frame)
        self.lengthFrames = try o.int64(Key.lengthFrames)
        self.time = try o.double(Key.time)
    }
}

extension CueSheet.VoicePrompt {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.index = try o.int(Key.index)
        self.text = try o.optionalString(Key.text)
        self.file = try o.optionalString(Key.file)
        self.draft = try o.bool(Key.draft)
        self.phase = try o.optionalInt(Key.phase)
        self.frame = try o.int64(Key.frame)
        self.lengthFrames = try o.int64(Key.lengthFrames)
        self.time = try o.double(Key.time)
        self.duckDB = try o.double(Key.duckDB)
    }
}
