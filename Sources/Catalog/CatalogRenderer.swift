import AudioCore
import AudioIO
import CadenceCues
import CatalogManifest
import Dispatch
import Foundation
import Recipe
import Render
import Sidecars

/// Renders a catalog into a bundle folder: incremental, parallel, shardable.
///
/// Tracks whose fingerprint matches the manifest and whose files are on disk
/// are up to date and skipped. The rest are rendered longest first on `jobs`
/// workers, sharing prepared beds. The manifest is rewritten (atomically)
/// after every finished track, so whatever stops the run, it describes what is
/// on disk, and the next run continues from there.
public final class CatalogRenderer: @unchecked Sendable {
    public struct Summary: Sendable {
        public var rendered = 0
        public var upToDate = 0
        public var failed: [(file: String, diagnostics: [Diagnostic])] = []
        public var audioSeconds = 0.0
        public var renderedSeconds = 0.0
        public var wallSeconds = 0.0
        /// The manifest as written at the end of the run: its bundle total, budget and tracks.
        public var manifest = Manifest(tracks: [])
    }

    private let output: String
    private let assets: String?
    private let jobs: Int
    private let progress: Progress
    /// `--bundle-budget` in bytes, written into the manifest's `bundle.budget`.
    private let budget: Int64?
    /// Told what each track's lossy encodings measured (`TrackRenderer(observer:)`).
    private let observer: (any RenderObserver)?
    private let lock = NSLock()
    private var entries: [String: Manifest.Entry] = [:]
    private var shardInfo: Manifest.ShardInfo?
    /// The work queue and its results, shared by the workers under `lock`.
    private var todo: [PlannedTrack] = []
    private var next = 0
    /// The sounds of the tracks the workers are rendering now (`TrackRenderer.soundKey`).
    private var taken: Set<String> = []
    private var results = Summary()
    /// Manifest entries of tracks being rendered again, by id, until their new files are in place.
    private var replaced: [String: Manifest.Entry] = [:]

    public init(
        output: String, assets: String?, jobs: Int, progress: Progress, budget: Int64? = nil, observer: (any RenderObserver)? = nil
    ) {
        self.output = output
        self.observer = observer
        self.budget = budget
        self.assets = assets
        self.jobs = max(1, jobs)
        self.progress = progress
    }

