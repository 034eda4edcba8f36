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

    /// The schema files are generated: what is committed is what `schema/generate.py` writes.
    @Test(.enabled(if: Python.isAvailable, Python.missing))
    func schemasAreUpToDate() throws {
        let python = try #require(Python.executable)
        let folder = try TempFolder()
        let result = try run(python, [repositoryPath("schema/generate.py"), folder.path])
        #expect(result.status == 0, "\(result)")
        for path in [recipeSchema, cueSheetSchema] {
            let name = (path as NSString).lastPathComponent
            let fresh = try Data(contentsOf: URL(fileURLWithPath: folder.file(name)))
            let committed = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(fresh == committed, "\(name) differs from what schema/generate.py writes: run python3 schema/generate.py")
        }
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
        #expect(toneKeys.union(fileKeys) == Set(DecodeContext.cueKeys))
        #expect(fileKeys == ["file", "gain"])
        // `sidecars` is in the schema ahead of the parser; every other output key must match.
        #expect(
            try Self.propertyNames(schema, "$defs", "output").subtracting(["sidecars"])
                == Set(DecodeContext.outputKeys).subtracting(["sidecars"]))
        #expect(try Self.propertyNames(schema, "$defs", "output").contains("sidecars"))
        #expect(try Self.propertyNames(schema, "$defs", "inlinePattern") == ["name", "phases"])
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
        #expect(
            Self.enumTexts(output["sidecars"].flatMap { ($0 as? [String: Any])?["anyOf"] as? [[String: Any]] }?.first?["items"] as Any)
                == ["vtt", "chapters", "waveform"])
    }

    /// For a built-in pattern, `cues:` may name exactly its kinds plus start and end.
    @Test func builtinCueNamesMatchThePatterns() throws {
        let schema = try Self.load(recipeSchema)
        let rules = try #require(schema["allOf"] as? [[String: Any]])
        var seen: [String: Set<String>] = [:]
        for rule in rules {
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
        for name in BuiltinPatterns.names {
            let pattern = try #require(BuiltinPatterns.named(name))
            #expect(seen[name] == Set(pattern.phases.map(\.kind) + ["start", "end"]), "\(name)")
        }
    }

    /// The cue sheet schema lists exactly the keys the encoder writes, and requires all but the optional metadata.
    @Test func cueSheetKeysMatchTheEncoder() throws {
        let schema = try Self.load(cueSheetSchema)
        let written = try JSONSerialization.jsonObject(with: Data(CueSheetFixture.sheet().jsonText().utf8)) as? [String: Any]
        let sheet = try #require(written)
        func keys(_ any: Any?) -> Set<String> { Set((any as? [String: Any])?.keys.map { $0 } ?? []) }
        func first(_ any: Any?) -> Any? { (any as? [Any])?.first }
        let pairs: [(written: Set<String>, schema: [String: Any], what: String)] = [
            (keys(sheet), schema, "top level"),
            (keys(sheet["audio"]), try Self.object(schema, "properties", "audio"), "audio"),
            (keys(sheet["pattern"]), try Self.object(schema, "properties", "pattern"), "pattern"),
            (
                keys(first((sheet["pattern"] as? [String: Any])?["phases"])),
                try Self.object(schema, "properties", "pattern", "properties", "phases", "items"), "pattern.phases"
            ),
            (keys(first(sheet["sections"])), try Self.object(schema, "properties", "sections", "items"), "sections"),
            (keys(first(sheet["phases"])), try Self.object(schema, "properties", "phases", "items"), "phases"),
            (keys(first(sheet["cues"])), try Self.object(schema, "properties", "cues", "items"), "cues"),
        ]
        for pair in pairs {
            #expect(!pair.written.isEmpty, "\(pair.what)")
            #expect(Set((pair.schema["properties"] as? [String: Any] ?? [:]).keys) == pair.written, "\(pair.what)")
            // every key is required but the metadata a reader can do without (CueSheetDecoding reads them as optional)
            let optional: Set<String> = ["category", "loudness_lufs", "true_peak_dbtp"]
            #expect(Set(pair.schema["required"] as? [String] ?? []) == pair.written.subtracting(optional), "\(pair.what)")
            // version 1 may gain keys: readers ignore what they do not know
            #expect(pair.schema["additionalProperties"] as? Bool ?? true, "\(pair.what)")
        }
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
}
