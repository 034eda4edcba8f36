import AudioCore
import CadenceCues
import Foundation
import Recipe
import Render
import TestKit
import Testing
import Timeline

/// recipe-v1.2 § Breath guidance: the swell's amplitude is gain × E, frame by frame.
@Suite("Swell in a render")
struct SwellRenderTests {
    static func recipe(_ swell: String, shape: String = "sine") -> String {
        """
        id: swell
        pattern: { phases: [inhale: 1.5s, hold: 0.5s, exhale: 2s, rest: 0.25s] }
        cycles: 2
        intro: 0.75s
        outro: 1.25s
        cues: none
        guide: { rest: none, shape: \(shape) }
        swell: \(swell)
        output: { sample_rate: 16000, channels: 2, format: wav, bit_depth: 32f, loudness: off }
        """
    }

    @Test(
        "a tone swell alone (float WAV, no bed, no cues, no loudness) is gain × E(f) × sin(2π f hz / rate) on every channel",
        arguments: ["sine", "linear"])
    func toneIsGainTimesE(shape: String) throws {
        let folder = try TempFolder("swell-tone")
        let path = try folder.write(Self.recipe("{ tone: 174 Hz, gain: -12 dB }", shape: shape), to: "s.yml")
        let (track, _) = try renderInProcess(path, to: folder.file("s.wav"))
        let audio = try readAudio(track.audioPath)
        let recipe = try RecipeLoader.load(path: path)
        let t = try Timeline(recipe: recipe)
        let envelope = BreathEnvelope(timeline: t, guide: recipe.breathGuide)
        let gain = pow(10, -12.0 / 20)
        #expect(audio.frames == Int(t.totalFrames) && audio.channels == 2)
        var worst = 0.0
        for f in 0..<audio.frames {
            let phase = 2 * Double.pi * (Double(f) * 174).truncatingRemainder(dividingBy: 16000) / 16000
            let expected = gain * envelope.value(atFrame: Int64(f)) * sin(phase)
            for c in 0..<2 { worst = max(worst, abs(Double(audio.samples[f * 2 + c]) - expected)) }
        }
        #expect(worst < 2e-6, "largest difference \(worst)")
        // and it moves: full after the inhale, silent in the intro and through `rest: none`
        let inhaleEnd = Int(t.phases[0].endFrame)
        #expect(audio.peak(0..<Int(t.phases[0].startFrame)) == 0)
        #expect(audio.peak((inhaleEnd - 200)..<inhaleEnd) > Float(gain * 0.99))
        #expect(audio.peak(Int(t.phases[3].startFrame)..<Int(t.phases[3].endFrame)) == 0)
    }

    @Test("a noise swell's short-time RMS follows gain × E: silent where E is 0, proportional where it moves")
    func noiseFollowsE() throws {
        let folder = try TempFolder("swell-noise")
        let path = try folder.write(Self.recipe("{ synth: white-noise, gain: -6 dB }"), to: "n.yml")
        let (track, _) = try renderInProcess(path, to: folder.file("n.wav"))
        let audio = try readAudio(track.audioPath)
        let recipe = try RecipeLoader.load(path: path)
        let t = try Timeline(recipe: recipe)
        let envelope = BreathEnvelope(timeline: t, guide: recipe.breathGuide)
        // the same on both channels
        for f in stride(from: 0, to: audio.frames, by: 7) { #expect(audio.samples[f * 2] == audio.samples[f * 2 + 1]) }
        #expect(audio.peak(0..<Int(t.phases[0].startFrame)) == 0)
        #expect(audio.peak(Int(t.phases[3].startFrame)..<Int(t.phases[3].endFrame)) == 0)
        // during the hold E = 1: the level a white-noise bed has at -6 dB; the sample / E ratio is the noise itself
        let hold = Int(t.phases[1].startFrame)..<Int(t.phases[1].endFrame)
        let full = audio.rms(0, hold)
        #expect(full > 0.05)
        let fall = Int(t.phases[2].startFrame)..<Int(t.phases[2].endFrame)
        let quarter = fall.lowerBound + fall.count / 4
        let window = (quarter - 400)..<(quarter + 400)
        let e = envelope.value(atFrame: Int64(quarter))
        #expect(abs(audio.rms(0, window) / full - e) < 0.12, "rms ratio \(audio.rms(0, window) / full), E \(e)")
    }

    @Test("a tone swell starts part-way exactly: one thread and two give the same bytes, and the loudness counts the swell")
    func threadsAndLoudness() throws {
        let folder = try TempFolder("swell-threads")
        // 75 s so that the analysis is split between threads (a tone swell may start anywhere)
        let text = """
            id: swell-threads
            pattern: coherent
            duration: 75s
            outro: 3s
            cues: none
            swell: { tone: 220 Hz, gain: -20 dB }
            output: { sample_rate: 16000, channels: 2, loudness: -20 LUFS }
            """
        let path = try folder.write(text, to: "t.yml")
        var digests: [String] = []
        var loudness: [Double?] = []
        for threads in [1, 2] {
            _ = try folder.folder("out\(threads)")
            let track = try TrackRenderer(threads: threads).render(
                recipe: RecipeLoader.load(path: path), outputPath: folder.file("out\(threads)/t.flac"), assets: nil)
            digests.append(try sha256(ofFile: track.audioPath))
            loudness.append(track.loudness)
        }
        #expect(digests[0] == digests[1])
        // the swell is the only sound: normalized to the target, so the loudness passes measured it
        let measured = try #require(loudness[0])
        #expect(abs(measured - -20) < 0.5, "\(measured) LUFS")
    }
}
