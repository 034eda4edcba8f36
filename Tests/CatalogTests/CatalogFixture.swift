import Foundation
import Testing

/// One track of a test catalog: where its recipe lives and what it says.
///
/// The recipe's text is made from these fields, and every expectation about
/// the track (file name, frames, rate, metadata) is computed from them too.
struct TrackSpec: Sendable {
    enum Bed: Sendable {
        /// `file:` relative to the assets folder.
        case file(String)
        /// `synth:`
        case synth(String)
    }

    /// Recipe path under `recipes/`.
    let path: String
    let id: String
    /// Whether the recipe says `id:`; without it the id is the file name.
    let writesID: Bool
    let title: String
    let category: String
    let premium: Bool
    let sortOrder: Int
    /// The `duration:` text (seconds).
    let duration: String
    /// The phase length text; inhale and exhale of this length make one cycle.
    let phase: String
    let bed: Bed
    let sampleRate: Int
    let channels: Int
    /// `output.format`, or nil to leave the default (flac).
    let format: String?
    let inhaleHz: Int

    /// The output file's extension: the recipe's format, flac by default.
    var fileExtension: String { format ?? "flac" }
    var audioName: String { "\(id).\(fileExtension)" }
    var cuesName: String { "\(id).cues.json" }
    /// The waveform picture every catalog track gets (for the preview page).
    var pictureName: String { "\(id).svg" }
    /// Every file the track leaves in a bundle.
    var fileNames: [String] { [audioName, cuesName, pictureName] }
    /// `floor(duration × rate + 1/2)`, from the recipe's text.
    var frames: Int64 { Seconds(duration).frame(at: sampleRate) }
    var seconds: Double { Double(frames) / Double(sampleRate) }
    var usesFile: String? {
        if case .file(let name) = bed { return name }
        return nil
    }

    var recipe: String {
        var text = "# A test track of the catalog tests.\n"
        if writesID { text += "id: \(id)\n" }
        text += """
            title: \(title)
            category: \(category)
            premium: \(premium)
            sort_order: \(sortOrder)

            duration: \(duration)s
            pattern:
              name: Test Pattern
              phases:
                - inhale: \(phase)s
                - exhale: \(phase)s

            bed:

            """
        switch bed {
        case .file(let name): text += "  file: \(name)\n  gain: -14 dB\n  fade_in: 500ms\n  fade_out: 500ms\n"
        case .synth(let name): text += "  synth: \(name)\n  gain: -14 dB\n"
        }
        text += """

            cues:
              inhale: { tone: \(inhaleHz) Hz, length: 300ms, gain: -18 dB }
              exhale: { tone: 396 Hz, length: 300ms, gain: -18 dB, envelope: soft }

            output:
              sample_rate: \(sampleRate)
              channels: \(channels)

            """
        if let format { text += "  format: \(format)\n" }
        text += "  loudness: -16 LUFS\n  true_peak: -1 dBTP\n"
        return text
    }
}

/// A small catalog in a temporary folder: `recipes/` (nested, both extensions,
/// a few files that are not recipes) beside `assets/` with generated beds.
struct TestCatalog {
    static let sharedBed = "beds/shared.wav"
    static let soloBed = "beds/solo.wav"
    static let unusedAsset = "beds/unused.wav"

    /// Five tracks of 2.5 to 6 s: two share a file bed, one has a bed of its own, two have synth beds.
    static let small: [TrackSpec] = [
        TrackSpec(
            path: "breathing/alpha-box.yml", id: "alpha-box", writesID: true, title: "Alpha Box", category: "Focus", premium: false,
            sortOrder: 10, duration: "4", phase: "1", bed: .file(sharedBed), sampleRate: 48000, channels: 2, format: "flac", inhaleHz: 528),
        TrackSpec(
            path: "breathing/bravo-coherent.yaml", id: "bravo-coherent", writesID: true, title: "Bravo Coherent", category: "Calm",
            premium: true, sortOrder: 20, duration: "3", phase: "1.5", bed: .file(sharedBed), sampleRate: 44100, channels: 2, format: "wav",
            inhaleHz: 440),
        TrackSpec(
            path: "focus/charlie-drone.yml", id: "charlie-drone", writesID: true, title: "Charlie Drone", category: "Focus", premium: true,
            sortOrder: 30, duration: "5", phase: "2", bed: .synth("drone 110 Hz"), sampleRate: 48000, channels: 2, format: "ogg",
            inhaleHz: 660),
        TrackSpec(
            path: "focus/deep/delta-noise.yml", id: "delta-noise", writesID: false, title: "Delta Noise", category: "Sleep", premium: false,
            sortOrder: 40, duration: "2.5", phase: "1", bed: .synth("pink-noise"), sampleRate: 32000, channels: 1, format: nil,
            inhaleHz: 500),
        TrackSpec(
            path: "sleep/echo-solo.yml", id: "echo-solo", writesID: true, title: "Echo Solo", category: "Sleep", premium: false,
            sortOrder: 50, duration: "6", phase: "2.5", bed: .file(soloBed), sampleRate: 48000, channels: 2, format: "flac", inhaleHz: 580),
    ]