    /// Renders `plan` (or the part of it `shard` selects) into the output folder.
    ///
    /// Tracks of an earlier run that are not in the plan are removed only when the plan is
    /// complete (`CatalogPlan.isComplete`): after a scan that missed a folder, or with a recipe
    /// that did not load, they stay, files and manifest entries. A shard is not rendered at all
    /// after an incomplete scan (the `Diagnostic` thrown says so, and nothing is touched): which
    /// tracks are a shard's depends on the whole catalog.
    public func run(plan: CatalogPlan, shard: ShardSpec?) throws -> Summary {
        if let shard, !plan.scanProblems.isEmpty {
            throw Diagnostic(
                "shard \(shard) not rendered, nothing changed: the recipe scan was incomplete, and which tracks belong to a shard depends on the whole catalog",
                file: output, kind: DiagnosticList(plan.scanProblems).kind)
        }
        let started = Date()
        var summary = Summary()
        summary.failed = plan.failures
        try Self.makeFolder(output)
        // fail at once, not after every track, when nothing can be created there
        try AtomicOutputFile.checkDestination(path(Manifest.fileName))
        // staging files of a killed run (see AtomicOutputFile) go before anything is written
        AtomicOutputFile.removeLeftovers(in: output)
        let previous = (try? Manifest.read(folder: output)) ?? nil

        var tracks = plan.tracks
        if let shard {
            let split = ShardPlan(tracks: plan.tracks.map { ($0.recipe.id, $0.rendition.session, $0.frames) }, count: shard.count)
            tracks = tracks.filter { split.assignment[$0.recipe.id] == shard.index }
            shardInfo = Manifest.ShardInfo(index: shard.index, count: shard.count, catalog: plan.ids)
        }
        let wanted = Set(tracks.map(\.recipe.id))
        // keep what the previous run left that still belongs here; forget (and delete) the rest
        for entry in previous?.tracks ?? [] {
            if wanted.contains(entry.id) {
                entries[entry.id] = entry
            } else if plan.isComplete {
                // a recipe that is gone, or (in a shard's folder, reused as a CI cache)
                // a track of another shard: it leaves this folder
                remove(entry)
            } else {
                // a recipe that failed to load, or one in a folder the scan could not read, may
                // still be this track (or move it to this shard): keep it until a complete run
                entries[entry.id] = entry
            }
        }

        todo = []
        for track in tracks {
            if var entry = entries[track.recipe.id], entry.fingerprint == track.fingerprint, isOnDisk(entry),
                previous?.predatesSessions != true || recountDrafts(&entry)
            {
                // delivery is the catalog's business, not the sound's: a changed one is listed, not rendered;
                // so are its session, locale and variant, which a manifest written before sessions lacks
                entry.delivery = track.recipe.delivery
                entry.place(track.rendition)
                entries[entry.id] = entry
                summary.upToDate += 1
                summary.audioSeconds += entry.duration
                progress.finished(track.recipe.file, status: "up to date")
            } else {
                todo.append(track)
                // its files are about to be replaced one by one: the manifest stops vouching for
                // them now, and takes the old entry back only if the render fails with them intact
                if let old = entries.removeValue(forKey: track.recipe.id) { replaced[old.id] = old }
            }
        }
        todo.sort { $0.frames != $1.frames ? $0.frames > $1.frames : $0.recipe.id < $1.recipe.id }
        try writeManifest()
        progress.start(total: todo.count, audioSeconds: todo.reduce(0) { $0 + Double($1.frames) / Double($1.recipe.output.sampleRate) })

        // -j N keeps N cores busy: each track renders on its one worker thread
        // a bed is prepared once, as far as the longest track that uses it
        let beds = BedCache()
        for track in todo { for path in track.assetVersions.keys { beds.reserve(path: path, frames: track.frames) } }
        let renderer = TrackRenderer(beds: beds, threads: 1, observer: observer)
        // renditions that sound the same are rendered once (the first), then copied with their own tags
        var keys: [String: String] = [:]
        for track in todo { keys[track.recipe.id] = TrackRenderer.soundKey(of: track.recipe, format: track.format) }
        let sounds = keys
        next = 0
        results = Summary()
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(todo.count, 1))) { [self] _ in
            while true {
                lock.lock()
                guard next < todo.count else {
                    lock.unlock()
                    return
                }
                // a track that sounds like one another worker has taken waits its turn: after that one it is a copy
                if let free = todo[next...].firstIndex(where: { sounds[$0.recipe.id].map { !taken.contains($0) } ?? true }), free != next {
                    todo.insert(todo.remove(at: free), at: next)
                }
                let track = todo[next]
                next += 1
                let sound = sounds[track.recipe.id]
                if let sound { taken.insert(sound) }
                lock.unlock()
                defer {
                    if let sound {
                        lock.lock()
                        taken.remove(sound)
                        lock.unlock()
                    }
                }
                let seconds = Double(track.frames) / Double(track.recipe.output.sampleRate)
                do {
                    let done = try renderer.render(
                        recipe: track.recipe, outputPath: path(track.audioFile), assets: assets,
                        sidecars: Set(track.sidecars.map(\.kind)), expected: track.assetVersions)
                    let entry = Manifest.Entry(
                        id: track.recipe.id, title: track.recipe.title, category: track.recipe.category,
                        duration: Double(done.frames) / Double(done.sampleRate), file: track.audioFile, cues: track.cueFile,
                        sidecars: track.sidecars.map(\.file),
                        premium: track.recipe.premium, sortOrder: track.recipe.sortOrder, session: track.rendition.session,
                        locale: track.rendition.locale, localeRank: track.rendition.localeRank, variant: track.rendition.variant,
                        drafts: done.cueSheet.draftCount, delivery: track.recipe.delivery, frames: done.frames,
                        sampleRate: done.sampleRate, sha256: done.sha256, bytes: done.bytes,
                        loudnessLUFS: done.loudness.map { ($0 * 100).rounded() / 100 },
                        truePeakDBTP: done.truePeak.map { ($0 * 100).rounded() / 100 }, fingerprint: track.fingerprint)
                    lock.lock()
                    entries[entry.id] = entry
                    results.rendered += 1
                    results.audioSeconds += seconds
                    results.renderedSeconds += seconds
                    let manifestError: Error?
                    do { try writeManifest(); manifestError = nil } catch { manifestError = error }
                    lock.unlock()
                    if let manifestError { throw manifestError }
                    progress.finished(track.recipe.file, status: "rendered", seconds: seconds)
                } catch let error as DiagnosticList {
                    let previous = intactPrevious(of: track.recipe.id)
                    lock.lock()
                    results.failed.append((track.recipe.file, error.diagnostics))
                    restore(previous)
                    lock.unlock()
                    progress.finished(track.recipe.file, status: "FAILED")
                } catch {
                    let previous = intactPrevious(of: track.recipe.id)
                    lock.lock()
                    results.failed.append((track.recipe.file, [Diagnostic("\(error)", file: track.recipe.file, kind: .cannotCreate)]))
                    restore(previous)
                    lock.unlock()
                    progress.finished(track.recipe.file, status: "FAILED")
                }
            }
        }
        try PreviewIndex.write(folder: output, manifest: Manifest(tracks: Array(entries.values), shard: shardInfo))
        summary.manifest = manifest()
        summary.rendered = results.rendered
        summary.audioSeconds += results.audioSeconds
        summary.renderedSeconds = results.renderedSeconds
        summary.failed += results.failed.sorted { $0.file < $1.file }
        summary.wallSeconds = Date().timeIntervalSince(started)
        return summary
    }

    private func path(_ name: String) -> String { (output as NSString).appendingPathComponent(name) }

    /// Creates the bundle folder and the folders above it, with an error that names the one that failed (`cannotCreate`).
    static func makeFolder(_ folder: String) throws(AudioError) {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw AudioError(file: folder, operation: "mkdir", reason: "a file of that name is in the way", kind: .cannotCreate)
            }
            return
        }
        let parent = PathName.folder(of: folder)
        if !parent.isEmpty && parent != folder && parent != "/" { try makeFolder(parent) }
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST else {
            throw AudioError(file: folder, operation: "mkdir", reason: String(cString: strerror(errno)), kind: .cannotCreate)
        }
    }

    /// Counts the drafts of an entry read from a manifest written before sessions, from its cue sheet on
    /// disk; false when the sheet cannot be read (the track is rendered again).
    private func recountDrafts(_ entry: inout Manifest.Entry) -> Bool {
        guard let data = FileManager.default.contents(atPath: path(entry.cues)), let sheet = try? CueSheet.decode(from: data) else {
            return false
        }
        entry.drafts = sheet.draftCount
        return true
    }

    /// The entry's files exist with the size the manifest records.
    private func isOnDisk(_ entry: Manifest.Entry) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path(entry.file))
        let size = (attributes?[.size] as? NSNumber)?.int64Value
        return size == entry.bytes && ([entry.cues] + (entry.sidecars ?? [])).allSatisfy { FileManager.default.fileExists(atPath: path($0)) }
    }

    /// The manifest entry a failed track had before this run, if its files are still those it describes.
    private func intactPrevious(of id: String) -> Manifest.Entry? {
        lock.lock()
        let old = replaced[id]
        lock.unlock()
        // the audio is committed first: while it is the old one, no file of the track was replaced
        guard let old, isOnDisk(old), SHA256Hasher.hex(ofFile: path(old.file)) == old.sha256 else { return nil }
        return old
    }

    /// Lists a failed track's old, intact version again (caller holds the lock).
    private func restore(_ entry: Manifest.Entry?) {
        guard let entry, entries[entry.id] == nil else { return }
        entries[entry.id] = entry
        try? writeManifest()
    }

    /// Deletes a track that is no longer in the catalog.
    private func remove(_ entry: Manifest.Entry) {
        for name in entry.files where !name.contains("/") && !name.hasPrefix(".") {
            try? FileManager.default.removeItem(atPath: path(name))
        }
    }

    /// The manifest of the current entries (caller holds the lock, or runs alone).
    private func manifest() -> Manifest {
        // a shard's catalog lists every id its tracks have: one kept while its recipe fails to load
        // too, or the manifest would be one the strict reader (and the next run) refuses
        var shard = shardInfo
        shard?.catalog = Set(shardInfo?.catalog ?? []).union(entries.keys).sorted()
        return Manifest(tracks: Array(entries.values), shard: shard, budget: budget)
    }

    /// Rewrites catalog.json from the current entries (caller holds the lock, or runs alone).
    /// An unchanged manifest is left as it is (an up-to-date run touches no file).
    private func writeManifest() throws {
        let bytes = Array(manifest().jsonText().utf8)
        if let current = FileManager.default.contents(atPath: path(Manifest.fileName)), [UInt8](current) == bytes { return }
        try AtomicOutputFile.write(bytes, to: path(Manifest.fileName))
    }
}
