import Foundation
import Testing

/// Killing a catalog render midway: nothing partial, a consistent manifest, and a run that picks up.
@Suite("An interrupted catalog render", .serialized)
struct InterruptTests {
    /// A signal, and the moment it is sent.
    enum Stop: String, CaseIterable, Sendable {
        /// SIGKILL as soon as the first cue sheet appears (the manifest may not list that track yet).
        case sigkillAfterCueSheet
        /// SIGKILL as soon as catalog.json lists a track.
        case sigkillAfterManifest
        case sigtermAfterCueSheet
        case sigintAfterCueSheet

        var signal: Int32 {
            switch self {
            case .sigkillAfterCueSheet, .sigkillAfterManifest: SIGKILL
            case .sigtermAfterCueSheet: SIGTERM
            case .sigintAfterCueSheet: SIGINT
            }
        }

        /// Whether the moment has come, from what is in the output folder.
        func due(_ dist: String) -> Bool {
            switch self {
            case .sigkillAfterManifest:
                return ((try? CatalogManifest.read(dist + "/catalog.json"))?.tracks.isEmpty ?? true) == false
            default:
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dist)) ?? []
                return names.contains { $0.hasSuffix(".cues.json") }
            }
        }
    }

    @Test("after a signal, dist holds only whole files; the next run finishes and equals an uninterrupted render", arguments: Stop.allCases)
    func interrupted(_ stop: Stop) throws {
        let catalog = try TestCatalog(TestCatalog.long, label: "cat-kill")
        let dist = catalog.folder.file("dist")
        let expectedNames = Set(catalog.expectedOutputs)

        // signal once the first track is finished (its cue sheet is the last of its files to appear)
        let running = try startRender([catalog.recipes, "-o", dist, "-j", "1"], in: catalog.root)
        let deadline = Date().addingTimeInterval(300)
        var sawFirst = false
        while Date() < deadline && running.isRunning {
            if stop.due(dist) { sawFirst = true; break }
            usleep(2000)
        }
        let wasRunning = running.isRunning
        if wasRunning { kill(running.pid, stop.signal) }
        let killed = try running.wait()
        try #require(sawFirst && wasRunning, "the render ended before a track was finished, or none finished in time: \(killed)")
        if stop.signal == SIGKILL {
            #expect(killed.signaled && killed.status == SIGKILL, "\(killed)")
        } else {
            #expect(killed.signaled || killed.status != 0, "an interrupted render reported success: \(killed)")
        }

        // right after the signal: only whole, consistent files, nothing hidden or temporary
        let names = try filesUnder(dist)
        #expect(names.allSatisfy { !$0.hasPrefix(".") && expectedNames.contains($0) }, "unexpected files after \(stop.rawValue): \(names)")
        var whole: [String: FileIdentity] = [:]
        var listed: Set<String> = []
        for track in catalog.tracks {
            let audio = dist + "/" + track.audioName, cues = dist + "/" + track.cuesName
            let hasAudio = FileManager.default.fileExists(atPath: audio), hasCues = FileManager.default.fileExists(atPath: cues)
            if hasAudio {
                let shape = try decodedShape(audio)
                #expect(shape.frames == track.frames, "\(track.audioName) has \(shape.frames) of \(track.frames) frames after \(stop.rawValue)")
            }
            if hasCues {
                #expect(hasAudio, "\(track.cuesName) without its audio")
                let sheet = try readCueSheet(cues)
                if hasAudio {
                    #expect(sheet.audio.sha256 == (try sha256(ofFile: audio)), "\(track.cuesName) does not describe \(track.audioName)")
                    whole[track.audioName] = try FileIdentity(audio)
                    whole[track.cuesName] = try FileIdentity(cues)
                }
            }
        }
        #expect(!whole.isEmpty)
        #expect(whole.count < 2 * catalog.tracks.count, "every track was finished before the signal: nothing was interrupted")
        if FileManager.default.fileExists(atPath: dist + "/catalog.json") {
            let manifest = try CatalogManifest.read(dist + "/catalog.json")
            for entry in manifest.tracks {
                let audio = dist + "/" + entry.file
                guard FileManager.default.fileExists(atPath: audio) else {
                    Issue.record("catalog.json lists \(entry.file), which is not on disk")
                    continue
                }
                #expect(entry.bytes == (try FileIdentity(audio)).size, "\(entry.file): size differs from the manifest")
                #expect(entry.sha256 == (try sha256(ofFile: audio)), "\(entry.file): sha256 differs from the manifest")
                #expect(FileManager.default.fileExists(atPath: dist + "/" + entry.cues), "\(entry.cues) listed, not on disk")
                listed.formUnion([entry.file, entry.cues])
            }
        }
        if stop == .sigkillAfterManifest { #expect(!listed.isEmpty) }
        #expect(listed.isSubset(of: Set(whole.keys)), "catalog.json lists \(listed.subtracting(whole.keys).sorted()) without a whole file")

        // the next run continues: tracks the manifest lists are kept, the rest rendered
        let resumed = try runRender([catalog.recipes, "-o", dist, "-j", "1"], in: catalog.root)
        #expect(resumed.status == 0 && !resumed.signaled, "\(resumed)")
        let after = try identities(dist)
        for (name, identity) in whole where listed.contains(name) {
            #expect(after[name] == identity, "\(name), finished and in catalog.json before the signal, was rendered again")
        }

        let reference = catalog.folder.file("reference")
        let uninterrupted = try runRender([catalog.recipes, "-o", reference, "-j", "1"], in: catalog.root)
        try #require(uninterrupted.status == 0, "\(uninterrupted)")
        #expect(try folderDifferences(dist, reference) == [], "the resumed render differs from an uninterrupted one")
        try verifyOutput(dist, of: catalog)
    }

    /// SIGTERM at moments spread over a catalog render that replaces every file of an earlier one,
    /// so each commit goes through a staging name (`AtomicOutputFile`): with `O_TMPFILE` the name
    /// lives between a link and a rename, without it for the whole write. The signal can land
    /// while a worker creates one, or while another thread runs the handler; none may be left.
    @Test("SIGTERM at any moment of a catalog render leaves no staging file, with and without O_TMPFILE", arguments: [false, true])
    func sigtermLeavesNoStagingFile(namedTemps: Bool) throws {
        let tracks = (1...12).map { index in
            TrackSpec(
                path: "short/t\(index).yml", id: "t\(index)", writesID: true, title: "T\(index)", category: "Short", premium: false,
                sortOrder: index, duration: "8", phase: "0.5", bed: .synth("drone 110 Hz"), sampleRate: 16000, channels: 1, format: "flac",
                inhaleHz: 400 + 10 * index)
        }
        let catalog = try TestCatalog(tracks, label: "cat-term")
        let dist = catalog.folder.file("dist")
        let environment = namedTemps ? ["CADENCE_NO_O_TMPFILE": "1"] : [:]
        // the debug render beside the tests: the release one finishes before most of the 24 moments
        let render = try #require(siblingRender ?? renderExecutable, "no render binary")
        let first = try run(render, [catalog.recipes, "-o", dist, "-j", "2", "-q"], in: catalog.root, environment: environment)
        try #require(first.status == 0, "\(first)")
        // the moments are spread over a re-render like the rounds' (warm caches, every file replaced),
        // which takes less than the first render
        for track in tracks { unlink(dist + "/" + track.cuesName) }
        unlink(dist + "/catalog.json")
        let again = try run(render, [catalog.recipes, "-o", dist, "-j", "2", "-q"], in: catalog.root, environment: environment)
        try #require(again.status == 0, "\(again)")
        let whole = again.seconds
        var interrupted = 0
        for round in 0..<24 {
            // every file exists, so every commit replaces one; a cue sheet rewritten forces the re-render
            for track in tracks { unlink(dist + "/" + track.cuesName) }
            unlink(dist + "/catalog.json")
            let running = try Running(render, [catalog.recipes, "-o", dist, "-j", "2", "-q"], in: catalog.root, environment: environment)
            usleep(useconds_t(whole * Double(round + 1) / 25 * 1_000_000))
            let wasRunning = running.isRunning
            kill(running.pid, SIGTERM)
            let result = try running.wait()
            if wasRunning && result.signaled { interrupted += 1 }
            let hidden = try filesUnder(dist).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty, "round \(round), SIGTERM after \(round + 1)/25 of a render: \(hidden) left (\(result))")
        }
        #expect(interrupted >= 12, "only \(interrupted) of 24 signals reached a running render: the moments missed it")
    }

    @Test("a finished track's progress line is written at once, not when the render ends")
    func progressAppearsAtOnce() throws {
        // two long mono drones: the second is still rendering when the first is done
        let tracks = ["oscar", "papa"].map { name in
            TrackSpec(
                path: "\(name).yml", id: name, writesID: true, title: name, category: "Long", premium: false, sortOrder: 1, duration: "60",
                phase: "5", bed: .synth("drone 110 Hz"), sampleRate: 48000, channels: 1, format: "flac", inhaleHz: 500)
        }
        let catalog = try TestCatalog(tracks, label: "cat-progress")
        let dist = catalog.folder.file("dist")
        let running = try startRender([catalog.recipes, "-o", dist, "-j", "1"], in: catalog.root)
        defer { kill(running.pid, SIGKILL) }
        var first: String?
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline && running.isRunning && first == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dist)) ?? []
            first = names.first { $0.hasSuffix(".cues.json") }.map { String($0.dropLast(".cues.json".count)) }
            usleep(5000)
        }
        let id = try #require(first, "no track finished while the render ran")
        var shown = false
        let wait = Date().addingTimeInterval(3)
        while Date() < wait && running.isRunning && !shown {
            shown = try running.outputSoFar().split(separator: "\n").contains { $0.contains(id) }
            usleep(10_000)
        }
        let stillRunning = running.isRunning
        kill(running.pid, SIGKILL)
        let result = try running.wait()
        try #require(stillRunning || shown, "the render ended before the line could be checked: \(result)")
        #expect(shown, "\(id) was finished, but 3 s later, with the render still running, no line named it (output buffered?)")
    }
}
