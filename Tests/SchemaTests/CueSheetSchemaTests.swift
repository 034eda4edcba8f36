import AudioCore
import CadenceCues
import Foundation
import Recipe
import Render
import Testing

/// A small cue sheet built with CadenceCues' own model and encoder (no render needed).
enum CueSheetFixture {
    static func sheet() -> CueSheet {
        let rate = 8000
        let audio = CueSheet.Audio(
            file: "fixture.wav", sampleRate: rate, channels: 1, frames: 48000,
            sha256: String(repeating: "0123456789abcdef", count: 4), loudnessLUFS: -16.02, truePeakDBTP: -1.31)
        let pattern = CueSheet.PatternInfo(
            name: "Fixture", cycle: DecimalText(2, decimalPlaces: 0),
            phases: [
                CueSheet.PatternPhase(kind: "inhale", label: "Breathe In", length: DecimalText(1, decimalPlaces: 0)),
                CueSheet.PatternPhase(kind: "exhale", label: "Breathe Out", length: DecimalText(1, decimalPlaces: 0)),
            ])
        let sections = [
            CueSheet.Section(kind: "intro", startFrame: 0, endFrame: 8000, sampleRate: rate),
            CueSheet.Section(kind: "practice", startFrame: 8000, endFrame: 40000, sampleRate: rate),
            CueSheet.Section(kind: "outro", startFrame: 40000, endFrame: 48000, sampleRate: rate),
        ]
        let phases = (0..<4).map { index in
            CueSheet.Phase(
                index: index, cycle: index / 2, kind: index % 2 == 0 ? "inhale" : "exhale",
                label: index % 2 == 0 ? "Breathe In" : "Breathe Out",
                startFrame: Int64(8000 + index * 8000), endFrame: Int64(16000 + index * 8000), sampleRate: rate)
        }
        let cues = [
            CueSheet.Cue(name: "start", phase: 0, frame: 8000, lengthFrames: 12000, sampleRate: rate),
            CueSheet.Cue(name: "inhale", phase: 0, frame: 8000, lengthFrames: 8000, sampleRate: rate),
            CueSheet.Cue(name: "end", phase: 3, frame: 40000, lengthFrames: 8000, sampleRate: rate),
        ]
        return CueSheet(
            id: "fixture", title: "Fixture", category: nil, audio: audio, pattern: pattern,
            sections: sections, phases: phases, cues: cues)
    }

    /// The fixture as a cues-v1.1 sheet (a recipe with voice and a ramp): sections and phases with their
    /// segment, name and length, the practice section's ramp, and two prompts, a draft placed at a time
    /// and a clip placed on a phase.
    static func guidedSheet() -> CueSheet {
        let rate = 8000
        let plain = sheet()
        let sections = plain.sections.map { section in
            section.kind == "practice"
                ? CueSheet.Section(
                    kind: section.kind, segment: 0, name: "Fixture", startFrame: section.startFrame, endFrame: section.endFrame,
                    sampleRate: rate,
                    ramp: CueSheet.Ramp(fromBPM: DecimalText(30, decimalPlaces: 0), toBPM: DecimalText(275, decimalPlaces: 1), over: 1))
                : section
        }
        let phases = plain.phases.map { phase in
            CueSheet.Phase(
                index: phase.index, segment: 0, cycle: phase.cycle, kind: phase.kind, label: phase.label, length: DecimalText("1"),
                startFrame: phase.startFrame, endFrame: phase.endFrame, sampleRate: rate)
        }
        let voice = [
            CueSheet.VoicePrompt(
                index: 0, text: "Welcome", file: nil, draft: true, phase: nil, frame: 2000, lengthFrames: 4000, duckDB: 12, sampleRate: rate),
            CueSheet.VoicePrompt(
                index: 1, text: "Breathe in", file: "voice/breathe-in.wav", draft: false, phase: 2, frame: 24000, lengthFrames: 4000,
                duckDB: 14.5, sampleRate: rate),
        ]
        return CueSheet(
            id: plain.id, title: plain.title, category: plain.category, audio: plain.audio, pattern: plain.pattern,
            sections: sections, phases: phases, cues: plain.cues, voice: voice)
    }

