import CadenceCues
import Foundation
import TestKit
import Testing

/// cues-v1.2's `session` and `locale` in a cue sheet: written only when set, and then with `"version": 1.2`.
@Suite struct CueSheetSessionTests {
    /// The box fixture as the German rendition of session `box-breathing-fixture`, in its 5-minute variant.
    static func localized() throws -> CueSheet {
        var sheet = try Fixture.boxSheet()
        (sheet.id, sheet.session, sheet.locale) = ("box-breathing-fixture-5m-de", "box-breathing-fixture", "de")
        return sheet
    }

    @Test func sessionAndLocaleAreWrittenAfterTheIDAndMakeTheSheet12() throws {
        let text = try Self.localized().jsonText()
        let expectedHead = """
            {
              "format": "session-cues",
              "version": 1.2,
              "id": "box-breathing-fixture-5m-de",
              "session": "box-breathing-fixture",
              "locale": "de",
              "title": "Box Breathing",
            """
        #expect(text.hasPrefix(expectedHead), "\(text.prefix(300))")
        // the rest is the box sheet's, byte for byte
        let rest = try #require(Fixture.box.range(of: "\n  \"title\""))
        #expect(text.hasSuffix(Fixture.box[rest.lowerBound...]))
    }

    @Test func aLocalizedSheetReadsBackToTheSameSheetAndBytes() throws {
        let sheet = try Self.localized()
        let decoded = try CueSheet.decode(from: sheet.jsonText())
        #expect(decoded.session == "box-breathing-fixture" && decoded.locale == "de" && decoded.minorVersion == 2)
        #expect(decoded.jsonText() == sheet.jsonText())
        var expected = sheet
        expected.minorVersion = 2
        #expect(decoded == expected)
    }

    /// The version is a function of the keys present: 1.2 only with session or locale; 1.1 with a cues-v1.1 key; else 1.
    @Test func theVersionFollowsTheKeysPresent() throws {
        let box = try Fixture.boxSheet()
        #expect(box.session == nil && box.locale == nil && box.keysMinorVersion == 0 && box.writtenMinorVersion == 0)
        #expect(box.jsonText() == Fixture.box && !box.jsonText().contains("\"session\"") && !box.jsonText().contains("\"locale\""))
        var voiced = box
        voiced.voice = []
        #expect(voiced.keysMinorVersion == 1 && voiced.jsonText().contains(#""version": 1.1,"#))
        var localized = voiced
        (localized.id, localized.session, localized.locale) = ("box-breathing-fixture-de", "box-breathing-fixture", "de")
        #expect(localized.minorVersion == 0 && localized.keysMinorVersion == 2 && localized.jsonText().contains(#""version": 1.2,"#))
        // either key alone needs 1.2 (validate() refuses one without the other, but the rule is per key)
        for set in [{ (s: inout CueSheet) in s.session = "box" }, { (s: inout CueSheet) in s.locale = "de" }] {
            var one = box
            set(&one)
            #expect(one.keysMinorVersion == 2 && one.jsonText().contains(#""version": 1.2,"#))
        }
        // a sheet read as 1.2 without the keys this reader knows (a later key, say) stays 1.2
        let later = try Fixture.edit(Fixture.box, [(#""version": 1,"#, #""version": 1.2,"#)])
        #expect(try CueSheet.decode(from: later).jsonText() == later)
        // the initializer takes them too
        let made = CueSheet(
            id: "a-pt-br", session: "a", locale: "pt-BR", title: box.title, category: box.category, audio: box.audio, pattern: box.pattern,
            sections: box.sections, phases: box.phases, cues: box.cues)
        #expect(made.writtenMinorVersion == 2 && made.session == "a" && made.locale == "pt-BR")
    }

    /// Every rendered sheet kept in the fuzz corpus (written by earlier renders) re-encodes byte for byte.
    @Test func renderedSheetsReEncodeByteIdentically() throws {
        let folder = repositoryRoot + "/Fuzz/Corpus/cues"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("render-") && $0.hasSuffix(".cues.json") }
        #expect(names.count >= 5)
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            #expect(try CueSheet.decode(from: text).jsonText() == text, "\(name)")
        }
    }

    @Test(arguments: [
        (#""locale": "de","#, "", "session: is given without locale; a rendition of a recipe with locales has both"),
        (#""session": "box-breathing-fixture","#, "", "locale: is given without session; a rendition of a recipe with locales has both"),
        (#""session": "box-breathing-fixture","#, #""session": "","#, #"session: expected the recipe's id, found """#),
        (#""session": "box-breathing-fixture","#, #""session": 5,"#, "session: expected a string or null, found 5"),
        (#""locale": "de","#, #""locale": "de_DE","#, #"locale: expected a BCP 47 language tag (en, de, pt-BR), found "de_DE""#),
        (#""locale": "de","#, #""locale": ["de"],"#, "locale: expected a string or null, found an array"),
        (
            #""locale": "de","#, #""locale": "fr","#,
            #"id: is "box-breathing-fixture-5m-de", but a rendition of session "box-breathing-fixture" in locale "fr" is "box-breathing-fixture-fr" (or has a variant's suffix before "-fr")"#
        ),
        (
            #""session": "box-breathing-fixture","#, #""session": "box","#,
            #"id: is "box-breathing-fixture-5m-de", but a rendition of session "box" in locale "de" is "box-de" (or has a variant's suffix before "-de")"#
        ),
    ])
    func refusesABrokenSessionOrLocaleAtItsKey(_ of: String, _ with: String, _ message: String) throws {
        let text = try Fixture.edit(try Self.localized().jsonText(), [(of, with)])
        #expect(Fixture.decodeError(text)?.description == message)
    }

    /// The id rule: the session, an optional variant suffix, the locale in lower case.
    @Test(arguments: [
        ("box-pt-br", "box", "pt-BR", true), ("box-5m-pt-br", "box", "pt-BR", true), ("box-pt-BR", "box", "pt-BR", false),
        ("box--pt-br", "box", "pt-BR", false), ("boxpt-br", "box", "pt-BR", false), ("box-5m-de", "box", "pt-BR", false),
        ("other-de", "box", "de", false), ("box-de", "box", "de", true), ("box-1h30m-de", "box", "de", true),
        ("box-a-b-de", "box", "de", false),
    ])
    func theIDIsTheSessionsWithTheLocale(_ id: String, _ session: String, _ locale: String, _ valid: Bool) throws {
        var sheet = try Fixture.boxSheet()
        (sheet.id, sheet.session, sheet.locale) = (id, session, locale)
        #expect(((try? sheet.validate()) != nil) == valid)
    }
}
