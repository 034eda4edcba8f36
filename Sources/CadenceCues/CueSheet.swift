/// A cue sheet (cues-v1, with cues-v1.1's and cues-v1.2's additions): the sections, phases, cues and voice prompts
/// of a rendered track in frames, for players.
///
/// Frames are the truth; every time in seconds is `frame / sample_rate`, kept as written.
/// Frame spans are half-open, `startFrame..<endFrame`, counted from 0 at the file's first frame.
/// This module has no C dependencies so that player apps (iOS, macOS) can use it.
/// Its JSON is read by `decode(from:)` and written by `jsonText()`, both through the key
/// enums of CueSheetKeys.swift (`CueSheet.Key`, `Audio.Key`, …), where each key is named once.
/// To look playback positions up in it, build a `CueTimeline`.
public struct CueSheet: Sendable, Equatable {
    /// Always `session-cues` (`formatName`): `validate()` refuses any other value.
    public var format: String = "session-cues"
    /// The major version: 1 (`supportedVersion`); `validate()` refuses any other.
    public var version: Int = 1
    /// The minor version: 0 for a cues-v1 sheet (written `1`), 1 for one with cues-v1.1 keys (written `1.1`),
    /// 2 for one with cues-v1.2 keys (written `1.2`).
    ///
    /// The sheet is written with `writtenMinorVersion`, never less than the keys it holds need, so a
    /// sheet given a `session` says `1.2` whatever this holds; a decoded sheet keeps the minor version
    /// it was written with, so it writes back as it was.
    public var minorVersion: Int = 0
    /// The track's id, as in its recipe and the catalog (`box-breathing-5m`, `sleep-wind-down-de`).
    public var id: String
    /// cues-v1.2: the id of the recipe the track was rendered from, its session (`sleep-wind-down`), for a
    /// recipe with `locales:`; nil otherwise (the key is then left out). Set together with `locale`.
    public var session: String?
    /// cues-v1.2: the track's locale, the BCP 47 tag as its recipe's `locales:` writes it (`de`, `pt-BR`),
    /// for a recipe with `locales:`; nil otherwise (the key is then left out). The sheet's texts (title,
    /// category, labels, voice) are in this language. Set together with `session`.
    public var locale: String?
    /// The track's title, to show (`Box Breathing`).
    public var title: String
    /// The track's category (`Focus`), or nil for none (written `null`).
    public var category: String?
    /// The audio file the sheet belongs to: its name, rate, length in frames, hash and levels.
    public var audio: Audio
    /// The breathing pattern as the recipe names it: one cycle's phases and lengths.
    ///
    /// A program's sheet describes its first segment's pattern here. With a ramp or a program
    /// the phases played differ from it: `phases` has each one as played.
    public var pattern: PatternInfo
    /// cues-v1.2: the breath envelope's shape, when the track has breath guidance (recipe-v1.2 §
    /// Breath guidance); every phase then has its `guide`, and `CueTimeline.guide(atFrame:)` gives
    /// E, how full the breath is. Nil: no envelope (the key is left out).
    public var guide: Guide?
    /// The intro, the practice and the outro as frame spans, in that order; a section of zero
    /// length may be left out. A program (cues-v1.1) has one practice section per segment.
    public var sections: [Section]
    /// Every phase played, in order: together they cover the practice with no gap and no overlap
    /// (each one's `endFrame` is the next one's `startFrame`).
    public var phases: [Phase]
    /// The sounds placed on phases (tones, ticks): the frame each starts at and how long it sounds.
    public var cues: [Cue]
    /// The voice prompts in frame order (cues-v1.1); nil in a sheet without the key.
    public var voice: [VoicePrompt]?

    /// Makes a sheet from its parts, as the renderer builds one.
    ///
    /// `format` and `version` take their only values; `minorVersion` is 1 when `voice` is given,
    /// else 0 (set it to 1 for a sheet with other cues-v1.1 keys: segments, ramps, phase lengths).
    /// `session` and `locale` (cues-v1.2) are given for a rendition of a recipe with `locales:`, and
    /// make the sheet say `1.2` (see `writtenMinorVersion`).
    /// Nothing is checked: call `validate()`, or build a `CueTimeline`, before relying on it.
    public init(
        id: String, session: String? = nil, locale: String? = nil, title: String, category: String?, audio: Audio, pattern: PatternInfo,
        sections: [Section], phases: [Phase], cues: [Cue], voice: [VoicePrompt]? = nil
    ) {
        self.id = id
        self.session = session
        self.locale = locale
        self.title = title
        self.category = category
        self.audio = audio
        self.pattern = pattern
        self.sections = sections
        self.phases = phases
        self.cues = cues
        self.voice = voice
        self.minorVersion = voice == nil ? 0 : 1
    }

    /// The top-level `guide` object (cues-v1.2): how a player computes the breath envelope.
    public struct Guide: Sendable, Equatable {
        /// How E moves inside a rising or falling phase.
        public var shape: BreathShape

        /// A guide of `shape`.
        public init(shape: BreathShape) { self.shape = shape }
    }

