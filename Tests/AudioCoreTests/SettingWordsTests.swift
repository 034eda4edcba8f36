import AudioCore
import Testing

@Suite("A setting named in a message: in words, spelled by a front end")
struct SettingWordsTests {
    @Test("the library's text holds the setting's words; a spelling replaces exactly those")
    func spelled() {
        let d = Diagnostic("", .assetsFolder, ": 'the assets folder' is not a folder", file: "x", kind: .noInput)
        #expect(d.description == "x: error: the assets folder: 'the assets folder' is not a folder")
        #expect(d.setting == SettingMention(words: .assetsFolder, occurrence: 0))
        #expect(d.text { _ in "[A]" } == "x: error: [A]: 'the assets folder' is not a folder")
        let later = Diagnostic("'the output path' and ", .outputPath, "", at: SourceLocation(file: "r.yml", line: 2, column: 3))
        #expect(later.setting?.occurrence == 1)
        #expect(later.message { _ in "-o" } == "'the output path' and -o")
    }

    @Test("a message naming no setting is printed as it is")
    func plain() {
        let d = Diagnostic("the output path", file: nil, kind: .data)
        #expect(d.setting == nil && d.text { _ in "-o" } == "error: the output path")
    }
}
