import AudioCore
import TestKit
import Testing

@testable import Recipe

@Suite struct DefaultsTests {
    @Test func minimalRecipe() throws {
        let recipe = try load("pattern: box\nduration: 5m\n", defaultID: "box-5m")
        #expect(recipe.id == "box-5m")
        #expect(recipe.file == testFile)
        #expect(recipe.title == "Box Breathing")
        #expect(recipe.category == nil)
        #expect(recipe.premium == false)
        #expect(recipe.sortOrder == nil)
        #expect(recipe.length == .duration(ns(300)))
        #expect(recipe.endOn == .cycle)
        #expect(recipe.intro == .zero)
        #expect(recipe.outro == .zero)
        #expect(recipe.bed == nil)
        #expect(recipe.output == OutputSettings(sampleRate: 48000, channels: 2, format: nil, bitDepth: nil, loudness: -16, truePeak: -1))
        // the key table states these defaults: the reference's tables and the schema are written from it
        func stated(_ path: String) -> String { RecipeKeys.row(path)?.defaultValue ?? "(no default)" }
        #expect(stated("output.sample_rate") == "48000" && stated("output.channels") == "2")
        #expect(stated("output.loudness") == "-16 LUFS" && stated("output.true_peak") == "-1 dBTP")
        #expect(stated("premium") == "false" && stated("end_on") == "cycle" && stated("intro") == "0s" && stated("outro") == "0s")
    }

    @Test func cuesWithoutCuesKey() throws {
        let recipe = try load("pattern: box\nduration: 5m\n")
        #expect(recipe.cues.count == 4)
        #expect(recipe.cues["inhale"] == .tone(Tone(frequency: 528, length: ns(1), gainDB: -20, envelope: .soft)))
        #expect(recipe.cues["exhale"] == .tone(Tone(frequency: 396, length: ns(1), gainDB: -20, envelope: .soft)))
        #expect(recipe.cues["start"] == .tone(CuePresets.chime))
        #expect(recipe.cues["end"] == .tone(CuePresets.chime))
        #expect(recipe.cues["hold"] == nil)

        let pomodoro = try load("pattern: pomodoro\ncycles: 1\n")
        #expect(Set(pomodoro.cues.keys) == ["start", "end"])
    }

