import AudioCore
import AudioIO
import Foundation
import Recipe
import Sidecars

/// Where and how a track is written: paths, format and bit depth, from the output path and the recipe.
struct OutputPlan {
    let audioPath: String
    let cueSheetPath: String
    /// Sidecar files beside the audio, by kind: `<stem>.vtt`, `<stem>.chapters.json`, `<stem>.svg`.
    let sidecars: [(SidecarKind, String)]
    let format: AudioFormat
    let bitDepth: BitDepth
    /// A lossy format's bit rate in bits per second: the recipe's, or the format's default;
    /// nil for lossless formats and for Ogg Vorbis at its quality setting.
    let bitrate: Int?
    /// The true-peak ceiling for the limiter, lowered for lossy formats whose decoders overshoot.
    let ceiling: Double

    /// The extensions an output path may end in, in the order the usage names them.
    static let writableExtensions = AudioFormat.fileExtensions

    /// An output path `x.mp4`: an extension render cannot write, with the one that was likely meant.
    static func unknownExtension(_ named: String, path: String) -> Diagnostic {
        let likely: [String: String] = [
            "mp4": "m4a", "aac": "m4a", "alac": "m4a", "m4b": "m4a", "mp4a": "m4a", "fla": "flac", "wave": "wav", "vorbis": "ogg",
        ]
        let hint =
            likely[named.lowercased()].map { " (did you mean '.\($0)'?)" }
            ?? Suggestions.closest(to: named.lowercased(), in: writableExtensions).map { " (did you mean '.\($0)'?)" } ?? ""
        return Diagnostic(
            "", .outputPath, " '\(path)': render cannot write a .\(named) file\(hint); it writes \(extensionList)", file: nil, kind: .setting)
    }

    /// `.wav, .flac, .ogg, .opus, .mp3, .caf or .m4a`.
    static let extensionList = writableExtensions.dropLast().map { "." + $0 }.joined(separator: ", ") + " or .\(writableExtensions.last ?? "")"

    /// `sidecars`: asked for on the command line; joined with the recipe's `output.sidecars`.
    init(recipe: Recipe, outputPath: String?, sidecars asked: Set<SidecarKind> = []) throws(DiagnosticList) {
        let fromExtension = outputPath.flatMap { AudioFormat(fileExtension: ($0 as NSString).pathExtension) }
        let named = ((outputPath ?? "") as NSString).pathExtension
        if !named.isEmpty, fromExtension == nil {
            // whatever the recipe's format, the file would be named for another one
            throw DiagnosticList([Self.unknownExtension(named, path: outputPath ?? "")])
        }
        if let given = recipe.output.format, fromExtension != nil, !given.matches(fileExtension: named) {
            throw DiagnosticList([
                Diagnostic(
                    "output.format is '\(given.rawValue)' but ", .outputPath, " names a .\(named) file; make them agree",
                    at: recipe.location(of: "output.format"))
            ])
        }
        guard let format = recipe.output.format ?? fromExtension ?? (outputPath == nil ? .standard : nil) else {
            throw DiagnosticList([
                Diagnostic(
                    "cannot tell the format from '\(outputPath ?? "")': use \(Self.extensionList), or set output.format",
                    file: nil, kind: .setting)
            ])
        }
        let audio = outputPath ?? "\(recipe.id).\(format.fileExtension)"
        let depth = recipe.output.bitDepth ?? format.facts.bitDepths.first ?? .int24
        if !format.facts.bitDepths.isEmpty, !format.facts.bitDepths.contains(depth) {
            throw DiagnosticList([
                Diagnostic(
                    "output.bit_depth: \(format.rawValue) cannot store 32-bit float samples (allowed: \(format.facts.depthList(", ")))",
                    at: recipe.location(of: "output.bit_depth"))
            ])
        }
        if let problem = RecipeLimits.sampleRateMessage(recipe.output.sampleRate, format: format) {
            // an output path `x.opus` with a rate Opus cannot take (a recipe saying `format: opus` is refused when read)
            throw DiagnosticList([Diagnostic(problem, at: recipe.location(of: "output.sample_rate"))])
        }
        if let problem = RecipeLimits.channelCountMessage(recipe.output.channels, format: format) {
            throw DiagnosticList([Diagnostic(problem, at: recipe.location(of: "output.channels"))])
        }
        let output = recipe.output
        if let bitrate = output.bitrate {
            // a recipe naming its format was checked when read; here the format may come from the output path
            if let problem = RecipeLimits.bitrateProblem(bitrate, format: format, sampleRate: output.sampleRate, channels: output.channels) {
                throw DiagnosticList([Diagnostic("output.bitrate: \(problem)", at: recipe.location(of: "output.bitrate"))])
            }
            if case .vorbis = format.writer(bitDepth: depth),
                !OggVorbisWriter.accepts(bitrate: bitrate, sampleRate: output.sampleRate, channels: output.channels)
            {
                let layout = output.channels == 1 ? "mono" : output.channels == 2 ? "stereo" : "\(output.channels) channels"
                throw DiagnosticList([
                    Diagnostic(
                        "output.bitrate: libvorbis cannot encode \(bitrate / 1000)k at \(output.sampleRate) Hz \(layout)"
                            + (OggVorbisWriter.bitrates(sampleRate: output.sampleRate, channels: output.channels).map {
                                "; it takes \($0.lowerBound / 1000)k to \($0.upperBound / 1000)k there"
                            } ?? "; leave bitrate out to encode at Ogg's quality setting"),
                        at: recipe.location(of: "output.bitrate"))
                ])
            }
        }
        if case .soundFile(let written, _) = format.writer(bitDepth: depth), let defect = SoundFileWriter.defect(of: written) {
            throw DiagnosticList([Diagnostic(defect, at: recipe.location(of: "output.format"))])
        }
        self.bitrate = output.bitrate ?? RecipeLimits.defaultBitrate(format: format, sampleRate: output.sampleRate, channels: output.channels)
        self.audioPath = audio
        let stem = (audio as NSString).deletingPathExtension
        self.cueSheetPath = stem + ".cues.json"
        self.sidecars = recipe.sidecarKinds(adding: asked).map { ($0, stem + $0.suffix) }
        self.format = format
        self.bitDepth = depth
        self.ceiling = recipe.output.truePeak - format.facts.ceilingHeadroom
    }

    /// Checks every file the render will put in place (audio, cue sheet, sidecars) before any
    /// work: a folder named like the cue sheet must not be found after the render.
    func checkDestinations() throws(DiagnosticList) {
        do throws(AudioError) {
            for path in [audioPath, cueSheetPath] + sidecars.map(\.1) { try AtomicOutputFile.checkDestination(path) }
        } catch {
            throw DiagnosticList([error.diagnostic])
        }
    }
}

extension Recipe {
    /// The sidecars a track of this recipe writes, in order: `asked` (the command line's), the
    /// recipe's `output.sidecars`, and both haptics files with `haptics: on` (recipe-v1.2 §
    /// Breath guidance). A render and a catalog's plan (its file list and fingerprint) read this one list.
    public func sidecarKinds(adding asked: Set<SidecarKind>) -> [SidecarKind] {
        asked.union(output.sidecars.compactMap(SidecarKind.init(rawValue:))).union(haptics ? [.ahap, .haptics] : []).sorted()
    }
}
