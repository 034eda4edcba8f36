import AudioCore
import Foundation
import Recipe

/// The folder recipe paths are relative to, and the guard that keeps them inside it.
///
/// recipe-v1: the folder given (the command line's `--assets DIR`), or the first folder named `assets` found going up
/// from the recipe's own folder. A path that leaves it — `..`, absolute, or a
/// link whose target is outside — is an error.
public struct AssetFolder: Sendable {
    /// The folder as resolved on disk (no links), for containment checks.
    public let root: String

    public init(root: String) { self.root = root }

    /// The assets folder given (`override`) if any, else the nearest `assets` folder above the recipe; nil when there is none.
    public static func locate(recipePath: String, override: String?) throws(Diagnostic) -> AssetFolder? {
        if let override {
            guard let real = realPath(override), isDirectory(real) else {
                throw Diagnostic("", .assetsFolder, ": '\(override)' is not a folder", file: nil, kind: .noInput)
            }
            return AssetFolder(root: real)
        }
        guard
            var folder = realPath(PathName.directory(of: recipePath))
        else { return nil }
        while true {
            let candidate = folder == "/" ? "/assets" : folder + "/assets"
            if isDirectory(candidate), let real = realPath(candidate) { return AssetFolder(root: real) }
            if folder == "/" { return nil }
            folder = PathName.folder(of: folder)
            if folder.isEmpty { return nil }
        }
    }

    /// `key` names an asset but no assets folder was given or found above the recipe.
    public static func notFound(key: String, in recipe: Recipe) -> Diagnostic {
        Diagnostic("\(key): no assets folder found above the recipe (", .setAssetsFolder, ")", at: recipe.location(of: key), kind: .noInput)
    }

    /// The absolute, link-free path of `relative`, checked to lie inside the folder and to exist.
    public func resolve(_ relative: String, key: String, in recipe: Recipe) throws(Diagnostic) -> String {
        let location = recipe.location(of: key)
        if relative.hasPrefix("/") || relative.split(separator: "/").contains("..") {
            throw Diagnostic("\(key): path '\(relative)' leaves the assets folder", at: location)
        }
        let joined = root + "/" + relative
        guard FileManager.default.fileExists(atPath: joined) || isLink(joined) else {
            let hint = nearMiss(relative).map { " (did you mean '\($0)'?)" } ?? ""
            throw Diagnostic("\(key): asset '\(relative)' not found in the assets folder \(root)\(hint)", at: location, kind: .noInput)
        }
        guard let real = Self.realPath(joined) else {
            throw Diagnostic("\(key): asset '\(relative)' is a broken link", at: location, kind: .noInput)
        }
        guard real.hasPrefix(root + "/") else {
            throw Diagnostic("\(key): path '\(relative)' leaves the assets folder (it resolves to \(real))", at: location)
        }
        return real
    }

    /// The path of an asset `relative` likely meant: each missing folder and the file name replaced
    /// by its near miss among what the folder holds (`voice/breath-in.wav` → `voice/breathe-in.wav`,
    /// `vocie/breathe-in.wav` → `voice/breathe-in.wav`), or nil when there is none. A folder of more
    /// than `maxListedEntries` entries is not searched.
    func nearMiss(_ relative: String) -> String? {
        var parts = relative.split(separator: "/").map(String.init).filter { $0 != "." }
        guard let name = parts.popLast() else { return nil }
        var folder = root
        var meant: [String] = []
        func entries(of folder: String) -> [String]? {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count <= Self.maxListedEntries else { return nil }
            return names.filter { !$0.hasPrefix(".") }.sorted()
        }
        for part in parts {
            if Self.isDirectory(folder + "/" + part) {
                meant.append(part)
                folder += "/" + part
                continue
            }
            guard let names = entries(of: folder),
                let near = Suggestions.closest(to: part, in: names.filter { Self.isDirectory(folder + "/" + $0) })
            else { return nil }
            meant.append(near)
            folder += "/" + near
        }
        guard let names = entries(of: folder) else { return nil }
        let files = names.filter { !Self.isDirectory(folder + "/" + $0) }
        // a near miss of the name, else the one file of the same name in another format (`rain.wav` → `rain.ogg`)
        func stem(_ file: String) -> Substring { file.lastIndex(of: ".").map { file[..<$0] } ?? file[...] }
        let sameStem = files.filter { stem($0) == stem(name) }
        guard let near = Suggestions.closest(to: name, in: files) ?? (sameStem.count == 1 ? sameStem.first : nil) else { return nil }
        meant.append(near)
        let suggestion = meant.joined(separator: "/")
        return suggestion == relative ? nil : suggestion
    }

    /// The most entries a folder may hold for `nearMiss` to look through it.
    static let maxListedEntries = 10_000

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    private func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }
}
