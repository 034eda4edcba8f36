import AudioCore
import AudioIO
import CadenceCues
import DSP
import Recipe
import Timeline

/// Everything a track's mix draws on, prepared once: the bed, every cue sound and prompt clip.
struct TrackSources {
    /// The bed's layers, fresh for each pass (a synth restarts at frame 0).
    private let bedLayers: () -> [BedSource.Layer]
    private let sounds: [[Float]]
    private let events: [CueTrack.Event]
    private let channels: Int
    private let duck: DuckCurve
    /// The swell, fresh for each pass (a noise restarts at frame 0); nil: none.
    private let swell: SwellSource?
    let totalFrames: Int64
    /// Frames of each timeline cue's sound, in timeline order (for the cue sheet).
    let cueLengths: [Int64]
    /// Each placed prompt's frames and duck depth, in the timeline's prompt order (for the cue sheet).
    let prompts: [VoicePrompts.Placed]

    /// `expected`: the version of each asset file (by resolved path) that the render must read,
    /// when a catalog fingerprinted them; a file that is another version by then is an error.
    init(
        recipe: Recipe, timeline: Timeline, assetsOverride: String?, beds: BedCache, clips: ClipCache,
        expected: [String: FileIdentity] = [:]
    ) throws(DiagnosticList) {
        let rate = recipe.output.sampleRate
        let channels = recipe.output.channels
        self.channels = channels
        self.totalFrames = timeline.totalFrames
        // the noise follows the recipe's meaning (`Seed`)
        let seed = Seed(recipe: recipe).noise
        var problems: [Diagnostic] = []
        var assets: AssetFolder?
        do { assets = try AssetFolder.locate(recipePath: recipe.file, override: assetsOverride) } catch { problems.append(error) }

        var layers: [() -> BedSource.Layer] = []
        for (index, bed) in recipe.beds.enumerated() {
            // a single bed's keys are `bed.file`, a layer's `bed.0.file`
            let path = recipe.bedIsLayered ? "bed.\(index)" : "bed"
            let gain = Float(Gain.linear(dB: bed.gainDB))
            let envelope = FadeEnvelope(
                fadeInFrames: bed.fadeIn.frame(at: rate), fadeOutFrames: bed.fadeOut.frame(at: rate), totalFrames: timeline.totalFrames)
            switch bed.source {
            case .synth(let synth):
                let noise: NoiseGenerator.Kind =
                    switch synth {
                    case .pinkNoise: .pink
                    case .brownNoise: .brown
                    case .whiteNoise: .white
                    case .drone(let hz): .drone(hertz: hz)
                    case .binaural(let carrier, let beat): .binaural(carrier: carrier, beat: beat)
                    case .isochronic(let carrier, let beat): .isochronic(carrier: carrier, beat: beat)
                    }
                // the first layer keeps the seed a single bed has always had; the others get their own
                let layerSeed = index == 0 ? seed : seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03
                layers.append {
                    let generator = NoiseGenerator(kind: noise, channels: channels, sampleRate: rate, seed: layerSeed)
                    return BedSource.Layer(kind: .synth(generator, first: generator), gain: gain, envelope: envelope)
                }
            case .file(let file):
                do throws(Diagnostic) {
                    guard let assets else {
                        throw AssetFolder.notFound(key: path + ".file", in: recipe)
                    }
                    let resolved = try assets.resolve(file, key: path + ".file", in: recipe)
                    do {
                        let prepared = try beds.bed(
                            path: resolved, sampleRate: rate, channels: channels, needed: timeline.totalFrames, expected: expected[resolved])
                        let crossfade = min(bed.crossfade.frame(at: rate), prepared.frames / 2)
                        layers.append { BedSource.Layer(kind: .file(prepared, crossfade: crossfade), gain: gain, envelope: envelope) }
                    } catch {
                        throw Diagnostic(
                            "\(path).file: \(file): \(error.operation) failed: \(error.reason)",
                            at: recipe.location(of: path + ".file"), kind: error.kind)
                    }
                } catch {
                    problems.append(error)
                }
            }
        }
        self.bedLayers = { layers.map { $0() } }
        // recipe-v1.2 § Breath guidance: the swell follows the envelope of the recipe's guide; its noise
        // has a seed of its own, so it never repeats the bed's
        let swell = recipe.swell.map {
            SwellSource(
                swell: $0, envelope: BreathEnvelope(timeline: timeline, guide: recipe.breathGuide), channels: channels,
                seed: seed &+ Self.swellSeedOffset)
        }
        self.swell = swell
        self.startsCheaply = !recipe.beds.contains { if case .synth = $0.source { true } else { false } } && swell?.startsCheaply != false

        var prepared = CueSounds()
        var events: [CueTrack.Event] = []
        var lengths: [Int64] = []
        var failed: Set<String> = []
        for cue in timeline.cues where !failed.contains(cue.name) {
            do {
                let index = try prepared.prepare(cue.sound, name: cue.name, recipe: recipe, assets: assets, expected: expected, cache: clips)
                events.append(CueTrack.Event(frame: cue.frame, sound: index))
                let length = Int64(prepared.sounds[index].count / channels)
                lengths.append(min(length, timeline.totalFrames - cue.frame))
            } catch {
                failed.insert(cue.name)
                problems.append(contentsOf: error.diagnostics)
            }
        }
        if problems.isEmpty, let problem = Self.tooMuchCueSound(timeline: timeline, lengths: lengths, recipe: recipe) {
            problems.append(problem)
        }
        var sounds = prepared.sounds
        var voice = VoicePrompts.none
        do {
            voice = try VoicePrompts(
                recipe: recipe, timeline: timeline, assets: assets, expected: expected, clips: clips, firstSound: sounds.count,
                bed: { [bedLayers = self.bedLayers] in
                    BedSource(layers: bedLayers(), duck: nil, channels: channels, totalFrames: timeline.totalFrames)
                })
        } catch {
            problems.append(contentsOf: error.diagnostics)
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
        sounds.append(contentsOf: voice.sounds)
        self.sounds = sounds
        self.events = events + voice.events
        self.cueLengths = lengths
        self.prompts = voice.placed
        self.duck = voice.duck
    }

    /// Added to the recipe's noise seed for the swell's noise.
    static let swellSeedOffset: UInt64 = 0x5157_E11A_B4EA_7401

    /// Cue sound beyond `RecipeLimits.maxCueSoundPerTrack` times the track, reported at the
    /// cue that adds the most: the mix's cost grows with every cue's length, not the track's.
    /// `--check` calls it with the lengths the recipe and the files' headers give (`TrackRenderer.checked`).
    static func tooMuchCueSound(timeline: Timeline, lengths: [Int64], recipe: Recipe) -> Diagnostic? {
        let total = lengths.reduce(0, +)
        let limit = Int64(RecipeLimits.maxCueSoundPerTrack) * timeline.totalFrames
        guard total > limit else { return nil }
        var byName: [String: (frames: Int64, count: Int)] = [:]
        for (cue, length) in zip(timeline.cues, lengths) {
            byName[cue.name, default: (0, 0)].frames += length
            byName[cue.name, default: (0, 0)].count += 1
        }
        // total > limit ≥ 0, so some cue has sound
        guard let (name, most) = byName.max(by: { $0.value.frames < $1.value.frames || ($0.value.frames == $1.value.frames && $0.key > $1.key) })
        else { return nil }
        let rate = Double(timeline.sampleRate)
        func seconds(_ frames: Int64) -> String { String(Int((Double(frames) / rate).rounded())) + " s" }
        return Diagnostic(
            "cues.\(name): expected at most \(RecipeLimits.maxCueSoundPerTrack) times the track's length of cue sound in all "
                + "(\(seconds(limit))), found \(seconds(total)); '\(name)' plays \(most.count) times for \(seconds(most.frames)) in all "
                + "(use a shorter cue, or fewer)",
            at: recipe.location(of: "cues.\(name)"), kind: .data)
    }

    /// A fresh mix from frame 0; every call renders the same samples.
    func makeMix() throws(AudioError) -> MixSource {
        StageClock.shared.countPass()
        return try makeMix(from: 0, to: totalFrames)
    }

    /// Whether a mix starts part-way at no more cost than its own frames (file beds or none, tones).
    /// A mix can start anywhere, but a synth bed's or a noise swell's generator gets there by running
    /// from frame 0 (`NoiseGenerator.seek`: its random numbers and filter, no output, no mix): a
    /// pass's second half or an AAC part pays that once; a probe of 24 spans or repairs one stretch
    /// at a time would pay it each time, so they run one mix through instead.
    let startsCheaply: Bool

    /// A mix of frames [start, end) only: one thread's share of an analysis pass.
    func makeMix(from start: Int64, to end: Int64) throws(AudioError) -> MixSource {
        let bed = BedSource(layers: bedLayers(), duck: duck.isFlat ? nil : duck, channels: channels, totalFrames: totalFrames)
        let cues = CueTrack(sounds: sounds, events: events, channels: channels)
        return MixSource(bed: bed, cues: cues, swell: swell, channels: channels, totalFrames: totalFrames, start: start, end: end)
    }
}
