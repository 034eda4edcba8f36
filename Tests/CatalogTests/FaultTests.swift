import Foundation
import Testing

/// How a killed run starts: single or catalog, with or without an older output in place, with
/// `O_TMPFILE` or with the named temporary files of file systems that lack it.
struct KillMode: Sendable, CustomStringConvertible {
    let olderOutput: Bool
    /// `CADENCE_NO_O_TMPFILE=1`: data goes to `.NAME.PID.N.tmp` files, which a SIGKILL leaves behind.
    let namedTemps: Bool

    var environment: [String: String] { namedTemps ? ["CADENCE_NO_O_TMPFILE": "1"] : [:] }
    var description: String {
        (olderOutput ? "over an older output" : "into an empty folder") + (namedTemps ? ", without O_TMPFILE" : "")
    }

    /// The kills take these in turn, so each meets every part of the run.
    static let rotation = [
        KillMode(olderOutput: true, namedTemps: false), KillMode(olderOutput: false, namedTemps: false),
        KillMode(olderOutput: true, namedTemps: true),
    ]
}

/// The audio format of a killed single render.
enum KillFormat: String, CaseIterable, Sendable {
    /// FLAC (libFLAC on the encoder thread).
    case flac
    /// M4A: AAC through libavformat's muxer writing through DescriptorIO on the staged
    /// descriptor, metered as decoded while it is muxed (its edit list read back after), which
    /// the lossy check may discard and encode again.
    case m4a
}

/// An output path that names a folder, a pipe, or a file where a folder must be: what is made
/// under `out/` first, the `-o` path under `out/` (which the error must name), and a word it must say.
struct FolderAsOutput: Sendable, CustomTestStringConvertible {
    let label: String
    let prepare: @Sendable (TempFolder) throws -> Void
    let target: String
    let says: String
    /// The recipes folder is rendered, not one recipe.
    var catalog = false
    /// out/steady.flac is a named pipe, which must still be one after.
    var pipe = false

    var testDescription: String { label }

    static let all: [FolderAsOutput] = [
        FolderAsOutput(
            label: "-o out/steady.flac/, a folder", prepare: { try $0.folder("out/steady.flac") }, target: "steady.flac/", says: "directory"),
        FolderAsOutput(
            label: "-o out/steady.flac, a folder", prepare: { try $0.folder("out/steady.flac") }, target: "steady.flac", says: "directory"),
        FolderAsOutput(label: "-o out/new.flac/: nothing there, but the name says folder", prepare: { _ in }, target: "new.flac/", says: "folder"),
        FolderAsOutput(label: "-o out/: a bundle folder for one recipe", prepare: { _ in }, target: "", says: "directory"),
        FolderAsOutput(
            label: "out/steady.flac is a named pipe (like /dev/full, not a file to replace)",
            prepare: { folder in
                guard mkfifo(folder.file("out/steady.flac"), 0o644) == 0 else { throw TestFailure("mkfifo: \(String(cString: strerror(errno)))") }
            }, target: "steady.flac", says: "not a regular file", pipe: true),
        FolderAsOutput(
            label: "a catalog with -o out/taken, a file", prepare: { try $0.write("a file, not a folder\n", to: "out/taken") }, target: "taken",
            says: "in the way", catalog: true),
    ]
}

/// A full disk (a small tmpfs) under a single render: the format, the disk's size, whether an older
/// output is in place (it must stay), and whether the sidecars are asked for.
struct FullDisk: Sendable, CustomTestStringConvertible {
    let label: String
    let ext: String
    /// The disk's bytes; nil: room for the audio and the cue sheet and four pages more (the sidecars' picture does not fit).
    let room: Int?
    let older: Bool
    var sidecars = false

    var testDescription: String { label }

