import AudioIO
import CadenceCues
import Foundation
import Preview

/// Writes a bundle's `index.html`, the catalog preview page, from its manifest and cue sheets.
///
/// Each cue sheet is read from disk and checked as a player would check it; a
/// sheet that is missing or does not load shows as an error on its track's
/// card. Rewritten only when its bytes change, like the manifest.
enum PreviewIndex {
    static let fileName = "index.html"

    static func write(folder: String, manifest: Manifest) throws {
        let entries = manifest.tracks.sorted {
            ($0.sortOrder ?? Int.max, $0.title, $0.id) < ($1.sortOrder ?? Int.max, $1.title, $1.id)
        }
        let tracks = entries.map { entry in
            PreviewPage.Track(
                id: entry.id, title: entry.title, category: entry.category, audioFile: entry.file,
                pictureFile: entry.sidecars?.first { $0.hasSuffix(SidecarSuffix.picture) }, duration: entry.duration,
                cues: cues(path: (folder as NSString).appendingPathComponent(entry.cues), name: entry.cues, audioFile: entry.file))
        }
        let bytes = Array(PreviewPage.html(title: "Cadence catalog", tracks: tracks).utf8)
        let path = (folder as NSString).appendingPathComponent(fileName)
        if let current = FileManager.default.contents(atPath: path), [UInt8](current) == bytes { return }
        try AtomicOutputFile.write(bytes, to: path)
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
