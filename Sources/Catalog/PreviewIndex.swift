import AudioIO
import CadenceCues
import CatalogManifest
import Foundation
import Preview

/// Writes a bundle's `index.html`, the catalog preview page, from its manifest and cue sheets.
///
/// Each cue sheet is read from disk and checked as a player would check it; a
/// sheet that is missing or does not load shows as an error on its track's
/// card. The page marks the tracks the last render changed: it compares the
/// manifest's SHA-256s with the state the page before carries (`PreviewPage.PageState`).
/// Rewritten only when its bytes change, like the manifest, so a run with nothing
/// to do leaves it untouched.
enum PreviewIndex {
    static let fileName = "index.html"
    /// A page before that is larger than this is not read (its marks are forgotten: every track is changed).
    static let largestPageRead = 256 << 20

    static func write(folder: String, manifest: Manifest) throws {
        let path = (folder as NSString).appendingPathComponent(fileName)
        let current = readRegularFile(path)
        let previous = current.flatMap { PreviewPage.PageState.read(fromPage: String(decoding: $0, as: UTF8.self)) }
        let state = PreviewPage.PageState.next(
            after: previous, now: Dictionary(manifest.tracks.map { ($0.id, $0.sha256) }, uniquingKeysWith: { a, _ in a }))
        let tracks = manifest.tracks.map { entry in
            PreviewPage.Track(
                id: entry.id, title: entry.title, category: entry.category, audioFile: entry.file,
                pictureFile: entry.sidecars?.first { $0.hasSuffix(SidecarSuffix.picture) }, duration: entry.duration,
                cues: cues(path: (folder as NSString).appendingPathComponent(entry.cues), name: entry.cues, audioFile: entry.file),
                sortOrder: entry.sortOrder, premium: entry.premium, onDemand: entry.delivery == .onDemand, bytes: entry.bytes,
                size: ByteSize.format(entry.bytes), loudnessLUFS: entry.loudnessLUFS, truePeakDBTP: entry.truePeakDBTP,
                sha256: entry.sha256, changed: state.changed.contains(entry.id), session: entry.session, locale: entry.locale,
                variant: entry.variant, drafts: entry.drafts)
        }
        // the tracks in catalog order (a session's renditions by locale, then length); PreviewPage orders the
        // sessions (categories by sort_order, then name; sessions by sort_order, title, id)
        let bytes = Array(PreviewPage.html(title: "Cadence catalog", tracks: tracks, removed: state.removed).utf8)
        if let current, current == bytes { return }
        try AtomicOutputFile.write(bytes, to: path)
    }

    /// The bytes of the page before, when it is a regular file (not a link) of a sane size; nil otherwise.
    private static func readRegularFile(_ path: String) -> [UInt8]? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= largestPageRead else { return nil }
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// A track's cue sheet as the page needs it, or why it cannot be shown.
    private static func cues(path: String, name: String, audioFile: String) -> PreviewPage.Cues {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failed("\(name): the cue sheet is missing")
        }
        do {
            let sheet = try CueSheet.decode(from: data)
            guard sheet.audio.file == audioFile else {
                return .failed("\(name): describes \(sheet.audio.file), not \(audioFile)")
            }
            return .sheet(sheet)
        } catch {
            return .failed("\(name): \(error)")
        }
    }
}

/// File name endings of sidecars the catalog looks for.
enum SidecarSuffix {
    static let picture = ".svg"
}
