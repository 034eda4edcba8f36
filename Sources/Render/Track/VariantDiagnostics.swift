import AudioCore
import Recipe

/// The problems of a recipe's variants, reported as one recipe's: what `RenderJob` and a catalog print.
public enum VariantDiagnostics {
    /// A recipe's renditions' problems as one list: a problem every rendition has (a missing
    /// asset, a bad cue) once, as written; one every failing rendition has at the same place and key
    /// with figures of its own (too much cue sound for its length) once, as the first has it, saying
    /// the others do too; one only some have (a length too short, a clip missing in one locale)
    /// named by rendition. `renditions`: how many the recipe makes (the failing ones and the others).
    public static func merged(_ failures: [(variant: Recipe, diagnostics: [Diagnostic])], of renditions: Int) -> [Diagnostic] {
        // a problem is the recipe's, written once, only when every rendition has it
        let shared =
            failures.count < renditions
            ? [] : failures.dropFirst().reduce(Set(failures.first?.diagnostics ?? [])) { $0.intersection($1.diagnostics) }
        var result = (failures.first?.diagnostics ?? []).filter { shared.contains($0) }
        // the place and key of a diagnostic: `cues.inhale` at line 4, column 11
        func place(_ d: Diagnostic) -> String {
            "\(d.location?.line ?? 0):\(d.location?.column ?? 0):" + (d.message.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "")
        }
        var alike: Set<String> = []
        if failures.count > 1, let first = failures.first {
            let places = failures.dropFirst().reduce(Set(first.diagnostics.filter { !shared.contains($0) }.map(place))) { common, failure in
                common.intersection(failure.diagnostics.filter { !shared.contains($0) }.map(place))
            }
            // one per place, or the place is not one problem
            alike = places.filter { p in failures.allSatisfy { $0.diagnostics.filter { place($0) == p }.count == 1 } }
            let others = failures.dropFirst().map { "'\($0.variant.id)'" }.joined(separator: ", ")
            for diagnostic in first.variant.naming(first.diagnostics.filter { !shared.contains($0) && alike.contains(place($0)) }) {
                var once = diagnostic
                let noun = failures.contains { $0.variant.locale != nil } ? "rendition" : "variant"
                once.message += "; \(noun)\(failures.count > 2 ? "s" : "") \(others) too"
                result.append(once)
            }
        }
        for (variant, diagnostics) in failures {
            result += variant.naming(diagnostics.filter { !shared.contains($0) && !alike.contains(place($0)) })
        }
        return result
    }
}
