/// A cue sheet (cues-v1): the phases of a rendered track in frames, for players.
///
/// Frames are the truth; every time in seconds is `frame / sample_rate`.
/// This module has no C dependencies so that player apps (iOS, macOS) can use it.
/// Its JSON is read by `decode(from:)` and written by `jsonText()`, both through the key
/// enums of CueSheetKeys.swift (`CueSheet.Key`, `Audio.Key`, …), where each key is named once.
public struct CueSheet: Sendable, Equatable {
    public var format: String = "session-cues"
    public var version: Int = 1
    public var id: String
    public var title: String
    public var category: String?
    public var audio: Audio
    public var pattern: PatternInfo
    public var sections: [Section]
    public var phases: [Phase]
    public var cues: [Cue]

    public init(
        id: String, title: String, category: String?, audio: Audio, pattern: PatternInfo,
        sections: [Section], phases: [Phase], cues: [Cue]
    ) {
        self.id = id
        self.title = title
        self.category = category
        self.audio = audio
        self.pattern = pattern
        self.sections = sections
        self.phases = phases
        self.cues = cues
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
        public var startFrame: Int64
        public var endFrame: Int64
        public var start: Double
        public var end: Double
        public init(kind: String, startFrame: Int64, endFrame: Int64, sampleRate: Int) {
            self.kind = kind
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.start = Double(startFrame) / Double(sampleRate)
            self.end = Double(endFrame) / Double(sampleRate)
        }
    }

    public struct Phase: Sendable, Equatable {
        public var index: Int
        public var cycle: Int
        public var kind: String
        public var label: String
        public var startFrame: Int64
        public var endFrame: Int64
        public var start: Double
        public var end: Double
        public init(index: Int, cycle: Int, kind: String, label: String, startFrame: Int64, endFrame: Int64, sampleRate: Int) {
            self.index = index
            self.cycle = cycle
            self.kind = kind
            self.label = label
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
}