    static let all: [FullDisk] = [
        FullDisk(label: "a FLAC bigger than the disk, nothing there before", ext: "flac", room: 256 * 1024, older: false),
        FullDisk(label: "a FLAC over an older output, which stays", ext: "flac", room: 256 * 1024, older: true),
        FullDisk(label: "a WAV (libsndfile) over an older output", ext: "wav", room: 256 * 1024, older: true),
        FullDisk(label: "an M4A (libavformat's muxer, about 96 KB) over an older output, on a 64 KiB disk", ext: "m4a", room: 64 * 1024, older: true),
        FullDisk(label: "the audio and cue sheet fit, the sidecars do not", ext: "flac", room: nil, older: true, sidecars: true),
    ]
}

/// A full disk under a catalog render, beside a finished track: what changes in the catalog, and
/// the track whose audio cannot be written.
struct FullDiskCatalog: Sendable, CustomTestStringConvertible {
    let label: String
    let failing: String
    let change: @Sendable (TestCatalog) throws -> Void

    var testDescription: String { label }

    /// A short mono track fits the 512 KiB disk; 6 s of stereo pink noise (about 1.5 MB of FLAC) does not.
    static let small = TrackSpec(
        path: "disk/small.yml", id: "small", writesID: true, title: "Small", category: "Disk", premium: false, sortOrder: 1,
        duration: "2", phase: "1", bed: .synth("drone 110 Hz"), sampleRate: 16000, channels: 1, format: "flac", inhaleHz: 500)
    static let big = TrackSpec(
        path: "disk/big.yml", id: "big", writesID: true, title: "Big", category: "Disk", premium: false, sortOrder: 2,
        duration: "6", phase: "1", bed: .synth("pink-noise"), sampleRate: 48000, channels: 2, format: "flac", inhaleHz: 600)

    static let all: [FullDiskCatalog] = [
        FullDiskCatalog(label: "a new track too big for the disk", failing: "big.flac") { catalog in
            try catalog.folder.write(big.recipe, to: "recipes/\(big.path)")
        },
        FullDiskCatalog(label: "a finished track changed so that its new version does not fit", failing: "small.flac") { catalog in
            try catalog.editRecipe("small") {
                $0.replacingOccurrences(of: "duration: 2s", with: "duration: 6s").replacingOccurrences(
                    of: "sample_rate: 16000", with: "sample_rate: 48000"
                )
                .replacingOccurrences(of: "channels: 1", with: "channels: 2").replacingOccurrences(of: "drone 110 Hz", with: "pink-noise")
            }
        },
    ]
}

/// Kills, unwritable folders, full disks and folders given as files: no partial file, ever.
/// Sends SIGKILL to `running` at `time` seconds after `started` and checks how it ended: killed
/// by it, or finished whole first (a kill that reaches an exited, unreaped render does nothing).
private func killRender(_ running: Running, at time: Double, after started: Date, moment: String) throws -> ProcessResult {
    sleep(until: time, after: started)
    let killed = running.isRunning && kill(running.pid, SIGKILL) == 0
    let result = try running.wait()
    if result.signaled {
        #expect(killed && result.status == SIGKILL, "\(moment): \(result)")
    } else {
        #expect(result.status == 0, "\(moment): the render finished, but \(result)")
    }
    return result
}

@Suite("Faults: SIGKILL, unwritable folders, full disks, folders as outputs", .serialized)
struct FaultTests {
    /// 6 s of stereo FLAC: long enough (about half a second in a debug build) for kills to land inside.
    static let steadyRecipe = """
        id: steady
        title: Steady
        duration: 6s
        pattern:
          name: Test Pattern
          phases:
            - inhale: 1s
            - exhale: 1s
        bed:
          synth: pink-noise
          gain: -14 dB
        cues:
          inhale: { tone: 528 Hz, length: 300ms, gain: -18 dB }
        output:
          sample_rate: 48000
          channels: 2
          loudness: -16 LUFS
          true_peak: -1 dBTP

        """
    static let steadyFrames: Int64 = 6 * 48000
    static let steadyFiles = [
        "steady.ahap", "steady.captions.vtt", "steady.chapters.json", "steady.cues.json", "steady.flac", "steady.haptics.json", "steady.svg",
        "steady.vtt",
    ]
    /// The steady render's files with `-o steady.<format>`.
    static func steadyFiles(_ format: KillFormat) -> [String] {
        steadyFiles.map { $0 == "steady.flac" ? "steady.\(format.rawValue)" : $0 }.sorted()
    }

