import AudioCore

/// `voice:` (recipe-v1.1 § Voice prompts): spoken prompts, their level, and how the bed ducks under them.
public struct Voice: Sendable, Equatable {
    /// How far the bed drops under a prompt.
    public enum Duck: Sendable, Equatable {
        /// A fixed depth in dB (0: no ducking).
        case depth(Double)
        /// Per prompt, so that the bed sits at least 20 dB under it (WCAG 2.2 G56), never less than 12 dB.
        case wcag
    }

    /// Loudness each clip is gained to before mixing, in LUFS; nil (`level: off`): as recorded.
    public var level: Double?
    /// Then this gain on every prompt, in dB.
    public var gainDB: Double
    public var duck: Duck
    /// The bed ramps down over this time, ending at the prompt's first frame.
    public var attack: ExactSeconds
    /// And back up over this time, starting after the prompt's last frame.
    public var release: ExactSeconds
    /// The draft voice's language (espeak-ng's voice name), for prompts with `text:` and no `file:`.
    /// With `locales:`, the default locale's.
    public var draftVoice: String
    /// With `locales:`, the draft voice of every locale (keys: the tags as written): given, or the
    /// locale's tag in lower case until `Recipe.resolvingDraftVoices(languages:)` checks it; empty without.
    public var localizedDraftVoice: [String: String] = [:]
    /// The locales whose draft voice is the default (no `draft_voice` for them), in `locales:` order.
    public var defaultDraftVoiceLocales: [String] = []
    /// In the order the recipe lists them (`voice.prompts.N` locates each).
    public var prompts: [Prompt]

    /// The defaults of every key left out (the spec's own example values).
    public static let defaultLevel: Double = -18
    public static let defaultDuckDB: Double = 12
    public static let defaultAttack = ExactSeconds(nanoseconds: 300_000_000)
    public static let defaultRelease = ExactSeconds(nanoseconds: 700_000_000)
    public static let defaultDraftVoice = "en-us"

    public init(
        level: Double? = Voice.defaultLevel, gainDB: Double = 0, duck: Duck = .depth(Voice.defaultDuckDB),
        attack: ExactSeconds = Voice.defaultAttack, release: ExactSeconds = Voice.defaultRelease,
        draftVoice: String = Voice.defaultDraftVoice, prompts: [Prompt]
    ) {
        self.level = level
        self.gainDB = gainDB
        self.duck = duck
        self.attack = attack
        self.release = release
        self.draftVoice = draftVoice
        self.prompts = prompts
    }
}

/// One entry of `voice.prompts`: where it starts, what it plays and what it says.
public struct Prompt: Sendable, Equatable {
    public enum Placement: Sendable, Equatable {
        /// `at:`: an exact time, from an anchor plus a signed offset.
        case at(PromptTime)
        /// `on: KIND`: the first frame of every phase of that kind in the chosen cycles
        /// (nil: every cycle), in segment `segment` only when given (counted from 1).
        case on(kind: String, cycles: CycleSelection?, segment: Int?)
    }

    public var placement: Placement
    /// The clip, relative to the assets folder; nil: the draft voice speaks `text`.
    public var file: String?
    /// What the prompt says, for the cue sheet and the captions. With `text` per locale, the default locale's.
    public var text: String?
    /// `text` per locale (keys: the tags as written in `locales:`) when given as a mapping; empty: one text.
    public var localizedText: [String: String] = [:]
    /// `until:` of an `on:` prompt: phases starting at or after this time get no prompt; nil: no limit.
    public var until: PromptTime?

    public init(placement: Placement, file: String?, text: String?, until: PromptTime? = nil) {
        self.placement = placement
        self.file = file
        self.text = text
        self.until = until
    }

    /// Spoken by the draft voice (no recorded clip).
    public var isDraft: Bool { file == nil }
}

/// `at:` text: `3s`, `practice - 2s`, `segment 2 + 5s`, `end - 20s`.
public struct PromptTime: Sendable, Equatable {
    public enum Anchor: Sendable, Equatable {
        /// The file's first frame (a bare time).
        case start
        case intro, practice, outro
        /// The start of program segment N, counted from 1.
        case segment(Int)
        /// The file's end.
        case end
    }

    public var anchor: Anchor
    /// Added to the anchor's exact time; may be negative.
    public var offset: ExactSeconds

    public init(anchor: Anchor, offset: ExactSeconds) {
        self.anchor = anchor
        self.offset = offset
    }
}

/// `cycles:` of an `on:` prompt: `3`, `1-3`, or a list such as `[1, 2, 10-12]`, counted from 1.
public struct CycleSelection: Sendable, Equatable {
    /// Inclusive ranges of cycle numbers (from 1), in the order written.
    public var ranges: [ClosedRange<Int>]

    public init(ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    /// Whether cycle `number` (from 1) is chosen.
    public func contains(_ number: Int) -> Bool { ranges.contains { $0.contains(number) } }

    /// The highest cycle number named.
    public var highest: Int { ranges.map(\.upperBound).max() ?? 0 }
}

extension Recipe {
    /// One error per prompt still spoken by the draft voice, at the prompt: what a render refusing drafts
    /// (a release job; the command line's `--no-drafts`) refuses.
    public var draftPrompts: [Diagnostic] {
        (voice?.prompts ?? []).enumerated().filter { $0.element.isDraft }.map { index, prompt in
            Diagnostic(
                "voice.prompts.\(index): a draft prompt (\(DiagnosticText.quoted(prompt.text ?? "")), spoken by the draft voice); ",
                .refusingDrafts, " refuses it: record it and give the prompt its 'file:'",
                at: location(of: "voice.prompts.\(index)"), kind: .data)
        }
    }
}
