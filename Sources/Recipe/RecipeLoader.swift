import AudioCore

/// Reads recipe files (recipe-v1): YAML text in, a validated `Recipe` out, or every problem found.
public enum RecipeLoader {
    /// Parses and validates a recipe.
    ///
    /// `file` is the path as shown in diagnostics; `defaultID` is the file name
    /// without extension, used when the recipe has no `id:`. Collects every
    /// problem it can before throwing, so an author fixes them all in one go;
    /// YAML syntax and limit errors stop at the first, since nothing after them
    /// can be trusted.
    public static func parse(_ bytes: [UInt8], file: String, defaultID: String) throws(DiagnosticList) -> Recipe {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard bytes.count <= RecipeLimits.maxBytes else {
            throw DiagnosticList([sizeDiagnostic(size: "\(bytes.count) bytes", at: start)])
        }
        let document: YAMLDocument
        do {
            document = try YAMLReader.read(bytes, file: file)
        } catch {
            throw DiagnosticList([error])
        }
        return try RecipeDecoder.decode(document, file: file, defaultID: defaultID).get()
    }
}
