import CadenceCues
import Foundation
import Testing

/// The key enums are the one list of cues-v1's keys: the writer writes each of them, in order, and the
/// reader reads each of them under its name.
@Suite struct CueSheetKeyTests {
    /// Every key of every object, as (the path of one object that holds it, the key), from the enums alone.
    static let everyKey: [(object: String, key: String)] =
        CueSheet.Key.allCases.map { ("", $0.rawValue) }
        + CueSheet.Audio.Key.allCases.map { ("audio", $0.rawValue) }
        + CueSheet.PatternInfo.Key.allCases.map { ("pattern", $0.rawValue) }
        + CueSheet.PatternPhase.Key.allCases.map { ("pattern.phases[2]", $0.rawValue) }
        + CueSheet.Section.Key.allCases.map { ("sections[1]", $0.rawValue) }
        + CueSheet.Phase.Key.allCases.map { ("phases[3]", $0.rawValue) }
        + CueSheet.Cue.Key.allCases.map { ("cues[4]", $0.rawValue) }

    /// The keys cues-v1.1 adds: a v1 sheet (the box fixture) has none of them, and reads them as nil.
    static let v11: Set<String> = ["voice", "sections[1].segment", "sections[1].name", "sections[1].ramp", "phases[3].segment", "phases[3].length"]

    /// The keys cues-v1.2 adds: a sheet of a recipe without locales (the box fixture) has none of them.
    static let v12: Set<String> = ["session", "locale", "guide", "phases[3].guide"]

    /// The keys a sheet may lack (or hold as null), each with what the box fixture read without it
    /// must equal: the fixture's sheet with that value nil. The cues-v1.1 keys, which a v1 sheet
    /// leaves out anyway, change nothing.
    static let withoutOptional: [String: @Sendable (inout CueSheet) -> Void] = {
        var table: [String: @Sendable (inout CueSheet) -> Void] = [
            "category": { $0.category = nil },
            "audio.loudness_lufs": { $0.audio.loudnessLUFS = nil },
            "audio.true_peak_dbtp": { $0.audio.truePeakDBTP = nil },
        ]
        for key in v11.union(v12) { table[key] = { _ in } }
        return table
    }()

    /// The keys a sheet may lack (or hold as null): read as nil.
    static let optional = Set(withoutOptional.keys)

    /// Whether the key at `object` is one of cues-v1.1's or v1.2's, which a v1 sheet leaves out.
    static func isV11(_ object: String, _ key: String) -> Bool { v11.contains(path(object, key)) || v12.contains(path(object, key)) }

    static func path(_ object: String, _ key: String) -> String { object.isEmpty ? key : object + "." + key }

    @Test func theWriterWritesEveryKeyInTheEnumsOrder() throws {
        let sheet = try Fixture.boxSheet()
        var expected: [String] = []
        for key in CueSheet.Key.allCases where key != .voice && !Self.v12.contains(key.rawValue) {
            expected.append(key.rawValue)
            switch key {
            case .audio: expected += CueSheet.Audio.Key.allCases.map(\.rawValue)
            case .pattern:
                for k in CueSheet.PatternInfo.Key.allCases {
                    expected.append(k.rawValue)
                    if k == .phases {
                        for _ in sheet.pattern.phases { expected += CueSheet.PatternPhase.Key.allCases.map(\.rawValue) }
                    }
                }
            case .sections:
                for _ in sheet.sections { expected += CueSheet.Section.Key.allCases.map(\.rawValue).filter { !Self.isV11("sections[1]", $0) } }
            case .phases:
                for _ in sheet.phases { expected += CueSheet.Phase.Key.allCases.map(\.rawValue).filter { !Self.isV11("phases[3]", $0) } }
            case .cues: for _ in sheet.cues { expected += CueSheet.Cue.Key.allCases.map(\.rawValue) }
            case .format, .version, .id, .session, .locale, .guide, .title, .category, .voice: break
            }
        }
        // the box fixture holds no string that looks like a key
        let text = sheet.jsonText()
        let written = text.matches(of: try Regex(#""([a-z_0-9]+)": "#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(written == expected)
        #expect(text == Fixture.box)
    }

    /// Each key taken out of the fixture, one at a time: a required key is reported missing at its path,
    /// an optional one reads as nil. So the reader reads every key of the enums, under its name.
    @Test(arguments: everyKey.map { path($0.object, $0.key) })
    func theReaderReadsEveryKeyByItsName(_ path: String) throws {
        let cut = path.split(separator: ".")
        let object = cut.dropLast().joined(separator: ".")
        let text = try Self.removing(String(cut.last ?? ""), at: object, from: Fixture.box)
        if let clear = Self.withoutOptional[path] {
            var expected = try Fixture.boxSheet()
            clear(&expected)
            #expect(try CueSheet.decode(from: text) == expected, "decoded without \(path)")
        } else {
            #expect(throws: CueSheetError.missingKey(path: path)) { try CueSheet.decode(from: text) }
        }
    }

    @Test func theFixtureRewrittenByFoundationStillDecodes() throws {
        #expect(try CueSheet.decode(from: Self.removing("nothing", at: "", from: Fixture.box)) == Fixture.boxSheet())
    }

    /// `text` (a JSON object) without `key` in the object at `object` (`pattern.phases[2]`, "" for the root).
    static func removing(_ key: String, at object: String, from text: String) throws -> String {
        let root = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let steps = object.isEmpty ? [] : object.split(separator: ".").map(String.init)
        let data = try JSONSerialization.data(withJSONObject: try removing(key, steps[...], in: root))
        return String(decoding: data, as: UTF8.self)
    }

    private static func removing(_ key: String, _ steps: ArraySlice<String>, in value: Any) throws -> Any {
        var object = try #require(value as? [String: Any])
        guard let step = steps.first else {
            object[key] = nil
            return object
        }
        if let open = step.firstIndex(of: "[") {
            let name = String(step[..<open])
            let index = try #require(Int(step[step.index(after: open)...].dropLast()))
            var items = try #require(object[name] as? [Any])
            items[index] = try removing(key, steps.dropFirst(), in: items[index])
            object[name] = items
        } else {
            object[step] = try removing(key, steps.dropFirst(), in: try #require(object[step]))
        }
        return object
    }
}
