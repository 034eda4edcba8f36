import AudioCore
import Foundation
import Recipe

/// The folder recipe paths are relative to, and the guard that keeps them inside it.
///
/// recipe-v1: `--assets DIR`, or the first folder named `assets` found going up
/// from the recipe's own folder. A path that leaves it — `..`, absolute, or a
/// link whose target is outside — is an error.
public struct AssetFolder: Sendable {
    /// The folder as resolved on disk (no links), for containment checks.
    public let root: String

    public init(root: String) { self.root = root }

    /// `--assets` if given, else the nearest `assets` folder above the recipe; nil when there is none.
    public static func locate(recipePath: String, override: String?) throws(Diagnostic) -> AssetFolder? {
        if let override {
            guard let real = realPath(override), isDirectory(real) else {
                throw Diagnostic("--assets: '\(override)' is not a folder", file: nil, kind: .noInput)
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

    /// The absolute, link-free path of `relative`, checked to lie inside the folder and to exist.
    public func resolve(_ relative: String, key: String, in recipe: Recipe) throws(Diagnostic) -> String {
        let location = recipe.location(of: key)
        if relative.hasPrefix("/") || relative.split(separator: "/").contains("..") {
            throw Diagnostic("\(key): path '\(relative)' leaves the assets folder", at: location)
        }
        let joined = root + "/" + relative
        guard FileManager.default.fileExists(atPath: joined) || isLink(joined) else {
            throw Diagnostic("\(key): asset '\(relative)' not found in the assets folder \(root)", at: location, kind: .noInput)
        }
        guard let real = Self.realPath(joined) else {
            throw Diagnostic("\(key): asset '\(relative)' is a broken link", at: location, kind: .noInput)
        }
        guard real.hasPrefix(root + "/") else {
            throw Diagnostic("\(key): path '\(relative)' leaves the assets folder (it resolves to \(real))", at: location)
        }
        return real
    }

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
