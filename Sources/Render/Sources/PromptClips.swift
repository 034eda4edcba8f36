import AudioCore
import AudioIO
import DSP
import Recipe

/// Prepares each distinct prompt clip of a track once: decoded, converted to the output rate and
/// channels like a bed, measured and gained to `voice.level`, then `voice.gain` (recipe-v1.1).
///
/// The clip is measured as it will be mixed. A clip of at least 400 ms is measured by its
/// integrated loudness (BS.1770, gated); a shorter one by its K-weighted mean square over its
/// whole length. A clip that measures as silence cannot be levelled and is an error.
struct PromptClips {
    /// One prepared clip: its samples, interleaved at the output's rate and channels.
    struct Clip {
        let samples: [Float]
        /// What the clip measured before its gain, in LUFS (nil with `level: off`).
        let measuredLUFS: Double?
    }

    private(set) var clips: [Clip] = []
    private var index: [String: Int] = [:]

    /// The clip's index for prompt `number`, preparing it on first use.
    mutating func prepare(
        prompt number: Int, voice: Voice, recipe: Recipe, assets: AssetFolder?, expected: [String: FileIdentity], cache: ClipCache
    ) throws(Diagnostic) -> Int {
        let prompt = voice.prompts[number]
        let rate = recipe.output.sampleRate
        let channels = recipe.output.channels
        // a file by its identity, not its spelling: 40 spellings of one 60 s clip are one clip, not 40
        var resolved: String?
        if let path = prompt.file { resolved = try Self.resolve(path, key: "voice.prompts.\(number).file", recipe: recipe, assets: assets) }
        let cacheKey = resolved.map { "file:" + ClipCache.fileName(resolved: $0) } ?? "draft:\(voice.draftVoice):" + (prompt.text ?? "")
        if let found = index[cacheKey] { return found }
        var samples: [Float]
        let key: String
        let name: String
        if let path = prompt.file, let resolved {
            key = "voice.prompts.\(number).file"
            name = path
            samples = try Self.decode(
                resolved: resolved, path: path, key: key, rate: rate, channels: channels, recipe: recipe, expected: expected, cache: cache)
        } else {
            key = "voice.prompts.\(number).text"
            name = "the draft voice"
            let text = prompt.text ?? ""
            samples = try cache.clip(.draft(text: text, language: voice.draftVoice, sampleRate: rate, channels: channels)) {
                () throws(Diagnostic) in
                try Self.speak(text, language: voice.draftVoice, key: key, rate: rate, channels: channels, recipe: recipe)
            }
        }
        guard !samples.isEmpty else {
            throw Diagnostic("\(key): \(name) holds no sound (expected a recorded voice)", at: recipe.location(of: key), kind: .data)
        }
        var gainDB = voice.gainDB
        var measured: Double?
        if let level = voice.level {
            let loudness: Double
            do { loudness = try Self.loudness(of: samples, channels: channels, sampleRate: rate) } catch {
                throw Diagnostic("\(key): \(name): \(error.operation) failed: \(error.reason)", at: recipe.location(of: key), kind: .software)
            }
            guard loudness.isFinite else {
                throw Diagnostic(
                    "\(key): \(name) is silent: it cannot be levelled to \(DiagnosticText.number(level)) LUFS "
                        + "(expected a recorded voice; or set 'voice.level: off')",
                    at: recipe.location(of: key), kind: .data)
            }
            measured = loudness
            gainDB += level - loudness
        }
        let gain = Float(Gain.linear(dB: gainDB))
        if gain != 1 { for i in samples.indices { samples[i] *= gain } }
        clips.append(Clip(samples: samples, measuredLUFS: measured))
        index[cacheKey] = clips.count - 1
        return clips.count - 1
    }

    /// `path` found in the assets folder: absolute, links resolved.
    static func resolve(_ path: String, key: String, recipe: Recipe, assets: AssetFolder?) throws(Diagnostic) -> String {
        guard let assets else {
            throw AssetFolder.notFound(key: key, in: recipe)
        }
        return try assets.resolve(path, key: key, in: recipe)
    }

    /// A recorded clip (a prompt's or a cue's file) at `resolved` (`path` as the recipe spells it, for
    /// errors), decoded, resampled and mapped to the output's channels, at most 60 s
    /// (`RecipeLimits.maxClipSeconds`). Decoded once per file version, rate and channels in `cache`.
    static func decode(
        resolved: String, path: String, key: String, rate: Int, channels: Int, recipe: Recipe, expected: [String: FileIdentity],
        cache: ClipCache
    ) throws(Diagnostic) -> [Float] {
        let cacheKey = ClipCache.fileKey(path: resolved, expected: expected[resolved], sampleRate: rate, channels: channels)
        return try cache.clip(cacheKey) { () throws(Diagnostic) in
            try decodeFile(resolved: resolved, path: path, key: key, rate: rate, channels: channels, recipe: recipe, expected: expected)
        }
    }