    @Test func cuesKeyListsOnlyWhatSounds() throws {
        let recipe = try load(
            """
            pattern: box
            duration: 5m
            cues:
              inhale: { tone: 528 Hz }
              exhale: { tone: 1.2 kHz, length: 500ms, gain: -10 dB, envelope: soft, harmonics: 3 }
              hold: none
              start: bell
              end: { file: voice/done.wav, gain: -3 dB }
            """)
        #expect(recipe.cues.count == 4)
        #expect(recipe.cues["inhale"] == .tone(Tone(frequency: 528, length: ns(0, 800_000_000), gainDB: -18, envelope: .bell)))
        #expect(
            recipe.cues["exhale"]
                == .tone(
                    Tone(
                        frequency: 1200, length: ns(0, 500_000_000), gainDB: -10, envelope: .soft,
                        harmonics: [1.0 / 2, 1.0 / 3, 1.0 / 4])))
        #expect(recipe.cues["hold"] == nil)
        #expect(
            recipe.cues["start"]
                == .tone(
                    Tone(
                        frequency: 528, length: ns(1, 200_000_000), gainDB: -18, envelope: .bell,
                        harmonics: [0.3, 0.12])))
        #expect(recipe.cues["end"] == .file("voice/done.wav", gainDB: -3))
        #expect(recipe.locations["cues.end.file"] == SourceLocation(file: testFile, line: 8, column: 16))
        #expect(recipe.locations["cues.exhale.tone"] == SourceLocation(file: testFile, line: 5, column: 19))
        #expect(recipe.locations["cues.hold"]?.line == 6)
    }

    @Test func noneForBedAndCues() throws {
        let recipe = try load("pattern: box\ncycles: 1\nbed: none\ncues: none\n")
        #expect(recipe.bed == nil)
        #expect(recipe.cues.isEmpty)
        #expect(try load("pattern: box\ncycles: 1\ncues: {}\n").cues.isEmpty)
    }

    @Test func presets() {
        #expect(
            CuePresets.chime
                == Tone(
                    frequency: 880, length: ns(1, 500_000_000), gainDB: -20, envelope: .bell,
                    harmonics: [0.5, 0.25, 0.12]))
        #expect(CuePresets.click == Tone(frequency: 2000, length: ns(0, 30_000_000), gainDB: -24, envelope: .click))
        #expect(CuePresets.harmonicSeries(0) == [])
        #expect(CuePresets.harmonicSeries(2) == [0.5, 1.0 / 3])
    }

    @Test func harmonicsList() throws {
        let recipe = try load("pattern: box\ncycles: 1\ncues:\n  inhale: { tone: 440, harmonics: [0.5, 0, 1] }\n")
        guard case .tone(let tone) = recipe.cues["inhale"] else {
            Issue.record("no tone")
            return
        }
        #expect(tone.harmonics == [0.5, 0, 1])
    }

    @Test func fullExample() throws {
        let recipe = try load(
            """
            # yaml-language-server: $schema=../schema/recipe.schema.json
            id: box-breathing-5m            # optional
            title: Box Breathing
            category: Focus
            premium: false
            sort_order: 10

            duration: 5m
            pattern: box
            intro: 10s
            outro: 15s

            bed:
              file: beds/rain.ogg
              gain: -14 dB
              fade_in: 4s
              fade_out: 8s
              crossfade: 2s

            cues:
              inhale: { tone: 528 Hz, length: 800ms, gain: -18 dB, envelope: bell }
              exhale: { tone: 396 Hz, length: 800ms, gain: -18 dB, envelope: bell }
              hold: none
              start: chime
              end: chime

            output:
              sample_rate: 48000
              channels: 2
              format: flac
              bit_depth: 24
              loudness: -16 LUFS
              true_peak: -1 dBTP
            """, defaultID: "ignored")
        #expect(recipe.id == "box-breathing-5m")
        #expect(recipe.title == "Box Breathing")
        #expect(recipe.category == "Focus")
        #expect(recipe.premium == false)
        #expect(recipe.sortOrder == 10)
        #expect(recipe.length == .duration(ns(300)))
        #expect(recipe.intro == ns(10))
        #expect(recipe.outro == ns(15))
        #expect(recipe.bed == Bed(source: .file("beds/rain.ogg"), gainDB: -14, fadeIn: ns(4), fadeOut: ns(8), crossfade: ns(2)))
        #expect(recipe.cues["inhale"] == .tone(Tone(frequency: 528, length: ns(0, 800_000_000), gainDB: -18, envelope: .bell)))
        #expect(recipe.cues["exhale"] == .tone(Tone(frequency: 396, length: ns(0, 800_000_000), gainDB: -18, envelope: .bell)))
        #expect(recipe.cues["hold"] == nil)
        #expect(recipe.cues["start"] == .tone(CuePresets.chime))
        #expect(recipe.output == OutputSettings(sampleRate: 48000, channels: 2, format: .flac, bitDepth: .int24, loudness: -16, truePeak: -1))
        let expectedLocations: [String: (Int, Int)] = [
            "id": (2, 5), "title": (3, 8), "category": (4, 11), "premium": (5, 10), "sort_order": (6, 13),
            "duration": (8, 11), "pattern": (9, 10), "intro": (10, 8), "outro": (11, 8),
            "bed": (14, 3), "bed.file": (14, 9), "bed.gain": (15, 9), "bed.fade_in": (16, 12), "bed.fade_out": (17, 13),
            "bed.crossfade": (18, 14), "cues": (21, 3), "cues.inhale": (21, 11), "cues.inhale.tone": (21, 19),
            "cues.inhale.length": (21, 35), "cues.hold": (23, 9), "cues.start": (24, 10),
            "output": (28, 3), "output.sample_rate": (28, 16), "output.format": (30, 11), "output.bit_depth": (31, 14),
            "output.loudness": (32, 13), "output.true_peak": (33, 14),
        ]
        for (path, (line, column)) in expectedLocations {
            #expect(recipe.locations[path] == SourceLocation(file: testFile, line: line, column: column), "\(path)")
        }
        #expect(recipe.location(of: "bed.file").line == 14)
        #expect(recipe.location(of: "cues.exhale.file").line == 22)  // falls back to the parent
    }

    @Test func synthBeds() throws {
        let cases: [(String, Synth)] = [
            ("pink-noise", .pinkNoise), ("brown-noise", .brownNoise), ("white-noise", .whiteNoise),
            ("drone", .drone(hertz: 110)), ("drone 220 Hz", .drone(hertz: 220)), ("drone 1.5kHz", .drone(hertz: 1500)),
            ("drone 55", .drone(hertz: 55)),
        ]
        for (text, synth) in cases {
            let recipe = try load("pattern: box\ncycles: 1\nbed: { synth: \(text) }\n")
            #expect(recipe.bed == Bed(source: .synth(synth)), "\(text)")
            #expect(recipe.bed?.crossfade == ns(1))
        }
    }

    @Test func otherFields() throws {
        let recipe = try load(
            """
            pattern: relax
            duration: 1:00:00
            end_on: phase
            premium: true
            sort_order: -3
            title: "Evening: Relax"
            output: { sample_rate: 44100, channels: 1, format: ogg, bit_depth: 32f, loudness: off, true_peak: -2 dBTP }
            """)
        #expect(recipe.length == .duration(ns(3600)))
        #expect(recipe.endOn == .phase)
        #expect(recipe.premium)
        #expect(recipe.sortOrder == -3)
        #expect(recipe.title == "Evening: Relax")
        #expect(recipe.output == OutputSettings(sampleRate: 44100, channels: 1, format: .ogg, bitDepth: .float32, loudness: nil, truePeak: -2))
    }

    @Test func aliasesShareNodes() throws {
        let recipe = try load(
            """
            pattern: box
            cycles: 4
            cues:
              inhale: &soft { tone: 440 Hz, envelope: soft }
              exhale: *soft
            """)
        #expect(recipe.cues["inhale"] == recipe.cues["exhale"])
        #expect(recipe.cues["exhale"] == .tone(Tone(frequency: 440, length: ns(0, 800_000_000), gainDB: -18, envelope: .soft)))
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let recipe = try RecipeLoader.parse(
            [0xEF, 0xBB, 0xBF] + Array("pattern: box\r\ncycles: 3\r\ntitle: Calm\r\n".utf8),
            file: testFile, defaultID: "bom")
        #expect(recipe.title == "Calm")
        #expect(recipe.length == .cycles(3))
        #expect(recipe.locations["title"] == SourceLocation(file: testFile, line: 3, column: 8))
    }

    @Test func aliasLocationIsWhereItIsUsed() throws {
        let recipe = try load("pattern: box\ncycles: 1\nbed: &b { synth: drone }\ncues:\n  end: { file: a.wav }\n")
        #expect(recipe.locations["bed"] == SourceLocation(file: testFile, line: 3, column: 6))
        let found = problems("pattern: box\ncycles: 1\ncategory: &c [x]\ntitle: *c\n")
        #expect(
            found.map(\.description) == [
                "recipes/test.yml:3:11: error: category: expected text, found a list",
                "recipes/test.yml:4:8: error: title: expected text, found a list",
            ])
    }

    @Test func sexagesimalStaysText() throws {
        // A YAML 1.1 resolver would read 1:02.5 as the float 62.5 and 010 as octal.
        let recipe = try load("pattern: box\nduration: 1:02.5\nintro: 010\n")
        #expect(recipe.length == .duration(ns(62, 500_000_000)))
        #expect(recipe.intro == ns(10))
    }

    /// Writing a key's default changes nothing: the table's default is the model's.
    @Test(arguments: RecipeKeys.all.filter { $0.defaultValue != nil })
    func defaultIsTheModels(_ row: RecipeKey) throws {
        guard let value = row.defaultValue else { return }
        let written = try load(KeySample.recipe(row.path, value))
        let left = try load(KeySample.recipe(row.path, nil))
        #expect(written.canonicalText == left.canonicalText, "\(row.path): \(value)")
        if row.path == "delivery" { #expect(written.delivery == left.delivery) }
    }
}
