import AudioCore
import RenderCommand
import TestKit
import Testing

/// The kinds of failure AudioCore reports, as `render`'s exit statuses (sysexits(3)).
@Test func exitStatusesAreSysexits() {
    let statuses = FailureKind.allCases.map { ExitStatus.of($0) }
    #expect(statuses == [64, 64, 65, 66, 70, 73, 74])
    #expect(ExitStatus.of(nil) == 0 && ExitStatus.success == 0)
}

/// The bad-input corpus's recipe errors are data errors (RecipeTests checks their kind in process):
/// each row's exit status is the one `render` gives a data error.
@Test func badInputRecipeErrorsExitAsDataErrors() throws {
    let rows = try BadInputCorpus.expectations().filter { $0.stage == .recipe }
    #expect(!rows.isEmpty)
    for row in rows { #expect(row.exit == ExitStatus.of(.data), "\(row.file): exit \(row.exit)") }
}
