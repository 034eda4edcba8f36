extension CueSheet {
    /// Checks what a player relies on, throwing the first problem found.
    ///
    /// - `format` and `version`; `audio.sample_rate` and `channels` > 0, `frames` ≥ 0;
    ///   `loudness_lufs` and `true_peak_dbtp` finite or nil (JSON has no NaN or infinity).
    /// - Every time in seconds gives its frame back by `floor(t × rate + 1/2)` (`duration`: `frames`).
    /// - Sections: kinds `intro`, `practice`, `outro`, in that order, inside `0…frames`, not
    ///   overlapping (they may be of zero length; gaps between them are allowed); each kind at most
    ///   once, except a program's practice sections (cues-v1.1), which follow each other with
    ///   `segment` counting up by 1.
    /// - Phases: each `end_frame` > `start_frame`, sorted by start, `index` equal to the position,
    ///   `cycle` ≥ 0 and never decreasing within a segment, and together they tile the practice
    ///   exactly: no gap, no overlap, nothing outside it. Phases need a practice section, and a
    ///   practice section of any length needs phases.
    /// - Cues: `frame` inside the file (`0..<frames`), `phase` a phase index, `length_frames` ≥ 0.
    /// - cues-v1.1: `segment` ≥ 0, a phase's that of the practice section holding it; a phase's
    ///   `length` above 0; `voice` with `index` its position, in frame order without overlaps,
    ///   each inside the file with `length_frames` > 0, `phase` a phase index, `duck_db` finite and
    ///   ≥ 0, and no `file` for a draft.
    /// - cues-v1.2: `session` and `locale` both given or both absent; `session` not empty; `locale` a
    ///   well-formed BCP 47 tag (`LocaleTag.isWellFormed(_:)`); and `id` the session's id, a `-`, and
    ///   the locale in lower case, with a variant's suffix (`-5m`, one part without a `-`) between them
    ///   or not (`box-5m-pt-br` for session `box`, locale `pt-BR`), as recipe-v1.2 names renditions.
    ///   A top-level `guide` and every phase's `guide` come together: all or none.
    ///
    /// O(n) in the sheet's sections, phases, cues and prompts (and the practice sections of a
    /// program). `decode(from:)` and `CueTimeline.init(_:)` run this; call it on a sheet built in
    /// memory before writing it or looking things up in it.
    ///
    /// - Throws: `CueSheetError`: `.notACueSheet`, `.unsupportedVersion`, `.invalidValue`,
    ///   `.timeMismatch`, `.unsorted`, `.overlap`, `.gap` or `.outOfRange`, with the path of the
    ///   offending key.
    public func validate() throws(CueSheetError) {
        guard format == Self.formatName else { throw .notACueSheet(format: format) }
        guard version == Self.supportedVersion else { throw .unsupportedVersion(String(version)) }
        try validateSession()
        try validateAudio()
        let practices = try validateSections()
        try validatePhases(practices: practices)
        try validateGuide()
        try validateCues()
        try validateVoice()
    }

    /// cues-v1.2's `session` and `locale`: both or neither, and the id they make.
    private func validateSession() throws(CueSheetError) {
        switch (session, locale) {
        case (nil, nil): return
        case (nil, .some):
            throw .invalidValue(
                path: Key.locale.rawValue, reason: "is given without \(Key.session.rawValue); a rendition of a recipe with locales has both")
        case (.some, nil):
            throw .invalidValue(
                path: Key.session.rawValue, reason: "is given without \(Key.locale.rawValue); a rendition of a recipe with locales has both")
        case (let session?, let locale?):
            guard !session.isEmpty else { throw .invalidValue(path: Key.session.rawValue, reason: "expected the recipe's id, found \"\"") }
            guard LocaleTag.isWellFormed(locale) else {
                throw .invalidValue(
                    path: Key.locale.rawValue, reason: "expected a BCP 47 language tag (en, de, pt-BR), found \(JSONText.string(locale))")
            }
            // recipe-v1.2: the recipe's id, its variant's suffix if any, a `-`, the locale in lower case
            let suffix = "-" + locale.lowercased()
            let named = id.hasPrefix(session) && id.hasSuffix(suffix) && id.count >= session.count + suffix.count
            let between = named ? id.dropFirst(session.count).dropLast(suffix.count) : ""
            // a variant's suffix is one more subtag: `-5m`, `-1h30m`, `-90s`
            let variant = between.hasPrefix("-") && between.count > 1 && !between.dropFirst().contains("-")
            guard named, between.isEmpty || variant else {
                throw .invalidValue(
                    path: Key.id.rawValue,
                    reason: "is \(JSONText.string(id)), but a rendition of session \(JSONText.string(session)) in locale "
                        + "\(JSONText.string(locale)) is \(JSONText.string(session + suffix)) (or has a variant's suffix before \(JSONText.string(suffix)))"
                )
            }
        }
    }

    private func validateAudio() throws(CueSheetError) {
        guard audio.sampleRate > 0 else {
            throw .invalidValue(
                path: Self.path(Key.audio.rawValue, Audio.Key.sampleRate), reason: "must be greater than 0, found \(audio.sampleRate)")
        }
        guard audio.channels > 0 else {
            throw .invalidValue(path: Self.path(Key.audio.rawValue, Audio.Key.channels), reason: "must be greater than 0, found \(audio.channels)")
        }
        guard audio.frames >= 0 else {
            throw .invalidValue(path: Self.path(Key.audio.rawValue, Audio.Key.frames), reason: "must not be negative, found \(audio.frames)")
        }
        try checkTime(audio.duration, gives: audio.frames, path: Self.path(Key.audio.rawValue, Audio.Key.duration))
        // JSON has no NaN or infinity: a sheet built in memory with one could not be written back
        for (key, value) in [(Audio.Key.loudnessLUFS, audio.loudnessLUFS), (.truePeakDBTP, audio.truePeakDBTP)] {
            if let value, !value.isFinite {
                throw .invalidValue(path: Self.path(Key.audio.rawValue, key), reason: "must be a finite number or null, found \(value)")
            }
        }
    }

    /// Checks the sections and returns the practice sections (one per program segment, cues-v1.1).
    private func validateSections() throws(CueSheetError) -> [Section] {
        var previous: (kind: SectionKind, section: Section, position: Int)?
        var practices: [Section] = []
        for (i, s) in sections.enumerated() {
            let path = Self.path(.sections, i)
            guard let kind = SectionKind(rawValue: s.kind) else {
                let known = SectionKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidValue(
                    path: Self.path(path, Section.Key.kind), reason: "unknown section kind \(JSONText.string(s.kind)) (known: \(known))")
            }
            try checkSpan(s.startFrame, s.endFrame, path: path, allowEmpty: true)
            if let segment = s.segment, segment < 0 {
                throw .invalidValue(path: Self.path(path, Section.Key.segment), reason: "must not be negative, found \(segment)")
            }
            try checkTime(s.start, gives: s.startFrame, path: Self.path(path, Section.Key.start))
            try checkTime(s.end, gives: s.endFrame, path: Self.path(path, Section.Key.end))
            if let previous {
                // a program's practice sections follow each other, their segments counting up from 0
                let nextSegment = kind == .practice && s.segment != nil && s.segment == previous.section.segment.map { $0 + 1 }
                if kind == previous.kind, !nextSegment {
                    throw .invalidValue(
                        path: Self.path(path, Section.Key.kind),
                        reason: "a second \(kind.rawValue) section (the first is \(Self.path(.sections, previous.position)))")
                }
                if kind < previous.kind { throw .unsorted(.section(previous.kind.rawValue), .section(kind.rawValue)) }
                if s.startFrame < previous.section.endFrame {
                    throw .overlap(
                        .section(previous.kind.rawValue), .section(kind.rawValue), frames: previous.section.endFrame - s.startFrame)
                }
            }
            if kind == .practice { practices.append(s) }
            previous = (kind, s, i)
        }
        return practices
    }

    private func validatePhases(practices: [Section]) throws(CueSheetError) {
        // the practice is the span of its sections; each phase lies in its segment's section
        let practice = practices.first.map { first in
            Section(
                kind: first.kind, segment: practices.count == 1 ? first.segment : nil, startFrame: first.startFrame,
                endFrame: practices.last?.endFrame ?? first.endFrame, sampleRate: audio.sampleRate)
        }
        var bySegment: [Int: Section] = [:]
        for section in practices { if let segment = section.segment { bySegment[segment] = section } }
        guard let first = phases.first, let last = phases.last else {
            if let practice, practice.endFrame > practice.startFrame {
                throw .gap(after: nil, before: nil, frames: practice.startFrame..<practice.endFrame)
            }
            return
        }
        guard let practice else {
            throw .invalidValue(path: Key.sections.rawValue, reason: "there are \(phases.count) phases but no practice section")
        }
        for (i, p) in phases.enumerated() {
            let path = Self.path(.phases, i)
            guard p.cycle >= 0 else { throw .invalidValue(path: Self.path(path, Phase.Key.cycle), reason: "must not be negative, found \(p.cycle)") }
            if let segment = p.segment, segment < 0 {
                throw .invalidValue(path: Self.path(path, Phase.Key.segment), reason: "must not be negative, found \(segment)")
            }
            if let segment = p.segment, practices.count == 1, segment != practice.segment ?? segment {
                throw .invalidValue(
                    path: Self.path(path, Phase.Key.segment),
                    reason: "is \(segment), but the phase lies in the practice section of segment \(practice.segment ?? 0)")
            }
            if let segment = p.segment, practices.count > 1 {
                guard let section = bySegment[segment] else {
                    throw .invalidValue(path: Self.path(path, Phase.Key.segment), reason: "is \(segment), but no practice section has that segment")
                }
                guard section.startFrame <= p.startFrame, p.endFrame <= section.endFrame else {
                    throw .outOfRange(
                        path: Self.path(path, Phase.Key.segment),
                        reason: "is \(segment), but the phase (frames \(p.startFrame)…\(p.endFrame)) lies outside that segment's section "
                            + "(frames \(section.startFrame)…\(section.endFrame))")
                }
            }
            if let length = p.length, !(length.value.isFinite && length.value > 0) {
                throw .invalidValue(path: Self.path(path, Phase.Key.length), reason: "must be a length in seconds above 0, found \(length)")
            }
            try checkSpan(p.startFrame, p.endFrame, path: path, allowEmpty: false)
            try checkTime(p.start, gives: p.startFrame, path: Self.path(path, Phase.Key.start))
            try checkTime(p.end, gives: p.endFrame, path: Self.path(path, Phase.Key.end))
        }
        // Order first, so that two swapped phases read as such rather than as a wrong index or a gap.
        for i in phases.indices.dropFirst() where phases[i].startFrame < phases[i - 1].startFrame {
            throw .unsorted(.phase(i - 1), .phase(i))
        }
        for (i, p) in phases.enumerated() where p.index != i {
            throw .invalidValue(
                path: Self.path(Self.path(.phases, i), Phase.Key.index), reason: "is \(p.index), but the phase is number \(i) in phases")
        }
        let practiceSpan = "the practice section (frames \(practice.startFrame)…\(practice.endFrame))"
        if first.startFrame < practice.startFrame {
            throw .outOfRange(path: Self.path(.phases, 0), reason: "starts at frame \(first.startFrame), before \(practiceSpan)")
        }
        if first.startFrame > practice.startFrame {
            throw .gap(after: nil, before: .phase(0), frames: practice.startFrame..<first.startFrame)
        }
        for i in phases.indices.dropFirst() {
            let (a, b) = (phases[i - 1], phases[i])
            if b.startFrame < a.endFrame { throw .overlap(.phase(i - 1), .phase(i), frames: a.endFrame - b.startFrame) }
            if b.startFrame > a.endFrame { throw .gap(after: .phase(i - 1), before: .phase(i), frames: a.endFrame..<b.startFrame) }
            if b.cycle < a.cycle, b.segment == a.segment {
                throw .invalidValue(
                    path: Self.path(Self.path(.phases, i), Phase.Key.cycle), reason: "is \(b.cycle), less than phase \(i - 1)'s \(a.cycle)")
            }
        }
        if last.endFrame > practice.endFrame {
            throw .outOfRange(path: Self.path(.phases, phases.count - 1), reason: "ends at frame \(last.endFrame), after \(practiceSpan)")
        }
        if last.endFrame < practice.endFrame {
            throw .gap(after: .phase(phases.count - 1), before: nil, frames: last.endFrame..<practice.endFrame)
        }
    }

    private func validateCues() throws(CueSheetError) {
        for (i, c) in cues.enumerated() {
            let path = Self.path(.cues, i)
            guard c.frame >= 0, c.frame < audio.frames else {
                throw .outOfRange(path: Self.path(path, Cue.Key.frame), reason: "frame \(c.frame) is outside the file (frames 0…\(audio.frames))")
            }
            guard phases.indices.contains(c.phase) else {
                let reason =
                    phases.isEmpty
                    ? "is \(c.phase), but there are no phases" : "is \(c.phase), not a phase index (0…\(phases.count - 1))"
                throw .outOfRange(path: Self.path(path, Cue.Key.phase), reason: reason)
            }
            guard c.lengthFrames >= 0 else {
                throw .invalidValue(path: Self.path(path, Cue.Key.lengthFrames), reason: "must not be negative, found \(c.lengthFrames)")
            }
            try checkTime(c.time, gives: c.frame, path: Self.path(path, Cue.Key.time))
        }
    }

    /// cues-v1.1's `voice`: in frame order, `index` the position, each inside the file and not
    /// overlapping the one before, `phase` a phase index, `duck_db` finite and not negative.
    private func validateVoice() throws(CueSheetError) {
        guard let voice else { return }
        for (i, v) in voice.enumerated() {
            let path = Self.path(.voice, i)
            guard v.index == i else {
                throw .invalidValue(path: Self.path(path, VoicePrompt.Key.index), reason: "is \(v.index), but the prompt is number \(i) in voice")
            }
            guard v.lengthFrames > 0 else {
                throw .invalidValue(path: Self.path(path, VoicePrompt.Key.lengthFrames), reason: "must be above 0, found \(v.lengthFrames)")
            }
            guard v.frame >= 0, v.endFrame <= audio.frames else {
                throw .outOfRange(path: path, reason: "frames \(v.frame)…\(v.endFrame) are outside the file (frames 0…\(audio.frames))")
            }
            if let phase = v.phase, !phases.indices.contains(phase) {
                throw .outOfRange(path: Self.path(path, VoicePrompt.Key.phase), reason: "is \(phase), not a phase index")
            }
            if v.draft, let file = v.file {
                throw .invalidValue(
                    path: Self.path(path, VoicePrompt.Key.file),
                    reason: "a draft is spoken by the draft voice, so its file must be null, found \(JSONText.string(file))")
            }
            guard v.duckDB.isFinite, v.duckDB >= 0 else {
                throw .invalidValue(path: Self.path(path, VoicePrompt.Key.duckDB), reason: "must be a finite number ≥ 0, found \(v.duckDB)")
            }
            try checkTime(v.time, gives: v.frame, path: Self.path(path, VoicePrompt.Key.time))
            if i > 0, v.frame < voice[i - 1].endFrame {
                throw .invalidValue(
                    path: Self.path(path, VoicePrompt.Key.frame),
                    reason:
                        "\(v.frame) is before the end of voice[\(i - 1)] (frame \(voice[i - 1].endFrame)): prompts are in frame order and do not overlap"
                )
            }
        }
    }

    /// `audio.sample_rate`, `phases[3].cycle`: a member of the object at `parent`.
    private static func path(_ parent: String, _ member: some RawRepresentable<String>) -> String {
        parent + "." + member.rawValue
    }

    /// `phases[3]`: an item of one of the document's arrays.
    private static func path(_ array: Key, _ index: Int) -> String { "\(array.rawValue)[\(index)]" }

    /// A span that is in order (and not empty, unless allowed) and inside the file; sections and phases spell
    /// their frame keys alike.
    private func checkSpan(_ start: Int64, _ end: Int64, path: String, allowEmpty: Bool) throws(CueSheetError) {
        if end < start || (!allowEmpty && end == start) {
            throw .invalidValue(
                path: path, reason: "\(Section.Key.endFrame.rawValue) \(end) is not after \(Section.Key.startFrame.rawValue) \(start)")
        }
        if start < 0 || end > audio.frames {
            throw .outOfRange(path: path, reason: "frames \(start)…\(end) are outside the file (frames 0…\(audio.frames))")
        }
    }

    /// Seconds must give their frame back (cues-v1: "written with enough digits to give the frame back").
    private func checkTime(_ time: Double, gives frame: Int64, path: String) throws(CueSheetError) {
        guard time.isFinite else { throw .invalidValue(path: path, reason: "must be a finite number, found \(time)") }
        let actual = FrameTime.frame(atTime: time, sampleRate: audio.sampleRate)
        guard actual == frame else {
            throw .timeMismatch(path: path, time: time, frame: actual ?? 0, expectedFrame: frame)
        }
    }
}

extension CueSheet {
    /// cues-v1.2's `guide`: with the top-level object every phase has its guide, without it none has.
    fileprivate func validateGuide() throws(CueSheetError) {
        if guide != nil, let phase = phases.first(where: { $0.guide == nil }) {
            throw .invalidValue(
                path: "phases.\(phase.index).guide", reason: "is missing: a sheet with a top-level guide gives every phase its guide")
        }
        if guide == nil, let phase = phases.first(where: { $0.guide != nil }) {
            throw .invalidValue(
                path: "phases.\(phase.index).guide", reason: "is given, but the sheet has no top-level guide with the envelope's shape")
        }
    }
}
