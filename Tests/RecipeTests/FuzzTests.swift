import AudioCore
import TestKit
import Testing

@testable import Recipe

@Suite struct FuzzTests {
    static let recipe = """
        id: box-5m
        title: Box
        duration: 5m30s
        pattern: { name: Sigh, phases: [ inhale: 2s, { kind: exhale, length: 1:02.5, label: Out } ] }
        intro: 10s
        bed: { file: beds/rain.ogg, gain: -14 dB, fade_in: 4s, crossfade: 2s }
        cues:
          inhale: &t { tone: 528 Hz, length: 800ms, gain: -18 dB, envelope: bell, harmonics: [0.3, 0.12] }
          exhale: *t
          start: chime
        output: { sample_rate: 48000, format: flac, bit_depth: 24, loudness: -16 LUFS, true_peak: -1 dBTP }

        """

    @Test func mutatedRecipesNeverCrash() {
        var random = SplitMix64(seed: 42)
        let original = Array(Self.recipe.utf8)
        let alphabet = Array("{}[]:,-&*!|>'\"#%@` \n\t0123456789.hmsdBHzk\u{0}".utf8) + [0xFF, 0xC3]
        #expect(problems(original).isEmpty)
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
                }
            }
            for diagnostic in problems(bytes) {
                guard let location = diagnostic.location else {
                    Issue.record("no location: \(diagnostic)")
                    continue
                }
                #expect(location.line >= 1 && location.line <= 20 && location.column >= 1, "\(diagnostic)")
                #expect(!diagnostic.message.isEmpty)
            }
        }
    }

    @Test func unitParsersNeverCrash() {
        var random = SplitMix64(seed: 7)
        let alphabet = Array("0123456789.:hmsdBHzkLUFTP -+e".utf8)
        for _ in 0..<20_000 {
            let text = String(
                decoding: (0..<Int.random(in: 0...12, using: &random)).map { _ in
                    alphabet.randomElement(using: &random) ?? 0
                }, as: UTF8.self)
            if case .success(let value) = Units.duration(text) {
                #expect(value >= .zero && value <= RecipeLimits.maxDuration, "\(text)")
            }
            if case .success(let value) = Units.gain(text) { #expect(Units.gainRange.contains(value), "\(text)") }
            if case .success(let value) = Units.frequency(text) { #expect(value > 0 && value.isFinite, "\(text)") }
            if case .success(let value?) = Units.loudness(text) { #expect(Units.loudnessRange.contains(value), "\(text)") }
            if case .success(let value) = Units.truePeak(text) { #expect(Units.truePeakRange.contains(value), "\(text)") }
        }
    }
}
