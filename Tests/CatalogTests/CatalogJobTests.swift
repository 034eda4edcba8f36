import AudioCore
import Catalog
import TestKit
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

/// `CatalogJob.survey`: what a catalog's check found, before anything renders, as data.
@Suite struct CatalogSurveyTests {
    /// Two variants sharing one draft prompt (the recipe's warning, and its error when drafts are refused).
    static let recipe = """
        id: calm
        variants: { duration: [5s, 9s] }
        pattern:
          name: Even
          phases: [{ inhale: 1s }, { exhale: 1s }]
        voice:
          prompts:
            - { at: 1s, text: "Breathe in" }
        output: { format: wav, loudness: off }
        """

    @Test(
        "each variant warns of its own drafts, named, and shares the recipe's other warnings; refusing drafts turns the drafts' warnings into one refusal"
    )
    func warningsAndDrafts() throws {
        let folder = try TempFolder("catalog-survey")
        _ = try folder.write(Self.recipe, to: "recipes/calm.yml")
        let job = CatalogJob(inputs: [folder.file("recipes")], output: folder.file("dist"))
        let survey = job.survey(checkOnly: true)
        #expect(survey.plan.tracks.count == 2 && !survey.foundNothing, "\(survey.plan.failures)")
        // recipe-v1.2 § Drafts made visible: every rendition warns of its drafts
        #expect(
            survey.warnings.map { String($0.message.prefix(30)) } == ["variant 'calm-5s': voice.promp", "variant 'calm-9s': voice.promp"],
            "\(survey.warnings)")
        #expect(survey.warnings.allSatisfy { $0.setting?.words == .draftsCanBeRefused }, "\(survey.warnings)")
        #expect(survey.draftsRefused.isEmpty && !survey.keepsEveryTrack)

        var refusing = job
        refusing.refusingDrafts = true
        let refused = refusing.survey(checkOnly: true)
        #expect(refused.warnings.isEmpty, "\(refused.warnings)")
        #expect(refused.draftsRefused.count == 1 && refused.draftRecipeFiles == 1)
        #expect(refused.draftsRefused.first?.setting?.words == .refusingDrafts)
        #expect(job.check(survey).failure == nil && job.check(survey).goodTracks == 2 && job.check(survey).warned == 1)
    }

    @Test("a folder without recipes is found empty")
    func nothing() throws {
        let folder = try TempFolder("catalog-survey-empty")
        _ = try folder.folder("recipes")
        #expect(CatalogJob(inputs: [folder.file("recipes")], output: folder.file("dist")).survey(checkOnly: true).foundNothing)
    }
}
