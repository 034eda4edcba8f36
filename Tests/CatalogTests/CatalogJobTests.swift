import AudioCore
import Catalog
import Testing

/// Which failure a catalog run ends with (its exit status): no input beats the rest, else the highest
/// kind, whatever order the recipes failed in.
@Suite struct RunFailureTests {
    static func diagnostic(_ kind: FailureKind) -> Diagnostic { Diagnostic("x", file: "a.yml", kind: kind) }

    @Test(
        "a scan's problems and the recipes' failure give one kind",
        arguments: [
            ([FailureKind](), FailureKind?.none, FailureKind?.none),
            ([], .data, .data),
            ([], .cannotCreate, .cannotCreate),
            ([.ioError], nil, .ioError),
            ([.noInput], .data, .noInput),
            ([.data], .noInput, .noInput),
            ([.data], .cannotCreate, .cannotCreate),
            ([.ioError], .data, .ioError),
        ])
    func scanAndRecipes(_ scan: [FailureKind], _ recipes: FailureKind?, _ expected: FailureKind?) {
        let failed = recipes.map { [(file: "a.yml", diagnostics: [Self.diagnostic($0)])] } ?? []
        #expect(CatalogJob.failure(scan: scan.map(Self.diagnostic), failed: failed) == expected)
    }

    @Test(
        "the recipes' failures give the kind DiagnosticList gives all their diagnostics, in either order",
        arguments: [
            ([[FailureKind.data]], FailureKind.data),
            ([[.data], [.cannotCreate]], .cannotCreate),
            ([[.data, .noInput]], .noInput),
            ([[.noInput], [.cannotCreate]], .noInput),
            ([[.noInput], [.software]], .noInput),
            ([[.ioError], [.data]], .ioError),
        ])
    func recipes(_ kinds: [[FailureKind]], _ expected: FailureKind) {
        let failures = kinds.enumerated().map { (file: "r\($0.offset).yml", diagnostics: $0.element.map(Self.diagnostic)) }
        #expect(CatalogJob.failure(scan: [], failed: failures) == expected)
        #expect(CatalogJob.failure(scan: [], failed: failures.reversed()) == expected)
        #expect(DiagnosticList(failures.flatMap(\.diagnostics)).kind == expected)
    }

    @Test func noFailureIsNoKind() {
        #expect(CatalogJob.failure(scan: [], failed: []) == nil)
    }
}
