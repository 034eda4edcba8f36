import AudioCore
import Testing

@testable import Recipe

/// recipe-v1.2 § Locales: `locales:`, texts per locale, `{locale}` in paths, and the renditions.
@Suite struct LocaleTests {
    /// The spec's example, with a bed and a cue file per locale and a program-free pattern.
    static let sleep = """
        id: sleep-wind-down
        locales: [en, de]
        title: { en: Sleep Wind-Down, de: Einschlafen }
        category: Sleep
        pattern:
          phases:
            - { kind: inhale, length: 4s, label: { en: Breathe in, de: Einatmen } }
            - { kind: exhale, length: 6s, label: { en: Breathe out, de: Ausatmen } }
        duration: 10m
        bed: { file: "beds/{locale}/rain.ogg" }
        cues: { inhale: { file: "cues/{locale}-in.wav" } }
        voice:
          draft_voice: { en: en-us, de: de }
          prompts:
            - { at: 3s, file: "voice/{locale}/welcome.wav", text: { en: Welcome., de: Willkommen. } }
            - { at: end - 20s, text: { en: Open your eyes., de: Öffne die Augen. } }

        """

    static let box = """
        id: box
        locales: [pt-BR, en]
        title: { pt-br: Respiração quadrada, EN: Box Breathing }
        pattern: box
        variants: { duration: [10m, 3m, 5m] }

        """

    @Test func theRecipeAsReadHoldsItsDefaultLocale() throws {
        let recipe = try load(Self.sleep)
        #expect(recipe.locales == ["en", "de"])
        #expect(recipe.locale == nil)
        #expect(recipe.session == "sleep-wind-down")
        #expect(recipe.title == "Sleep Wind-Down")
        #expect(recipe.localizedTitle == ["en": "Sleep Wind-Down", "de": "Einschlafen"])
        #expect(recipe.pattern.phases.map(\.label) == ["Breathe in", "Breathe out"])
        #expect(recipe.bed?.source == .file("beds/en/rain.ogg"))
        #expect(recipe.voice?.prompts.first?.file == "voice/en/welcome.wav")
        #expect(recipe.localizedPaths["voice.prompts.0.file"] == "voice/{locale}/welcome.wav")
        #expect(recipe.assetPaths.map(\.path) == ["beds/en/rain.ogg", "cues/en-in.wav", "voice/en/welcome.wav"])
    }

    @Test func renditionsAreResolvedPerLocale() throws {
        let renditions = try load(Self.sleep).renditions()
        #expect(renditions.map(\.id) == ["sleep-wind-down-en", "sleep-wind-down-de"])
        #expect(renditions.map(\.locale) == ["en", "de"])
        #expect(renditions.map(\.session) == ["sleep-wind-down", "sleep-wind-down"])
        #expect(renditions.map(\.variantOf) == [nil, nil])
        let de = try #require(renditions.last)
        #expect(de.title == "Einschlafen")
        #expect(de.category == "Sleep")
        #expect(de.pattern.phases.map(\.label) == ["Einatmen", "Ausatmen"])
        #expect(de.voice?.prompts.map(\.text) == ["Willkommen.", "Öffne die Augen."])
        #expect(de.voice?.draftVoice == "de")
        #expect(de.assetPaths.map(\.path) == ["beds/de/rain.ogg", "cues/de-in.wav", "voice/de/welcome.wav"])
        #expect(de.assetPaths.map(\.key) == ["bed.file", "cues.inhale.file", "voice.prompts.0.file"])
        #expect(de.locales.isEmpty && de.localizedTitle.isEmpty && de.localizedPaths.isEmpty)
        #expect(de.renditions().map(\.id) == ["sleep-wind-down-de"])
        // a text per locale is located at the rendition's own value
        #expect(de.location(of: "voice.prompts.1.text").column == 57)
        #expect(renditions[0].location(of: "voice.prompts.1.text").column == 36)
        #expect(de.location(of: "title").column == 35)
        #expect(de.location(of: "voice.draft_voice").column == 33)
        #expect(de.outputPath("out/x.flac") == "out/x-de.flac")
        #expect(renditions.first?.outputPath("x.flac") == "x-en.flac")
    }

