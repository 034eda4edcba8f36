import AudioCore
import CadenceCues
import Foundation
import Testing

@testable import Recipe

/// The schema files themselves: valid draft 2020-12, described for editors, and in step with
/// the parser's own key lists and names, so that a key added to the renderer fails here until
/// the schema learns it.
@Suite struct SchemaFileTests {
    /// A schema file as a JSON object.
    static func load(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFailure("\(path) is not a JSON object")
        }
        return object
    }

    /// The object at a path of keys.
    static func object(_ root: [String: Any], _ keys: String...) throws -> [String: Any] {
        var node: Any = root
        for key in keys {
            guard let next = (node as? [String: Any])?[key] else { throw TestFailure("no '\(key)' in \(keys.joined(separator: "."))") }
            node = next
        }
        guard let object = node as? [String: Any] else { throw TestFailure("\(keys.joined(separator: ".")) is not an object") }
        return object
    }

    /// The property names of the schema object at a path.
    static func propertyNames(_ root: [String: Any], _ keys: String...) throws -> Set<String> {
        var node: Any = root
        for key in keys {
            guard let next = (node as? [String: Any])?[key] else { throw TestFailure("no '\(key)' in \(keys.joined(separator: "."))") }
            node = next
        }
        guard let properties = (node as? [String: Any])?["properties"] as? [String: Any] else {
            throw TestFailure("\(keys.joined(separator: ".")) has no properties")
        }
        return Set(properties.keys)
    }

    /// Every enum member, as text, found anywhere under a schema object (through anyOf branches).
    static func enumTexts(_ node: Any) -> [String] {
        guard let object = node as? [String: Any] else { return [] }
        var out: [String] = (object["enum"] as? [Any] ?? []).map { "\($0)" }
        for key in ["anyOf", "oneOf"] {
            for branch in object[key] as? [Any] ?? [] { out += enumTexts(branch) }
        }
        return out
    }

    @Test(.enabled(if: Python.isAvailable, Python.missing))
    func schemasAreValidDraft202012() throws {
        let python = try #require(Python.executable)
        let check = """
            import json, sys
            from jsonschema import Draft202012Validator
            for path in sys.argv[1:]:
                Draft202012Validator.check_schema(json.load(open(path)))
                print(path, "ok")
            """
        let result = try run(python, ["-c", check, recipeSchema, cueSheetSchema])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 2, "\(result)")
    }

    /// The examples and defaults the recipe schema shows (the key table's, read as YAML) are valid
    /// values of their properties: a table row whose example its type refuses fails here.
    @Test(.enabled(if: Python.isAvailable, Python.missing))
    func examplesAndDefaultsAreValid() throws {
        let python = try #require(Python.executable)
        let check = """
            import json, sys
            from jsonschema import Draft202012Validator
            root = json.load(open(sys.argv[1]))
            count = 0
            def walk(node, path):
                global count
                if isinstance(node, dict):
                    for name, prop in (node.get("properties") or {}).items():
                        if not isinstance(prop, dict): continue
                        values = list(prop.get("examples", [])) + ([prop["default"]] if "default" in prop else [])
                        schema = {k: v for k, v in prop.items() if k not in ("examples", "default")}
                        schema["$defs"] = root["$defs"]
                        for value in values:
                            count += 1
                            for error in list(Draft202012Validator(schema).iter_errors(value))[:1]:
                                print(f"{path}/properties/{name}: {value!r}: {error.message}")
                    for key, value in node.items():
                        if key not in ("if", "then", "not"): walk(value, path + "/" + key)
                elif isinstance(node, list):
                    for i, value in enumerate(node): walk(value, f"{path}/{i}")
            walk(root, "#")
            print(count, "checked")
            """
        let result = try run(python, ["-c", check, recipeSchema])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "invalid examples or defaults:\n\(result.stdout)")
        let checked = Int(lines.last?.split(separator: " ").first ?? "") ?? 0
        #expect(checked > 150, "\(result.stdout)")
    }

    @Test(arguments: [recipeSchema, cueSheetSchema])
    func identifiesItself(_ path: String) throws {
        let schema = try Self.load(path)
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let id = try #require(schema["$id"] as? String)
        #expect(id == "https://cadence.invalid/schema/" + (path as NSString).lastPathComponent)
        #expect((schema["title"] as? String)?.isEmpty == false)
        #expect((schema["description"] as? String)?.isEmpty == false)
    }

    /// Editors show `description` on hover: every property of every object needs one.
    @Test(arguments: [recipeSchema, cueSheetSchema])
    func everyPropertyIsDescribed(_ path: String) throws {
        var undescribed: [String] = []
        var count = 0
        func walk(_ node: Any, _ at: String) {
            if let array = node as? [Any] {
                for (index, item) in array.enumerated() { walk(item, "\(at)/\(index)") }
                return
            }
            guard let object = node as? [String: Any] else { return }
            if let properties = object["properties"] as? [String: Any] {
                for (name, value) in properties {
                    count += 1
                    let text = (value as? [String: Any])?["description"] as? String
                    if text?.isEmpty ?? true { undescribed.append("\(at)/properties/\(name)") }
                }
            }
            // `if`, `then` and `not` only constrain properties described elsewhere
            for (key, value) in object where !["if", "then", "not"].contains(key) { walk(value, "\(at)/\(key)") }
        }
        walk(try Self.load(path), "#")
        #expect(count > 20)
        #expect(undescribed.isEmpty, "no description: \(undescribed.sorted())")
    }

    @Test func recipeKeysMatchTheParser() throws {
        let schema = try Self.load(recipeSchema)
        #expect(try Self.propertyNames(schema) == Set(RecipeDecoder.topKeys))
        #expect(try Self.propertyNames(schema, "$defs", "bed") == Set(DecodeContext.bedKeys))
        let toneKeys = try Self.propertyNames(schema, "$defs", "toneCue")
        let fileKeys = try Self.propertyNames(schema, "$defs", "fileCue")
        let presetKeys = try Self.propertyNames(schema, "$defs", "presetCue")
        #expect(toneKeys.union(fileKeys).union(presetKeys) == Set(DecodeContext.cueKeys).subtracting(DecodeContext.tickKeys))
        // the tick cue: each mapping of a cue, plus 'every' and 'on'
        let tickKeys =
            try (Self.load(recipeSchema)["$defs"] as? [String: Any]).flatMap { ($0["tickCue"] as? [String: Any])?["anyOf"] as? [[String: Any]] }
            .map { $0.compactMap { ($0["properties"] as? [String: Any]).map { Set($0.keys) } } } ?? []
        #expect(tickKeys == [toneKeys, presetKeys, fileKeys].map { $0.union(DecodeContext.tickKeys) })
        #expect(fileKeys == Set(["file", "gain"] + DecodeContext.limitKeys))
        #expect(presetKeys == toneKeys.subtracting(["tone"]).union(["preset"]))
        #expect(try Self.propertyNames(schema, "properties", "variants") == Set(DecodeContext.variantKeys))
        #expect(try Self.propertyNames(schema, "$defs", "output") == Set(DecodeContext.outputKeys))
        #expect(try Self.propertyNames(schema, "$defs", "voice") == Set(DecodeContext.voiceKeys))
        #expect(try Self.propertyNames(schema, "$defs", "prompt") == Set(DecodeContext.promptKeys))
        #expect(try Self.propertyNames(schema, "$defs", "inlinePattern") == ["name", "phases"])
        // programs and ramps (recipe-v1.1 § Programs, § Ramps): a segment's keys, a ramp's keys, at most maxSegments segments
        #expect(try Self.propertyNames(schema, "$defs", "segment") == Set(DecodeContext.segmentKeys))
        #expect(try Self.propertyNames(schema, "$defs", "ramp") == Set(DecodeContext.rampKeys))
        let program = try Self.object(schema, "properties", "program")
        #expect(program["maxItems"] as? Int == RecipeLimits.maxSegments)
        #expect(program["minItems"] as? Int == 1)
        #expect((program["items"] as? [String: Any])?["$ref"] as? String == "#/$defs/segment")
        // the top-level ramp and a segment's are the same mapping
        #expect(try Self.object(schema, "properties", "ramp")["$ref"] as? String == "#/$defs/ramp")
        #expect(try Self.object(schema, "$defs", "segment", "properties", "ramp")["$ref"] as? String == "#/$defs/ramp")
        #expect(Self.enumTexts(try Self.object(schema, "$defs", "segment", "properties", "end_on")) == EndOn.allCases.map(\.rawValue))
        // a segment has exactly one of cycles and duration; the recipe exactly one of pattern and program
        let lengths = try #require(try Self.object(schema, "$defs", "segment")["oneOf"] as? [[String: Any]])
        #expect(lengths.compactMap { $0["required"] as? [String] } == [["cycles"], ["duration"]])
        #expect(try Self.object(schema, "$defs", "segment")["required"] as? [String] == ["pattern"])
        let sources = try #require(schema["oneOf"] as? [[String: Any]])
        #expect(sources.compactMap { $0["required"] as? [String] } == [["pattern"], ["program"]])
        #expect(schema["required"] == nil)
        let phaseForms = try #require(try Self.object(schema, "$defs", "phase")["oneOf"] as? [[String: Any]])
        let longForm = try #require(phaseForms.first { $0["properties"] != nil })
        #expect(Set((longForm["properties"] as? [String: Any] ?? [:]).keys) == ["kind", "length", "label"])
    }

    @Test func recipeNamesMatchTheParser() throws {
        let schema = try Self.load(recipeSchema)
        let defs = try Self.object(schema, "$defs")
        #expect(Self.enumTexts(defs["builtinPattern"] as Any) == BuiltinPatterns.names)
        #expect(Self.enumTexts(defs["cue"] as Any) == ["none"] + CuePresets.names)
        #expect(
            Self.enumTexts(try Self.object(schema, "$defs", "toneCue", "properties", "envelope"))
                == Envelope.allCases.map(\.rawValue))
        let output = try Self.object(schema, "$defs", "output", "properties")
        #expect(Self.enumTexts(output["format"] as Any) == AudioFormat.allCases.map(\.rawValue))
        #expect(Set(Self.enumTexts(output["bit_depth"] as Any)) == Set(BitDepth.allCases.map(\.rawValue)))
        #expect(Self.enumTexts(try Self.object(schema, "$defs", "bed", "properties", "synth")) == DecodeContext.synthNames)
        #expect(Self.enumTexts(try Self.object(schema, "properties", "end_on")) == EndOn.allCases.map(\.rawValue))
        let sidecars = try #require(output["sidecars"].flatMap { ($0 as? [String: Any])?["anyOf"] as? [[String: Any]] })
        #expect(Self.enumTexts(sidecars.first?["items"] as Any) == OutputSettings.sidecarNames)
        #expect(OutputSettings.sidecarNames == ["vtt", "chapters", "waveform", "captions"])
        // the comma-separated form names the same sidecars
        let commaList = try #require(sidecars.last?["pattern"] as? String)
        #expect(commaList == "^,*(?: *(?:" + OutputSettings.sidecarNames.joined(separator: "|") + ") *(?:,+|$))*$")
        // a prompt's anchors, as the parser lists them in its messages, are the words the pattern takes
        let promptTime = try #require((try Self.object(schema, "$defs", "promptTime")["anyOf"] as? [[String: Any]])?.last?["pattern"] as? String)
        for anchor in Units.promptAnchors.map({ $0.replacingOccurrences(of: " N", with: "") }) {
            let anyCase = anchor.map { "[\($0)\($0.uppercased())]" }.joined()
            #expect(promptTime.contains(anyCase), "promptTime has no anchor '\(anchor)'")
        }
    }

    /// For a built-in pattern, `cues:` may name exactly its kinds plus start and end, and a prompt's
    /// `on:` exactly its kinds.
    @Test func builtinCueNamesMatchThePatterns() throws {
        let schema = try Self.load(recipeSchema)
        let rules = try #require(schema["allOf"] as? [[String: Any]])
        var seen: [String: Set<String>] = [:]
        var onKinds: [String: [String]] = [:]
        for rule in rules {
            if let name = ((rule["if"] as? [String: Any])?["properties"] as? [String: Any]).flatMap({ $0["pattern"] as? [String: Any] })?["const"]
                as? String,
                let then = (rule["then"] as? [String: Any])?["properties"] as? [String: Any],
                let on = try? Self.object(then, "voice", "properties", "prompts", "items", "properties", "on")
            {
                onKinds[name] = on["enum"] as? [String]
            }
            guard
                let name = ((rule["if"] as? [String: Any])?["properties"] as? [String: Any]).flatMap({ $0["pattern"] as? [String: Any] })?["const"]
                    as? String,
                let names =
                    ((((rule["then"] as? [String: Any])?["properties"] as? [String: Any])?["cues"] as? [String: Any])?["propertyNames"]
                    as? [String: Any])?["enum"] as? [String]
            else { continue }
            seen[name] = Set(names)
        }
        #expect(Set(seen.keys) == Set(BuiltinPatterns.names))
        #expect(Set(onKinds.keys) == Set(BuiltinPatterns.names))
        for name in BuiltinPatterns.names {
            let pattern = try #require(BuiltinPatterns.named(name))
            #expect(
                seen[name] == Set(pattern.phases.map(\.kind) + DecodeContext.boundaryCues + DecodeContext.limitKeys + [DecodeContext.tickCue]),
                "\(name)")
            var kinds: [String] = []
            for phase in pattern.phases where !kinds.contains(phase.kind) { kinds.append(phase.kind) }
            #expect(onKinds[name] == kinds, "\(name)")
        }
    }

    /// The cue sheet schema lists exactly the keys the encoder writes (a cues-v1.2 sheet writes them
    /// all), and requires all but those the reader can do without: the optional metadata and the
    /// cues-v1.1 and cues-v1.2 keys, so a v1 sheet stays valid.
    @Test func cueSheetKeysMatchTheEncoder() throws {
        let schema = try Self.load(cueSheetSchema)
        // the cues-v1.2 fixture: the guided (cues-v1.1) sheet with a session, a locale and breath guidance
        let v1 = try CueSheetFixture.object(), guided = try CueSheetFixture.object(CueSheetFixture.localizedSheet())
        func keys(_ any: Any?) -> Set<String> { Set((any as? [String: Any])?.keys.map { $0 } ?? []) }
        /// The keys of every item of an array, joined (`phase` is on some prompts only, `segment` on practice sections only).
        func itemKeys(_ any: Any?) -> Set<String> { (any as? [Any] ?? []).reduce(into: Set<String>()) { $0.formUnion(keys($1)) } }
        func patternPhases(_ sheet: [String: Any]) -> Any? { (sheet["pattern"] as? [String: Any])?["phases"] }
        let pairs: [(v1: Set<String>, guided: Set<String>, schema: [String: Any], optional: Set<String>, what: String)] = [
            (keys(v1), keys(guided), schema, ["category", "voice", "session", "locale", "guide"], "top level"),
            (keys(v1["audio"]), keys(guided["audio"]), try Self.object(schema, "properties", "audio"), ["loudness_lufs", "true_peak_dbtp"], "audio"),
            (keys(v1["pattern"]), keys(guided["pattern"]), try Self.object(schema, "properties", "pattern"), [], "pattern"),
            (
                itemKeys(patternPhases(v1)), itemKeys(patternPhases(guided)),
                try Self.object(schema, "properties", "pattern", "properties", "phases", "items"), [], "pattern.phases"
            ),
            (
                itemKeys(v1["sections"]), itemKeys(guided["sections"]), try Self.object(schema, "properties", "sections", "items"),
                ["segment", "name", "ramp"], "sections"
            ),
            (
                itemKeys(v1["phases"]), itemKeys(guided["phases"]), try Self.object(schema, "properties", "phases", "items"),
                ["segment", "length", "guide"], "phases"
            ),
            (itemKeys(v1["cues"]), itemKeys(guided["cues"]), try Self.object(schema, "properties", "cues", "items"), [], "cues"),
            (
                itemKeys(v1["voice"]), itemKeys(guided["voice"]), try Self.object(schema, "properties", "voice", "items"),
                ["text", "file", "phase"], "voice"
            ),
        ]
        for pair in pairs {
            #expect(!pair.guided.isEmpty, "\(pair.what)")
            #expect(pair.v1.isSubset(of: pair.guided), "\(pair.what)")
            #expect(Set((pair.schema["properties"] as? [String: Any] ?? [:]).keys) == pair.guided, "\(pair.what)")
            let required = Set(pair.schema["required"] as? [String] ?? [])
            #expect(required == pair.guided.subtracting(pair.optional), "\(pair.what)")
            // a v1 sheet (no voice) has every key the schema requires
            if pair.what != "voice" { #expect(required.isSubset(of: pair.v1), "\(pair.what)") }
            // version 1 may gain keys: readers ignore what they do not know
            #expect(pair.schema["additionalProperties"] as? Bool ?? true, "\(pair.what)")
        }
        // the guided fixture writes every key the encoder knows (CueSheetKeys.swift), so a key added there fails here
        #expect(keys(guided) == Set(CueSheet.Key.allCases.map(\.rawValue)))
        #expect(keys(guided["audio"]) == Set(CueSheet.Audio.Key.allCases.map(\.rawValue)))
        #expect(itemKeys(guided["sections"]) == Set(CueSheet.Section.Key.allCases.map(\.rawValue)))
        #expect(itemKeys(guided["phases"]) == Set(CueSheet.Phase.Key.allCases.map(\.rawValue)))
        #expect(itemKeys(guided["cues"]) == Set(CueSheet.Cue.Key.allCases.map(\.rawValue)))
        #expect(itemKeys(guided["voice"]) == Set(CueSheet.VoicePrompt.Key.allCases.map(\.rawValue)))
        // a ramped section's ramp: every key it writes, all required
        let rampSchema = try Self.object(schema, "properties", "sections", "items", "properties", "ramp")
        let rampKeys = itemKeys((guided["sections"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["ramp"] })
        #expect(rampKeys == Set(CueSheet.Ramp.Key.allCases.map(\.rawValue)))
        #expect(Set((rampSchema["properties"] as? [String: Any] ?? [:]).keys) == rampKeys)
        #expect(Set(rampSchema["required"] as? [String] ?? []) == rampKeys)
        // a program has one practice section per segment, beside intro and outro
        #expect(try Self.object(schema, "properties", "sections")["maxItems"] as? Int == RecipeLimits.maxSegments + 2)
    }

    /// What the schema requires, the reader needs: the guided sheet without one required key is
    /// refused by CueSheet.decode, and without one optional key it is read.
    @Test func requiredKeysAreWhatTheReaderNeeds() throws {
        let schema = try Self.load(cueSheetSchema)
        // where each object's keys are taken away: one object of each kind (the practice section, a prompt on a phase)
        let places: [(path: [Any], schema: [String: Any])] = [
            ([], schema),
            (["audio"], try Self.object(schema, "properties", "audio")),
            (["pattern"], try Self.object(schema, "properties", "pattern")),
            (["sections", 1], try Self.object(schema, "properties", "sections", "items")),
            (["sections", 1, "ramp"], try Self.object(schema, "properties", "sections", "items", "properties", "ramp")),
            (["phases", 2], try Self.object(schema, "properties", "phases", "items")),
            (["cues", 1], try Self.object(schema, "properties", "cues", "items")),
            (["voice", 1], try Self.object(schema, "properties", "voice", "items")),
        ]
        var checked = 0
        for place in places {
            let required = Set(place.schema["required"] as? [String] ?? [])
            let properties = (place.schema["properties"] as? [String: Any] ?? [:]).keys.sorted()
            for key in properties {
                var object = try CueSheetFixture.guidedObject()
                setJSON(&object, place.path + [key], nil)
                let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                let where_ = (place.path.map { "\($0)" } + [key]).joined(separator: ".")
                if required.contains(key) {
                    #expect(throws: CueSheetError.self, "\(where_) is required, but the reader does without it") { try CueSheet.decode(from: json) }
                } else {
                    #expect(throws: Never.self, "\(where_) is optional, but the reader needs it") { try CueSheet.decode(from: json) }
                }
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    // MARK: - The validator script

    @Test(.enabled(if: Python.isAvailable, Python.missing))
    func scriptUsageErrors() throws {
        let python = try #require(Python.executable)
        let none = try run(python, [validatorScript])
        #expect(none.status == 2, "\(none)")
        #expect(none.stderr.contains("usage"), "\(none)")
        let onlySchema = try run(python, [validatorScript, recipeSchema])
        #expect(onlySchema.status == 2, "\(onlySchema)")

        let folder = try TempFolder()
        let recipe = try folder.write("pattern: box\ncycles: 2\n", to: "ok.yml")
        let missing = try run(python, [validatorScript, recipeSchema, folder.file("missing.yml")])
        #expect(missing.status == 2, "\(missing)")
        let brokenSchema = try folder.write(#"{ "$schema": "https://json-schema.org/draft/2020-12/schema", "type": 5 }"#, to: "bad.schema.json")
        let broken = try run(python, [validatorScript, brokenSchema, recipe])
        #expect(broken.status == 2, "\(broken)")
        let good = try run(python, [validatorScript, recipeSchema, recipe])
        #expect(good.status == 0, "\(good)")
        #expect(good.stdout == "\(recipe): ok\n")
    }

    /// YAML read as the renderer reads it: `05:00` is text, `off` is text, `yes` is not a boolean,
    /// and only plain decimals are numbers.
    @Test(.enabled(if: Python.isAvailable, Python.missing))
    func scriptReadsScalarsLikeTheRenderer() throws {
        let python = try #require(Python.executable)
        let folder = try TempFolder()
        let yaml = try folder.write(
            """
            a: 05:00
            b: 1:02:03.5
            c: off
            d: yes
            e: 010
            f: 1e3
            g: .inf
            h: true
            i: -14
            j: .5
            k: ~
            l: 2024-01-01
            m: 0x10
            n: True
            o: 016
            p: -0
            q: 5.
            r: -0.0
            """, to: "scalars.yml")
        let dump = """
            import importlib.util, json, sys
            spec = importlib.util.spec_from_file_location("validate", sys.argv[1])
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            print(json.dumps(module.load_yaml(open(sys.argv[2]).read()), sort_keys=True))
            """
        let result = try run(python, ["-c", dump, validatorScript, yaml])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"a": "05:00", "b": "1:02:03.5", "c": "off", "d": "yes", "e": "010", "f": "1e3", "g": ".inf", "h": true, "i": -14, "j": ".5", "k": null, "l": "2024-01-01", "m": "0x10", "n": "True", "o": "016", "p": "-0", "q": 5.0, "r": "-0.0"}"#
        )
    }

    /// What the parser rejects in the YAML itself, the script rejects too.
    static let yamlProblems: [(name: String, yaml: String)] = [
        ("duplicate key", "pattern: box\ncycles: 2\ncycles: 3\n"),
        ("merge key", "pattern: box\ncycles: 2\nbed:\n  <<: { synth: pink-noise }\n"),
        ("null key", "pattern: box\ncycles: 2\n~: 1\n"),
        ("two documents", "pattern: box\ncycles: 2\n---\npattern: box\n"),
        ("empty", "# nothing\n"),
        ("control", "pattern: box\ncycles: 2\n"),
    ]
    static let yamlBatch = Result { try BatchValidation(yamlProblems.map { ($0.name, $0.yaml) }, suffix: ".yml", against: recipeSchema) }

    @Test(.enabled(if: Python.isAvailable, Python.missing), arguments: yamlProblems.map(\.name))
    func scriptRejectsWhatTheParserRejectsInYAML(_ name: String) throws {
        let yaml = try #require(Self.yamlProblems.first { $0.name == name }).yaml
        let schema = try Self.yamlBatch.get()
        let parsed = Result { () throws(DiagnosticList) in try RecipeLoader.parse(Array(yaml.utf8), file: "recipe.yml", defaultID: "recipe") }
        let lines = schema.lines(name)
        if name == "control" {
            #expect(lines == ["ok"], "\(lines)")
            #expect(throws: Never.self) { try parsed.get() }
        } else {
            #expect(!lines.isEmpty && lines != ["ok"], "\(lines)")
            #expect(throws: DiagnosticList.self) { try parsed.get() }
        }
    }

    /// Issue 30 item 9: a rate one place offers and another refuses (7350 Hz for AAC) is one list in
    /// `RecipeLimits`, which the schema's per-format rule and docs/recipes.md's format table repeat.
    @Test("the schema and docs/recipes.md offer each fixed-rate format exactly RecipeLimits' rates", arguments: ["m4a", "opus", "mp3"])
    func fixedRatesMatchTheLimits(format: String) throws {
        let rates = try #require(AudioFormat(rawValue: format).flatMap(RecipeLimits.fixedSampleRates(of:)))
        let schema = try Self.load(recipeSchema)
        let rules = try Self.object(schema, "$defs", "output")["allOf"] as? [[String: Any]] ?? []
        let rule = try #require(
            rules.first {
                ((($0["if"] as? [String: Any])?["properties"] as? [String: Any])?["format"] as? [String: Any])?["const"] as? String == format
            })
        let offered = Self.enumTexts(try Self.object(rule, "then", "properties", "sample_rate"))
        #expect(offered == rates.map(String.init), "the schema offers \(offered) for \(format)")
        let docs = try String(contentsOfFile: repositoryPath("docs/recipes.md"), encoding: .utf8)
        let row = try #require(docs.split(separator: "\n").first { $0.hasPrefix("| `\(format)`") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let listed = cells[3].replacingOccurrences(of: " Hz", with: "").split(separator: ", ").map { $0.replacingOccurrences(of: ",", with: "") }
        #expect(listed == rates.map(String.init), "docs/recipes.md lists \(listed) for \(format)")
    }
}
