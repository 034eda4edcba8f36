import Foundation
import Recipe
import Schema
import TestKit
import Testing

/// The committed files written from the key table (and the JSON Schemas, `Sources/Schema`, and the output-format table): stale copies fail, and
/// `CADENCE_RECORD_GENERATED=1 swift test --filter GeneratedFiles` rewrites them.
@Suite struct GeneratedFilesTests {
    /// Every generated file: (path, generator). Add a file here to keep it generated.
    static let files: [GeneratedFile] =
        [
            .blocks(
                "docs/recipes.md",
                RecipeKeys.referenceTables + [("output formats", { @Sendable in FormatReference.markdownLines.joined(separator: "\n") + "\n" })]),
            .blocks(
                "Fuzz/recipe.dict",
                [
                    (
                        "recipe keys",
                        { @Sendable in RecipeKeys.fuzzDictionaryWords().map { RecipeKeys.dictionaryEntry($0) }.joined(separator: "\n") + "\n" }
                    )
                ]),
        ] + SchemaFiles.all.map { file in .whole(file.path) { file.text } } + starterSeeds()

    /// `Fuzz/Corpus/recipe/starter-NAME.yml`: a copy of each recipe of `recipes/`; a seed whose recipe
    /// is gone must go too.
    static func starterSeeds() -> [GeneratedFile] {
        let fileManager = FileManager.default
        let recipes = (fileManager.enumerator(atPath: repositoryRoot + "/recipes")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yml") }.sorted()
        var seeds: [GeneratedFile] = recipes.map { recipe in
            let name = "Fuzz/Corpus/recipe/starter-" + (recipe as NSString).lastPathComponent
            return .whole(name) { try String(contentsOfFile: repositoryRoot + "/recipes/" + recipe, encoding: .utf8) }
        }
        let wanted = Set(seeds.map(\.path))
        let present = (try? fileManager.contentsOfDirectory(atPath: repositoryRoot + "/Fuzz/Corpus/recipe")) ?? []
        for name in present.sorted() where name.hasPrefix("starter-") && !wanted.contains("Fuzz/Corpus/recipe/" + name) {
            seeds.append(GeneratedFile("Fuzz/Corpus/recipe/" + name) { _ in nil })
        }
        return seeds
    }

    @Test func starterSeedsAreOnePerRecipe() {
        let recipes = (FileManager.default.enumerator(atPath: repositoryRoot + "/recipes")?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yml") }.map { ($0 as NSString).lastPathComponent }
        #expect(recipes.count >= 10)
        #expect(Set(recipes).count == recipes.count, "two recipes of one name in recipes/: their seeds would collide")
    }

    @Test func generatedFilesAreFresh() throws {
        let stale = try GeneratedFiles.stale(Self.files)
        if GeneratedFiles.isRecording {
            print("rewrote \(stale.count) generated files: \(stale.joined(separator: ", "))")
            return
        }
        #expect(stale.isEmpty, "stale generated files: \(stale.joined(separator: ", ")); regenerate with \(GeneratedFiles.howToRecord)")
    }
}
