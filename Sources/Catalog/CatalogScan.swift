import Foundation

/// Finds recipe files: a file as given, or every `*.yml` / `*.yaml` under a folder, recursively, sorted.
public enum CatalogScan {
    public static func recipes(in paths: [String]) -> (files: [String], missing: [String]) {
        var files: [String] = []
        var missing: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(path)
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }
                .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                .sorted()
            files += found.map { base + "/" + $0 }
        }
        // the same file named twice (or through two folders) is one recipe
        var seen: Set<String> = []
        files = files.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
        return (files, missing)
    }
}