    @Test func variantsTimesLocalesInTheSpecsOrder() throws {
        let recipe = try load(Self.box)
        // variants keep their written order; renditions go by locale, then shortest first
        #expect(recipe.variants().map(\.id) == ["box-10m", "box-3m", "box-5m"])
        let renditions = recipe.renditions()
        #expect(
            renditions.map(\.id) == ["box-3m-pt-br", "box-5m-pt-br", "box-10m-pt-br", "box-3m-en", "box-5m-en", "box-10m-en"])
        #expect(renditions.map(\.locale) == ["pt-BR", "pt-BR", "pt-BR", "en", "en", "en"])
        #expect(renditions.allSatisfy { $0.session == "box" && $0.variantOf == "box" })
        #expect(renditions.map(\.title).first == "Respiração quadrada")
        #expect(renditions.map(\.title).last == "Box Breathing")
        #expect(renditions[1].outputPath("out.flac") == "out-5m-pt-br.flac")
        #expect(
            renditions.map { $0.length } == [.duration(ns(180)), .duration(ns(300)), .duration(ns(600))]
                + [ns(180), ns(300), ns(600)].map { .duration($0) })
        #expect(recipe.renditions(in: ["EN"]).map(\.id) == ["box-3m-en", "box-5m-en", "box-10m-en"])
        #expect(recipe.renditionsInSessionOrder().map(\.id) == renditions.map(\.id))
        // without locales, renditions() keeps the written order; the session's order is by length
        let plain = try load("id: box\npattern: box\nvariants: { duration: [10m, 3m, 90s] }\n")
        #expect(plain.renditions().map(\.id) == ["box-10m", "box-3m", "box-90s"])
        #expect(plain.renditionsInSessionOrder().map(\.id) == ["box-90s", "box-3m", "box-10m"])
        #expect(recipe.locale(named: "pt-br") == "pt-BR")
        #expect(recipe.locale(named: "fr") == nil)
    }

    @Test func namingSaysTheLocaleAndTheVariant() throws {
        let diagnostic = Diagnostic("voice.prompts.0: overlaps", at: nil)
        let box = try load(Self.box).renditions()
        #expect(box[0].naming([diagnostic]).map(\.message) == ["variant 'box-3m', locale 'pt-BR': voice.prompts.0: overlaps"])
        let sleep = try load(Self.sleep).renditions()
        #expect(sleep[1].naming([diagnostic]).map(\.message) == ["locale 'de': voice.prompts.0: overlaps"])
        let plain = try load("pattern: box\nvariants: { duration: [5m] }\n").renditions()
        #expect(plain[0].naming([diagnostic]).map(\.message) == ["variant 'test-5m': voice.prompts.0: overlaps"])
    }

    /// Without `locales:`, nothing changes: renditions are the variants, canonical texts as before.
    @Test(arguments: [
        "pattern: box\nduration: 5m\ntitle: Calm\n",
        "pattern: box\nvariants: { duration: [10m, 5m] }\n",
        "pattern: box\ncycles: 4\nvoice: { prompts: [ { at: 3s, text: Hi } ] }\n",
    ])
    func withoutLocalesRenditionsAreTheVariants(yaml: String) throws {
        let recipe = try load(yaml)
        let variants = recipe.variants(), renditions = recipe.renditions()
        #expect(renditions.map(\.canonicalText) == variants.map(\.canonicalText))
        #expect(renditions.map(\.id) == variants.map(\.id))
        #expect(renditions.map(\.seedText) == variants.map(\.canonicalText))
        #expect(renditions.allSatisfy { $0.locale == nil && !$0.canonicalText.contains("locales=") })
    }

    /// Seeds do not depend on the locale; a rendition's canonical text is its own locale's only.
    @Test func seedsAreTheLocalesAndFingerprintsTheirOwn() throws {
        let renditions = try load(Self.sleep).renditions()
        #expect(renditions[0].seedText == renditions[1].seedText)
        #expect(renditions[0].canonicalText != renditions[1].canonicalText)
        #expect(renditions[1].canonicalText.contains("title=Einschlafen"))
        #expect(renditions[1].canonicalText.contains("locales=de\n"))
        #expect(!renditions[1].canonicalText.contains("Welcome"))
        // the seed is the recipe written for its default locale alone
        let english = Self.sleep
            .replacing("locales: [en, de]\n", with: "")
            .replacing("{ en: Sleep Wind-Down, de: Einschlafen }", with: "Sleep Wind-Down")
            .replacing("{ en: Breathe in, de: Einatmen }", with: "Breathe in")
            .replacing("{ en: Breathe out, de: Ausatmen }", with: "Breathe out")
            .replacing("{ en: en-us, de: de }", with: "en-us")
            .replacing("{ en: Welcome., de: Willkommen. }", with: "Welcome.")
            .replacing("{ en: Open your eyes., de: Öffne die Augen. }", with: "Open your eyes.")
            .replacing("{locale}", with: "en")
        #expect(try load(english).canonicalText == renditions[0].seedText)
        // another locale's text changes neither the seed nor this rendition's canonical text
        let changed = try load(Self.sleep.replacing("Willkommen.", with: "Hallo.")).renditions()
        #expect(changed[0].canonicalText == renditions[0].canonicalText)
        #expect(changed[0].seedText == renditions[0].seedText)
        #expect(changed[1].canonicalText != renditions[1].canonicalText)
    }

    /// The sound text: the same for renditions that differ only in what a screen or a tag reads.
    @Test func soundTextIsTheSameWhereOnlyTextsDiffer() throws {
        let texts = """
            id: calm
            locales: [en, de]
            title: { en: Calm, de: Ruhe }
            category: { en: Sleep, de: Schlaf }
            program:
              - { pattern: box, cycles: 2, label: { en: Settle, de: Ankommen } }
              - { pattern: { phases: [ { kind: inhale, length: 4s, label: { en: In, de: Ein } }, exhale: 4s ] }, cycles: 2 }
            bed: { synth: pink-noise }
            voice:
              draft_voice: { en: en-us, de: de }
              prompts:
                - { at: 3s, file: voice/welcome.wav, text: { en: Welcome., de: Willkommen. } }

            """
        let renditions = try load(texts).renditions()
        #expect(renditions[0].soundText == renditions[1].soundText)
        #expect(renditions[0].canonicalText != renditions[1].canonicalText)
        // what the mix hears differs: a clip per locale, a draft's words, a gain
        for (old, new) in [
            ("file: voice/welcome.wav", "file: \"voice/{locale}/welcome.wav\""),
            (
                "- { at: 3s, file: voice/welcome.wav, text: { en: Welcome., de: Willkommen. } }",
                "- { at: 3s, text: { en: Welcome., de: Willkommen. } }"
            ),
            ("bed: { synth: pink-noise }", "bed: { synth: pink-noise, gain: -20 dB }"),
        ] {
            let changed = try load(texts.replacing(old, with: new)).renditions()
            if new.contains("gain") {
                #expect(changed[0].soundText != renditions[0].soundText, "\(new)")
            } else {
                #expect(changed[0].soundText != changed[1].soundText, "\(new)")
            }
        }
        // another length sounds different
        let variants = try load(texts + "variants: { duration: [1m, 2m] }\n").renditions()
        #expect(Set(variants.map(\.soundText)).count == 2)
    }

    @Test func programLabelsAndBedLayersPerLocale() throws {
        let recipe = try load(
            """
            locales: [en, fr-CA]
            program:
              - { pattern: box, cycles: 2, label: { en: Settle, fr-ca: Installez-vous } }
              - { pattern: { phases: [ { kind: inhale, length: 4s, label: { en: In, FR-ca: Inspirez } }, exhale: 4s ] }, cycles: 2 }
            bed:
              - { synth: pink-noise }
              - { file: "beds/{locale}/birds-{locale}.ogg" }
            cues: { start: { file: "cues/start.wav" } }

            """)
        let fr = try #require(recipe.renditions().last)
        #expect(fr.id == "test-fr-ca")
        #expect(fr.program?.map(\.name) == ["Installez-vous", "Custom Pattern"])
        #expect(fr.program?.last?.pattern.phases.map(\.label) == ["Inspirez", "Breathe Out"])
        #expect(fr.pattern.phases.map(\.label) == ["Breathe In", "Hold", "Breathe Out", "Hold"])
        #expect(fr.assetPaths.map(\.key) == ["bed.1.file", "cues.start.file"])
        #expect(fr.assetPaths.map(\.path) == ["beds/fr-CA/birds-fr-CA.ogg", "cues/start.wav"])
        #expect(recipe.renditions().first?.program?.map(\.name) == ["Settle", "Custom Pattern"])
        #expect(recipe.program?.first?.localizedName == ["en": "Settle", "fr-CA": "Installez-vous"])
    }

    @Test func plainTextsAreEveryLocales() throws {
        let recipe = try load("locales: [en, fr]\ntitle: Calm\npattern: box\ncycles: 2\nvoice: { prompts: [ { at: 1s, text: Hi } ] }\n")
        #expect(recipe.renditions().map(\.title) == ["Calm", "Calm"])
        #expect(recipe.renditions().map { $0.voice?.prompts.first?.text } == ["Hi", "Hi"])
        // no draft_voice: each locale's tag until the draft voice's languages are known
        #expect(recipe.renditions().map { $0.voice?.draftVoice } == ["en", "fr"])
        #expect(recipe.voice?.defaultDraftVoiceLocales == ["en", "fr"])
    }

    @Test func defaultDraftVoicesFallBackToThePrimaryLanguage() throws {
        let recipe = try load(
            "locales: [pt-BR, de-AT, xx]\npattern: box\ncycles: 2\nvoice: { draft_voice: { xx: en-gb, pt-br: pt-br, de-at: de-at }, prompts: [ { at: 1s, text: Hi } ] }\n"
        )
        // all given: nothing to resolve
        #expect(try recipe.resolvingDraftVoices(languages: []).renditions().map { $0.voice?.draftVoice } == ["pt-br", "de-at", "en-gb"])

        let defaults = try load("locales: [pt-BR, de, tlh]\npattern: box\ncycles: 2\nvoice: { prompts: [ { at: 1s, text: Hi } ] }\n")
        #expect(throws: DiagnosticList.self) { try defaults.resolvingDraftVoices(languages: ["pt", "de"]) }
        do {
            _ = try defaults.resolvingDraftVoices(languages: ["pt", "de"])
        } catch {
            #expect(error.diagnostics.map(\.description).count == 1)
            #expect(error.diagnostics.first?.location?.line == 1)
            #expect(error.diagnostics.first?.location?.column == 22)
            #expect(error.diagnostics.first?.message.hasPrefix("locales.2: the draft voice (espeak-ng) has no voice for 'tlh'") == true)
        }
        let resolved = try defaults.resolvingDraftVoices(languages: ["pt", "de", "tlh"])
        #expect(resolved.renditions().map { $0.voice?.draftVoice } == ["pt", "de", "tlh"])
        #expect(resolved.voice?.draftVoice == "pt")
        // without drafts, nothing is asked of the draft voice
        let recorded = try load("locales: [tlh]\npattern: box\ncycles: 2\nvoice: { prompts: [ { at: 1s, file: a.wav, text: Hi } ] }\n")
        #expect(try recorded.resolvingDraftVoices(languages: []).voice == recorded.voice)
    }

    /// The errors a mapping of texts per locale can have, each located.
    @Test(arguments: [
        ("locales: [en, de]\ntitle: { en: Calm }\npattern: box\ncycles: 2\n", "2:8", "title: expected a text for every locale, missing 'de'"),
        (
            "locales: [en, de]\ntitle: { en: Calm, de: Ruhe, dee: x }\npattern: box\ncycles: 2\n", "2:30",
            "title: unknown locale 'dee' (did you mean 'de'?)"
        ),
        ("locales: [en, de]\ntitle: { en: Calm, dee: Ruhe }\npattern: box\ncycles: 2\n", "2:20", "title: unknown locale 'dee' (did you mean 'de'?)"),
        (
            "locales: [en, de]\ntitle: { en: Calm, fr: Calme, de: x }\npattern: box\ncycles: 2\n", "2:20",
            "title: unknown locale 'fr' (the locales: en, de)"
        ),
        ("title: { en: Calm, de: Ruhe }\npattern: box\ncycles: 2\n", "1:8", "title: a text per locale needs 'locales:' at the top"),
        ("locales: [en, de]\ntitle: { en: Calm, DE: Ruhe, de: x }\npattern: box\ncycles: 2\n", "2:30", "title: locale 'de' given twice"),
        ("locales: [en, de]\ntitle: { en: Calm, de: [x] }\npattern: box\ncycles: 2\n", "2:24", "title.de: expected text, found a list"),
        (
            "locales: [en, de]\npattern: { phases: [ { kind: inhale, length: 4s, label: { en: In } } ] }\ncycles: 2\n", "2:57",
            "pattern.phases.0.label: expected a text for every locale, missing 'de'"
        ),
        (
            "locales: [en, de]\nprogram: [ { pattern: box, cycles: 2, label: { en: A, de: B, fr: C } } ]\n", "2:62",
            "program.0.label: unknown locale 'fr'"
        ),
        (
            "locales: [en, de]\npattern: box\ncycles: 2\nvoice: { prompts: [ { at: 1s, text: { de: Hallo } } ] }\n", "4:37",
            "voice.prompts.0.text: expected a text for every locale, missing 'en'"
        ),
        (
            "pattern: box\ncycles: 2\nvoice: { draft_voice: { en: en-us }, prompts: [ { at: 1s, text: Hi } ] }\n", "3:23",
            "voice.draft_voice: a text per locale needs 'locales:'"
        ),
        (
            "locales: [en, de]\npattern: box\ncycles: 2\nvoice: { draft_voice: { en: en-us, de: 'd e' }, prompts: [ { at: 1s, text: Hi } ] }\n",
            "4:40", "voice.draft_voice.de: expected a language like en-us"
        ),
    ])
    func mappingErrorsAreLocated(yaml: String, at place: String, message: String) {
        let found = problems(yaml)
        #expect(found.count == 1, "\(found)")
        #expect(found.first.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == place, "\(found)")
        #expect(found.first?.message.hasPrefix(message) == true, "\(found)")
    }

    @Test(arguments: [
        ("pattern: box\ncycles: 2\nbed: { file: 'beds/{locale}.ogg' }\n", "3:14", "bed.file: '{locale}' in a path needs 'locales:' at the top"),
        (
            "locales: [en]\npattern: box\ncycles: 2\nbed: { file: 'beds/{lang}.ogg' }\n", "4:14",
            "bed.file: expected a path whose only placeholder is '{locale}', found '{lang}'"
        ),
        ("locales: [en]\npattern: box\ncycles: 2\nbed: { file: 'beds/{locales}.ogg' }\n", "4:14", "did you mean '{locale}'?"),
        (
            "locales: [en]\npattern: box\ncycles: 2\ncues: { inhale: { file: 'a/{locale}}.wav' } }\n", "4:25",
            "cues.inhale.file: expected a path whose only placeholder"
        ),
        (
            "locales: [en]\npattern: box\ncycles: 2\nbed: [ { file: '/{locale}.ogg' } ]\n", "4:16",
            "bed.0.file: path '/en.ogg' leaves the assets folder"
        ),
        (
            "locales: [en, en-GB, EN]\npattern: box\ncycles: 2\n", "1:22",
            "locales.2: expected a locale not listed before, found 'EN' (the same as 'en' at line 1"
        ),
        (
            "locales: [en, 'en US']\npattern: box\ncycles: 2\n", "1:15",
            "locales.1: expected a BCP 47 language tag like en, de, pt-BR or zh-Hans, found 'en US' (subtags are letters and digits"
        ),
        (
            "locales: [en_US]\npattern: box\ncycles: 2\n", "1:11",
            "locales.0: expected a BCP 47 language tag like en, de, pt-BR or zh-Hans, found 'en_US'"
        ),
        ("locales: []\npattern: box\ncycles: 2\n", "1:10", "locales: expected a list of language tags"),
        ("locales: en\npattern: box\ncycles: 2\n", "1:10", "locales: expected a list of language tags"),
    ])
    func localeAndPathErrorsAreLocated(yaml: String, at place: String, message: String) {
        let found = problems(yaml)
        #expect(found.count == 1, "\(found)")
        #expect(found.first.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == place, "\(found)")
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    @Test func limits() {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let many = (0..<51).map { "l" + String(letters[$0 / 26]) + String(letters[$0 % 26]) }
        let tooMany = problems("locales: [\(many.joined(separator: ", "))]\npattern: box\ncycles: 2\n")
        #expect(tooMany.map(\.message) == ["locales: expected at most 50 locales, found a list (51 tags)"])

        let tags = letters.map { "l" + String($0) }
        let lengths = (1...6).map { "\($0)m" }
        let renditions = problems(
            "locales: [\(tags.joined(separator: ", "))]\npattern: box\nvariants: { duration: [\(lengths.joined(separator: ", "))] }\n")
        #expect(
            renditions.map(\.message) == [
                "locales: expected at most 150 renditions (variants × locales), found 6 lengths × 26 locales = 156; split the recipe"
            ])
        #expect(renditions.first?.location?.line == 1)

        let id = String(repeating: "a", count: 93)
        let long = problems("id: \(id)\nlocales: [en, pt-BR]\npattern: box\nvariants: { duration: [5m] }\n")
        #expect(long.map(\.message).count == 1)
        #expect(long.first?.message.hasPrefix("locales.1: expected a locale that keeps the rendition's id valid, found 'pt-BR' ('aaaa") == true)
        #expect(long.first?.message.hasSuffix("breaks the id rule (\(Recipe.idRule)); shorten the recipe's id)") == true)
        #expect(long.first?.location?.column == 15)
    }

    @Test(
        arguments: [
            ("en", nil), ("de", nil), ("pt-BR", nil), ("zh-Hans", nil), ("zh-Hant-TW", nil), ("es-419", nil), ("sl-rozaj-biske", nil),
            ("de-CH-1996", nil), ("en-US-u-ca-gregory", nil), ("en-x-private", nil), ("zh-yue-HK", nil), ("EN-us", nil),
            ("e", "the language 'e' is not 2 to 8 letters"), ("english-usa", "'usa' is not a script"), ("en_US", "subtags are letters and digits"),
            ("en--US", "an empty subtag"), ("en-", "an empty subtag"), ("x-klingon", "a tag starts with a language"),
            ("de-1996-1996", "the variant '1996' twice"), ("en-u", "the extension 'u-' has no subtags"), ("en-x", "'x-' has no private use subtags"),
            ("12", "the language '12'"), ("en-US-US", "'us' is not a script"), ("en-abcdefghi", "the subtag 'abcdefghi' is longer than 8 characters"),
            ("de-Latn-Latn", "'latn' is not a script"),
        ] as [(String, String?)])
    func languageTags(tag: String, problem: String?) {
        let found = LanguageTag.problem(tag)
        if let problem {
            #expect(found?.hasPrefix(problem) == true, "\(tag): \(found ?? "valid")")
        } else {
            #expect(found == nil, "\(tag): \(found ?? "")")
        }
    }

    @Test func primaryLanguage() {
        #expect(LanguageTag.primaryLanguage("pt-BR") == "pt")
        #expect(LanguageTag.primaryLanguage("DE") == "de")
    }
}
