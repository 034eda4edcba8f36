import AudioCore

extension Recipe {
    /// Every asset file the recipe names, with the key that names it (`bed.file`, `cues.inhale.file`), in a fixed order.
    public var assetPaths: [(key: String, path: String)] {
        var paths: [(key: String, path: String)] = []
        for (index, bed) in beds.enumerated() {
            if case .file(let path) = bed.source { paths.append((bedIsLayered ? "bed.\(index).file" : "bed.file", path)) }
        }
        for name in cues.keys.sorted() {
            if case .file(let path, _) = cues[name] { paths.append(("cues.\(name).file", path)) }
        }
        for (i, prompt) in (voice?.prompts ?? []).enumerated() {
            if let path = prompt.file { paths.append(("voice.prompts.\(i).file", path)) }
        }
        return paths
    }
}
