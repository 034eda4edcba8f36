import AudioCore
import AudioIO
import CadenceCues
import CatalogManifest
import Foundation
import Recipe

/// The files a shard's manifest lists, checked against it before anything is copied.
enum ShardFiles {
    /// Each listed file must be in `folder` as a regular file (`lstat`: not a symbolic link, FIFO,
    /// device or folder); the audio must have the entry's `bytes` and `sha256`; the cue sheet must be
    /// at most `Manifest.Limits.maxCueSheetBytes`, valid, and describe this track's audio.
    /// Problems are at the keys that name the files; the entries are in the document's order
    /// (the reader requires them sorted), so `tracks[i]` is the i-th of `manifest.tracks`.
    static func check(_ manifest: Manifest, in folder: String) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        for (i, entry) in manifest.tracks.enumerated() {
            if let size = regularFile(entry.file, at: Manifest.path(track: i, .file), in: folder, &problems) {
                let audio = Merge.path(folder, entry.file)
                if size != entry.bytes {
                    problems.append(
                        ManifestProblem(
                            path: Manifest.path(track: i, .bytes), message: "expected \(size), the size of \(audio), found \(entry.bytes)"))
                } else if let digest = SHA256Hasher.hex(ofFile: audio), digest != entry.sha256 {
                    problems.append(
                        ManifestProblem(
                            path: Manifest.path(track: i, .sha256), message: "expected '\(digest)', the SHA-256 of \(audio), found '\(entry.sha256)'")
                    )
                }
            }
            if let size = regularFile(entry.cues, at: Manifest.path(track: i, .cues), in: folder, &problems) {
                problems += cueSheetProblems(entry, track: i, size: size, in: folder)
            }
            for (j, name) in (entry.sidecars ?? []).enumerated() {
                _ = regularFile(name, at: "\(Manifest.path(track: i, .sidecars))[\(j)]", in: folder, &problems)
            }
        }
        return problems
    }

    /// The size of `name` in `folder` if it is a regular file there; else a problem at `key`
    /// (missing: `noInput`; a link, FIFO, device or folder: `data`).
    private static func regularFile(_ name: String, at key: String, in folder: String, _ problems: inout [ManifestProblem]) -> Int64? {
        let path = Merge.path(folder, name)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            let message =
                code == ENOENT
                ? "'\(name)' is listed but not in \(folder)" : "'\(name)' in \(folder) cannot be read: \(String(cString: strerror(code)))"
            problems.append(ManifestProblem(path: key, message: message, kind: .noInput))
            return nil
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            problems.append(ManifestProblem(path: key, message: "'\(name)' in \(folder) is \(fileKind(info.st_mode)); expected a regular file"))
            return nil
        }
        return Int64(info.st_size)
    }

    /// Why the track's cue sheet cannot go into the bundle (too large, not a valid cue sheet, or about another
    /// file: at `cues`), and the entry's keys that the sheet contradicts (`title`, `category`, `loudness_lufs`,
    /// `true_peak_dbtp`, `drafts`, each at its own key; `duration` the reader checks against `frames`): nothing the page
    /// or an app shows from `catalog.json` is taken on trust.
    private static func cueSheetProblems(_ entry: Manifest.Entry, track i: Int, size: Int64, in folder: String) -> [ManifestProblem] {
        let cuesKey = Manifest.path(track: i, .cues)
        let sheet: CueSheet
        switch readCueSheet(entry.cues, size: size, in: folder) {
        case .failure(let problem): return [ManifestProblem(path: cuesKey, message: problem.message)]
        case .success(let read): sheet = read
        }
        let differing = [
            ("id", sheet.id == entry.id), ("audio.file", sheet.audio.file == entry.file), ("audio.sha256", sheet.audio.sha256 == entry.sha256),
            ("audio.frames", sheet.audio.frames == entry.frames), ("audio.sample_rate", sheet.audio.sampleRate == entry.sampleRate),
        ].filter { !$0.1 }.map(\.0)
        guard differing.isEmpty else {
            let verb = differing.count == 1 ? "is" : "are"
            return [
                ManifestProblem(
                    path: cuesKey,
                    message: "'\(entry.cues)' in \(folder) describes another track: its \(differing.joined(separator: ", ")) \(verb) not this entry's"
                )
            ]
        }
        // The descriptive keys, as JSON text: the catalog writes the sheet's own values (rounded alike).
        let described: [(Manifest.EntryKey, sheetKey: String, sheet: String)] =
            [
                (.title, "title", JSONText.string(sheet.title)),
                (.category, "category", sheet.category.map(JSONText.string) ?? "null"),
                (.loudnessLUFS, "audio.loudness_lufs", sheet.audio.loudnessLUFS.map(JSONText.number) ?? "null"),
                (.truePeakDBTP, "audio.true_peak_dbtp", sheet.audio.truePeakDBTP.map(JSONText.number) ?? "null"),
                // recipe-v1.2 § Drafts made visible: the count of the sheet's voice entries with draft: true
                (.drafts, "number of voice entries with draft: true", String(sheet.draftCount)),
                // a rendition of a recipe with locales: its locale and session (a plain recipe's sheet has neither)
                (.locale, "locale", sheet.locale.map(JSONText.string) ?? "null"),
            ] + (sheet.session.map { [(Manifest.EntryKey.session, "session", JSONText.string($0))] } ?? [])
        return described.compactMap { key, sheetKey, expected in
            let found = entry.jsonValue(key) ?? "null"
            guard found != expected else { return nil }
            return ManifestProblem(
                path: Manifest.path(track: i, key),
                message:
                    "expected \(DiagnosticText.clip(expected)), the \(sheetKey) of '\(entry.cues)' in \(folder), found \(DiagnosticText.clip(found))"
            )
        }
    }

    /// The track's cue sheet, read and validated (at most `Manifest.Limits.maxCueSheetBytes`), or why it cannot be.
    private static func readCueSheet(_ name: String, size: Int64, in folder: String) -> Result<CueSheet, SheetProblem> {
        let limit = Manifest.Limits.maxCueSheetBytes
        guard size <= Int64(limit) else {
            return .failure(
                SheetProblem("'\(name)' in \(folder) is \(size) bytes; expected a cue sheet of at most \(limit >> 20) MiB (\(limit) bytes)"))
        }
        let fd = open(Merge.path(folder, name), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return .failure(SheetProblem("'\(name)' in \(folder) cannot be read: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        guard case .success(let bytes) = readAtMost(limit + 1, from: fd), bytes.count <= limit else {
            return .failure(SheetProblem("'\(name)' in \(folder) cannot be read whole, or grew past \(limit) bytes"))
        }
        do {
            return .success(try CueSheet.decode(from: Data(bytes)))
        } catch {
            return .failure(SheetProblem("'\(name)' in \(folder) is not a valid cue sheet: \(DiagnosticText.printable(error.description))"))
        }
    }

    /// Why a cue sheet could not be read.
    private struct SheetProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

/// The shards and tracks of the folders read so far, and what they must agree on.
struct JoinedShards {
    /// Each track once, with the folder it is copied from.
    private var entries: [String: (entry: Manifest.Entry, folder: String)] = [:]
    /// The first shard read: the count and catalog every other shard must have.
    private var first: (shard: Manifest.ShardInfo, folder: String)?
    /// The folder of each shard number read.
    private var shards: [Int: String] = [:]
    /// Each session once, with the folder and index it was first read at: every folder that lists it must list it alike.
    private var sessions: [String: (session: Manifest.Session, folder: String)] = [:]
    /// The first folder read that is a whole bundle, not a shard.
    private var wholeBundle: String?
    /// A folder gave no usable manifest, the shards disagree on their count or catalog, or shards and whole
    /// bundles are mixed: what is missing cannot be told.
    private var undecidable = false

    /// The tracks, sorted by id.
    var tracks: [(entry: Manifest.Entry, folder: String)] { entries.values.sorted { $0.entry.id < $1.entry.id } }

    /// A folder whose manifest could not be used.
    mutating func skip() { undecidable = true }

    /// Joins a folder's manifest: its shard must be of the same catalog and count as the first one's,
    /// and a number not seen yet; a track already joined must be the same in every key.
    mutating func add(_ manifest: Manifest, from folder: String) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        let shardKey = Manifest.Key.shard.rawValue
        if let shard = manifest.shard {
            let name = "shard \(shard.index)/\(shard.count)"
            if let wholeBundle {
                undecidable = true
                problems.append(
                    ManifestProblem(
                        path: shardKey,
                        message: "this folder is \(name), but \(wholeBundle) is a whole bundle; merge the shards of one catalog, or whole bundles"))
            }
            if let first {
                let reference = "shard \(first.shard.index)/\(first.shard.count) in \(first.folder)"
                if shard.count != first.shard.count {
                    problems.append(
                        ManifestProblem(
                            path: "\(shardKey).\(Manifest.ShardKey.count.rawValue)",
                            message: "expected \(first.shard.count), the count of \(reference), found \(shard.count)"))
                    undecidable = true
                } else if shard.catalog != first.shard.catalog {
                    let foreign = shard.catalog.first { !Set(first.shard.catalog).contains($0) }
                    let absent = first.shard.catalog.first { !Set(shard.catalog).contains($0) }
                    let example = foreign.map { ": '\($0)' is not in it" } ?? absent.map { ": '\($0)' is missing" } ?? ""
                    problems.append(
                        ManifestProblem(
                            path: "\(shardKey).\(Manifest.ShardKey.catalog.rawValue)",
                            message:
                                "expected the catalog of \(reference) (\(first.shard.catalog.count) ids), found another (\(shard.catalog.count) ids\(example))"
                        ))
                    undecidable = true
                }
            } else {
                first = (shard, folder)
            }
            if let other = shards[shard.index] {
                problems.append(
                    ManifestProblem(
                        path: "\(shardKey).\(Manifest.ShardKey.index.rawValue)", message: "\(name) is also \(other); expected each shard once"))
            } else {
                shards[shard.index] = folder
            }
        } else {
            if let first {
                undecidable = true
                problems.append(
                    ManifestProblem(
                        path: shardKey,
                        message:
                            "missing: this folder is a whole bundle, but \(first.folder) is shard \(first.shard.index)/\(first.shard.count); merge the shards of one catalog, or whole bundles"
                    ))
            }
            wholeBundle = wholeBundle ?? folder
        }
        // a session's renditions are rendered by one shard (`ShardPlan`): each folder that lists it lists it whole
        for (i, session) in manifest.sessions.enumerated() {
            guard let other = sessions[session.id] else {
                sessions[session.id] = (session, folder)
                continue
            }
            if other.session != session {
                let keys = Manifest.SessionKey.allCases.filter { session.jsonValue($0) != other.session.jsonValue($0) }.map(\.rawValue)
                problems.append(
                    ManifestProblem(
                        path: "\(Manifest.Key.sessions.rawValue)[\(i)]",
                        message:
                            "session '\(session.id)' conflicts with the one in \(other.folder) (\(keys.joined(separator: ", ")) \(keys.count > 1 ? "differ" : "differs")); a session's tracks are rendered together, by one shard"
                    ))
            }
        }
        for (i, entry) in manifest.tracks.enumerated() {
            if let other = entries[entry.id] {
                if other.entry != entry {
                    let keys = entry.differingKeys(from: other.entry).map(\.rawValue).joined(separator: ", ")
                    problems.append(
                        ManifestProblem(
                            path: "\(Manifest.Key.tracks.rawValue)[\(i)]",
                            message:
                                "track '\(entry.id)' conflicts with the one in \(other.folder) (\(keys) \(keys.contains(",") ? "differ" : "differs"))"
                        ))
                }
                continue
            }
            entries[entry.id] = (entry, folder)
        }
        return problems
    }

    /// Once every folder is joined: the shards missing from 1…count (`noInput`), and the catalog's tracks
    /// that no folder holds. Nothing is said when a folder could not be used or the shards disagree,
    /// since what is missing cannot then be told.
    func completeness() -> [Diagnostic] {
        guard !undecidable, let first else { return [] }
        var diagnostics: [Diagnostic] = []
        let count = first.shard.count
        let missing = (1...count).filter { shards[$0] == nil }
        if !missing.isEmpty {
            let given = shards.sorted { $0.key < $1.key }.map { "\($0.value) is \($0.key)/\(count)" }
            diagnostics.append(
                Diagnostic(
                    "\(missing.count == 1 ? "shard" : "shards") \(Self.list(missing.map { "\($0)/\(count)" })) \(missing.count == 1 ? "is" : "are") missing: not among the folders given (\(Self.list(given)))",
                    file: nil, kind: .noInput))
        }
        let absent = first.shard.catalog.filter { entries[$0] == nil }
        if !absent.isEmpty {
            diagnostics.append(
                Diagnostic(
                    "\(absent.count) \(absent.count == 1 ? "track" : "tracks") of the catalog in no folder given: \(Self.list(absent.map { "'\($0)'" }))",
                    file: nil, kind: missing.isEmpty ? .data : .noInput))
        }
        return diagnostics
    }

    /// `a, b, c`, or the first 20 and how many more.
    private static func list(_ items: [String]) -> String {
        let shown = items.prefix(20).joined(separator: ", ")
        return items.count > 20 ? "\(shown) and \(items.count - 20) more" : shown
    }
}
