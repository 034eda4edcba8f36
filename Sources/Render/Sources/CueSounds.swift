import AudioCore
import AudioIO
import DSP
import Recipe

/// Prepares each distinct cue sound of a track once: tones synthesized, files decoded and resampled.
struct CueSounds {
    private(set) var sounds: [[Float]] = []
    private var index: [Key: Int] = [:]

    /// A tone by what it is; a file by its identity (however its path is spelled) and gain.
    private enum Key: Hashable {
        case tone(CueSound)
        case file(String, gainDB: Double)
    }

    /// The sound's index, preparing it on first use.
    mutating func prepare(
        _ sound: CueSound, name: String, recipe: Recipe, assets: AssetFolder?, expected: [String: FileIdentity] = [:],
        cache: ClipCache
    ) throws(DiagnosticList) -> Int {
        let key: Key
        var resolved = ""
        switch sound {
        case .tone: key = .tone(sound)
        case .file(let path, let gainDB):
            do throws(Diagnostic) {
                resolved = try PromptClips.resolve(path, key: "cues.\(name).file", recipe: recipe, assets: assets)
            } catch {
                throw DiagnosticList([error])
            }
            key = .file(ClipCache.fileName(resolved: resolved), gainDB: gainDB)
        }
        if let found = index[key] { return found }
        let rate = recipe.output.sampleRate
        let channels = recipe.output.channels
        var samples: [Float]
        switch sound {
        case .tone(let tone):
            let frames = Int(tone.length.frame(at: rate))
            let shape: ToneShape =
                switch tone.envelope {
                case .bell: .bell
                case .soft: .soft
                case .click: .click
                }
            let mono = ToneSynth.render(
                frequency: tone.frequency, frames: frames, sampleRate: rate, shape: shape,
                harmonics: tone.harmonics, amplitude: Gain.linear(dB: tone.gainDB))
            samples = [Float](repeating: 0, count: frames * channels)
            for i in 0..<frames { for c in 0..<channels { samples[i * channels + c] = mono[i] } }
        case .file(let path, let gainDB):
            do throws(Diagnostic) {
                samples = try PromptClips.decode(
                    resolved: resolved, path: path, key: "cues.\(name).file", rate: rate, channels: channels, recipe: recipe,
                    expected: expected, cache: cache)
            } catch {
                throw DiagnosticList([error])
            }
            let gain = Float(Gain.linear(dB: gainDB))
            if gain != 1 { for i in samples.indices { samples[i] *= gain } }
        }
        sounds.append(samples)
        index[key] = sounds.count - 1
        return sounds.count - 1
    }
}

extension CueSound: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .tone(let t):
            hasher.combine(0)
            hasher.combine(t.frequency)
            hasher.combine(t.length.nanoseconds)
        case .file(let path, let gain):
            hasher.combine(1)
            hasher.combine(path)
            hasher.combine(gain)
        }
    }
}
