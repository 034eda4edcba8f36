import AudioIO
import CadenceCues
import Foundation
import Recipe
import Render
import Testing

/// Voice prompts (recipe-v1.1 § Voice prompts): exact onsets, levelling, scheduled ducking, errors.
@Suite("Voice prompts")
struct VoiceTests {
    /// A folder with an assets folder of clips and a bed.
    static func folder(_ label: String, rate: Int = 48000) throws -> TempFolder {
        let folder = try TempFolder(label)
        // two clips 20 dB apart, at other rates than the output: resampled, then levelled alike
        try Fixture.writeSound(
            folder.file("assets/voice/loud.wav"), Fixture.sine(frequency: 440, amplitudes: [0.5], sampleRate: 48000, frames: 24000),
            sampleRate: 48000, channels: 1)
        try Fixture.writeSound(
            folder.file("assets/voice/quiet.wav"), Fixture.sine(frequency: 880, amplitudes: [0.05], sampleRate: 22050, frames: 11025),
            sampleRate: 22050, channels: 1)
        try Fixture.writeSound(
            folder.file("assets/voice/tone.wav"), Fixture.sine(frequency: 1000, amplitudes: [0.3], sampleRate: rate, frames: rate),
            sampleRate: rate, channels: 1)
        // a bed longer than the tracks: played straight, a pure 200 Hz sine
        try Fixture.writeSound(
            folder.file("assets/beds/sine.wav"), Fixture.sine(frequency: 200, amplitudes: [0.25, 0.25], sampleRate: rate, frames: rate * 31),
            sampleRate: rate, channels: 2)
        return folder
    }

