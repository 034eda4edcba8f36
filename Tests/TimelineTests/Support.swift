import AudioCore
import Recipe
import TestKit

@testable import Timeline

/// A suite whose recipes are written as bodies under one `id:` and `title:` head: reading
/// and laying them out, and finding where in the text an error should point.
protocol RecipeBodies {
    /// The lines before every body (`id: p\ntitle: P\n`).
    static var head: String { get }
    /// The recipe's file name (its id is the name without the extension).
    static var file: String { get }
}

extension RecipeBodies {
    static func load(_ body: String) throws -> Recipe {
        try RecipeLoader.parse(Array((head + body).utf8), file: file, defaultID: String(file.prefix { $0 != "." }))
    }

    /// Every diagnostic reading or laying out `body` gives; empty when it lays out.
    static func failures(_ body: String) -> [Diagnostic] {
        do {
            _ = try Timeline(recipe: load(body))
            return []
        } catch let error as DiagnosticList {
            return error.diagnostics
        } catch {
            return [Diagnostic("\(error)", at: nil)]
        }
    }

    /// Line and column (from 1) of the `occurrence`th `needle` in the text `load` reads; (-1, -1) when it is not there.
    static func position(of needle: String, in body: String, occurrence: Int = 1) -> (line: Int, column: Int) {
        TestKit.position(of: needle, in: head + body, occurrence: occurrence) ?? (-1, -1)
    }
}
