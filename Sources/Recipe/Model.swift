import AudioCore
import CadenceCues

/// A session recipe (recipe-v1), validated, with every default filled in.
///
/// Seconds live here as exact decimals (`ExactSeconds`); nothing in the model is
/// a frame yet. `locations` remembers where each key was written, so that later
/// stages (timeline, assets) can still report `file:line:col`.
public struct Recipe: Sendable {
    /// The recipe file as shown in diagnostics (as given on the command line).
    public var file: String
    public var id: String
    public var title: String
    public var category: String?
    public var premium: Bool
    public var sortOrder: Int?
    /// Whether the app ships the track or fetches it (recipe-v1.1 § Catalog delivery).
    public var delivery: Delivery

    public var length: Length
    public var endOn: EndOn
    /// The pattern of a recipe without `program:`; with one, the first segment's (the title's default).
    public var pattern: Pattern
    /// `ramp:` at the top level, for the one pattern of a recipe without `program:` (recipe-v1.1 § Ramps).
    public var ramp: Ramp?
    /// The segments of `program:` (recipe-v1.1 § Programs), in order; nil: one pattern, `pattern`.
    public var program: [Segment]?
    public var intro: ExactSeconds
    public var outro: ExactSeconds

    /// The bed's layers, summed (recipe-v1.1 § Beds: `bed:` as a list); empty: no bed, silence under the cues.
    public var beds: [Bed] = []
    /// The bed of a recipe with one layer (`bed:` as a mapping); nil: no bed. Setting it replaces every layer.
    public var bed: Bed? {
        get { beds.first }
        set { beds = newValue.map { [$0] } ?? [] }
    }
    /// Whether `bed:` was written as a list (its keys are then `bed.0.file`, `bed.1.gain`, …).
    public var bedIsLayered = false
    /// What sounds when a phase of a kind starts, plus `start` and `end`.
    /// Kinds absent here are silent; `none` is stored as absent.
    public var cues: [String: CueSound]
    /// Where the `tick` cue (its sound is `cues["tick"]`) sounds inside phases (recipe-v1.1 § Ticks); nil: no ticks.
    public var ticks: Ticks?
    /// `until:` and `cycles:` of the cues that sound for only part of the session, by cue name;
    /// a cue absent here sounds at every onset. A cues-wide limit is already merged into each cue.
    public var cueLimits: [String: CueLimit] = [:]
    /// Spoken prompts and how the bed ducks under them (recipe-v1.1); nil: no voice.
    public var voice: Voice?

    public var output: OutputSettings

    /// `guide:` (recipe-v1.2 § Breath guidance): how each phase kind moves the breath; nil: not written
    /// (the defaults hold where the envelope is on).
    public var guide: BreathGuideSettings?
    /// `swell:`: a continuous sound whose amplitude follows the envelope; nil: none.
    public var swell: Swell?
    /// `haptics: on`: write OUT.ahap and OUT.haptics.json.
    public var haptics = false

    /// Whether the recipe turns the breath envelope on: any of `guide:`, `swell:`, `haptics: on`
    /// (`--sidecars` naming `ahap` or `haptics` turns it on too, at render time). Without it the
    /// outputs are what they were before recipe-v1.2.
    public var breathEnvelopeOn: Bool { guide != nil || swell != nil || haptics }
    /// The guide the envelope follows: `guide:` as written, the defaults for what it leaves out.
    public var breathGuide: BreathGuideSettings { guide ?? .defaults }
    /// Every phase kind of the recipe's patterns, each once (with `program:`, `transition` too):
    /// the kinds `guide:` may name.
    public var phaseKinds: Set<String> {
        guard let program else { return Set(pattern.phases.map(\.kind)) }
        return Set(program.flatMap { $0.pattern.phases.map(\.kind) } + [Segment.transitionKind])
    }

