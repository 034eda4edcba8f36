import AudioCore
import Testing

@Suite("Failure kinds: the most specific failure wins")
struct FailureKindTests {
    static func list(_ kinds: [FailureKind]) -> DiagnosticList {
        DiagnosticList(kinds.map { Diagnostic("x", file: "f", kind: $0) })
    }

    @Test func precedenceIsTheDeclarationOrder() {
        #expect(FailureKind.allCases == [.usage, .setting, .data, .noInput, .software, .cannotCreate, .ioError])
        #expect(FailureKind.allCases.sorted() == FailureKind.allCases)
    }

    @Test func noInputBeatsTheRestElseTheHighest() {
        #expect(Self.list([]).kind == .data)
        #expect(Self.list([.usage]).kind == .usage)
        #expect(Self.list([.data, .usage]).kind == .data)
        #expect(Self.list([.data, .noInput]).kind == .noInput)
        #expect(Self.list([.ioError, .noInput, .cannotCreate]).kind == .noInput)
        #expect(Self.list([.data, .cannotCreate, .software]).kind == .cannotCreate)
        #expect(Self.list([.ioError, .cannotCreate]).kind == .ioError)
    }
}
