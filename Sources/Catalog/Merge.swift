import AudioCore
import AudioIO
import CatalogManifest
import Foundation

/// Joins shard folders into one bundle: every track once, none missing, none in conflict, nothing taken on trust.
///
/// `run` reads top-down: each folder's `catalog.json` is read and validated (`ManifestDocument.read`,
/// `Manifest.decode`); the files it lists are checked against it (`ShardFiles.check`: regular files,
/// sizes, SHA-256, cue sheets); its shard and tracks are joined to the others' (`JoinedShards.add`:
/// one catalog, each shard once, no track in two versions); then the whole is checked complete.
/// Every problem of every folder is collected, each at the manifest key it concerns, and only when
/// there is none is anything written: the files are copied, then the manifest and the page written.
public enum Merge {
    /// Merges `inputs` (shard output folders) into `output`; returns the joined manifest, with
    /// `budget` (`--bundle-budget`) as its `bundle.budget`.
    ///
    /// Refused, with nothing written: a `DiagnosticList` whose `kind` is `noInput` when a folder,
    /// a manifest, a listed file or a shard is missing or unreadable, `setting` when a folder is given
    /// twice, `data` for anything wrong in what was read. Failing while writing: an `AudioError` or
    /// a `ManifestError` (the output cannot be created).
    public static func run(inputs: [String], output: String, budget: Int64? = nil) throws -> Manifest {
        var problems: [Diagnostic] = []
        var joined = JoinedShards()
        for folder in distinctFolders(inputs, problems: &problems) {
            let document: ManifestDocument
            do {
                guard let read = try ManifestDocument.read(folder: folder) else {
                    problems.append(
                        Diagnostic("no \(Manifest.fileName) (not a render output folder)", file: path(folder, Manifest.fileName), kind: .noInput))
                    joined.skip()
                    continue
                }
                document = read
            } catch {
                problems += error.diagnostics
                joined.skip()
                continue
            }
            var found = ShardFiles.check(document.manifest, in: folder) + joined.add(document.manifest, from: folder)
            if document.manifest.predatesSessions {
                // its tracks' sessions and drafts are unknown: a render of the folder writes them (an up-to-date track is not rendered again)
                found.insert(
                    ManifestProblem(
                        path: Manifest.Key.sessions.rawValue,
                        message:
                            "missing: this catalog.json was written before sessions (cues-v1.2); render this folder again with this render, then merge"
                    ),
                    at: 0)
            }
            problems += document.diagnostics(found)
        }
        problems += joined.completeness()
        guard problems.isEmpty else { throw DiagnosticList(problems) }

        try CatalogRenderer.makeFolder(output)
        for (entry, folder) in joined.tracks {
            for name in entry.files {
                try copy(path(folder, name), to: path(output, name), audioOf: name == entry.file ? entry : nil)
            }
        }
        let merged = Manifest(tracks: joined.tracks.map(\.entry), budget: budget)
        try AtomicOutputFile.write(Array(merged.jsonText().utf8), to: path(output, Manifest.fileName))
        try PreviewIndex.write(folder: output, manifest: merged)
        return merged
    }

    /// The folders given, each once, in order. A missing one or one that is not a folder is reported
    /// (`noInput`); one given again under another name (`d1` and `d1/`, or a link to it) is reported (`usage`) and read once.
    private static func distinctFolders(_ inputs: [String], problems: inout [Diagnostic]) -> [String] {
        var seen: [String: String] = [:]
        var folders: [String] = []
        for folder in inputs {
            var info = stat()
            guard stat(folder, &info) == 0 else {
                let reason = errno == ENOENT ? "no such shard folder" : "cannot be read: \(String(cString: strerror(errno)))"
                problems.append(Diagnostic(reason, file: folder, kind: .noInput))
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                problems.append(Diagnostic("is \(fileKind(info.st_mode)), not a shard folder", file: folder, kind: .noInput))
                continue
            }
            let identity = "\(info.st_dev):\(info.st_ino)"
            if let first = seen[identity] {
                problems.append(Diagnostic("is the folder \(first) again; give each shard folder once", file: folder, kind: .setting))
                continue
            }
            seen[identity] = folder
            folders.append(folder)
        }
        return folders
    }

    /// Copies a checked file whole, in 1 MiB pieces, appearing under its name only when complete.
    ///
    /// The source is opened without following a link and must still be a regular file; a track's
    /// audio (`audioOf`) must still have the size and SHA-256 its entry gives, or nothing is put in place.
    private static func copy(_ source: String, to destination: String, audioOf entry: Manifest.Entry?) throws {
        if let from = realPath(source), from == realPath(destination) { return }
        let fd = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { throw ManifestError(path: source, reason: "cannot read: \(String(cString: strerror(errno)))") }
        let input = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw ManifestError(path: source, reason: "is no longer a regular file")
        }
        let file = try AtomicOutputFile(path: destination)
        var hasher = SHA256Hasher()
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            if entry != nil { chunk.withUnsafeBytes { hasher.update($0) } }
            try file.write([UInt8](chunk))
        }
        let digest = SHA256Hasher.hex(hasher.finalize())
        if let entry, file.size() != entry.bytes || digest != entry.sha256 {
            file.discard()
            throw ManifestError(path: source, reason: "changed while it was being merged (its size or SHA-256 is no longer the manifest's)")
        }
        try file.commit()
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func path(_ folder: String, _ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
}