    /// Kills per test: one in each ninth of the render's measured
    /// length, at a place drawn from a fixed seed; the modes of `KillMode.rotation` in turn.
    static let singleKills = 9, catalogKills = 9

    // MARK: - SIGKILL, single render

    @Test(
        "SIGKILL during a single render: only whole files under final names, an older output kept until replaced, and the rerun equals the reference",
        arguments: KillFormat.allCases)
    func killSingle(_ format: KillFormat) throws {
        let seed: UInt64 = 101
        let folder = try TempFolder("kill-single-\(format.rawValue)")
        let recipe = try folder.write(Self.steadyRecipe, to: "recipes/steady.yml")
        let render = try renderPath()
        let referenceFolder = try folder.folder("reference")
        let audio = "steady.\(format.rawValue)"
        let arguments = { (dir: String) in [recipe, "-o", dir + "/" + audio, "--sidecars", "all", "--quiet"] }
        // renders are reproducible: one reference serves every mode
        let reference = try run(render, arguments(referenceFolder), environment: [:])
        try #require(reference.status == 0 && !reference.signaled, "\(reference)")
        let files = Self.steadyFiles(format)
        try #require(try filesUnder(referenceFolder) == files)
        let expected = try Dictionary(uniqueKeysWithValues: files.map { ($0, try bytes(referenceFolder + "/" + $0)) })
        func decodesWhole(_ path: String) throws -> Bool {
            try (format == .m4a ? decodedM4AFrames(path) : decodedShape(path).frames) == Self.steadyFrames
        }
        #expect(try decodesWhole(referenceFolder + "/" + audio))
        let olderFiles = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, Fixture.randomBytes(2000 + $0, seed: seed + UInt64($0))) })

        let out = try folder.folder("out")
        let times = killTimes(count: Self.singleKills, over: reference.seconds, seed: seed)
        var landed = 0
        // kills that found the audio being written (a data file of the render open in `out`):
        // the ones that catch a render writing under the final name
        var duringAudio = 0
        for (index, time) in times.enumerated() {
            let c = KillMode.rotation[index % KillMode.rotation.count]
            let older = c.olderOutput ? olderFiles : [:]
            try reset(out, to: older)
            let started = Date()
            let running = try Running(render, arguments(out), environment: c.environment)
            let moment = "kill \(index + 1) of \(times.count) at \(String(format: "%.3f", time)) s (seed \(seed), \(c))"
            sleep(until: time, after: started)
            let writing = writesAudio(running.pid, named: audio, in: out)
            let result = try killRender(running, at: time, after: started, moment: moment)
            if result.signaled {
                landed += 1
                if writing { duringAudio += 1 }
            }

            // every file under its final name is whole: the reference's bytes, or the older ones not yet replaced
            for entry in try FileManager.default.contentsOfDirectory(atPath: out).sorted() {
                let path = out + "/" + entry
                if let staged = stagingName(entry) {
                    #expect(staged.pid == running.pid && expected[staged.name] != nil, "\(moment): \(entry) is not a staging file of this render")
                    if !c.namedTemps {
                        // with O_TMPFILE a name is staged only between the link and the rename that replaces
                        // an older file, and only once the data is whole
                        #expect(c.olderOutput, "\(moment): \(entry) staged though nothing was there to replace")
                        #expect(try bytes(path) == expected[staged.name], "\(moment): \(entry), staged, is not whole")
                    }
                    continue
                }
                guard let want = expected[entry] else {
                    Issue.record("\(moment): unexpected file \(entry)")
                    continue
                }
                let got = try bytes(path)
                let isNew = got == want
                #expect(isNew || got == older[entry], "\(moment): \(entry) (\(got.count) bytes) is partial or corrupt")
                if isNew && entry == audio {
                    #expect(try decodesWhole(path), "\(moment): \(entry) does not decode whole")
                }
                if isNew && entry.hasSuffix(".cues.json") { _ = try readCueSheet(path) }
            }
            for name in older.keys {
                #expect(FileManager.default.fileExists(atPath: out + "/" + name), "\(moment): \(name) was removed, not replaced")
            }

            // the next run completes the output, cleans what the kill left, and equals the reference
            let rerun = try run(render, arguments(out), environment: c.environment)
            #expect(rerun.status == 0 && !rerun.signaled, "\(moment), rerun: \(rerun)")
            #expect(try folderDifferences(out, referenceFolder) == [], "\(moment): the rerun differs from the reference")
        }
        #expect(landed >= times.count / 2, "only \(landed) of \(times.count) kills landed while the render ran (\(reference.seconds) s)")
        if format == .m4a {
            // the M4A is open for about half the run (one or two encodings, each metered by the lossy
            // check as it is muxed): at least one kill must land there, or the test could not tell a render that
            // writes the final name directly from one that stages it
            #expect(duringAudio >= 1, "no kill landed while \(audio) was being written (\(landed) landed, \(reference.seconds) s)")
        }
    }

    // MARK: - SIGKILL, catalog

    /// Three tracks of 5, 4 and 3 s, rendered with -j 2.
    static let killTracks: [TrackSpec] = [("golf", "5"), ("hotel", "4"), ("india", "3")].enumerated().map { index, track in
        TrackSpec(
            path: "kill/\(track.0).yml", id: track.0, writesID: true, title: track.0.capitalized, category: "Kill", premium: false,
            sortOrder: index, duration: track.1, phase: "1", bed: .synth(index % 2 == 0 ? "pink-noise" : "drone 110 Hz"),
            sampleRate: 48000, channels: 2, format: "flac", inhaleHz: 500 + 20 * index)
    }

    @Test("SIGKILL during a catalog render (-j 2): whole files, a manifest that lists only whole tracks, and a resumed run equal to the reference")
    func killCatalog() throws {
        let seed: UInt64 = 404
        let catalog = try TestCatalog(Self.killTracks, label: "kill-cat")
        let render = try renderPath()
        let arguments = { (dist: String) in [catalog.recipes, "-o", dist, "-j", "2", "--quiet"] }

        // the older bundle: the same tracks with a louder bed, so every one of them is rendered again
        let olderFolder = catalog.folder.file("older")
        for track in catalog.tracks { try catalog.editRecipe(track.id) { $0.replacingOccurrences(of: "gain: -14 dB", with: "gain: -11 dB") } }
        let made = try run(render, arguments(olderFolder), in: catalog.root, environment: [:])
        try #require(made.status == 0, "\(made)")
        for track in catalog.tracks { try catalog.editRecipe(track.id) { $0.replacingOccurrences(of: "gain: -11 dB", with: "gain: -14 dB") } }
        let olderFiles = try Dictionary(uniqueKeysWithValues: filesUnder(olderFolder).map { ($0, try bytes(olderFolder + "/" + $0)) })
        let olderBundle = try CatalogManifest.read(olderFolder + "/catalog.json")
        let referenceFolder = catalog.folder.file("reference")
        let reference = try run(render, arguments(referenceFolder), in: catalog.root, environment: [:])
        try #require(reference.status == 0 && !reference.signaled, "\(reference)")
        try #require(try filesUnder(referenceFolder) == catalog.expectedOutputs)
        let expected = try Dictionary(uniqueKeysWithValues: catalog.expectedOutputs.map { ($0, try bytes(referenceFolder + "/" + $0)) })
        let referenceManifest = try CatalogManifest.read(referenceFolder + "/catalog.json")
        for track in catalog.tracks {
            #expect(try decodedShape(referenceFolder + "/" + track.audioName).frames == track.frames)
            #expect(olderFiles[track.audioName] != expected[track.audioName], "the older bundle must differ")
        }

        let dist = catalog.folder.file("dist")
        let times = killTimes(count: Self.catalogKills, over: reference.seconds, seed: seed)
        var landed = 0
        for (index, time) in times.enumerated() {
            let c = KillMode.rotation[index % KillMode.rotation.count]
            let older = c.olderOutput ? olderFiles : [:]
            let olderManifest = c.olderOutput ? olderBundle : nil
            try? FileManager.default.removeItem(atPath: dist)
            if c.olderOutput { try FileManager.default.copyItem(atPath: olderFolder, toPath: dist) }
            let started = Date()
            let running = try Running(render, arguments(dist), in: catalog.root, environment: c.environment)
            let moment = "kill \(index + 1) of \(times.count) at \(String(format: "%.3f", time)) s (seed \(seed), \(c))"
            let result = try killRender(running, at: time, after: started, moment: moment)
            if result.signaled { landed += 1 }

            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dist).sorted()) ?? []
            for entry in entries {
                let path = dist + "/" + entry
                if let staged = stagingName(entry) {
                    #expect(staged.pid == running.pid && expected[staged.name] != nil, "\(moment): \(entry) is not a staging file of this run")
                    if !c.namedTemps {
                        // O_TMPFILE: staged only to replace a file, once whole; in a new bundle only the
                        // manifest is ever replaced (after each track)
                        #expect(c.olderOutput || staged.name == "catalog.json", "\(moment): \(entry) staged though nothing was replaced")
                        if staged.name == "catalog.json" {
                            _ = try CatalogManifest.read(path)
                        } else {
                            #expect(try bytes(path) == expected[staged.name], "\(moment): \(entry), staged, is not whole")
                        }
                    }
                    continue
                }
                guard let want = expected[entry] else {
                    Issue.record("\(moment): unexpected file \(entry)")
                    continue
                }
                let got = try bytes(path)
                switch entry {
                case "catalog.json":
                    // checked below, against the files on disk
                    break
                case "index.html":
                    // written once, at the end of a run
                    #expect(got == want || got == older[entry], "\(moment): index.html is neither the older nor the new page")
                default:
                    #expect(got == want || got == older[entry], "\(moment): \(entry) (\(got.count) bytes) is partial or corrupt")
                    if got == want, let track = catalog.tracks.first(where: { $0.audioName == entry }) {
                        #expect(try decodedShape(path).frames == track.frames, "\(moment): \(entry) does not decode whole")
                    }
                    if got == want && entry.hasSuffix(".cues.json") { _ = try readCueSheet(path) }
                }
            }

            // the manifest parses and lists only tracks whose files are whole and are the ones it describes
            if entries.contains("catalog.json") {
                let manifest = try CatalogManifest.read(dist + "/catalog.json")
                for entry in manifest.tracks {
                    let versions = [referenceManifest.entry(entry.id), olderManifest?.entry(entry.id)].compactMap { $0 }
                    #expect(
                        versions.contains { $0.sha256 == entry.sha256 && $0.fingerprint == entry.fingerprint },
                        "\(moment): catalog.json lists a version of \(entry.id) that no run made")
                    let audio = dist + "/" + entry.file
                    guard FileManager.default.fileExists(atPath: audio) else {
                        Issue.record("\(moment): catalog.json lists \(entry.file), which is not on disk")
                        continue
                    }
                    #expect(
                        try sha256(ofFile: audio) == entry.sha256, "\(moment): catalog.json lists \(entry.file) with a sha256 that is not the file's")
                    #expect(try FileIdentity(audio).size == entry.bytes, "\(moment): \(entry.file): size differs from catalog.json")
                    let cues = dist + "/" + entry.cues
                    #expect(FileManager.default.fileExists(atPath: cues), "\(moment): \(entry.cues) listed, not on disk")
                    if FileManager.default.fileExists(atPath: cues) {
                        #expect(try readCueSheet(cues).audio.sha256 == entry.sha256, "\(moment): \(entry.cues) does not describe the listed audio")
                    }
                }
            } else {
                #expect(!c.olderOutput, "\(moment): the older bundle's catalog.json is gone")
            }

            // the next run carries on, removes what the kill left, and gives the reference bundle
            let resumed = try run(render, arguments(dist), in: catalog.root, environment: c.environment)
            #expect(resumed.status == 0 && !resumed.signaled, "\(moment), resumed: \(resumed)")
            #expect(try folderDifferences(dist, referenceFolder) == [], "\(moment): the resumed bundle differs from the reference")
        }
        #expect(landed >= times.count / 2, "only \(landed) of \(times.count) kills landed while the render ran (\(reference.seconds) s)")
    }

    // MARK: - An output folder that cannot be written to

    @Test("an output folder that cannot be written to: exit 73, a message naming it, nothing left behind")
    func unwritableFolder() throws {
        let folder = try TempFolder("fault-ro")
        // the unprivileged user must reach the recipe and the render binary
        chmod(folder.path, 0o755)
        let recipe = try folder.write(Self.steadyRecipe, to: "recipes/steady.yml")
        let locked = try folder.folder("locked")
        try folder.write(Fixture.randomBytes(3000, seed: 5), to: "locked/steady.flac")
        try folder.write(Array("{\"old\": true}\n".utf8), to: "locked/steady.cues.json")
        chmod(locked, 0o555)
        defer { chmod(locked, 0o755) }
        let before = treeSnapshot(folder.path)

        let attempts: [(what: String, arguments: [String], names: String)] = [
            ("a single render", [recipe, "-o", locked + "/steady.flac"], locked),
            ("a single render without -o, from inside the folder", [recipe], "steady.flac"),
            ("a catalog into the folder", [folder.file("recipes"), "-o", locked + "/"], locked),
            ("a catalog into a new folder inside it", [folder.file("recipes"), "-o", locked + "/dist"], locked + "/dist"),
        ]
        for attempt in attempts {
            let command = try unprivileged(attempt.arguments)
            let result = try run(command.executable, command.arguments, in: attempt.arguments.count == 1 ? locked : nil, environment: [:])
            #expect(result.status == 73 && !result.signaled, "\(attempt.what): \(result)")
            #expect(
                result.stderr.contains(attempt.names) && result.stderr.contains("error:"),
                "\(attempt.what): the message must name \(attempt.names): \(result.stderr)")
            #expect(result.stderr.contains("Permission denied"), "\(attempt.what): the message must say why: \(result.stderr)")
            #expect(snapshotChanges(before, treeSnapshot(folder.path)) == [], "\(attempt.what) left something behind")
        }
    }

    // MARK: - A full disk

    /// A full disk's error: 73, the file named, the reason given.
    private func expectDiskFull(_ result: ProcessResult, naming failing: String) {
        #expect(result.status == 73 && !result.signaled, "a full disk means the output cannot be created (73): \(result)")
        #expect(result.stderr.contains(failing + ": error:"), "the message must name \(failing): \(result.stderr)")
        #expect(
            result.stderr.lowercased().contains("no space left") || result.stderr.lowercased().contains("disk is full"),
            "the message must say the disk is full: \(result.stderr)")
    }

    @Test(
        "a full disk: exit 73, a message that says so and names the file, no partial file, an older output intact",
        arguments: FullDisk.all)
    func fullDisk(_ c: FullDisk) throws {
        let folder = try TempFolder("fault-full")
        let render = try renderPath()
        let mountPoint = try folder.folder("disk")
        let recipe = try folder.write(Self.steadyRecipe, to: "recipes/steady.yml")
        let sidecars = c.sidecars ? ["--sidecars", "all"] : []
        var size = c.room ?? 0
        if c.room == nil {
            // room for the audio and the cue sheet, and two pages more: the picture does not fit
            let reference = try folder.folder("reference")
            let made = try run(render, [recipe, "-o", reference + "/steady.flac", "--sidecars", "all", "-q"], environment: [:])
            try #require(made.status == 0, "\(made)")
            let page = 4096
            func pages(_ name: String) throws -> Int { (Int(try FileIdentity(reference + "/" + name).size) + page - 1) / page * page }
            // (the older files take a page each)
            size = try pages("steady.flac") + pages("steady.cues.json") + 4 * page
            try #require(try FileIdentity(reference + "/steady.svg").size > 3 * page, "the picture must be bigger than the room left")
        }
        let disk = try mountSmallDisk(at: mountPoint, bytes: size)
        defer { withExtendedLifetime(disk) {} }
        var older: [String: [UInt8]] = [:]
        if c.older {
            older["steady.\(c.ext)"] = Fixture.randomBytes(3000, seed: 9)
            older["steady.cues.json"] = Array("{\"old\": true}\n".utf8)
            for (name, content) in older { try folder.write(content, to: "disk/\(name)") }
        }
        let output = mountPoint + "/steady." + c.ext
        let result = try run(render, [recipe, "-o", output] + sidecars, environment: [:])
        expectDiskFull(result, naming: c.sidecars ? mountPoint + "/steady.svg" : output)
        // nothing partial: the older files as they were, and nothing else
        let left = try FileManager.default.contentsOfDirectory(atPath: mountPoint).sorted()
        #expect(left == older.keys.sorted(), "the full disk holds \(left)")
        for (name, content) in older { #expect(try bytes(mountPoint + "/" + name) == content, "\(name) was changed") }
    }

    @Test(
        "a full disk under a catalog: exit 73 naming the track's file, the finished track, manifest and page as they were",
        arguments: FullDiskCatalog.all)
    func fullDiskCatalog(_ c: FullDiskCatalog) throws {
        let folder = try TempFolder("fault-full")
        let render = try renderPath()
        let mountPoint = try folder.folder("disk")
        let catalog = try TestCatalog([FullDiskCatalog.small], label: "fault-full-cat")
        let disk = try mountSmallDisk(at: mountPoint, bytes: 512 * 1024)
        defer { withExtendedLifetime(disk) {} }
        let first = try run(render, [catalog.recipes, "-o", mountPoint, "-q"], in: catalog.root, environment: [:])
        try #require(first.status == 0, "the small bundle must fit: \(first)")
        let before = try Dictionary(uniqueKeysWithValues: filesUnder(mountPoint).map { ($0, try bytes(mountPoint + "/" + $0)) })
        try c.change(catalog)
        let result = try run(render, [catalog.recipes, "-o", mountPoint, "-q"], in: catalog.root, environment: [:])
        expectDiskFull(result, naming: mountPoint + "/" + c.failing)
        // the finished track, its manifest entry and the page are as they were; nothing partial or hidden
        let after = try filesUnder(mountPoint)
        #expect(after == before.keys.sorted(), "the bundle holds \(after), before \(before.keys.sorted())")
        for (name, content) in before { #expect(try bytes(mountPoint + "/" + name) == content, "\(name) was changed") }
        let manifest = try CatalogManifest.read(mountPoint + "/catalog.json")
        #expect(manifest.tracks.map(\.id) == ["small"])
    }

    // MARK: - A folder where a file must go

    @Test("an output path that is a folder, or not a file: exit 73, a clear message, nothing created", arguments: FolderAsOutput.all)
    func folderAsOutput(_ c: FolderAsOutput) throws {
        let folder = try TempFolder("fault-dir")
        let recipe = try folder.write(Self.steadyRecipe, to: "recipes/steady.yml")
        let out = try folder.folder("out")
        try c.prepare(folder)
        let names = out + "/" + c.target
        let before = treeSnapshot(folder.path)
        let result = try runRender([c.catalog ? folder.file("recipes") : recipe, "-o", names], in: folder.path)
        #expect(result.status == 73 && !result.signaled, "\(result)")
        #expect(result.stderr.contains(names + ": error:"), "the message must name \(names): \(result.stderr)")
        #expect(result.stderr.contains(c.says), "the message must say '\(c.says)': \(result.stderr)")
        #expect(snapshotChanges(before, treeSnapshot(folder.path)) == [], "something was created or changed")
        if c.pipe {
            var info = stat()
            #expect(lstat(out + "/steady.flac", &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe was replaced")
        }
    }

    /// Empties `folder` and writes `files` into it.
    private func reset(_ folder: String, to files: [String: [UInt8]]) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        for (name, content) in files {
            guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(content)) else {
                throw TestFailure("cannot write \(folder)/\(name)")
            }
        }
    }
}
