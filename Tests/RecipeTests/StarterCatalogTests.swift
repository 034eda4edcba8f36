import AudioCore
import Foundation
import Testing

@testable import Recipe

/// Every recipe of the project's starter catalog (`recipes/`) must load.
@Suite struct StarterCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../recipes").standardized

    static var recipeFiles: [String] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
    }

    @Test func catalogIsThere() {
        #expect(Self.recipeFiles.count >= 5)
    }

    @Test(arguments: recipeFiles)
    func loads(_ path: String) throws {
        let url = Self.root.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let id = url.deletingPathExtension().lastPathComponent
        do {
            let recipe = try RecipeLoader.parse(bytes, file: "recipes/" + path, defaultID: id)
            #expect(!recipe.pattern.phases.isEmpty)
            #expect(!recipe.id.isEmpty)
        } catch {
            Issue.record("\(error)")
        }
    }
}
