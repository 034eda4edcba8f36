/// The static checks on a path written in a recipe (`bed.file`, `cues.<kind>.file`).
///
/// Only what the text alone can tell: the renderer still resolves links and
/// checks the real path stays in the assets folder.
enum AssetPath {
    /// Why `path` cannot name a file inside the assets folder, or nil when it may.
    static func problem(_ path: String) -> String? {
        let shown = DiagnosticText.quoted(path)
        if path.isEmpty { return "path is empty" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "path \(shown) contains a control character"
        }
        if path.contains("\\") { return "path \(shown) contains a backslash (use '/' between folders)" }
        if path.hasPrefix("/") { return "path \(shown) leaves the assets folder (it is absolute)" }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "path \(shown) leaves the assets folder ('..')"
        }
        return nil
    }
}
