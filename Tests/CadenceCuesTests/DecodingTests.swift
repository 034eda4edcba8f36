import CadenceCues
import Foundation
import Testing

@Suite struct DecodingTests {
    @Test func readsEveryFieldOfARenderedSheet() throws {
        let sheet = try Fixture.boxSheet()
        #expect(sheet.format == "session-cues")
        #expect(sheet.version == 1)
        #expect(sheet.id == "box-breathing-fixture")
        #expect(sheet.title == "Box Breathing")
        #expect(sheet.category == "Focus")
        #expect(sheet.audio.file == "out.flac")
        #expect(sheet.audio.sampleRate == 48000)
        #expect(sheet.audio.channels == 2)
        #expect(sheet.audio.frames == 2_400_000)
        #expect(sheet.audio.duration == 50.0)
        #expect(sheet.audio.sha256 == "8d24d7cf3b3747b45e5dc966d0ba927cf2b1aa2e3280efedc6031226a947e602")
        #expect(sheet.audio.loudnessLUFS == -15.99)
        #expect(sheet.audio.truePeakDBTP == -2.31)
        #expect(sheet.pattern.name == "Box Breathing")
        #expect(sheet.pattern.cycle == DecimalText("16"))
        #expect(sheet.pattern.phases.map(\.kind) == ["inhale", "hold", "exhale", "hold"])
        #expect(sheet.pattern.phases.map(\.label) == ["Breathe In", "Hold", "Breathe Out", "Hold"])
        #expect(sheet.pattern.phases.map(\.length.text) == ["4", "4", "4", "4"])
        #expect(sheet.sections.map(\.kind) == ["intro", "practice", "outro"])
        #expect(sheet.sections.map(\.startFrame) == [0, 480_000, 2_016_000])
        #expect(sheet.sections.map(\.endFrame) == [480_000, 2_016_000, 2_400_000])
        #expect(sheet.sections.map(\.end) == [10.0, 42.0, 50.0])
        #expect(sheet.phases.count == 8)
        #expect(sheet.phases.map(\.startFrame) == [480_000, 672_000, 864_000, 1_056_000, 1_248_000, 1_440_000, 1_632_000, 1_824_000])
        #expect(sheet.phases.map(\.cycle) == [0, 0, 0, 0, 1, 1, 1, 1])
        #expect(
            sheet.phases[6]
                == CueSheet.Phase(
                    index: 6, cycle: 1, kind: "exhale", label: "Breathe Out", startFrame: 1_632_000, endFrame: 1_824_000, sampleRate: 48000))
        #expect(sheet.cues.map(\.name) == ["start", "inhale", "exhale", "inhale", "exhale", "end"])
        #expect(sheet.cues[5] == CueSheet.Cue(name: "end", phase: 7, frame: 2_016_000, lengthFrames: 72000, sampleRate: 48000))
    }

    @Test func readsEscapesExactDecimalsAndNull() throws {
        let sheet = try CueSheet.decode(from: Fixture.odd)
        #expect(sheet.title == "Odd \"Rates\" — ünïcode")
        #expect(sheet.category == nil)
        #expect(sheet.pattern.cycle.text == "3.734567891")
        #expect(sheet.pattern.phases[0].length.text == "1.234567891")
        #expect(sheet.pattern.phases[1].label == "Out\tslow")
        #expect(sheet.audio.duration == 17.203696145124717)
        #expect(sheet.phases[1].start == 4.534557823129251)
    }

    @Test(arguments: [Fixture.box, Fixture.odd])
    func jsonTextOfADecodedSheetIsTheOriginalBytes(_ text: String) throws {
        #expect(try CueSheet.decode(from: text).jsonText() == text)
        #expect(try CueSheet.decode(from: Data(text.utf8)).jsonText() == text)
    }

    @Test func ignoresUnknownKeysEverywhere() throws {
        let text = try Fixture.edit(
            Fixture.box,
            [
                (#""version": 1,"#, #""version": 1, "generator": {"name": "cadence", "flags": [1, 2.5, null, true, {"deep": []}]},"#),
                (#""channels": 2,"#, #""channels": 2, "bit_depth": 24,"#),
                (#""cycle": 16.0,"#, #""cycle": 16.0, "bpm": 3.75,"#),
                (
                    #"{ "kind": "exhale", "label": "Breathe Out", "length": 4.0 }"#,
                    #"{ "kind": "exhale", "label": "Breathe Out", "length": 4.0, "color": "blue" }"#
                ),
                (#"{ "kind": "outro","#, #"{ "title": "Wind Down", "kind": "outro","#),
                (#"{ "index": 3,"#, #"{ "haptic": "double", "index": 3,"#),
                (#""time": 42.0 }"#, #""time": 42.0, "gain_db": -3 }"#),
                ("\n}\n", ",\n  \"chapters\": [{\"title\": \"x\"}]\n}\n"),
            ])
        #expect(try CueSheet.decode(from: text) == Fixture.boxSheet())
    }

    @Test(arguments: [
        ("1", 1), ("1.0", 1), ("1.1", 1), ("1.25", 1), ("1e0", 1), ("10e-1", 1),
    ])
    func acceptsMajorVersionOne(_ written: String, _ major: Int) throws {
        let text = try Fixture.edit(Fixture.box, [(#""version": 1,"#, "\"version\": \(written),")])
        #expect(try CueSheet.decode(from: text).version == major)
    }

    @Test(arguments: ["2", "2.0", "0", "0.9", "-1", "3e0", "100000000000000000000"])
    func refusesOtherMajorVersions(_ written: String) throws {
        let text = try Fixture.edit(Fixture.box, [(#""version": 1,"#, "\"version\": \(written),")])
        let error = Fixture.decodeError(text)
        #expect(error == .unsupportedVersion(written))
        #expect(error?.description == "cue sheet version \(written) is not supported by this reader (supports 1)")
    }

    /// A later version may have changed anything else: the version is reported, not a missing key.
    @Test func reportsTheVersionBeforeAnythingElse() {
        let error = Fixture.decodeError(#"{"format": "session-cues", "version": 2, "tracks": []}"#)
        #expect(error?.description == "cue sheet version 2 is not supported by this reader (supports 1)")
        #expect(error == .unsupportedVersion("2"))
    }

    @Test func versionMustBeANumber() throws {
        let text = try Fixture.edit(Fixture.box, [(#""version": 1,"#, #""version": "1","#)])
        #expect(Fixture.decodeError(text) == .typeMismatch(path: "version", expected: "a number", found: #""1""#))
        #expect(Fixture.decodeError(text)?.description == #"version: expected a number, found "1""#)
    }

    @Test func refusesOtherFormats() throws {
        let text = try Fixture.edit(Fixture.box, [(#""format": "session-cues""#, #""format": "playlist""#)])
        #expect(Fixture.decodeError(text) == .notACueSheet(format: "playlist"))
        #expect(Fixture.decodeError(text)?.description == #"not a cue sheet: format is "playlist", expected "session-cues""#)
        #expect(Fixture.decodeError(#"{"version": 1}"#) == .missingKey(path: "format"))
        #expect(Fixture.decodeError("[1, 2]") == .typeMismatch(path: "document", expected: "an object", found: "an array"))
    }

    @Test(arguments: [
        // What was removed, and the path the error names.
        (#""start_frame": 672000, "#, "phases[1].start_frame"),
        (#", "end": 10.0"#, "sections[0].end"),
        (#""sha256": "8d24d7cf3b3747b45e5dc966d0ba927cf2b1aa2e3280efedc6031226a947e602","#, "audio.sha256"),
        (#", "length_frames": 72000, "time": 42.0"#, "cues[5].length_frames"),
        (#", "label": "Breathe Out", "length": 4.0"#, "pattern.phases[2].label"),
        (#""id": "box-breathing-fixture","#, "id"),
    ])
    func namesTheMissingKey(_ removed: String, _ path: String) throws {
        let text = try Fixture.edit(Fixture.box, [(removed, "")])
        let error = Fixture.decodeError(text)
        #expect(error == .missingKey(path: path))
        #expect(error?.description == "\(path): missing (a required key)")
    }

    @Test(arguments: [
        (#""start_frame": 1056000"#, #""start_frame": "1056000""#, #"phases[3].start_frame: expected an integer, found "1056000""#),
        (#""start_frame": 1056000"#, #""start_frame": 1056000.5"#, "phases[3].start_frame: expected an integer, found 1056000.5"),
        (#""start_frame": 1056000"#, #""start_frame": null"#, "phases[3].start_frame: expected an integer, found null"),
        (#""frames": 2400000"#, #""frames": 1e30"#, "audio.frames: expected an integer, found 1e30"),
        (#""end": 14.0 }"#, #""end": true }"#, "phases[0].end: expected a number, found true"),
        (#""title": "Box Breathing""#, #""title": ["Box"]"#, "title: expected a string, found an array"),
        (#""category": "Focus""#, #""category": 7"#, "category: expected a string or null, found 7"),
        (#""loudness_lufs": -15.99"#, #""loudness_lufs": "loud""#, #"audio.loudness_lufs: expected a number or null, found "loud""#),
        (#""audio": {"#, #""audio": 1, "x": {"#, "audio: expected an object, found 1"),
        (#""cues": ["#, #""cues": {}, "y": ["#, "cues: expected an array, found an object"),
        (#""time": 34.0 }"#, #""time": 1e999 }"#, "cues[4].time: expected a number, found 1e999"),
        (#"{ "name": "exhale", "phase": 2"#, #""exhale", { "phase": 2"#, #"cues[2]: expected an object, found "exhale""#),
    ])
    func namesTheMistypedKey(_ of: String, _ with: String, _ message: String) throws {
        let text = try Fixture.edit(Fixture.box, [(of, with)])
        #expect(Fixture.decodeError(text)?.description == message)
    }

    /// JSON has one number type: an integer written with a zero fraction or an exponent is the same integer.
    @Test func readsWholeNumbersInAnyNotation() throws {
        let text = try Fixture.edit(
            Fixture.box,
            [
                (#""sample_rate": 48000"#, #""sample_rate": 48000.0"#),
                (#""frames": 2400000"#, #""frames": 2.4e6"#),
                (#""start_frame": 1056000"#, #""start_frame": 1056000E0"#),
                (#""cycle": 16.0"#, #""cycle": 1.6e1"#),
            ])
        #expect(try CueSheet.decode(from: text) == Fixture.boxSheet())
    }

    @Test(arguments: [
        ("", "malformed JSON at line 1, column 1: empty document"),
        ("  \n ", "malformed JSON at line 2, column 2: empty document"),
        ("{", "malformed JSON at line 1, column 2: expected a key in double quotes, found end of document"),
        ("{\n  \"format\": \"session-cues\",\n}", "malformed JSON at line 3, column 1: expected a key in double quotes, found '}'"),
        ("{\"a\": [1 2]}", "malformed JSON at line 1, column 10: expected ',' or ']', found '2'"),
        ("{\"a\": 01}", "malformed JSON at line 1, column 7: a number may not start with 0 followed by more digits"),
        ("{\"a\": 1.}", "malformed JSON at line 1, column 9: expected digits after the decimal point"),
        ("{\"a\": tru}", "malformed JSON at line 1, column 7: expected a value, found 't'"),
        ("{\"a\": 1} x", "malformed JSON at line 1, column 10: unexpected text after the document"),
        ("{\"a\": 1, \"a\": 2}", "malformed JSON at line 1, column 10: key \"a\" appears twice in one object"),
        ("{\"é\": \"\\q\"}", "malformed JSON at line 1, column 8: invalid escape '\\q'"),
        ("{\"a\": \"x\ty\"}", "malformed JSON at line 1, column 9: control character U+0009 in a string (write it escaped)"),
        ("{\"a\": \"\\ud800\"}", "malformed JSON at line 1, column 8: high surrogate \\uD800 without a low surrogate after it"),
        ("{\"a\": \"\\udc00\"}", "malformed JSON at line 1, column 8: lone low surrogate \\uDC00"),
        ("{\"a\": \"abc", "malformed JSON at line 1, column 7: unterminated string"),
        ("{\"a\": NaN}", "malformed JSON at line 1, column 7: expected a value, found 'N'"),
        ("// cues\n{}", "malformed JSON at line 1, column 1: expected a value, found '/'"),
        (String(repeating: "[", count: 100), "malformed JSON at line 1, column 65: arrays and objects nested more than 64 deep"),
    ])
    func reportsMalformedJSONWithLineAndColumn(_ text: String, _ message: String) {
        let error = Fixture.decodeError(text)
        #expect(error?.description == message)
        guard case .malformed? = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
    }

    @Test func refusesInvalidUTF8() {
        var bytes = Array(#"{"format": "session-cues", "title": "ab"}"#.utf8)
        bytes[38] = 0xFF
        let error: CueSheetError?
        do {
            _ = try CueSheet.decode(from: Data(bytes))
            error = nil
        } catch let e {
            error = e
        }
        #expect(error == .malformed(reason: "string is not valid UTF-8", line: 1, column: 37))
    }

    @Test func decodesEscapedTextAndSkipsAByteOrderMark() throws {
        let text = try Fixture.edit(
            Fixture.box,
            [
                (#""title": "Box Breathing""#, #""title": "Box \u00e9\ud83d\ude00 \/ \"B\"\n""#)
            ])
        let sheet = try CueSheet.decode(from: Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)))
        #expect(sheet.title == "Box é😀 / \"B\"\n")
    }

    @Test func errorsReadAsLocalizedDescriptions() {
        let error: any Error = CueSheetError.gap(after: .phase(4), before: .phase(5), frames: 672_000..<672_010)
        #expect(error.localizedDescription == "gap between phases 4 and 5 (frames 672000…672010)")
    }
}