    /// The `audio` object: the file the sheet describes.
    public struct Audio: Sendable, Equatable {
        /// The audio file's name as written, without a folder (`box-breathing-5m.flac`).
        public var file: String
        /// Frames per second, in Hz (`48000`): the rate of every frame number in the sheet; above 0.
        public var sampleRate: Int
        /// The file's channels (2 for stereo); above 0.
        public var channels: Int
        /// The file's length in frames (a frame holds one sample per channel); not negative.
        public var frames: Int64
        /// The file's length in seconds, `frames / sampleRate`: `validate()` checks it gives `frames` back.
        public var duration: Double
        /// The SHA-256 of the audio file's bytes, as hex digits: to tell that the sheet belongs to the file.
        public var sha256: String
        /// The file's integrated loudness in LUFS (EBU R128; the renderer rounds it to 0.01), or nil (`null`)
        /// when the sheet has none. Finite: `validate()` refuses NaN and infinities, which JSON cannot hold.
        public var loudnessLUFS: Double?
        /// The file's true peak in dBTP (rounded to 0.01 by the renderer), or nil (`null`) when the sheet has
        /// none. Finite, like `loudnessLUFS`.
        public var truePeakDBTP: Double?

        /// Makes the `audio` object; `duration` is computed, `frames / sampleRate`. Nothing is checked.
        public init(
            file: String, sampleRate: Int, channels: Int, frames: Int64, sha256: String,
            loudnessLUFS: Double?, truePeakDBTP: Double?
        ) {
            self.file = file
            self.sampleRate = sampleRate
            self.channels = channels
            self.frames = frames
            self.duration = Double(frames) / Double(sampleRate)
            self.sha256 = sha256
            self.loudnessLUFS = loudnessLUFS
            self.truePeakDBTP = truePeakDBTP
        }
    }

    /// The `pattern` object: the breathing pattern as the recipe names it.
    public struct PatternInfo: Sendable, Equatable {
        /// The pattern's name (`Box Breathing`).
        public var name: String
        /// One cycle's exact length in seconds, as a decimal text (`16`, `5.5`).
        public var cycle: DecimalText
        /// One cycle's phases in order, with their lengths as the recipe gives them.
        public var phases: [PatternPhase]
        /// Makes the `pattern` object.
        public init(name: String, cycle: DecimalText, phases: [PatternPhase]) {
            self.name = name
            self.cycle = cycle
            self.phases = phases
        }
    }

    /// One phase of `pattern.phases`: its kind, label and length.
    public struct PatternPhase: Sendable, Equatable {
        /// What the breath does: `inhale`, `hold`, `exhale`, or the recipe's own word (not checked).
        public var kind: String
        /// The words to show (`Breathe In`).
        public var label: String
        /// Its exact length in seconds (`4`, `5.5`).
        public var length: DecimalText
        /// Makes a pattern phase.
        public init(kind: String, label: String, length: DecimalText) {
            self.kind = kind
            self.label = label
            self.length = length
        }
    }

    /// The kinds of section, in the order they come in a track.
    public enum SectionKind: String, Sendable, CaseIterable, Comparable {
        /// Before the practice: settling in, without phases.
        case intro
        /// The breathing itself, covered by `phases`; a program (cues-v1.1) has one per segment.
        case practice
        /// After the practice.
        case outro

        private var order: Int {
            switch self {
            case .intro: 0
            case .practice: 1
            case .outro: 2
            }
        }

        /// Whether `a` comes before `b` in a track: intro, then practice, then outro.
        public static func < (a: SectionKind, b: SectionKind) -> Bool { a.order < b.order }
    }

    /// One of `sections`: a span of the file, in frames, and its kind.
    public struct Section: Sendable, Equatable {
        /// `intro`, `practice` or `outro` (see `SectionKind`).
        public var kind: String
        /// cues-v1.1, on practice sections: the program segment, from 0 (nil in a v1 sheet).
        public var segment: Int?
        /// cues-v1.1, on practice sections: the segment's name (a program segment's `label`, or its
        /// pattern's name); nil in a v1 sheet.
        public var name: String?
        /// Its first frame, counting from 0 at the start of the file.
        public var startFrame: Int64
        /// The frame just after its last: the section is `startFrame..<endFrame`, empty when they are equal.
        public var endFrame: Int64
        /// `startFrame / sampleRate`, in seconds.
        public var start: Double
        /// `endFrame / sampleRate`, in seconds.
        public var end: Double
        /// cues-v1.1, on a ramped segment's section: the rates it moves between.
        public var ramp: Ramp?
        /// Makes a section; `start` and `end` are computed from the frames and `sampleRate`. Nothing is checked.
        public init(
            kind: String, segment: Int? = nil, name: String? = nil, startFrame: Int64, endFrame: Int64, sampleRate: Int, ramp: Ramp? = nil
        ) {
            self.kind = kind
            self.segment = segment
            self.name = name
            self.ramp = ramp
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.start = Double(startFrame) / Double(sampleRate)
            self.end = Double(endFrame) / Double(sampleRate)
        }
    }

