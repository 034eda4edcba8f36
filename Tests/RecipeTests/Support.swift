import AudioCore

@testable import Recipe

/// The file name every test recipe is reported under.
let testFile = "recipes/test.yml"

/// Parses YAML text as a recipe named `test`.
func load(_ yaml: String, defaultID: String = "test") throws(DiagnosticList) -> Recipe {
    try RecipeLoader.parse(Array(yaml.utf8), file: testFile, defaultID: defaultID)
}

/// The diagnostics a recipe fails with; empty when it loads.
func problems(_ bytes: [UInt8], defaultID: String = "test") -> [Diagnostic] {
    do {
        _ = try RecipeLoader.parse(bytes, file: testFile, defaultID: defaultID)
        return []
    } catch {
        return error.diagnostics
    }
}

func problems(_ yaml: String, defaultID: String = "test") -> [Diagnostic] {
    problems(Array(yaml.utf8), defaultID: defaultID)
}

/// Seconds with a decimal point, as exact nanoseconds: `s("5.5")`.
func ns(_ seconds: Int64, _ nanos: Int64 = 0) -> ExactSeconds {
    ExactSeconds(nanoseconds: seconds * 1_000_000_000 + nanos)
}