    /// The guided fixture as a cues-v1.2 rendition of a recipe with locales: its session and locale.
    static func localizedSheet() -> CueSheet {
        var sheet = guidedSheet()
        (sheet.id, sheet.session, sheet.locale) = ("fixture-5m-pt-br", "fixture", "pt-BR")
        // and breath guidance: the envelope's shape and every phase's guide (cues-v1.2)
        sheet.guide = CueSheet.Guide(shape: .linear)
        for k in sheet.phases.indices { sheet.phases[k].guide = BreathGuide.defaultGuide(for: sheet.phases[k].kind) }
        return sheet
    }

    /// The fixture's JSON as a mutable object.
    static func object() throws -> [String: Any] { try object(sheet()) }

    /// The guided fixture's JSON as a mutable object.
    static func guidedObject() throws -> [String: Any] { try object(guidedSheet()) }

    static func object(_ sheet: CueSheet) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(sheet.jsonText().utf8))
        guard let object = json as? [String: Any] else { throw TestFailure("the fixture is not a JSON object") }
        return object
    }
}

/// One change that breaks a cue sheet.
struct BrokenSheet: Sendable, CustomTestStringConvertible {
    let name: String
    /// The JSON path the schema must report.
    let path: String
    /// Broken from the guided (cues-v1.1) fixture rather than the v1 one.
    var guided = false
    let breakIt: @Sendable (inout [String: Any]) -> Void
    var testDescription: String { name }
}

/// Sets `value` at a path of keys and array indices in a JSON object; nil removes the key.
func setJSON(_ object: inout [String: Any], _ path: [Any], _ value: Any?) {
    guard let head = path.first as? String else { return }
    if path.count == 1 {
        object[head] = value
        return
    }
    if let index = path[1] as? Int, var array = object[head] as? [Any], var item = array[index] as? [String: Any] {
        setJSON(&item, Array(path.dropFirst(2)), value)
        array[index] = item
        object[head] = array
    } else if var child = object[head] as? [String: Any] {
        setJSON(&child, Array(path.dropFirst()), value)
        object[head] = child
    }
}

@Suite(.enabled(if: Python.isAvailable, Python.missing))
struct CueSheetSchemaTests {
    /// Small, fast recipes (8000 Hz, seconds long) that cover the renderer's layouts.
    static let recipes: [(name: String, yaml: String)] = [
        (
            "intro and outro, built-in pattern, synth bed, default cues",
            """
            id: intro-outro
            title: Intro and Outro
            category: Tests
            pattern: box
            duration: 40s
            intro: 4s
            outro: 4.5s
            bed: { synth: pink-noise, gain: -20 dB, fade_in: 1s, fade_out: 1s }
            output: { sample_rate: 8000, channels: 1, format: wav, bit_depth: 16 }
            """
        ),
        (
            "inline pattern, cycles, no bed, every cue form",
            """
            id: inline-cycles
            cycles: 3
            pattern:
              name: Physiological Sigh
              phases:
                - inhale: 2s
                - { kind: inhale, length: 1s, label: Top Up }
                - exhale: 3.25s
            outro: 2s
            cues:
              inhale: { tone: 528 Hz, length: 300ms, gain: -18 dB, envelope: soft, harmonics: [0.3] }
              exhale: click
              start: none
              end: { file: cues/wood-block.wav, gain: -6 dB }
            output: { sample_rate: 8000, channels: 2, format: flac, bit_depth: 24, loudness: off }
            """
        ),
        (
            "focus pattern, drone bed, end on a phase, no outro",
            """
            id: focus-blocks
            title: Focus Blocks
            duration: 0:40
            end_on: phase
            pattern:
              name: Mini Pomodoro
              phases:
                - { kind: work, length: 15s, label: Work }
                - { kind: short_break, length: 5s }
            bed: { synth: drone 110 Hz, gain: -24 dB }
            cues:
              work: { file: cues/wood-block.wav, gain: -6 dB }
              short_break: chime
              end: chime
            output: { sample_rate: 8000, channels: 1, format: wav, loudness: -18 LUFS, true_peak: -2 dBTP }
            """
        ),
        (
            "coherent breathing, brown noise, lossy output",
            """
            cycles: 2
            pattern: coherent
            intro: 1s
            outro: 1s
            bed: { synth: brown-noise, gain: -22 dB }
            output: { sample_rate: 8000, channels: 2, format: ogg }
            """
        ),
        (
            "voice prompts: a draft at a time, a clip on every inhale, wcag ducking (cues-v1.1)",
            """
            id: guided
            cycles: 2
            pattern: coherent
            intro: 4s
            outro: 3s
            bed: { synth: pink-noise, gain: -24 dB }
            voice:
              duck: wcag
              prompts:
                - { at: 1s, text: Welcome }
                - { on: inhale, cycles: 1-2, file: voice/breathe-in.wav, text: Breathe in }
            output: { sample_rate: 8000, channels: 1, format: wav }
            """
        ),
        (
            "program: a ramped segment, a duration segment with a transition, ticks (cues-v1.1)",
            """
            id: program-ramp
            intro: 1s
            program:
              - { pattern: coherent, cycles: 3, label: Slow down, ramp: { to: 4.5 bpm } }
              - { pattern: box, duration: 20s }
            outro: 1s
            cues: { inhale: click, transition: chime, tick: { tone: 2 kHz, length: 20ms, gain: -30 dB, envelope: click, every: 1s, on: [hold] } }
            output: { sample_rate: 8000, channels: 1, format: wav }
            """
        ),
    ]

