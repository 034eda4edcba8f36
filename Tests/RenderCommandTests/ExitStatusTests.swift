import AudioCore
import RenderCommand
import Testing

/// The kinds of failure AudioCore reports, as `render`'s exit statuses (sysexits(3)).
@Test func exitStatusesAreSysexits() {
    let statuses = FailureKind.allCases.map { ExitStatus.of($0) }
    #expect(statuses == [64, 65, 66, 70, 73, 74])
    #expect(ExitStatus.of(nil) == 0 && ExitStatus.success == 0)
}
