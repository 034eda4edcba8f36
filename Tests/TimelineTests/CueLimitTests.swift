import AudioCore
import Recipe
import Testing

@testable import Timeline

/// Cues and `on:` prompts for only part of the session (issue 15): `until:` and `cycles:`.
///
/// An onset sounds when its frame is before `until`'s frame (anchors and offsets exact, one
/// rounding) and its cycle is chosen; the rest of the layout does not move.
@Suite struct CueLimitTests {
    /// Box breathing (4 s phases, 16 s cycle), with the given cues and voice, read from YAML.
    static func laidOut(cues: String, voice: String = "", intro: String = "0s", duration: String = "2m", rate: Int = 48000) throws -> Timeline {
        let yaml = """
            id: t
            title: T
            duration: \(duration)
            pattern: box
            intro: \(intro)
            cues:
            \(cues)
            \(voice)
            output: { sample_rate: \(rate) }
            """
        return try Timeline(recipe: RecipeLoader.parse(Array(yaml.utf8), file: "t.yml", defaultID: "t"))
    }

    static func failures(cues: String, voice: String = "", intro: String = "0s") -> [Diagnostic] {
        do {
            _ = try laidOut(cues: cues, voice: voice, intro: intro)
            return []
        } catch let error as DiagnosticList {
            return error.diagnostics
        } catch {
            return [Diagnostic("\(error)", at: nil)]
        }
    }

    static func seconds(_ t: Timeline, _ name: String) -> [Double] {
        t.cues.filter { $0.name == name }.map { Double($0.frame) / Double(t.sampleRate) }
    }

    @Test("an onset exactly at 'until' is silent; the ones before it sound")
    func untilIsExclusive() throws {
        let t = try Self.laidOut(cues: "  inhale: { preset: bell, until: 32s }\n  exhale: bell")
        #expect(Self.seconds(t, "inhale") == [0, 16])
        // exhale has no limit: every cycle of 2 minutes (7 cycles: 112 s)
        #expect(Self.seconds(t, "exhale") == [8, 24, 40, 56, 72, 88, 104])
        // one frame later, the 32 s onset sounds
        let later = try Self.laidOut(cues: "  inhale: { preset: bell, until: 32.00003s }")
        #expect(Self.seconds(later, "inhale") == [0, 16, 32])
    }

    @Test("'until' takes anchors: end - 40s is exact, practice + 20s counts from the intro's end")
    func anchoredUntil() throws {
        // 2 minutes: the 112 s practice ends 8 s before the end; end - 40s = 80 s
        let t = try Self.laidOut(cues: "  inhale: { tone: 440Hz, until: end - 40s }")
        #expect(Self.seconds(t, "inhale") == [0, 16, 32, 48, 64])
        let i = try Self.laidOut(cues: "  inhale: { tone: 440Hz, until: practice + 20s }", intro: "7.5s")
        #expect(Self.seconds(i, "inhale") == [7.5, 23.5])
    }

    @Test("cycles: a range and a list choose the cycles (from 1); a range past the practice's cycles is allowed")
    func cycles() throws {
        let t = try Self.laidOut(cues: "  exhale: { tone: 396Hz, cycles: [2, 4-5] }\n  end: { preset: chime, cycles: 7 }")
        #expect(Self.seconds(t, "exhale") == [24, 56, 72])
        // `end` belongs to the last cycle (7)
        #expect(Self.seconds(t, "end") == [112])
        let past = try Self.laidOut(cues: "  exhale: { file: x.wav, cycles: 1-100 }")
        #expect(Self.seconds(past, "exhale").count == 7)
    }

    @Test("a cues-wide until and cycles apply to every cue; a cue's own key replaces the shared one")
    func sharedLimits() throws {
        let t = try Self.laidOut(cues: "  until: 40s\n  cycles: 2-9\n  inhale: bell\n  exhale: { preset: chime, until: 90s }\n  hold: click")
        #expect(Self.seconds(t, "inhale") == [16, 32])
        #expect(Self.seconds(t, "exhale") == [24, 40, 56, 72, 88])
        #expect(Self.seconds(t, "hold") == [20, 28, 36])
    }