    /// Four tracks of 10 s each with synth beds, for interrupting a render in the middle.
    static let long: [TrackSpec] = ["kilo", "lima", "mike", "november"].enumerated().map { index, name in
        TrackSpec(
            path: "long/\(name).yml", id: "\(name)-10s", writesID: true, title: name.capitalized, category: "Long", premium: index % 2 == 0,
            sortOrder: index, duration: "10", phase: "2", bed: .synth(index % 2 == 0 ? "pink-noise" : "drone 110 Hz"), sampleRate: 48000,
            channels: 2, format: "flac", inhaleHz: 500 + 20 * index)
    }

    let folder: TempFolder
    let tracks: [TrackSpec]

    var root: String { folder.path }
    var recipes: String { folder.file("recipes") }
    var assets: String { folder.file("assets") }
    var ids: [String] { tracks.map(\.id).sorted() }

    /// Writes the recipes and assets of `tracks` into a new temporary folder.
    init(_ tracks: [TrackSpec] = TestCatalog.small, label: String = "cat") throws {
        folder = try TempFolder(label)
        self.tracks = tracks
        for track in tracks { try folder.write(track.recipe, to: "recipes/\(track.path)") }
        // files under recipes/ that are not recipes
        try folder.write("# The test catalog\n", to: "recipes/README.md")
        try folder.write("id: not-a-recipe\n", to: "recipes/focus/draft.yml.bak")
        try folder.write("notes\n", to: "recipes/sleep/notes.txt")
        try writeSharedBed(frequency: 0)
        // mono 22050 Hz: resampled and spread to both channels
        try Fixture.writeSound(
            folder.file("assets/\(Self.soloBed)"), Fixture.sine(frequency: 220, amplitude: 0.3, sampleRate: 22050, channels: 1, frames: 44100),
            sampleRate: 22050, channels: 1)
        try Fixture.writeSound(
            folder.file("assets/\(Self.unusedAsset)"), Fixture.sine(frequency: 330, amplitude: 0.3, sampleRate: 48000, channels: 1, frames: 4800),
            sampleRate: 48000, channels: 1)
    }

    /// The shared bed: 1.5 s of stereo noise (looped under longer tracks), with a sine on top when `frequency` > 0.
    func writeSharedBed(frequency: Double) throws {
        var samples = Fixture.smoothNoise(frames: 72000, channels: 2, amplitude: 0.4, seed: 11)
        if frequency > 0 {
            let sine = Fixture.sine(frequency: frequency, amplitude: 0.1, sampleRate: 48000, channels: 2, frames: 72000)
            for i in samples.indices { samples[i] += sine[i] }
        }
        try Fixture.writeSound(folder.file("assets/\(Self.sharedBed)"), samples, sampleRate: 48000, channels: 2)
    }

    func track(_ id: String) -> TrackSpec? { tracks.first { $0.id == id } }

    func recipePath(_ track: TrackSpec) -> String { folder.file("recipes/\(track.path)") }

    /// Rewrites a track's recipe through `edit`; fails if the text did not change.
    func editRecipe(_ id: String, _ edit: (String) -> String) throws {
        guard let track = track(id) else { throw TestFailure("no track \(id)") }
        let old = try folder.read("recipes/\(track.path)")
        let new = edit(old)
        guard new != old else { throw TestFailure("the edit of \(id) changed nothing") }
        try folder.write(new, to: "recipes/\(track.path)")
    }

    /// Every file a complete render of these tracks leaves in its output folder.
    var expectedOutputs: [String] {
        (tracks.flatMap(\.fileNames) + bundleFiles).sorted()
    }

