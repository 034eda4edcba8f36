import AudioCore
import CadenceCues
import Testing

@testable import Recipe

/// recipe-v1.2 § Breath guidance: `guide:`, `swell:`, `haptics:` as the model holds them.
@Suite struct BreathGuideKeyTests {
    @Test func withoutTheKeysTheEnvelopeIsOffAndTheTextUnchanged() throws {
        let recipe = try load("pattern: box\ncycles: 2\n")
        #expect(!recipe.breathEnvelopeOn && recipe.guide == nil && recipe.swell == nil && !recipe.haptics)
        #expect(recipe.breathGuide == .defaults)
        #expect(!recipe.canonicalText.contains("guide=") && !recipe.canonicalText.contains("swell=") && !recipe.canonicalText.contains("haptics="))
        // `haptics: off` is the default: it changes nothing
        let off = try load("pattern: box\ncycles: 2\nhaptics: off\n")
        #expect(!off.breathEnvelopeOn && off.canonicalText == recipe.canonicalText)
    }

    @Test func guideReadsKindsAndShape() throws {
        let recipe = try load("pattern: box\ncycles: 2\nguide: { inhale: rise, hold: none, exhale: hold, shape: linear }\n")
        #expect(recipe.breathEnvelopeOn)
        #expect(recipe.guide == BreathGuideSettings(kinds: ["inhale": .rise, "hold": .none, "exhale": .hold], shape: .linear))
        #expect(recipe.breathGuide.guide(for: "exhale") == .hold)
        #expect(recipe.canonicalText.contains("guide=linear|exhale:hold,hold:none,inhale:rise\n"))
        // an empty guide turns the envelope on with every default
        let empty = try load("pattern: box\ncycles: 2\nguide: {}\n")
        #expect(empty.breathEnvelopeOn && empty.guide == BreathGuideSettings.defaults)
        #expect(empty.canonicalText.contains("guide=sine|exhale:fall,hold:hold,inhale:rise\n"))
        // writing a default says the same as leaving it out: the seed follows what renders
        let defaults = try load("pattern: box\ncycles: 2\nguide: { inhale: rise, hold: hold, shape: sine }\n")
        #expect(defaults.canonicalText == empty.canonicalText)
    }

    @Test func aProgramsGuideMayNameTransition() throws {
        let yaml = """
            program:
              - { pattern: box, duration: 1m }
              - { pattern: coherent, duration: 1m }
            guide: { transition: hold, inhale: rise }
            """
        let recipe = try load(yaml)
        #expect(recipe.guide?.kinds == ["transition": .hold, "inhale": .rise])
        #expect(recipe.phaseKinds == ["inhale", "hold", "exhale", "transition"])
        let texts = problems("pattern: box\ncycles: 2\nguide: { transition: hold }\n").map(\.description)
        #expect(texts.count == 1 && texts[0].contains("guide: kind 'transition' matches no phase of pattern 'box'"), "\(texts)")
    }

    @Test func swellReadsToneOrNoiseAndGain() throws {
        let tone = try load("pattern: box\ncycles: 2\nswell: { tone: 174 Hz, gain: -26 dB }\n")
        #expect(tone.swell == Swell(source: .tone(hertz: 174), gainDB: -26) && tone.breathEnvelopeOn)
        #expect(tone.canonicalText.contains("swell=tone|174.0|-26.0\n"))
        let noise = try load("pattern: box\ncycles: 2\nswell: { synth: brown-noise }\n")
        #expect(noise.swell == Swell(source: .noise(.brownNoise), gainDB: 0))
        let zero = try load("pattern: box\ncycles: 2\nswell: { synth: pink-noise, gain: 0 dB }\n")
        #expect(zero.swell?.gainDB == 0)
        // 20 Hz is the lowest tone; below Nyquist of the output's rate
        #expect(try load("pattern: box\ncycles: 2\nswell: { tone: 20 Hz }\n").swell?.source == .tone(hertz: 20))
        #expect(!problems("pattern: box\ncycles: 2\nswell: { tone: 19.9 Hz }\n").isEmpty)
        #expect(!problems("pattern: box\ncycles: 2\nswell: { tone: 24 kHz }\n").isEmpty)
        #expect(problems("pattern: box\ncycles: 2\nswell: { tone: 23.9 kHz }\n").isEmpty)
    }

    @Test func hapticsOnTurnsTheEnvelopeOn() throws {
        let recipe = try load("pattern: box\ncycles: 2\nhaptics: on\n")
        #expect(recipe.haptics && recipe.breathEnvelopeOn && recipe.guide == nil)
        // files beside the track, not its sound: the canonical text, which seeds the noise, is the one without it
        #expect(recipe.canonicalText == (try load("pattern: box\ncycles: 2\n")).canonicalText)
    }

    @Test func theHapticsLimitIsOneConstant() {
        #expect(RecipeLimits.maxHapticEventsPerTrack == 400_000)
    }
}