    @Test("prompts start on their exact frames, with digital silence before them, and two clips 20 dB apart come out at one loudness")
    func onsetsAndLevels() throws {
        let folder = try Self.folder("voice-onsets")
        let rate = 44100
        // practice starts at 2.0000113 s: 'practice - 0.5s' is the exact time 1.5000113 s, then one rounding
        let recipe = try folder.write(
            """
            id: voice-onsets
            cycles: 3
            intro: 2.0000113s
            outro: 1s
            pattern: { name: Odd, phases: [ { inhale: 1.1111111s }, { exhale: 1.3333333s } ] }
            cues: none
            voice:
              prompts:
                - { at: practice - 0.5s, file: voice/loud.wav, text: "Welcome" }
                - { on: exhale, cycles: 2, file: voice/quiet.wav, text: "Breathe out" }
            output: { sample_rate: \(rate), channels: 2, bit_depth: 32f, loudness: off }
            """, to: "recipes/voice-onsets.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let audio = try readAudio(folder.file("out.wav"))

        let first = Seconds("1.5000113s").frame(at: rate)
        let exhale2 = (Seconds("2.0000113s") + Seconds("1.1111111s") + Seconds("1.3333333s") + Seconds("1.1111111s")).frame(at: rate)
        let voice = try #require(sheet.voice)
        try #require(voice.count == 2, "\(voice)")
        #expect(sheet.version == 1 && sheet.minorVersion == 1)
        #expect(voice[0].frame == first && voice[0].phase == nil && voice[0].text == "Welcome" && voice[0].file == "voice/loud.wav")
        #expect(voice[1].frame == exhale2 && voice[1].phase == 3 && voice[1].draft == false)
        #expect(sheet.phases[3].startFrame == exhale2)
        // 0.5 s clips, resampled to 44.1 kHz
        #expect(voice.allSatisfy { abs($0.lengthFrames - 22050) <= 2 }, "\(voice.map(\.lengthFrames))")

        // nothing sounds before each prompt's first frame; it sounds from there
        #expect(audio.peak(0..<Int(first)) == 0, "sound before the first prompt's frame \(first)")
        #expect(audio.peak(Int(first)..<Int(first) + 16) > 0)
        #expect(audio.peak(Int(voice[0].endFrame) + 1..<Int(exhale2)) == 0, "sound between the prompts")
        #expect(audio.peak(Int(exhale2)..<Int(exhale2) + 16) > 0)

        // levelled to the default -18 LUFS (loudness: off leaves them there), each as measured in the file
        func loudness(_ prompt: CueSheet.VoicePrompt) throws -> Double {
            let span = Array(audio.samples[Int(prompt.frame) * 2..<Int(prompt.endFrame) * 2])
            let meter = try LoudnessMeter(channels: 2, sampleRate: rate, truePeak: false)
            try span.withUnsafeBufferPointer { try meter.add($0, frames: span.count / 2) }
            return meter.integratedLoudness()
        }
        let loud = try loudness(voice[0]), quiet = try loudness(voice[1])
        #expect(abs(loud - quiet) < 0.2, "clips recorded 20 dB apart: \(loud) and \(quiet) LUFS")
        #expect(abs(loud + 18) < 0.3 && abs(quiet + 18) < 0.3, "\(loud), \(quiet) LUFS against -18")
    }

    /// The 200 Hz bed's amplitude over `range`, from its Goertzel power.
    static func bedAmplitude(_ audio: DecodedAudio, _ range: Range<Int>) -> Double {
        2 * goertzel(audio, channel: 0, frequency: 200, range: range).squareRoot() / Double(range.count)
    }

    @Test("the bed drops by exactly duck under a prompt, by half of it at the attack's midpoint, and is back at unity after the release")
    func ducking() throws {
        let folder = try Self.folder("voice-duck")
        let rate = 48000
        let recipe = try folder.write(
            """
            id: voice-duck
            duration: 30s
            pattern: box
            cues: none
            bed: { file: beds/sine.wav }
            voice:
              duck: 10 dB
              attack: 400ms
              release: 600ms
              prompts:
                - { at: 5s, file: voice/tone.wav, text: "One" }
                - { at: 15s, file: voice/tone.wav, text: "Two" }
                - { at: 16.5s, file: voice/tone.wav, text: "Three, close to two" }
            output: { sample_rate: \(rate), channels: 2, bit_depth: 32f, loudness: off }
            """, to: "recipes/voice-duck.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let audio = try readAudio(folder.file("out.wav"))
        func at(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
        let unity = Self.bedAmplitude(audio, at(1)..<at(4))
        #expect(abs(decibels(unity / 0.25)) < 0.05, "bed before any prompt: \(unity)")
        // the 1000 Hz prompt does not leak into the 200 Hz measure over whole periods
        let under = Self.bedAmplitude(audio, at(5.1)..<at(5.9))
        #expect(abs(decibels(under / unity) + 10) < 0.05, "under the prompt: \(decibels(under / unity)) dB")
        // attack midpoint, 200 ms before 5 s: -5 dB (a window of two periods around it)
        let mid = Self.bedAmplitude(audio, at(4.8) - 240..<at(4.8) + 240)
        #expect(abs(decibels(mid / unity) + 5) < 0.15, "attack midpoint: \(decibels(mid / unity)) dB")
        // release: from 6 s to 6.6 s; its midpoint at 6.3 s is -5 dB, after it unity
        let releaseMid = Self.bedAmplitude(audio, at(6.3) - 240..<at(6.3) + 240)
        #expect(abs(decibels(releaseMid / unity) + 5) < 0.15, "release midpoint: \(decibels(releaseMid / unity)) dB")
        let after = Self.bedAmplitude(audio, at(6.7)..<at(14))
        #expect(abs(decibels(after / unity)) < 0.02, "after the release: \(decibels(after / unity)) dB")
        // two ends at 16 s and three starts at 16.5 s: 600 ms + 400 ms of ramps meet, so the bed stays down between
        let between = Self.bedAmplitude(audio, at(16.05)..<at(16.45))
        #expect(abs(decibels(between / unity) + 10) < 0.05, "between close prompts: \(decibels(between / unity)) dB")
        #expect(sheet.voice?.map(\.duckDB) == [10, 10, 10])
    }

    @Test("duck: wcag lowers the bed under each prompt to at least 20 dB below it")
    func wcag() throws {
        let folder = try Self.folder("voice-wcag")
        let rate = 48000
        let recipe = try folder.write(
            """
            id: voice-wcag
            duration: 30s
            pattern: box
            cues: none
            bed: { file: beds/sine.wav, gain: 6 dB }
            voice:
              duck: wcag
              prompts:
                - { at: 5s, file: voice/tone.wav, text: "One" }
            output: { sample_rate: \(rate), channels: 2, bit_depth: 32f, loudness: off }
            """, to: "recipes/voice-wcag.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let audio = try readAudio(folder.file("out.wav"))
        let depth = try #require(sheet.voice?.first?.duckDB)
        // bed at 0.5 amplitude (sine 0.25 + 6 dB) against a prompt levelled to -18 LUFS: deeper than the 12 dB floor
        #expect(depth > 12, "duck_db \(depth)")
        func at(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }
        let bed = Self.bedAmplitude(audio, at(5.1)..<at(5.9))
        let prompt = 2 * goertzel(audio, channel: 0, frequency: 1000, range: at(5.1)..<at(5.9)).squareRoot() / Double(at(5.9) - at(5.1))
        // K-weighting lifts 1 kHz over 200 Hz by well under 1 dB: the plain levels keep the 20 dB within it
        #expect(decibels(prompt / bed) > 19, "the prompt stands \(decibels(prompt / bed)) dB over the bed")
        let unity = Self.bedAmplitude(audio, at(1)..<at(4))
        #expect(abs(decibels(bed / unity) + depth) < 0.05, "the bed dropped \(-decibels(bed / unity)) dB, the sheet says \(depth)")
    }

    @Test(
        "prompts that overlap, or run past the file's end, are refused at the prompt, naming both and by how much",
        arguments: [
            ("- { at: 2s, file: voice/tone.wav }\n    - { at: 2.5s, file: voice/tone.wav }", "voice.prompts.1", "still sounds"),
            ("- { at: end - 0.5s, file: voice/tone.wav }", "voice.prompts.0", "runs 0.5s past the file's end"),
            ("- { at: intro - 1s, file: voice/tone.wav }", "voice.prompts.0.at", "1s before the file's start"),
            ("- { on: inhale, cycles: 40, file: voice/tone.wav }", "voice.prompts.0.cycles", "cycle 40 does not exist"),
            ("- { at: 1s, file: voice/missing.wav }", "voice.prompts.0.file", "not found"),
        ])
    func refused(prompts: String, path: String, words: String) throws {
        let folder = try Self.folder("voice-bad")
        let text = """
            id: voice-bad
            duration: 20s
            pattern: box
            voice:
              prompts:
                \(prompts)
            """
        let recipe = try folder.write(text, to: "recipes/voice-bad.yml")
        let failure = try #require(renderFailure(recipe, to: folder.file("out.wav")), "rendered")
        let message = failure.diagnostics.map(\.description).joined(separator: "\n")
        #expect(message.contains(path) && message.contains(words), "\(message)")
        #expect(failure.diagnostics.allSatisfy { $0.location?.line ?? 0 >= 6 }, "located at the prompt: \(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test("a voice-guided render gives the same bytes twice, and its cue sheet reads back to the same text")
    func reproducible() throws {
        let folder = try Self.folder("voice-repro")
        let recipe = try folder.write(
            """
            id: voice-repro
            duration: 20s
            pattern: box
            bed: { synth: pink-noise, gain: -20 dB }
            voice:
              duck: wcag
              prompts:
                - { at: 2s, file: voice/loud.wav, text: "Hello" }
                - { on: exhale, file: voice/quiet.wav, text: "Out" }
            output: { format: flac }
            """, to: "recipes/voice-repro.yml")
        let (a, sheetA) = try renderInProcess(recipe, to: folder.file("a.flac"))
        let (b, _) = try renderInProcess(recipe, to: folder.file("b.flac"))
        #expect(try sha256(ofFile: a.audioPath) == (try sha256(ofFile: b.audioPath)))
        let text = try String(contentsOfFile: a.cueSheetPath, encoding: .utf8)
        #expect(sheetA.jsonText().replacingOccurrences(of: "a.flac", with: "a.flac") == text)
        #expect(text.contains("\"version\": 1.1,"))
    }

    @Test("a voice-guided track, ducked bed and levelled prompts, still measures within 0.5 LU of its target", arguments: [-16.0, -23.0])
    func loudnessWithVoice(target: Double) throws {
        let folder = try Self.folder("voice-loudness")
        let recipe = try folder.write(
            """
            id: voice-loudness
            duration: 40s
            pattern: box
            bed: { file: beds/sine.wav, gain: -6 dB }
            voice:
              level: -20 LUFS
              duck: 12 dB
              prompts:
                - { at: 1s, file: voice/loud.wav, text: "Welcome" }
                - { on: exhale, cycles: 1-2, file: voice/quiet.wav, text: "Out" }
                - { at: end - 3s, file: voice/tone.wav, text: "Goodbye" }
            output: { sample_rate: 48000, channels: 2, bit_depth: 32f, loudness: \(Int(target)) LUFS }
            """, to: "recipes/voice-loudness.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let measured = try measureLoudness(try readAudio(folder.file("out.wav")))
        #expect(abs(measured.lufs - target) <= 0.5, "measured \(measured.lufs) LUFS against \(target)")
        #expect(sheet.voice?.count == 4)
    }

    @Test("one renderer decodes a clip once for every track that uses it, and decodes it again once the file changes")
    func clipsSharedBetweenTracks() throws {
        let folder = try Self.folder("voice-shared")
        func recipe(_ id: String, extra: String = "") throws -> String {
            try folder.write(
                """
                id: \(id)
                duration: 16s
                pattern: box
                \(extra)
                voice:
                  prompts:
                    - { at: 1s, file: voice/loud.wav, text: "Hello" }
                    - { at: 6s, file: voice/loud.wav, text: "Again" }
                output: { format: wav, bit_depth: 32f, loudness: off }
                """, to: "recipes/\(id).yml")
        }
        let first = try recipe("shared-a"), second = try recipe("shared-b", extra: "cues: { exhale: { file: voice/loud.wav } }")
        let renderer = TrackRenderer()
        let a = try renderer.render(recipe: RecipeLoader.load(path: first), outputPath: folder.file("a.wav"), assets: nil)
        let b = try renderer.render(recipe: RecipeLoader.load(path: second), outputPath: folder.file("b.wav"), assets: nil)
        // the prompts of both tracks and the second's cue file: one clip, one decoding
        #expect(renderer.clips.misses == 1)
        // and what the cache gave is what a fresh decoding gives
        let fresh = try TrackRenderer().render(recipe: RecipeLoader.load(path: second), outputPath: folder.file("b-fresh.wav"), assets: nil)
        #expect(try sha256(ofFile: b.audioPath) == (try sha256(ofFile: fresh.audioPath)))
        // a cache too small for the clip keeps nothing: each track decodes it, to the same bytes
        let small = TrackRenderer(clips: ClipCache(budgetBytes: 1000))
        let c = try small.render(recipe: RecipeLoader.load(path: first), outputPath: folder.file("c.wav"), assets: nil)
        _ = try small.render(recipe: RecipeLoader.load(path: second), outputPath: folder.file("d.wav"), assets: nil)
        #expect(small.clips.misses == 3)
        #expect(try sha256(ofFile: c.audioPath) == (try sha256(ofFile: a.audioPath)))

        // the clip is another recording now (same path, another pitch): decoded again, and the new one sounds
        try Fixture.writeSound(
            folder.file("assets/voice/loud.wav"), Fixture.sine(frequency: 660, amplitudes: [0.3], sampleRate: 48000, frames: 24000),
            sampleRate: 48000, channels: 1)
        let again = try renderer.render(recipe: RecipeLoader.load(path: first), outputPath: folder.file("a2.wav"), assets: nil)
        let before = try readAudio(a.audioPath), after = try readAudio(again.audioPath)
        let prompt = 48000..<60000  // inside the first prompt (1 s to 1.5 s)
        #expect(goertzel(before, channel: 0, frequency: 440, range: prompt) > 1000 * goertzel(before, channel: 0, frequency: 660, range: prompt))
        #expect(goertzel(after, channel: 0, frequency: 660, range: prompt) > 1000 * goertzel(after, channel: 0, frequency: 440, range: prompt))
        #expect(renderer.clips.misses == 2)
    }

    @Test("a clip is prepared once per track however its path is spelled: ./, //, a link, a hard link")
    func clipSpellingsShareOneClip() throws {
        let folder = try Self.folder("voice-spellings")
        try FileManager.default.createSymbolicLink(atPath: folder.file("assets/voice/link.wav"), withDestinationPath: "loud.wav")
        try FileManager.default.linkItem(atPath: folder.file("assets/voice/loud.wav"), toPath: folder.file("assets/voice/hard.wav"))
        // 40 spellings of one file, its link and its hard link, as prompts and as cues
        let spellings =
            (0..<40).map { String(repeating: "./", count: $0) + "voice/loud.wav" } + ["voice//loud.wav", "voice/link.wav", "voice/hard.wav"]
        func recipe(_ id: String, spell: (Int) -> String, cues: (String, String)) throws -> String {
            let prompts = spellings.indices.map { "    - { at: \($0 + 1)s, file: '\(spell($0))', text: \"P\($0)\" }" }
            return try folder.write(
                """
                id: \(id)
                duration: 50s
                pattern: box
                cues: { inhale: { file: '\(cues.0)' }, exhale: { file: '\(cues.1)' } }
                voice:
                  level: off
                  prompts:
                \(prompts.joined(separator: "\n"))
                output: { format: wav, bit_depth: 32f, loudness: off }
                """, to: "recipes/\(id).yml")
        }
        let renderer = TrackRenderer()
        let spelled = try renderer.render(
            recipe: RecipeLoader.load(path: try recipe("spelled", spell: { spellings[$0] }, cues: ("./voice/link.wav", "voice/hard.wav"))),
            outputPath: folder.file("spelled.wav"), assets: nil)
        // one file: decoded once, prepared once for the prompts and once for the cues, not once per spelling
        #expect(renderer.clips.misses == 1, "decoded \(renderer.clips.misses) times")
        #expect(renderer.clips.requests == 2, "prepared \(renderer.clips.requests) times")
        // and it sounds as one spelling does
        let one = try TrackRenderer().render(
            recipe: RecipeLoader.load(path: try recipe("plain", spell: { _ in "voice/loud.wav" }, cues: ("voice/loud.wav", "voice/loud.wav"))),
            outputPath: folder.file("plain.wav"), assets: nil)
        #expect(try sha256(ofFile: spelled.audioPath) == (try sha256(ofFile: one.audioPath)))
    }

    @Test("draft prompts are spoken by espeak-ng at the output rate, the same on every run, and captioned like recorded ones")
    func draftsAndCaptions() throws {
        let folder = try Self.folder("voice-draft")
        let recipe = try folder.write(
            """
            id: voice-draft
            duration: 30s
            pattern: box
            intro: 4s
            cues: none
            voice:
              level: -20 LUFS
              prompts:
                - { at: 0.5s, text: "Welcome. Sit comfortably." }
                - { on: exhale, cycles: 1, file: voice/loud.wav, text: "Breathe <out> & rest" }
            output: { sample_rate: 22050, channels: 1, bit_depth: 32f, loudness: off, sidecars: [captions] }
            """, to: "recipes/voice-draft.yml")
        let (a, sheet) = try renderInProcess(recipe, to: folder.file("a.wav"))
        let (b, _) = try renderInProcess(recipe, to: folder.file("b.wav"))
        #expect(try sha256(ofFile: a.audioPath) == (try sha256(ofFile: b.audioPath)), "a draft must sound the same on every run")
        let voice = try #require(sheet.voice)
        #expect(voice.map(\.draft) == [true, false] && voice[0].file == nil)
        // a sentence of speech: more than half a second, and at the level asked for
        #expect(voice[0].lengthFrames > 11025 && voice[0].lengthFrames < 22050 * 10, "\(voice[0].lengthFrames) frames")
        let audio = try readAudio(a.audioPath)
        #expect(audio.peak(0..<Int(voice[0].frame)) == 0)
        let span = Array(audio.samples[Int(voice[0].frame)..<Int(voice[0].endFrame)])
        let meter = try LoudnessMeter(channels: 1, sampleRate: 22050, truePeak: false)
        try span.withUnsafeBufferPointer { try meter.add($0, frames: span.count) }
        #expect(abs(meter.integratedLoudness() + 20) < 0.3, "draft at \(meter.integratedLoudness()) LUFS, asked -20")

        // captions: one cue per prompt, from its first frame to its end, to the millisecond, text escaped
        let captions = try String(contentsOfFile: folder.file("a.captions.vtt"), encoding: .utf8)
        #expect(a.sidecarPaths == [folder.file("a.captions.vtt")])
        func clock(_ frame: Int64) -> String {
            let ms = (frame * 1000 * 2 + 22050) / (2 * 22050)
            return String(format: "%02lld:%02lld:%02lld.%03lld", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        }
        for prompt in voice {
            #expect(captions.contains("prompt-\(prompt.index)\n\(clock(prompt.frame)) --> \(clock(prompt.endFrame))\n"), "\(captions)")
        }
        #expect(captions.hasPrefix("WEBVTT"))
        #expect(captions.contains("\nWelcome. Sit comfortably.\n") && captions.contains("\nBreathe &lt;out&gt; &amp; rest\n"), "\(captions)")
    }

    @Test("render --no-drafts refuses a recipe with a draft prompt (65, at each draft) and renders one without")
    func noDrafts() throws {
        let folder = try Self.folder("voice-nodrafts")
        let draft = try folder.write(
            """
            id: drafty
            duration: 20s
            pattern: box
            voice:
              prompts:
                - { at: 1s, text: "Hello" }
                - { at: 5s, file: voice/tone.wav }
                - { at: 9s, text: "Goodbye" }
            """, to: "recipes/drafty.yml")
        let refused = try runRender([draft, "-o", folder.file("x.flac"), "--no-drafts"])
        #expect(refused.status == 65, "\(refused)")
        #expect(
            refused.stderr.contains("drafty.yml:6:7: error: voice.prompts.0") && refused.stderr.contains("drafty.yml:8:7: error: voice.prompts.2"),
            "\(refused.stderr)")
        #expect(!refused.stderr.contains("voice.prompts.1"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.flac")))
        let catalog = try runRender([folder.file("recipes"), "-o", folder.file("dist"), "--no-drafts"])
        #expect(catalog.status == 65 && !FileManager.default.fileExists(atPath: folder.file("dist/catalog.json")), "\(catalog)")
        let drafts = try runRender([draft, "-o", folder.file("x.flac")])
        #expect(drafts.status == 0, "\(drafts)")
    }
}
