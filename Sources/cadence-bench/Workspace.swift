import Foundation

/// The scratch folder a run works in (`--work DIR`), and the paths inside it.
///
///     DIR/assets/beds/bench-rain.ogg, bench-surf.ogg   generated beds
///     DIR/assets/cues/bell-528-4s.wav                  the bell track for ffmpeg and SoX
///     DIR/assets/voice/prompt-5s.wav                   the voice job's generated prompt clip
///     DIR/reference/*.yml, *.flac, *.cues.json         reference recipes and renders
///     DIR/compare/                                     flac, ffmpeg and SoX outputs
///     DIR/aac/                                         the AAC job: recipes, M4A renders, ffmpeg's M4A
///     DIR/voice/                                       the voice job: recipes, cue sheets, 1-minute FLACs
///     DIR/catalog/recipes/, dist-j1/, dist-j2/         the catalog and its two renders
///     DIR/check/recipes/                               the recipes `--check` reads
///     DIR/swell/                                       the swell job: recipes and cue sheets
///     DIR/logs/                                        every child's stdout and stderr
struct Workspace {
    let root: String

    var assets: String { root + "/assets" }
    var beds: String { assets + "/beds" }
    var bellTrack: String { assets + "/cues/bell-528-4s.wav" }
    var reference: String { root + "/reference" }
    var compare: String { root + "/compare" }
    var aac: String { root + "/aac" }
    var voice: String { root + "/voice" }
    var voiceClip: String { assets + "/" + VoiceJob.clipAsset }
    var catalog: String { root + "/catalog" }
    var check: String { root + "/check" }
    var swell: String { root + "/swell" }
    var logs: String { root + "/logs" }

    func bed(_ design: BedDesign) -> String { "\(beds)/\(design.name).ogg" }
    func log(_ name: String) -> String { "\(logs)/\(name)" }

    /// Creates the folders.
    ///
    /// - Throws: `BenchError` naming the folder that cannot be created.
    init(root: String) throws(BenchError) {
        self.root = (root as NSString).standardizingPath
        for folder in [beds, assets + "/cues", assets + "/voice", reference, compare, aac, voice, catalog, check, swell, logs] {
            try Self.makeFolder(folder)
        }
    }

    /// Creates `path` and its parents if missing.
    static func makeFolder(_ path: String) throws(BenchError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BenchError("\(path): cannot create the folder: \(error.localizedDescription)")
        }
    }

    /// Removes `path` (a file or a whole folder) if it exists, then creates it as an empty folder.
    static func freshFolder(_ path: String) throws(BenchError) {
        try remove(path)
        try makeFolder(path)
    }

    /// Removes `path` if it exists.
    static func remove(_ path: String) throws(BenchError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw BenchError("\(path): cannot remove it: \(error.localizedDescription)")
        }
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws(BenchError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw BenchError("\(path): cannot write it: \(error.localizedDescription)")
        }
    }
}