    /// The recipes above are valid themselves, or their renders would prove nothing about the schema.
    static let recipeBatch = Result { try BatchValidation(recipes.map { ($0.name, $0.yaml) }, suffix: ".yml", against: recipeSchema) }

    @Test(arguments: recipes.map(\.name))
    func renderedSheetsValidate(_ name: String) throws {
        let yaml = try #require(Self.recipes.first { $0.name == name }).yaml
        let recipes = try Self.recipeBatch.get()
        let recipeLines = recipes.lines(name)
        #expect(recipeLines == ["ok"], "the recipe is not valid: \(recipeLines)")

        let folder = try TempFolder("cues")
        let recipe = try folder.write(yaml, to: "recipe.yml")
        let format = yaml.contains("format: flac") ? "flac" : yaml.contains("format: ogg") ? "ogg" : "wav"
        let track = try TrackRenderer().render(
            recipe: RecipeLoader.load(path: recipe), outputPath: folder.file("track.\(format)"), assets: repositoryPath("assets"))
        let sheet = try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: track.cueSheetPath)))
        #expect(!sheet.phases.isEmpty)
        #expect(sheet.audio.sampleRate == 8000)
        if yaml.contains("voice:") {
            // a sheet with every cues-v1.1 key, or the schema's new keys would go unchecked
            let voice = try #require(sheet.voice)
            #expect(sheet.minorVersion == 1)
            #expect(voice.map(\.draft) == [true, false, false] && voice.map(\.phase) == [nil, 0, 2], "\(voice)")
            #expect(sheet.sections.contains { $0.segment == 0 && $0.name == "Coherent Breathing" })
            #expect(sheet.phases.allSatisfy { $0.segment == 0 && $0.length?.text == "5.5" })
        }
        if yaml.contains("program:") {
            // one practice section per segment, the first with its ramp, and a transition phase
            #expect(sheet.minorVersion == 1)
            let practice = sheet.sections.filter { $0.kind == "practice" }
            #expect(practice.map(\.segment) == [0, 1] && practice.map(\.name) == ["Slow down", "Box Breathing"], "\(practice)")
            #expect(
                practice.first?.ramp
                    == CueSheet.Ramp(fromBPM: DecimalText(5_454_545, decimalPlaces: 6), toBPM: DecimalText(45, decimalPlaces: 1), over: 2),
                "\(practice)")
            #expect(practice.last?.ramp == nil)
            #expect(sheet.phases.last?.kind == "transition" && sheet.phases.last?.segment == 1)
            #expect(sheet.cues.contains { $0.name == "tick" })
        }

        let validation = try validate([track.cueSheetPath], against: cueSheetSchema)
        #expect(validation.status == 0, "\(validation)")
        #expect(validation.isValid(track.cueSheetPath), "\(validation)")
    }

    /// The fixture as written, and with keys a later version 1 might add (readers ignore them).
    static func extended() throws -> String {
        var object = try CueSheetFixture.object()
        object["generator"] = "cadence 9"
        setJSON(&object, ["audio", "codec"], "pcm")
        setJSON(&object, ["phases", 0, "haptic"], "double")
        setJSON(&object, ["cues", 1, "gain_db"], -18)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static let broken: [BrokenSheet] = [
        BrokenSheet(name: "missing frames", path: "$.audio") { setJSON(&$0, ["audio", "frames"], nil) },
        BrokenSheet(name: "missing cues", path: "$") { setJSON(&$0, ["cues"], nil) },
        BrokenSheet(name: "missing phase end_frame", path: "$.phases[2]") { setJSON(&$0, ["phases", 2, "end_frame"], nil) },
        BrokenSheet(name: "version 2", path: "$.version") { setJSON(&$0, ["version"], 2) },
        BrokenSheet(name: "another format", path: "$.format") { setJSON(&$0, ["format"], "session-cue") },
        BrokenSheet(name: "sha256 not hex", path: "$.audio.sha256") { setJSON(&$0, ["audio", "sha256"], String(repeating: "xyz0", count: 16)) },
        BrokenSheet(name: "sha256 too short", path: "$.audio.sha256") { setJSON(&$0, ["audio", "sha256"], "0123abcd") },
        BrokenSheet(name: "frames not whole", path: "$.audio.frames") { setJSON(&$0, ["audio", "frames"], 48000.5) },
        BrokenSheet(name: "frame as text", path: "$.cues[0].frame") { setJSON(&$0, ["cues", 0, "frame"], "8000") },
        BrokenSheet(name: "negative start frame", path: "$.sections[0].start_frame") { setJSON(&$0, ["sections", 0, "start_frame"], -1) },
        BrokenSheet(name: "unknown section kind", path: "$.sections[1].kind") { setJSON(&$0, ["sections", 1, "kind"], "warmup") },
        BrokenSheet(name: "audio file with a folder", path: "$.audio.file") { setJSON(&$0, ["audio", "file"], "dist/fixture.wav") },
        BrokenSheet(name: "seconds as text", path: "$.phases[0].start") { setJSON(&$0, ["phases", 0, "start"], "1.0") },
        // cues-v1.1
        BrokenSheet(name: "version 0.9", path: "$.version", guided: true) { setJSON(&$0, ["version"], 0.9) },
        BrokenSheet(name: "version 2.0", path: "$.version", guided: true) { setJSON(&$0, ["version"], 2.0) },
        BrokenSheet(name: "voice not a list", path: "$.voice", guided: true) { setJSON(&$0, ["voice"], ["index": 0]) },
        BrokenSheet(name: "voice without frame", path: "$.voice[0]", guided: true) { setJSON(&$0, ["voice", 0, "frame"], nil) },
        BrokenSheet(name: "voice without duck_db", path: "$.voice[1]", guided: true) { setJSON(&$0, ["voice", 1, "duck_db"], nil) },
        BrokenSheet(name: "voice draft as text", path: "$.voice[0].draft", guided: true) { setJSON(&$0, ["voice", 0, "draft"], "true") },
        BrokenSheet(name: "voice length_frames zero", path: "$.voice[1].length_frames", guided: true) {
            setJSON(&$0, ["voice", 1, "length_frames"], 0)
        },
        BrokenSheet(name: "voice duck_db negative", path: "$.voice[1].duck_db", guided: true) { setJSON(&$0, ["voice", 1, "duck_db"], -3) },
        BrokenSheet(name: "voice phase negative", path: "$.voice[1].phase", guided: true) { setJSON(&$0, ["voice", 1, "phase"], -1) },
        BrokenSheet(name: "voice text a number", path: "$.voice[0].text", guided: true) { setJSON(&$0, ["voice", 0, "text"], 5) },
        BrokenSheet(name: "voice file a list", path: "$.voice[1].file", guided: true) { setJSON(&$0, ["voice", 1, "file"], ["a.wav"]) },
        BrokenSheet(name: "section segment negative", path: "$.sections[1].segment", guided: true) {
            setJSON(&$0, ["sections", 1, "segment"], -1)
        },
        BrokenSheet(name: "section name a number", path: "$.sections[1].name", guided: true) { setJSON(&$0, ["sections", 1, "name"], 7) },
        BrokenSheet(name: "phase length zero", path: "$.phases[0].length", guided: true) { setJSON(&$0, ["phases", 0, "length"], 0) },
        BrokenSheet(name: "phase segment as text", path: "$.phases[3].segment", guided: true) { setJSON(&$0, ["phases", 3, "segment"], "0") },
        BrokenSheet(name: "ramp without over", path: "$.sections[1].ramp", guided: true) { setJSON(&$0, ["sections", 1, "ramp", "over"], nil) },
        BrokenSheet(name: "ramp to over 60 bpm", path: "$.sections[1].ramp.to_bpm", guided: true) {
            setJSON(&$0, ["sections", 1, "ramp", "to_bpm"], 61)
        },
        BrokenSheet(name: "ramp from zero", path: "$.sections[1].ramp.from_bpm", guided: true) {
            setJSON(&$0, ["sections", 1, "ramp", "from_bpm"], 0)
        },
        BrokenSheet(name: "ramp over not whole", path: "$.sections[1].ramp.over", guided: true) {
            setJSON(&$0, ["sections", 1, "ramp", "over"], 1.5)
        },
        BrokenSheet(name: "ramp as text", path: "$.sections[1].ramp", guided: true) { setJSON(&$0, ["sections", 1, "ramp"], "4.5 bpm") },
    ]

    /// The guided fixture without the cues-v1.1 keys a reader can do without.
    static func guidedBare() throws -> String {
        var object = try CueSheetFixture.guidedObject()
        for path: [Any] in [
            ["voice", 0, "text"], ["voice", 0, "file"], ["voice", 1, "phase"], ["sections", 1, "segment"], ["sections", 1, "name"],
            ["sections", 1, "ramp"],
        ] {
            setJSON(&object, path, nil)
        }
        for index in 0..<4 {
            setJSON(&object, ["phases", index, "segment"], nil)
            setJSON(&object, ["phases", index, "length"], nil)
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// Every sheet of this suite that needs no render, validated in one run of the script.
    static let sheetBatch = Result {
        var rows: [(name: String, text: String)] = [("plain", CueSheetFixture.sheet().jsonText()), ("extended", try extended())]
        var bare = try CueSheetFixture.object()
        for path: [Any] in [["category"], ["audio", "loudness_lufs"], ["audio", "true_peak_dbtp"]] { setJSON(&bare, path, nil) }
        rows.append(("without optional metadata", String(decoding: try JSONSerialization.data(withJSONObject: bare), as: UTF8.self)))
        rows.append(("guided", CueSheetFixture.guidedSheet().jsonText()))
        rows.append(("guided without optional keys", try guidedBare()))
        var nulls = try CueSheetFixture.guidedObject()
        setJSON(&nulls, ["voice", 1, "text"], NSNull())
        rows.append(("guided with null text", String(decoding: try JSONSerialization.data(withJSONObject: nulls), as: UTF8.self)))
        rows.append(("localized", CueSheetFixture.localizedSheet().jsonText()))
        for (name, key, value) in [("locale with an underscore", "locale", "pt_BR"), ("session not an id", "session", "a b")] {
            var object = try CueSheetFixture.object(CueSheetFixture.localizedSheet())
            setJSON(&object, [key], value)
            rows.append((name, String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)))
        }
        for row in broken {
            var object = try row.guided ? CueSheetFixture.guidedObject() : CueSheetFixture.object()
            row.breakIt(&object)
            rows.append((row.name, String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)))
        }
        let text = CueSheetFixture.sheet().jsonText()
        rows.append(("NaN", text.replacingOccurrences(of: "-16.02", with: "NaN")))
        rows.append(("truncated", String(text.dropLast(20))))
        rows.append(("duplicate key", text.replacingOccurrences(of: #""version": 1,"#, with: #""version": 1, "version": 1,"#)))
        return try BatchValidation(rows, suffix: ".cues.json", against: cueSheetSchema)
    }

    @Test func fixtureAndExtraKeysValidate() throws {
        let sheets = try Self.sheetBatch.get()
        let plain = sheets.lines("plain"), extended = sheets.lines("extended")
        #expect(plain == ["ok"], "\(plain)")
        // version 1 may gain keys: a reader ignores keys it does not know
        #expect(extended == ["ok"], "\(extended)")
        // category, loudness and true peak may be null or left out (CueSheetDecoding reads them as optional)
        let bare = sheets.lines("without optional metadata")
        #expect(bare == ["ok"], "\(bare)")
    }

    /// A cues-v1.1 sheet validates, with or without the keys a reader can do without, and the
    /// reader (CueSheetDecoding) takes each of them too: the schema asks no more than it does.
    @Test func guidedSheetsValidate() throws {
        let sheets = try Self.sheetBatch.get()
        let text = CueSheetFixture.guidedSheet().jsonText()
        #expect(text.contains(#""version": 1.1,"#))
        for (name, json) in [("guided", text), ("guided without optional keys", try Self.guidedBare())] {
            let lines = sheets.lines(name)
            #expect(lines == ["ok"], "\(name): \(lines)")
            #expect(throws: Never.self, "\(name)") { _ = try CueSheet.decode(from: json) }
        }
        #expect(sheets.lines("guided with null text") == ["ok"])
        // and it reads back as written: the voice entries, segments, names and lengths survive
        let decoded = try CueSheet.decode(from: text)
        #expect(decoded.voice?.count == 2 && decoded.minorVersion == 1)
        #expect(decoded.jsonText() == text)
    }

    /// A cues-v1.2 sheet (a rendition of a recipe with locales) validates, says 1.2, and reads back as written;
    /// a locale that is not a BCP 47 tag, or a session that is not an id, is refused at its key.
    @Test func localizedSheetsValidate() throws {
        let sheets = try Self.sheetBatch.get()
        let text = CueSheetFixture.localizedSheet().jsonText()
        #expect(text.contains(#""version": 1.2,"#) && text.contains(#""session": "fixture","#) && text.contains(#""locale": "pt-BR","#))
        #expect(sheets.lines("localized") == ["ok"], "\(sheets.lines("localized"))")
        #expect(try CueSheet.decode(from: text).jsonText() == text)
        for (name, path) in [("locale with an underscore", "$.locale"), ("session not an id", "$.session")] {
            let lines = sheets.lines(name)
            #expect(lines.contains { $0.hasPrefix(path + ": ") }, "\(name): \(lines)")
        }
    }

    @Test(arguments: broken)
    func brokenSheetsAreRejected(_ broken: BrokenSheet) throws {
        let sheets = try Self.sheetBatch.get()
        #expect(sheets.validation.status == 1, "\(sheets.validation)")
        let lines = sheets.lines(broken.name)
        #expect(lines.contains { $0.hasPrefix(broken.path + ": ") }, "schema said \(lines), expected a problem at \(broken.path)")
    }

    @Test(arguments: ["NaN", "truncated", "duplicate key"])
    func sheetThatIsNotJSONIsRejected(_ name: String) throws {
        let sheets = try Self.sheetBatch.get()
        let lines = sheets.lines(name)
        #expect(lines.count == 1 && lines[0].hasPrefix("$: JSON: "), "\(lines)")
    }
}
