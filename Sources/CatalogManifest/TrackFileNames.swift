import AudioCore
import Sidecars

/// The names of a track's files in a bundle, all made from its id: how `CatalogPlan` names them,
/// and the only names a manifest may list (`ManifestReader`), so none has a folder part or is hidden.
public enum TrackFileNames {
    /// `<id>.<ext>`: `box.flac`.
    public static func audio(_ id: String, _ format: AudioFormat) -> String { "\(id).\(format.fileExtension)" }
    /// `<id>.cues.json`.
    public static func cueSheet(_ id: String) -> String { id + ".cues.json" }
    /// `<id>.vtt`, `<id>.chapters.json`, `<id>.svg`.
    public static func sidecar(_ id: String, _ kind: SidecarKind) -> String { id + kind.suffix }

    /// The audio file's name in every format.
    public static func audioNames(_ id: String) -> [String] { AudioFormat.fileExtensions.map { "\(id).\($0)" } }
    /// Every sidecar's name.
    public static func sidecarNames(_ id: String) -> [String] { SidecarKind.allCases.map { sidecar(id, $0) } }
}