    private static func decodeFile(
        resolved: String, path: String, key: String, rate: Int, channels: Int, recipe: Recipe, expected: [String: FileIdentity]
    ) throws(Diagnostic) -> [Float] {
        var samples: [Float] = []
        do {
            try AudioDecoder.decode(
                path: resolved, sampleRate: rate, channels: channels,
                maximumFrames: Int64(RecipeLimits.maxClipSeconds * rate), identity: expected[resolved]
            ) { (p, n) throws(AudioError) in
                samples.append(contentsOf: p[0..<(n * channels)])
            }
        } catch {
            throw Diagnostic("\(key): \(path): \(error.operation) failed: \(error.reason)", at: recipe.location(of: key), kind: error.kind)
        }
        return samples
    }

    /// A draft: `text` spoken by espeak-ng in `language`, converted to the output's rate, spread to every channel.
    private static func speak(
        _ text: String, language: String, key: String, rate: Int, channels: Int, recipe: Recipe
    ) throws(Diagnostic) -> [Float] {
        let speech: DraftVoice.Speech
        do {
            speech = try DraftVoice.speak(
                text, language: language, maximumSeconds: RecipeLimits.maxClipSeconds, timeLimitSeconds: RecipeLimits.draftSpeechSeconds)
        } catch {
            throw draftDiagnostic(error, key: key, language: language, recipe: recipe)
        }
        let mono: [Float]
        do {
            mono = try SampleRateConverter.convert(speech.samples, channels: 1, from: speech.sampleRate, to: rate, name: "the draft voice")
        } catch {
            throw Diagnostic("\(key): the draft voice: \(error.operation) failed: \(error.reason)", at: recipe.location(of: key), kind: error.kind)
        }
        let seconds = mono.count / rate
        guard mono.count <= RecipeLimits.maxClipSeconds * rate else {
            throw Diagnostic(
                "\(key): spoken by the draft voice it lasts \(seconds) s, over the \(RecipeLimits.maxClipSeconds) s a prompt may last "
                    + "(expected a shorter text; split it into two prompts)",
                at: recipe.location(of: key), kind: .data)
        }
        guard channels > 1 else { return mono }
        var spread = [Float](repeating: 0, count: mono.count * channels)
        for (i, x) in mono.enumerated() { for c in 0..<channels { spread[i * channels + c] = x } }
        return spread
    }

    /// The error at a draft's `text` (`key`) when the draft voice gives no speech for it: too long,
    /// a text espeak-ng cannot speak (65), or a draft voice that cannot work here (70).
    static func draftDiagnostic(_ failure: DraftVoice.Failure, key: String, language: String, recipe: Recipe) -> Diagnostic {
        let location = recipe.location(of: key)
        switch failure.kind {
        case .tooLong:
            return Diagnostic(
                "\(key): spoken by the draft voice it lasts over the \(RecipeLimits.maxClipSeconds) s a prompt may last "
                    + "(expected a shorter text; split it into two prompts)",
                at: location, kind: .data)
        case .unspeakable:
            return Diagnostic(
                "\(key): the draft voice (espeak-ng, \(DiagnosticText.quoted(language))) cannot speak this text: \(failure.reason) "
                    + "(reword the text, or record the prompt and give it its 'file:')",
                at: location, kind: .data)
        case .unavailable:
            return Diagnostic("\(key): the draft voice: \(failure.reason)", at: location, kind: .software)
        }
    }

    /// A clip's loudness by recipe-v1.1's rule: integrated from 400 ms on, K-weighted mean square below.
    static func loudness(of samples: [Float], channels: Int, sampleRate: Int) throws(AudioError) -> Double {
        let frames = samples.count / channels
        if frames * 1000 >= sampleRate * 400 {
            let meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, truePeak: false)
            try samples.withUnsafeBufferPointer { (p) throws(AudioError) in try meter.add(p, frames: frames) }
            return meter.integratedLoudness()
        }
        return try samples.withUnsafeBufferPointer { (p) throws(AudioError) in
            try LoudnessMeter.meanSquareLoudness(of: p, frames: frames, channels: channels, sampleRate: sampleRate)
        }
    }
}