    /// A ramped segment's breath rates (cues-v1.1): cycle k runs at from + (to − from) × min(k, over) / over
    /// breaths a minute, k counted from 0 in the segment.
    public struct Ramp: Sendable, Equatable {
        /// The pattern's own rate, 60 / its cycle in seconds (to 6 decimals).
        public var fromBPM: DecimalText
        /// The target rate, as the recipe gives it.
        public var toBPM: DecimalText
        /// The cycles the rate moves over: from cycle `over` of the segment on, it is `toBPM`.
        public var over: Int
        /// Makes a ramp.
        public init(fromBPM: DecimalText, toBPM: DecimalText, over: Int) {
            self.fromBPM = fromBPM
            self.toBPM = toBPM
            self.over = over
        }
    }

    /// One of `phases`: a phase as played, in frames.
    public struct Phase: Sendable, Equatable {
        /// Its position in `phases`, from 0.
        public var index: Int
        /// cues-v1.1: the program segment it belongs to, from 0 (nil in a v1 sheet).
        public var segment: Int?
        /// The breath cycle it belongs to, from 0; it never decreases within a segment.
        public var cycle: Int
        /// What the breath does: `inhale`, `hold`, `exhale`, the recipe's own word, or `transition`
        /// between two program segments (cues-v1.1). Not checked.
        public var kind: String
        /// The words to show (`Breathe In`).
        public var label: String
        /// cues-v1.2: how the phase moves the breath envelope; nil in a sheet without `guide`.
        public var guide: BreathGuide?
        /// cues-v1.1: the phase's own exact length in seconds (nil in a v1 sheet); with a ramp, it
        /// differs from the pattern's.
        public var length: DecimalText?
        /// Its first frame, counting from 0 at the start of the file.
        public var startFrame: Int64
        /// The frame just after its last, above `startFrame`: the next phase's `startFrame`.
        public var endFrame: Int64
        /// `startFrame / sampleRate`, in seconds.
        public var start: Double
        /// `endFrame / sampleRate`, in seconds.
        public var end: Double
        /// Makes a phase; `start` and `end` are computed from the frames and `sampleRate`. Nothing is checked.
        public init(
            index: Int, segment: Int? = nil, cycle: Int, kind: String, label: String, guide: BreathGuide? = nil, length: DecimalText? = nil,
            startFrame: Int64, endFrame: Int64, sampleRate: Int
        ) {
            self.index = index
            self.segment = segment
            self.cycle = cycle
            self.kind = kind
            self.label = label
            self.guide = guide
            self.length = length
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.start = Double(startFrame) / Double(sampleRate)
            self.end = Double(endFrame) / Double(sampleRate)
        }
    }

    /// One of `cues`: a sound placed on a phase (a tone, a tick).
    public struct Cue: Sendable, Equatable {
        /// The cue's name in the recipe (`inhale`, `start`, `tick`).
        public var name: String
        /// The index in `phases` of the phase it is placed on.
        public var phase: Int
        /// The frame it starts at, inside the file (`0..<audio.frames`).
        public var frame: Int64
        /// How many frames it sounds; not negative, and it may last past its phase.
        public var lengthFrames: Int64
        /// `frame / sampleRate`, in seconds.
        public var time: Double
        /// Makes a cue; `time` is computed from `frame` and `sampleRate`. Nothing is checked.
        public init(name: String, phase: Int, frame: Int64, lengthFrames: Int64, sampleRate: Int) {
            self.name = name
            self.phase = phase
            self.frame = frame
            self.lengthFrames = lengthFrames
            self.time = Double(frame) / Double(sampleRate)
        }
    }

    /// A voice prompt (cues-v1.1): what it says, its clip, and the frames it sounds on.
    public struct VoicePrompt: Sendable, Equatable {
        /// Its position in `voice`, counting from 0 in frame order.
        public var index: Int
        /// What it says; nil for a clip given without words.
        public var text: String?
        /// The clip's path in the assets folder; nil for a draft (spoken by the draft voice).
        public var file: String?
        /// Whether it is a draft: text not recorded yet, spoken by the draft voice (espeak-ng); its `file` is nil.
        public var draft: Bool
        /// The phase it is placed on (prompts placed with `on:`), nil otherwise.
        public var phase: Int?
        /// Its first frame, counting from 0 at the start of the file.
        public var frame: Int64
        /// How many frames it sounds; above 0.
        public var lengthFrames: Int64
        /// `frame / sampleRate`, in seconds.
        public var time: Double
        /// How far the bed is lowered under it, in dB.
        public var duckDB: Double

        /// Makes a prompt; `time` is computed from `frame` and `sampleRate`. Nothing is checked.
        public init(
            index: Int, text: String?, file: String?, draft: Bool, phase: Int?, frame: Int64, lengthFrames: Int64, duckDB: Double,
            sampleRate: Int
        ) {
            self.index = index
            self.text = text
            self.file = file
            self.draft = draft
            self.phase = phase
            self.frame = frame
            self.lengthFrames = lengthFrames
            self.time = Double(frame) / Double(sampleRate)
            self.duckDB = duckDB
        }

        /// The first frame after it: `frame + length_frames`.
        public var endFrame: Int64 { frame + lengthFrames }
    }
}
