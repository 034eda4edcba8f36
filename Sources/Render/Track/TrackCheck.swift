import AudioCore
import AudioIO
import Recipe
import Timeline

/// `render --check`: a recipe's timeline and assets, without rendering.
extension TrackRenderer {
    /// Checks a loaded recipe without rendering: its timeline, and every asset it names
    /// (found inside the assets folder, and readable as sound by libsndfile).
    /// Returns the asset files it uses, resolved. `headers` keeps what opening each file
    /// told, for the next recipe that names the same version of it.
    @discardableResult
    public static func check(recipe: Recipe, assets override: String?, headers: AssetHeaders = AssetHeaders()) throws(DiagnosticList) -> [String] {
        var problems: [Diagnostic] = []
        do { _ = try Timeline(recipe: recipe) } catch { problems += error.diagnostics }
        // what the output's format decides (a bit rate libvorbis has no mode for, CAF's defect);
        // a format that comes from `-o` is planned when the track renders
        if recipe.output.format != nil {
            do { _ = try OutputPlan(recipe: recipe, outputPath: nil) } catch { problems += error.diagnostics }
        }
        if let voice = recipe.voice, voice.prompts.contains(where: \.isDraft), let problem = VoicePrompts.unknownDraftVoice(voice, recipe: recipe) {
            problems.append(problem)
        }
        var used: [String] = []
        var folder: AssetFolder?
        do { folder = try AssetFolder.locate(recipePath: recipe.file, override: override) } catch { problems.append(error) }
        for (key, path) in recipe.assetPaths {
            guard let folder else {
                problems.append(Diagnostic("\(key): no assets folder found above the recipe (use --assets DIR)",
                                           at: recipe.location(of: key), kind: .noInput))
                continue
            }
            do {
                let resolved = try folder.resolve(path, key: key, in: recipe)
                do {
                    let header = try headers.header(of: resolved)
                    try Self.checkHeader(of: header, path: resolved, key: key, outputRate: recipe.output.sampleRate)
                    used.append(resolved)
                } catch {
                    problems.append(Diagnostic("\(key): \(path): \(error.operation) failed: \(error.reason)",
                                               at: recipe.location(of: key), kind: error.kind))
                }
            } catch {
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw DiagnosticList(problems) }
        return used
    }

    /// What an asset's header already tells, so that `--check` finds it without decoding:
    /// a rate libsamplerate cannot convert to the output's, a cue file over its 60 s, a bed
    /// shorter than `PreparedBed.minimumSeconds`. The renderer checks the same while decoding.
    static func checkHeader(of header: AssetHeaders.Header, path: String, key: String, outputRate: Int) throws(AudioError) {
        try SampleRateConverter.checkRatio(inputRate: header.sampleRate, outputRate: outputRate, name: path)
        if key == "bed.file" {
            if let frames = header.knownFrames { try PreparedBed.checkLength(frames: frames, rate: header.sampleRate, path: path) }
        } else {
            // a cue file or a prompt clip: both at most 60 s
            let limit = Int64(CueSounds.maximumFileSeconds) * Int64(outputRate)
            try AudioDecoder.checkClaimedLength(
                header.knownFrames, inputRate: header.sampleRate, path: path, sampleRate: outputRate, maximumFrames: limit)
        }
    }
}
