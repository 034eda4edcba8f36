import Foundation

extension CueSheet {
    /// The value of `format` in every cue sheet.
    public static let formatName = "session-cues"

    /// The major version this reader understands.
    ///
    /// `version` is a JSON number. Any number whose whole part is 1 is accepted (`1`, and
    /// `1.1` should a writer ever add a minor): version 1 only gains keys, which this reader
    /// ignores. Any other major version is refused with `CueSheetError.unsupportedVersion`.
    /// The decoded sheet's `version` is the major version, so a `1.1` sheet writes back as `1`.
    public static let supportedVersion = 1

    /// Reads and validates a cue sheet (cues-v1) from its JSON bytes.
    ///
    /// In order: the bytes must be JSON; `format` must be `session-cues`; the major
    /// version must be `supportedVersion`, checked before anything else so a later
    /// version is reported as such rather than as a missing key; then every key of
    /// cues-v1 is read with its type (integers must be whole numbers, times finite
    /// numbers; `category`, `loudness_lufs` and `true_peak_dbtp` may be null or absent);
    /// keys not in cues-v1 are ignored wherever they are; last, `validate()`.
    ///
    /// Times in seconds are kept as written and pattern lengths as exact decimals, so
    /// `jsonText()` of a sheet the renderer wrote gives back its bytes exactly.
    public static func decode(from data: Data) throws(CueSheetError) -> CueSheet {
        let root = try JSONObjectReader(try JSONParser.parse([UInt8](data)), path: "")
        let format = try root.string("format")
        guard format == formatName else { throw .notACueSheet(format: format) }
        let sheet = try CueSheet(reading: root, version: try majorVersion(root))
        try sheet.validate()
        return sheet
    }

    /// Reads and validates a cue sheet from JSON text; see `decode(from:)` for data.
    public static func decode(from text: String) throws(CueSheetError) -> CueSheet {
        try decode(from: Data(text.utf8))
    }

    /// The major version, if it is the supported one.
    private static func majorVersion(_ root: JSONObjectReader) throws(CueSheetError) -> Int {
        let value = try root.required("version")
        guard case .number(let text) = value, let exact = ExactDecimal(text) else {
            throw .typeMismatch(path: "version", expected: "a number", found: value.found)
        }
        guard !exact.negative, exact.wholePart == Int64(supportedVersion) else { throw .unsupportedVersion(text) }
        return supportedVersion
    }

    private init(reading root: JSONObjectReader, version: Int) throws(CueSheetError) {
        self.format = Self.formatName
        self.version = version
        self.id = try root.string("id")
        self.title = try root.string("title")
        self.category = try root.optionalString("category")
        self.audio = try Audio(reading: try root.object("audio"))
        self.pattern = try PatternInfo(reading: try root.object("pattern"))
        self.sections = try root.objects("sections").map(Section.init(reading:))
        self.phases = try root.objects("phases").map(Phase.init(reading:))
        self.cues = try root.objects("cues").map(Cue.init(reading:))
    }
}

extension CueSheet.Audio {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.file = try o.string("file")
        self.sampleRate = try o.int("sample_rate")
        self.channels = try o.int("channels")
        self.frames = try o.int64("frames")
        self.duration = try o.double("duration")
        self.sha256 = try o.string("sha256")
        self.loudnessLUFS = try o.optionalDouble("loudness_lufs")
        self.truePeakDBTP = try o.optionalDouble("true_peak_dbtp")
    }
}

extension CueSheet.PatternInfo {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.name = try o.string("name")
        self.cycle = try o.decimal("cycle")
        self.phases = try o.objects("phases").map(CueSheet.PatternPhase.init(reading:))
    }
}

extension CueSheet.PatternPhase {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.kind = try o.string("kind")
        self.label = try o.string("label")
        self.length = try o.decimal("length")
    }
}

extension CueSheet.Section {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.kind = try o.string("kind")
        self.startFrame = try o.int64("start_frame")
        self.endFrame = try o.int64("end_frame")
        self.start = try o.double("start")
        self.end = try o.double("end")
    }
}

extension CueSheet.Phase {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.index = try o.int("index")
        self.cycle = try o.int("cycle")
        self.kind = try o.string("kind")
        self.label = try o.string("label")
        self.startFrame = try o.int64("start_frame")
        self.endFrame = try o.int64("end_frame")
        self.start = try o.double("start")
        self.end = try o.double("end")
    }
}

extension CueSheet.Cue {
    fileprivate init(reading o: JSONObjectReader) throws(CueSheetError) {
        self.name = try o.string("name")
        self.phase = try o.int("phase")
        self.frame = try o.int64("frame")
        self.lengthFrames = try o.int64("length_frames")
        self.time = try o.double("time")
    }
}