    /// Where each key was written, by dotted path: `duration`, `bed.file`,
    /// `cues.inhale`, `cues.inhale.tone`, `output.sample_rate`, `pattern.phases.2`…
    /// The location is that of the value (or of the key when the value is absent).
    public var locations: [String: SourceLocation]
    /// `variants.duration`: the lengths of the tracks this recipe makes (`variants()`); empty: one track, `length`.
    public var variantDurations: [ExactSeconds] = []
    /// The recipe's own id when this recipe is one of its variants (`box` for `box-5m`, and for
    /// `box-5m-de`, a variant's rendition in a locale); nil otherwise.
    public var variantOf: String?

    /// `locales:` (recipe-v1.2 § Locales): the tags as written, the first the default; empty: none.
    /// A rendition (`renditions()`) has none: it is resolved to its `locale`.
    public var locales: [String] = []
    /// The locale of a rendition (`renditions()`), its tag as written in `locales:`; nil for a recipe
    /// without `locales:`, and for the recipe as read (which holds its default locale's texts and paths).
    public var locale: String?
    /// `title` per locale (keys: the tags as written in `locales:`), when given as a mapping; empty:
    /// `title` is every locale's. `title` holds the default locale's.
    public var localizedTitle: [String: String] = [:]
    /// `category` per locale, as `localizedTitle`; `category` holds the default locale's.
    public var localizedCategory: [String: String] = [:]
    /// The asset paths written with `{locale}`, as written, by key path (`bed.file`, `bed.1.file`,
    /// `cues.inhale.file`, `voice.prompts.0.file`: the keys of `assetPaths`). The model's own path
    /// there is the default locale's; a rendition has its locale's (and none here).
    public var localizedPaths: [String: String] = [:]
    /// The session's id (the recipe's own, `box` for `box-5m-de`) when it differs from `id`.
    var sessionID: String?
    /// A rendition's `seedText`, the same for every locale of a variant; nil: `canonicalText`.
    var localeFreeText: String?
    /// What the reader noticed and let pass (`true_peak: -1 dB` read as dBTP, an `end` cue with no
    /// outro to sound in), located; `render` and `render --check` print them, in line order.
    public var warnings: [Diagnostic] = []

    public init(
        file: String, id: String, title: String, category: String? = nil, premium: Bool = false,
        sortOrder: Int? = nil, delivery: Delivery = .bundled, length: Length, endOn: EndOn = .cycle, pattern: Pattern,
        intro: ExactSeconds = .zero, outro: ExactSeconds = .zero, bed: Bed? = nil,
        cues: [String: CueSound], voice: Voice? = nil, output: OutputSettings = OutputSettings(),
        locations: [String: SourceLocation] = [:]
    ) {
        self.file = file
        self.id = id
        self.title = title
        self.category = category
        self.premium = premium
        self.sortOrder = sortOrder
        self.delivery = delivery
        self.length = length
        self.endOn = endOn
        self.pattern = pattern
        self.intro = intro
        self.outro = outro
        self.beds = bed.map { [$0] } ?? []
        self.cues = cues
        self.voice = voice
        self.output = output
        self.locations = locations
    }

    /// Delivers the track as `format` (`render --format m4a`): the recipe's masters stay as they
    /// are written, the catalog ships another format. The recipe's bit depth and bit rate still
    /// apply where the format takes them, and are refused at their lines where it does not.
    public mutating func deliver(as format: AudioFormat) {
        output.format = format
    }

    /// The location of a key path, falling back to its parents, then to line 1.
    public func location(of keyPath: String) -> SourceLocation {
        var path = keyPath
        while true {
            if let found = locations[path] { return found }
            guard let dot = path.lastIndex(of: ".") else { break }
            path = String(path[..<dot])
        }
        return SourceLocation(file: file, line: 1, column: 1)
    }
}

/// How the length of the track is given: `duration:` or `cycles:` (exactly one).
public enum Length: Sendable, Equatable {
    case duration(ExactSeconds)
    case cycles(Int)
    /// A program without a top-level `duration`: intro + every segment + outro.
    case program
}

