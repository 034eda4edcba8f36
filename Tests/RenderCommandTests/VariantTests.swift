import AudioCore
import CadenceCues
import Foundation
import Recipe
import Render
import TestKit
import Testing

/// `variants: { duration: [...] }` (issue 15): one recipe, a track per length, each with its own
/// id, cue sheet, manifest entry, fingerprint and seed.
@Suite struct VariantTests {
    static let rate = VariantRecipe.rate

    @Test("render RECIPE -o x.wav writes x-<length>.wav per variant, each with its own id, length and cue sheet")
    func singleRender() throws {
        let folder = try TempFolder("variants")
        let recipe = try folder.write(VariantRecipe.text(variants: "[5s, 9s, 1m]"), to: "calm.yml")
        let result = try runRender([recipe, "-o", folder.file("out/session.wav")])
        #expect(result.status == 0, "\(result.stderr)")
        for (suffix, seconds) in [("5s", 5), ("9s", 9), ("1m", 60)] {
            let audio = folder.file("out/session-\(suffix).wav")
            let sheet = try readCueSheet(cueSheetPath(for: audio))
            #expect(sheet.id == "calm-\(suffix)")
            #expect(sheet.audio.file == "session-\(suffix).wav")
            #expect(sheet.audio.frames == Int64(seconds * Self.rate))
            #expect(try readAudio(audio).frames == seconds * Self.rate)
            // the inhale cue stops 2 s before each variant's end: onsets at 1, 3, … below length - 2
            let inhales = sheet.cues.filter { $0.name == "inhale" }.map { Int($0.frame) / Self.rate }
            #expect(inhales == Array(stride(from: 1, to: seconds - 2, by: 2)))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/session.wav")))
        // each variant has its own seed: the noise differs from the first sample on
        let five = try readAudio(folder.file("out/session-5s.wav")), nine = try readAudio(folder.file("out/session-9s.wav"))
        #expect(five.channel(0, 0..<4800) != nine.channel(0, 0..<4800))
    }

    @Test("a catalog lists each variant with its own cue sheet and fingerprint; changing one length re-renders only its track")
    func catalog() throws {
        let folder = try TempFolder("variants-catalog")
        let recipes = try folder.folder("recipes")
        let path = (recipes as NSString).appendingPathComponent("calm.yml")
        try VariantRecipe.text(variants: "[5s, 7s]").write(toFile: path, atomically: true, encoding: .utf8)
        let dist = folder.file("dist")
        let first = try runRender([recipes, "-o", dist, "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try readJSONObject((dist as NSString).appendingPathComponent("catalog.json"))
        let tracks = try #require(manifest["tracks"] as? [[String: Any]])
        #expect(tracks.compactMap { $0["id"] as? String }.sorted() == ["calm-5s", "calm-7s"])
        #expect(Set(tracks.compactMap { $0["fingerprint"] as? String }).count == 2)
        #expect(tracks.compactMap { $0["frames"] as? Int }.sorted() == [5 * Self.rate, 7 * Self.rate])
        let fiveSheet = (dist as NSString).appendingPathComponent("calm-5s.cues.json")
        let before = try sha256(ofFile: fiveSheet)
        let modified = try FileManager.default.attributesOfItem(atPath: fiveSheet)[.modificationDate] as? Date
        // 7s → 8s: calm-7s goes, calm-8s comes, calm-5s is up to date and left as it is
        try VariantRecipe.text(variants: "[5s, 8s]").write(toFile: path, atomically: true, encoding: .utf8)
        let second = try runRender([recipes, "-o", dist, "-q"])
        #expect(second.status == 0, "\(second.stderr)")
        let after = try readJSONObject((dist as NSString).appendingPathComponent("catalog.json"))
        let ids = try #require(after["tracks"] as? [[String: Any]]).compactMap { $0["id"] as? String }.sorted()
        #expect(ids == ["calm-5s", "calm-8s"])
        #expect(try sha256(ofFile: fiveSheet) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: fiveSheet)[.modificationDate] as? Date == modified)
        #expect(!FileManager.default.fileExists(atPath: (dist as NSString).appendingPathComponent("calm-7s.wav")))
    }

    @Test("a variant too short for its parts fails the recipe at its value in the list, naming the variant, and renders none")
    func badVariant() throws {
        let folder = try TempFolder("variants-bad")
        let text = VariantRecipe.text(variants: "[5s, 1.5s]")
        let recipe = try folder.write(text, to: "calm.yml")
        let result = try runRender([recipe, "-o", folder.file("out/calm.wav")])
        #expect(result.status == 65)
        let at = try #require(position(of: "1.5s", in: text))
        #expect(result.stderr.contains("calm.yml:\(at.line):\(at.column): error: variants.duration.1: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/calm-5s.wav")))
        let check = try runRender(["--check", recipe])
        #expect(check.status == 65)
        #expect(check.stderr.contains("variants.duration.1"))
    }

    @Test("the variant ids: whole minutes in minutes, other lengths as written back")
    func ids() {
        let cases: [(Int64, String)] = [(300, "box-5m"), (60, "box-1m"), (90, "box-90s"), (3600, "box-1h"), (5400, "box-1h30m"), (150, "box-2m30s")]
        for (seconds, id) in cases { #expect(Recipe.variantID("box", ExactSeconds(nanoseconds: seconds * 1_000_000_000)) == id) }
        #expect(Recipe.variantPath("out/x.flac", baseID: "box", variantID: "box-5m") == "out/x-5m.flac")
        #expect(Recipe.variantPath("a.b/x", baseID: "box", variantID: "box-5m") == "a.b/x-5m")
    }

    /// Issue 30 item 18: a problem every variant has is reported once, also when its figures differ
    /// by length (too much cue sound: 2400 s allowed at 5m, 4800 s at 10m), and a fade that fits no
    /// variant once, at the shortest.
    @Test("a problem every variant has is one error, however its figures differ by length")
    func sharedProblemOnce() throws {
        let folder = try TempFolder("variants-once")
        for (name, body, words) in [
            (
                "cue-sound", "cues:\n  inhale: { tone: 440 Hz, length: 60s }\n",
                ["variant 'cue-sound-5m': cues.inhale: expected at most 8 times", "; variants 'cue-sound-10m', 'cue-sound-20m' too"]
            ),
            ("fade", "bed: { synth: pink-noise, fade_in: 4000 }\n", ["fit in the track (5m, the shortest variant)", "a bare number is seconds"]),
        ] {
            let recipe = try folder.write(
                "id: \(name)\npattern: { phases: [ { inhale: 1s } ] }\nvariants: { duration: [5m, 10m, 20m] }\n" + body, to: "recipes/\(name).yml")
            let checked = try runRender(["--check", recipe])
            #expect(checked.status == 65, "\(checked)")
            let errors = checked.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
            #expect(errors.count == 1, "\(checked.stderr)")
            for word in words { #expect(errors.first?.contains(word) == true, "'\(word)' not in \(checked.stderr)") }
        }
    }
}
