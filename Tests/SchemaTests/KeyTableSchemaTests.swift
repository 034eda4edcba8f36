import Recipe
import TestKit
import Testing

/// Every example and default value the key table gives (`RecipeKeys`) is a recipe the schema and
/// the parser both accept: the table, the schema and the decoders describe the same keys.
@Suite(.enabled(if: Python.isAvailable, Python.missing))
struct KeyTableSchemaTests {
    static let samples: [(name: String, text: String)] = RecipeKeys.all.flatMap { row in
        (row.examples + (row.defaultValue.map { [$0] } ?? [])).enumerated().map { index, value in
            ("\(row.path)#\(index)", KeySample.recipe(row.path, value))
        }
    }
    static let batch = Result { try BatchValidation(samples, suffix: ".yml", against: recipeSchema) }

    @Test(arguments: samples.map(\.name))
    func exampleIsValid(_ name: String) throws {
        let sample = try #require(Self.samples.first { $0.name == name })
        let lines = try Self.batch.get().lines(name)
        #expect(lines == ["ok"], "schema said \(lines) for\n\(sample.text)")
        if case .failure(let problems) = parse(sample.text) { Issue.record("the parser rejected it: \(problems)") }
    }
}
