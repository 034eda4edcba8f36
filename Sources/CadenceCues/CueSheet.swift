/// A cue sheet (cues-v1): the phases of a rendered track in frames, for players.
///
/// Frames are the truth; every time in seconds is `frame / sample_rate`.
/// This module has no C dependencies so that player apps (iOS, macOS) can use it.
/// Its JSON is read by `decode(from:)` and written by `jsonText()`, both through the key
/// enums of CueSheetKeys.swift (`CueSheet.Key`, `Audio.Key`, …), where each key is named once.
public struct CueSheet: Sendable, Equatable {
    public var format: String = "session-cues"
    /// The major version (1).
    public var version: Int = 1
    /// The minor version: 0 for a cues-v1 sheet (written `1`), 1 for one with cues-v1.1 keys (written `1.1`).
    public var minorVersion: Int = 0
    public var id: String
    public var title: String
    public var category: String?
    public var audio: Audio
    public var pattern: PatternInfo
    public var sections: [Section]
    public var phases: [Phase]
    public var cues: [Cue]
    /// The voice prompts in frame order (cues-v1.1); nil in a sheet without the key.
    public var voice: [VoicePrompt]?

    public init(
        id: String, title: String, category: String?, audio: Audio, pattern: PatternInfo,
        sections: [Section], phases: [Phase], cues: [Cue], voice: [VoicePrompt]? = nil
    ) {
        self.id = id
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

    public struct Audio: Sendable, Equatable {
        public var file: String
        public var sampleRate: Int
        public var channels: Int
        public var frames: Int64
        public var duration: Double
        public var sha256: String
        public var loudnessLUFS: Double?
        public var truePeakDBTP: Double?

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

    public struct PatternInfo: Sendable, Equatable {
        public var name: String
        /// One cycle's exact length in seconds, as a decimal text (`16`, `5.5`).
        public var cycle: DecimalText
        public var phases: [PatternPhase]
        public init(name: String, cycle: DecimalText, phases: [PatternPhase]) {
            self.name = name
            self.cycle = cycle
            self.phases = phases
        }
    }

    public struct PatternPhase: Sendable, Equatable {
        public var kind: String
        public var label: String
        public var length: DecimalText
        public init(kind: String, label: String, length: DecimalText) {
            self.kind = kind
            self.label = label
            self.length = length
        }
    }

    /// The kinds of section, in the order they come in a track.
    public enum SectionKind: String, Sendable, CaseIterable, Comparable {
        case intro, practice, outro

        private var order: Int {
            switch self {
            case .intro: 0
            case .practice: 1
            case .outro: 2
            }
        }

        public static func < (a: SectionKind, b: SectionKind) -> Bool { a.order < b.order }
    }

    public struct Section: Sendable, Equatable {
        /// `intro`, `practice` or `outro` (see `SectionKind`).
        public var kind: String
        /// cues-v1.1, on practice sections: the program segment, from 0 (nil in a v1 sheet).
        public var segment: Int?
        /// cues-v1.1, on practice sections: the segment's name.
        public var name: String?
        public var startFrame: Int64
        public var endFrame: Int64
        public var start: Double
        public var end: Double
        /// cues-v1.1, on a ramped segment's section: the rates it moves between.
        public var ramp: Ramp?
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
        /// The cycles the rate moves over.
        public var over: Int
        public init(fromBPM: DecimalText, toBPM: DecimalText, over: Int) {
            self.fromBPM = fromBPM
            self.toBPM = toBPM
            self.over = over
        }
    }

    public struct Phase: Sendable, Equatable {
        public var index: Int
        /// cues-v1.1: the program segment it belongs to, from 0 (nil in a v1 sheet).
        public var segment: Int?
        public var cycle: Int
        public var kind: String
        public var label: String
        /// cues-v1.1: the phase's own exact length in seconds (nil in a v1 sheet).
        public var length: DecimalText?
        public var startFrame: Int64
        public var endFrame: Int64
        public var start: Double
        public var end: Double
        public init(
            index: Int, segment: Int? = nil, cycle: Int, kind: String, label: String, length: DecimalText? = nil, startFrame: Int64,
            endFrame: Int64, sampleRate: Int
        ) {
            self.index = index
            self.segment = segment
            self.cycle = cycle
            self.kind = kind
            self.label = label
            self.length = length
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.start = Double(startFrame) / Double(sampleRate)
            self.end = Double(endFrame) / Double(sampleRate)
        }
    }

    public struct Cue: Sendable, Equatable {
        public var name: String
        public var phase: Int
        public var frame: Int64
        public var lengthFrames: Int64
        public var time: Double
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
        public var draft: Bool
        /// The phase it is placed on (prompts placed with `on:`), nil otherwise.
        public var phase: Int?
        /// Its first frame.
        public var frame: Int64
        /// How many frames it sounds.
        public var lengthFrames: Int64
        public var time: Double
        /// How far the bed is lowered under it, in dB.
        public var duckDB: Double

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
