import AudioCore
import Foundation
import Recipe
import TestKit
import Testing
import Timeline

@testable import Render

/// A mix may start at any frame, and a synth bed's or a noise swell's generator gets there as
/// rendering from frame 0 would (`NoiseGenerator.seek`): the frames of a mix that starts part-way
/// are those of the whole mix, bit for bit. Pass 1 splits such a track in two halves, and each AAC
/// part starts half a second before its own frames, so a noise that started afresh at a part
/// would change the sound from where the part begins.
@Suite struct MixStartTests {
    /// Recipes whose every source is startable: synth beds of each kind, layered, a noise swell, a tone
    /// swell, cues; each line is the bed and swell of one.
    static let sounds = [
        "bed: [{ synth: pink-noise, gain: -20 dB }, { synth: brown-noise, gain: -24 dB }, { synth: drone, gain: -30 dB }]\nswell: { synth: white-noise, gain: -26 dB }",
        "bed: { synth: drone, gain: -20 dB }",
        "bed: { synth: binaural 200 Hz 6 Hz, gain: -20 dB }",
        "bed: { synth: isochronic 220 Hz 10 Hz, gain: -20 dB }",
        "bed: { synth: pink-noise, gain: -20 dB }\nswell: { tone: 174 Hz, gain: -20 dB }",
        "bed: { synth: pink-noise, gain: -20 dB }",
        "swell: { tone: 174 Hz, gain: -20 dB }",
        "swell: { synth: pink-noise, gain: -20 dB }",
    ]

    static func recipe(_ sound: String) -> String {
        """
        id: synth-mix
        pattern: { phases: [inhale: 2s, hold: 1s, exhale: 3s] }
        duration: 12s
        \(sound)
        cues: { inhale: { tone: 440 Hz, length: 200ms } }
        output: { sample_rate: 16000, channels: 2, format: wav }
        """
    }

    /// Frames [start, end) of a mix of `sources` starting at `start`, rendered in blocks of `block` frames.
    static func frames(_ sources: TrackSources, from start: Int64, to end: Int64, block: Int = Block.frames) throws -> [Float] {
        var mix = try sources.makeMix(from: start, to: end)
        var out: [Float] = []
        out.reserveCapacity(Int(end - start) * 2)
        var buffer = [Float](repeating: 0, count: block * 2)
        while true {
            let n = try buffer.withUnsafeMutableBufferPointer { (b) throws(AudioError) in try mix.render(into: b) }
            if n == 0 { break }
            out += buffer[0..<(n * 2)]
        }
        return out
    }

    @Test("a mix of synth beds and a swell started part-way gives the whole mix's frames, bit for bit, from any frame", arguments: sounds)
    func partWayIsTheWhole(_ sound: String) throws {
        let folder = try TempFolder("mix-start")
        let path = try folder.write(Self.recipe(sound), to: "synth-mix.yml")
        let recipe = try RecipeLoader.load(path: path)
        let timeline = try Timeline(recipe: recipe)
        let sources = try TrackSources(recipe: recipe, timeline: timeline, assetsOverride: nil, beds: BedCache(), clips: ClipCache())
        #expect(sources.startsCheaply == !sound.contains("synth"))
        let total = sources.totalFrames
        let whole = try Self.frames(sources, from: 0, to: total)
        #expect(whole.count == Int(total) * 2)
        // block-aligned and not, a block before the end, the middle a pass splits at, inside a cue
        for start: Int64 in [1, 4095, 4096, 16_000, 123_457, total / 2, total - 4097, total - 1] {
            let part = try Self.frames(sources, from: start, to: total, block: start == 16_000 ? 1000 : Block.frames)
            let expected = Array(whole[(Int(start) * 2)...])
            let first = zip(part, expected).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }?.offset
            #expect(
                part.count == expected.count && first == nil,
                "\(sound.prefix(50)) from frame \(start): first difference at sample \(first.map(String.init) ?? "none")")
        }
    }
}
