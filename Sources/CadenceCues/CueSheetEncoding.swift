extension CueSheet {
    /// The sheet as JSON with keys in the order of cues-v1, one phase or cue per line: the same sheet gives the same bytes.
    ///
    /// Each object's keys are its `Key.allCases`, in order (CueSheetKeys.swift).
    public func jsonText() -> String {
        var j = JSONText()
        j.open()
        for key in Key.allCases {
            let name = key.rawValue
            switch key {
            case .format: j.field(name, format)
            case .version: j.raw(name, writtenMinorVersion == 0 ? String(version) : "\(version).\(writtenMinorVersion)")
            case .id: j.field(name, id)
            case .session: if let session { j.field(name, session) }
            case .locale: if let locale { j.field(name, locale) }
            case .title: j.field(name, title)
            case .category: j.field(name, category)
            case .audio:
                j.open(name)
                for k in Audio.Key.allCases { j.raw(k.rawValue, audio.jsonValue(k)) }
                j.close()
            case .pattern:
                j.open(name)
                for k in PatternInfo.Key.allCases {
                    switch k {
                    case .name: j.field(k.rawValue, pattern.name)
                    case .cycle: j.raw(k.rawValue, pattern.cycle.jsonNumber)
                    case .phases: j.rows(k.rawValue, pattern.phases)
                    }
                }
                j.close()
            case .guide:
                guard let guide else { break }
                j.open(name)
                for k in Guide.Key.allCases {
                    switch k {
                    case .shape: j.field(k.rawValue, guide.shape.rawValue)
                    }
                }
                j.close()
            case .sections: j.rows(name, sections)
            case .phases: j.rows(name, phases)
            case .cues: j.rows(name, cues)
            case .voice: if let voice { j.rows(name, voice) }
            }
        }
        j.close()
        return j.text
    }
}

extension CueSheet {
    /// The minor version the sheet's keys need, whatever `minorVersion` says: 2 with a cues-v1.2 key
    /// (`session`, `locale`, `guide`), else 1 with a cues-v1.1 key (`voice`, a section's `segment`, `name` or
    /// `ramp`, a phase's `segment` or `length`), else 0.
    ///
    /// The one rule for which version a key needs: a key added in a later minor version adds its line here.
    public var keysMinorVersion: Int {
        if session != nil || locale != nil || guide != nil || phases.contains(where: { $0.guide != nil }) { return 2 }
        let v11 =
            voice != nil || sections.contains { $0.segment != nil || $0.name != nil || $0.ramp != nil }
            || phases.contains { $0.segment != nil || $0.length != nil }
        return v11 ? 1 : 0
    }

    /// The minor version `jsonText()` writes (`1.2` for 2): `minorVersion`, or `keysMinorVersion` when
    /// the keys need more. A sheet without cues-v1.2 keys is written as before.
    public var writtenMinorVersion: Int { max(minorVersion, keysMinorVersion) }
}

/// An object of the sheet written on one line: its keys in order, each with its value's JSON text.
protocol JSONRow {
    associatedtype Key: RawRepresentable<String>, CaseIterable
    /// nil: the key is left out (a cues-v1.1 key a v1 sheet does not have).
    func jsonValue(_ key: Key) -> String?
}

extension JSONText {
    /// An array of rows, one object per line.
    fileprivate mutating func rows<Row: JSONRow>(_ name: String, _ rows: [Row]) {
        open(name, array: true)
        for row in rows { inlineObject(Row.Key.allCases.compactMap { key in row.jsonValue(key).map { (key.rawValue, $0) } }) }
        close(array: true)
    }
}

extension CueSheet.Audio {
    /// The JSON text of one key's value.
    func jsonValue(_ key: Key) -> String {
        switch key {
        case .file: JSONText.string(file)
        case .sampleRate: String(sampleRate)
        case .channels: String(channels)
        case .frames: String(frames)
        case .duration: JSONText.number(duration)
        case .sha256: JSONText.string(sha256)
        case .loudnessLUFS: loudnessLUFS.map(JSONText.number) ?? "null"
        case .truePeakDBTP: truePeakDBTP.map(JSONText.number) ?? "null"
        }
    }
}

extension CueSheet.PatternPhase: JSONRow {
    func jsonValue(_ key: Key) -> String? {
        switch key {
        case .kind: JSONText.string(kind)
        case .label: JSONText.string(label)
        case .length: length.jsonNumber
        }
    }
}

extension CueSheet.Section: JSONRow {
    func jsonValue(_ key: Key) -> String? {
        switch key {
        case .kind: JSONText.string(kind)
        case .segment: segment.map(String.init)
        case .name: name.map(JSONText.string)
        case .startFrame: String(startFrame)
        case .endFrame: String(endFrame)
        case .start: JSONText.number(start)
        case .end: JSONText.number(end)
        case .ramp:
            ramp.map { ramp in
                "{ " + CueSheet.Ramp.Key.allCases.map { JSONText.string($0.rawValue) + ": " + ramp.jsonValue($0) }.joined(separator: ", ") + " }"
            }
        }
    }
}

extension CueSheet.Ramp {
    func jsonValue(_ key: Key) -> String {
        switch key {
        case .fromBPM: fromBPM.jsonNumber
        case .toBPM: toBPM.jsonNumber
        case .over: String(over)
        }
    }
}

extension CueSheet.Phase: JSONRow {
    func jsonValue(_ key: Key) -> String? {
        switch key {
        case .index: String(index)
        case .segment: segment.map(String.init)
        case .cycle: String(cycle)
        case .kind: JSONText.string(kind)
        case .label: JSONText.string(label)
        case .guide: guide.map { JSONText.string($0.rawValue) }
        case .length: length?.jsonNumber
        case .startFrame: String(startFrame)
        case .endFrame: String(endFrame)
        case .start: JSONText.number(start)
        case .end: JSONText.number(end)
        }
    }
}

extension CueSheet.Cue: JSONRow {
    func jsonValue(_ key: Key) -> String? {
        switch key {
        case .name: JSONText.string(name)
        case .phase: String(phase)
        case .frame: String(frame)
        case .lengthFrames: String(lengthFrames)
        case .time: JSONText.number(time)
        }
    }
}

extension CueSheet.VoicePrompt: JSONRow {
    func jsonValue(_ key: Key) -> String? {
        switch key {
        case .index: String(index)
        case .text: text.map(JSONText.string) ?? "null"
        case .file: file.map(JSONText.string) ?? "null"
        case .draft: draft ? "true" : "false"
        case .phase: phase.map(String.init)
        case .frame: String(frame)
        case .lengthFrames: String(lengthFrames)
        case .time: JSONText.number(time)
        case .duckDB: JSONText.number(duckDB)
        }
    }
}

extension DecimalText {
    /// The exact decimal as a JSON number, with `.0` on whole numbers (`4.0`, `5.5`).
    var jsonNumber: String { text.contains(".") ? text : text + ".0" }
}
