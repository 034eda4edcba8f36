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
            case .version: j.field(name, version)
            case .id: j.field(name, id)
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
            case .sections: j.rows(name, sections)
            case .phases: j.rows(name, phases)
            case .cues: j.rows(name, cues)
            }
        }
        j.close()
        return j.text
    }
}

/// An object of the sheet written on one line: its keys in order, each with its value's JSON text.
protocol JSONRow {
    associatedtype Key: RawRepresentable<String>, CaseIterable
    func jsonValue(_ key: Key) -> String
}

extension JSONText {
    /// An array of rows, one object per line.
    fileprivate mutating func rows<Row: JSONRow>(_ name: String, _ rows: [Row]) {
        open(name, array: true)
        for row in rows { inlineObject(Row.Key.allCases.map { ($0.rawValue, row.jsonValue($0)) }) }
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
    func jsonValue(_ key: Key) -> String {
        switch key {
        case .kind: JSONText.string(kind)
        case .label: JSONText.string(label)
        case .length: length.jsonNumber
        }
    }
}

extension CueSheet.Section: JSONRow {
    func jsonValue(_ key: Key) -> String {
        switch key {
        case .kind: JSONText.string(kind)
        case .startFrame: String(startFrame)
        case .endFrame: String(endFrame)
        case .start: JSONText.number(start)
        case .end: JSONText.number(end)
        }
    }
}

extension CueSheet.Phase: JSONRow {
    func jsonValue(_ key: Key) -> String {
        switch key {
        case .index: String(index)
        case .cycle: String(cycle)
        case .kind: JSONText.string(kind)
        case .label: JSONText.string(label)
        case .startFrame: String(startFrame)
        case .endFrame: String(endFrame)
        case .start: JSONText.number(start)
        case .end: JSONText.number(end)
        }
    }
}

extension CueSheet.Cue: JSONRow {
    func jsonValue(_ key: Key) -> String {
        switch key {
        case .name: JSONText.string(name)
        case .phase: String(phase)
        case .frame: String(frame)
        case .lengthFrames: String(lengthFrames)
        case .time: JSONText.number(time)
        }
    }
}

extension DecimalText {
    /// The exact decimal as a JSON number, with `.0` on whole numbers (`4.0`, `5.5`).
    var jsonNumber: String { text.contains(".") ? text : text + ".0" }
}