/// `end_on`: with `duration`, the practice holds whole cycles (default) or whole phases.
public enum EndOn: String, Sendable, CaseIterable {
    case cycle, phase
}

/// One phase of a pattern's cycle.
public struct Phase: Sendable, Equatable {
    /// `inhale`, `hold`, `exhale`, `rest`, `work`, `short_break`, `long_break` or any word.
    public var kind: String
    public var length: ExactSeconds
    /// Shown to the listener: `Breathe In`. With `label` per locale, the default locale's.
    public var label: String
    /// `label` per locale (keys: the tags as written in `locales:`) when given as a mapping; empty: one label.
    public var localizedLabel: [String: String] = [:]

    public init(kind: String, length: ExactSeconds, label: String) {
        self.kind = kind
        self.length = length
        self.label = label
    }
}

/// A cycle of phases, built-in (`box`…) or inline.
public struct Pattern: Sendable, Equatable {
    /// Display name: `Box Breathing`, or the inline `name:`.
    public var name: String
    /// The built-in's key (`box`, `4-7-8`, …), nil for inline patterns.
    public var builtin: String?
    public var phases: [Phase]

    public init(name: String, builtin: String? = nil, phases: [Phase]) {
        self.name = name
        self.builtin = builtin
        self.phases = phases
    }

    /// The exact length of one cycle.
    public var cycle: ExactSeconds { phases.reduce(.zero) { $0 + $1.length } }
}

/// The background bed: a sound file or a synthesized one.
public struct Bed: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A path relative to the assets folder, as written in the recipe.
        case file(String)
        case synth(Synth)
    }
    public var source: Source
    public var gainDB: Double
    public var fadeIn: ExactSeconds
    public var fadeOut: ExactSeconds
    /// Loop seam crossfade; clamped by the renderer to half the bed's length.
    public var crossfade: ExactSeconds

    public init(
        source: Source, gainDB: Double = 0, fadeIn: ExactSeconds = .zero, fadeOut: ExactSeconds = .zero,
        crossfade: ExactSeconds = ExactSeconds(seconds: 1)
    ) {
        self.source = source
        self.gainDB = gainDB
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.crossfade = crossfade
    }
}

/// `swell:` (recipe-v1.2 § Breath guidance): a sine or a noise whose linear amplitude at frame f is
/// the gain (as a factor) × E(f).
public struct Swell: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// `tone:` a sine at this frequency, 20 Hz to below Nyquist.
        case tone(hertz: Double)
        /// `synth:` `pink-noise`, `white-noise` or `brown-noise` (a `Synth` noise case).
        case noise(Synth)
    }
    public var source: Source
    /// At most 0 dB.
    public var gainDB: Double

    public init(source: Source, gainDB: Double = 0) {
        self.source = source
        self.gainDB = gainDB
    }
}

/// Synthesized beds, from a generator seeded by the recipe.
public enum Synth: Sendable, Equatable {
    case pinkNoise, brownNoise, whiteNoise
    case drone(hertz: Double)
    /// `binaural 200 Hz 10 Hz` (recipe-v1.1 § Beds): left carrier − beat/2, right carrier + beat/2.
    case binaural(carrier: Double, beat: Double)
    /// `isochronic 200 Hz 10 Hz`: the carrier pulsed at the beat, on every channel.
    case isochronic(carrier: Double, beat: Double)
}

/// The amplitude shape of a tone cue.
public enum Envelope: String, Sendable, CaseIterable {
    /// Fast attack, long exponential ring-out.
    case bell
    /// Slow raised-cosine swell in and out.
    case soft
    /// A few milliseconds: attack and sharp decay.
    case click
}