    @Test("an 'on:' prompt with until: is placed only on phases that start before it")
    func promptUntil() throws {
        let voice = "voice:\n  prompts:\n    - { on: inhale, until: 50s, text: In }\n    - { on: exhale, cycles: 1-2, until: 30s, text: Out }"
        let t = try Self.laidOut(cues: "  inhale: bell", voice: voice)
        let starts = t.prompts.map { ($0.prompt, Double($0.frame) / 48000) }
        #expect(starts.filter { $0.0 == 0 }.map(\.1) == [0, 16, 32, 48])
        #expect(starts.filter { $0.0 == 1 }.map(\.1) == [8, 24])
        // the limit is read, at an `at:` prompt it is refused
        let at = Self.failures(cues: "  inhale: bell", voice: "voice:\n  prompts:\n    - { at: 5s, until: 50s, text: In }")
        #expect(at.map(\.message).contains { $0.contains("voice.prompts.0.until: applies to 'on:' prompts only") })
    }

    @Test("a limit under which its cue never sounds is an error at the limit, naming the first onset")
    func neverSounds() {
        let early = Self.failures(cues: "  inhale: { preset: bell, until: 20s }", intro: "30s")
        #expect(early.count == 1)
        #expect(early.first?.message.contains("cues.inhale.until: cue 'inhale' never sounds: its first onset is at 30s") == true)
        #expect(early.first?.location?.line == 7)
        let cycles = Self.failures(cues: "  exhale: { tone: 396Hz, cycles: 8-9 }")
        #expect(cycles.first?.message.contains("the practice holds 7 cycles, and the first chosen is cycle 8") == true)
        let shared = Self.failures(cues: "  until: 0s\n  inhale: bell")
        #expect(shared.first?.message.contains("cues.until: 'until' comes at the file's start") == true)
        let prompt = Self.failures(cues: "  inhale: bell", voice: "voice:\n  prompts:\n    - { on: exhale, until: 5s, text: Out }")
        #expect(prompt.first?.message.contains("voice.prompts.0.until: no phase of kind 'exhale' starts before it") == true)
    }

    @Test("a limit changes the recipe's canonical text (the fingerprint re-renders it); no limit leaves it as it was")
    func canonicalText() throws {
        func text(_ cues: String) throws -> String {
            let yaml = "id: t\ntitle: T\nduration: 2m\npattern: box\ncues:\n\(cues)\n"
            return try RecipeLoader.parse(Array(yaml.utf8), file: "t.yml", defaultID: "t").canonicalText
        }
        let plain = try text("  inhale: bell")
        #expect(!plain.contains("limit"))
        #expect(try text("  inhale: { preset: bell }") == plain)
        #expect(try text("  inhale: { preset: bell, until: 1m }") != plain)
        #expect(try text("  inhale: { preset: bell, until: 1m }") != text("  inhale: { preset: bell, until: 2m }"))
        #expect(try text("  inhale: { preset: bell, cycles: 1-2 }") != text("  inhale: { preset: bell, cycles: 1-3 }"))
    }

    @Test("preset: takes the preset's tone, and the keys given change it")
    func presetMapping() throws {
        let yaml = "id: t\ntitle: T\nduration: 2m\npattern: box\ncues:\n  inhale: { preset: bell, gain: -30 dB }\n  exhale: { preset: chime }\n"
        let r = try RecipeLoader.parse(Array(yaml.utf8), file: "t.yml", defaultID: "t")
        var quieter = CuePresets.bell
        quieter.gainDB = -30
        #expect(r.cues["inhale"] == .tone(quieter))
        #expect(r.cues["exhale"] == .tone(CuePresets.chime))
    }
}