    /// Renders the catalog into `output` (extra arguments appended) and returns the result.
    func render(into output: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> ProcessResult {
        try runRender([recipes, "-o", output] + extra, in: root, environment: environment)
    }
}

/// The files of a bundle besides its tracks': the manifest and the preview page.
let bundleFiles = ["catalog.json", "index.html"]

/// Whether the output names `id` as up to date on some line.
func reportsUpToDate(_ result: ProcessResult, _ id: String) -> Bool {
    result.lines.contains { $0.contains(id) && $0.lowercased().contains("up to date") }
}

/// Checks a finished output folder against the catalog: each manifest entry
/// against its files, its cue sheet and the recipe's own numbers.
func verifyOutput(_ output: String, of catalog: TestCatalog, tracks expected: [TrackSpec]? = nil, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let tracks = expected ?? catalog.tracks
    let manifestPath = output + "/catalog.json"
    let manifest = try CatalogManifest.read(manifestPath)
    #expect(manifest.format == "cadence-catalog", sourceLocation: sourceLocation)
    #expect(manifest.version == 1, sourceLocation: sourceLocation)
    let ids = manifest.tracks.map(\.id)
    // catalog order (recipe-v1.2 § Sessions in the catalog): each of these recipes is a session of one track, so by
    // sort_order (none last), then title, then id
    let catalogOrder = tracks.sorted { a, b in
        (a.sortOrder, a.title, a.id) < (b.sortOrder, b.title, b.id)
    }
    #expect(ids == catalogOrder.map(\.id), "manifest ids \(ids)", sourceLocation: sourceLocation)
    #expect(Set(ids).count == ids.count, "an id twice: \(ids)", sourceLocation: sourceLocation)
    let sessions = tracks.map {
        CatalogManifest.Session(id: $0.id, title: $0.title, category: $0.category, premium: $0.premium, sortOrder: $0.sortOrder, tracks: [$0.id])
    }
    #expect(
        manifest.sessions == catalogOrder.compactMap { t in sessions.first { $0.id == t.id } }, "sessions \(manifest.sessions)",
        sourceLocation: sourceLocation)
    for (index, raw) in try CatalogManifest.rawEntries(manifestPath).enumerated() {
        let missing = CatalogManifest.entryKeys.filter { raw[$0] == nil }
        #expect(missing.isEmpty, "entry \(index) lacks \(missing)", sourceLocation: sourceLocation)
    }
    #expect(Set(manifest.tracks.map(\.fingerprint)).count == manifest.tracks.count, "two tracks share a fingerprint", sourceLocation: sourceLocation)

    for track in tracks {
        guard let entry = manifest.entry(track.id) else { continue }
        let audioPath = output + "/" + track.audioName
        let cuesPath = output + "/" + track.cuesName
        #expect(entry.file == track.audioName, sourceLocation: sourceLocation)
        #expect(entry.cues == track.cuesName, sourceLocation: sourceLocation)
        #expect(entry.title == track.title, sourceLocation: sourceLocation)
        #expect(entry.category == track.category, sourceLocation: sourceLocation)
        #expect(entry.premium == track.premium, sourceLocation: sourceLocation)
        #expect(entry.sortOrder == track.sortOrder, sourceLocation: sourceLocation)
        #expect(entry.session == track.id && entry.locale == nil, sourceLocation: sourceLocation)
        #expect(entry.sampleRate == track.sampleRate, "\(track.id)", sourceLocation: sourceLocation)
        #expect(entry.frames == track.frames, "\(track.id): \(entry.frames) frames, expected \(track.frames)", sourceLocation: sourceLocation)
        #expect(abs(entry.duration - track.seconds) < 1e-6, "\(track.id): duration \(entry.duration)", sourceLocation: sourceLocation)
        #expect(!entry.fingerprint.isEmpty, sourceLocation: sourceLocation)

        let onDisk = try FileIdentity(audioPath)
        #expect(
            entry.bytes == onDisk.size, "\(track.id): \(entry.bytes) bytes in the manifest, \(onDisk.size) on disk", sourceLocation: sourceLocation)
        let hash = try sha256(ofFile: audioPath)
        #expect(entry.sha256 == hash, "\(track.id): manifest sha256 is not the file's", sourceLocation: sourceLocation)
        let shape = try decodedShape(audioPath)
        #expect(shape.frames == track.frames, "\(track.id): the file decodes to \(shape.frames) frames", sourceLocation: sourceLocation)
        #expect(shape.sampleRate == track.sampleRate && shape.channels == track.channels, sourceLocation: sourceLocation)

        let sheet = try readCueSheet(cuesPath)
        #expect(sheet.id == track.id, sourceLocation: sourceLocation)
        #expect(sheet.audio.file == track.audioName, sourceLocation: sourceLocation)
        #expect(sheet.audio.sha256 == hash, "\(track.id): the cue sheet's sha256 is not the file's", sourceLocation: sourceLocation)
        #expect(sheet.audio.frames == track.frames, sourceLocation: sourceLocation)
        #expect(sheet.audio.sampleRate == track.sampleRate, sourceLocation: sourceLocation)
        #expect(entry.loudnessLUFS == sheet.audio.loudnessLUFS, "\(track.id): loudness differs from the cue sheet's", sourceLocation: sourceLocation)
        #expect(entry.truePeakDBTP == sheet.audio.truePeakDBTP, "\(track.id): true peak differs from the cue sheet's", sourceLocation: sourceLocation)
        if let lufs = entry.loudnessLUFS {
            #expect(abs(lufs - -16) <= 0.5, "\(track.id): \(lufs) LUFS", sourceLocation: sourceLocation)
        } else {
            Issue.record("\(track.id): no loudness in the manifest", sourceLocation: sourceLocation)
        }
        if let peak = entry.truePeakDBTP {
            #expect(peak <= -1 + 1e-9, "\(track.id): true peak \(peak) dBTP", sourceLocation: sourceLocation)
        }
    }
}