/// A synthesized tone.
public struct Tone: Sendable, Equatable {
    public var frequency: Double
    public var length: ExactSeconds
    public var gainDB: Double
    public var envelope: Envelope
    /// Relative amplitudes of the overtones 2f, 3f, … (empty: a pure sine).
    public var harmonics: [Double]

    public init(frequency: Double, length: ExactSeconds, gainDB: Double, envelope: Envelope, harmonics: [Double] = []) {
        self.frequency = frequency
        self.length = length
        self.gainDB = gainDB
        self.envelope = envelope
        self.harmonics = harmonics
    }
}

/// What a cue plays.
/// Where a cue stops (`until: 5m`, `until: end - 10m`) and the cycles it sounds in (`cycles: 1-20`):
/// an onset sounds when it is before `until` and in a chosen cycle (both, when both are given).
public struct CueLimit: Sendable, Equatable {
    /// Onsets at or after this time are silent; nil: no time limit.
    public var until: PromptTime?
    /// Only onsets in these cycles (counted from 1) sound; nil: every cycle. Cycles past the
    /// practice's are allowed (`1-20` of a 15-cycle variant sounds in all 15).
    public var cycles: CycleSelection?

    public init(until: PromptTime? = nil, cycles: CycleSelection? = nil) {
        self.until = until
        self.cycles = cycles
    }

    /// This limit with `other`'s keys where this one has none (a cue's own keys over the cues-wide ones).
    public func over(_ other: CueLimit) -> CueLimit { CueLimit(until: until ?? other.until, cycles: cycles ?? other.cycles) }
}

/// The tick cue's `every` and `on` (recipe-v1.1 § Ticks): it sounds at each phase's start + k × `every`,
/// k = 1, 2, … while before the phase's end, in phases of the kinds listed.
public struct Ticks: Sendable, Equatable {
    /// The time between ticks: at least 100 ms (`RecipeLimits.minTickInterval`).
    public var every: ExactSeconds
    /// The phase kinds that tick, in the order written; nil: every kind.
    public var kinds: [String]?

    /// `every: 1s`, the spec's default.
    public static let defaultEvery = ExactSeconds(seconds: 1)

    public init(every: ExactSeconds = Ticks.defaultEvery, kinds: [String]? = nil) {
        self.every = every
        self.kinds = kinds
    }
}

public enum CueSound: Sendable, Equatable {
    case tone(Tone)
    /// A sound file relative to the assets folder, converted like a bed, never looped.
    case file(String, gainDB: Double)
}

/// `delivery`: the track ships inside the app (`bundled`, the default) or the app fetches it
/// when needed (`on-demand`); `catalog.json` totals the bundled tracks' bytes.
public enum Delivery: String, Sendable, CaseIterable {
    case bundled
    case onDemand = "on-demand"
}

/// The `output:` mapping.
public struct OutputSettings: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// nil: from the `-o` extension.
    public var format: AudioFormat?
    /// nil: the format's default (24, or 16 where a format only takes 16).
    public var bitDepth: BitDepth?
    /// Integrated loudness target in LUFS; nil is `loudness: off`.
    public var loudness: Double?
    /// True-peak ceiling in dBTP.
    public var truePeak: Double
    /// A lossy format's bit rate in bits per second; nil: the format's default
    /// (`FormatFacts.defaultBitrate`, or Ogg Vorbis's quality setting).
    public var bitrate: Int?
    /// Sidecar files asked for beside the track (`vtt`, `chapters`, `waveform`, `captions`), in that order.
    public var sidecars: [String] = []
    /// Files a recipe may ask for beside its track (see the Sidecars module).
    public static let sidecarNames = ["vtt", "chapters", "waveform", "captions"]

    public init(
        sampleRate: Int = 48000, channels: Int = 2, format: AudioFormat? = nil, bitDepth: BitDepth? = nil,
        loudness: Double? = -16, truePeak: Double = -1
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.bitDepth = bitDepth
        self.loudness = loudness
        self.truePeak = truePeak
    }
}
