import Catalog
import CatalogManifest
import Foundation
import Recipe
import Testing

/// A manifest as `render recipes/ -o dist/ --bundle-budget 80MB` writes one, byte for byte: one
/// bundled track and one on demand; `bundle.bytes` is the bundled one's bytes only.
let deliveryManifest = """
    {
      "format": "cadence-catalog",
      "version": 1,
      "bundle": {
        "bytes": 123456,
        "budget": 80000000
      },
      "sessions": [
        {
          "id": "alpha",
          "title": "Alpha",
          "category": "Focus",
          "premium": false,
          "sort_order": 10,
          "tracks": ["alpha"]
        },
        {
          "id": "bravo",
          "title": "Bravo",
          "category": "Sleep",
          "premium": true,
          "sort_order": 20,
          "tracks": ["bravo"]
        }
      ],
      "tracks": [
        {
          "id": "alpha",
          "title": "Alpha",
          "category": "Focus",
          "duration": 4.0,
          "file": "alpha.flac",
          "cues": "alpha.cues.json",
          "sidecars": ["alpha.svg"],
          "premium": false,
          "sort_order": 10,
          "session": "alpha",
          "locale": null,
          "variant": null,
          "drafts": 0,
          "delivery": "bundled",
          "frames": 192000,
          "sample_rate": 48000,
          "sha256": "d21e606139e1dba6bd3a90ce5446641e512a792835ccbcf9119762290320af8f",
          "bytes": 123456,
          "loudness_lufs": -16.0,
          "true_peak_dbtp": -1.32,
          "fingerprint": "bc4decdf1b52c7429d4dbd8f2dd621050093eb691194b0c6f8346093fc463a8c"
        },
        {
          "id": "bravo",
          "title": "Bravo",
          "category": "Sleep",
          "duration": 6.0,
          "file": "bravo.flac",
          "cues": "bravo.cues.json",
          "sidecars": ["bravo.svg"],
          "premium": true,
          "sort_order": 20,
          "session": "bravo",
          "locale": null,
          "variant": null,
          "drafts": 0,
          "delivery": "on-demand",
          "frames": 288000,
          "sample_rate": 48000,
          "sha256": "5f2b0c3e0d2a4e6b8c1d3f5a7b9c0e2d4f6a8b0c1e3d5f7a9b2c4e6d8f0a1b3c",
          "bytes": 654321,
          "loudness_lufs": -16.0,
          "true_peak_dbtp": -1.05,
          "fingerprint": "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
        }
      ]
    }

    """

/// The diagnostics of decoding `text` as `d.json`, one line each; empty when it decodes.
private func deliveryErrors(_ text: String) -> [String] {
    do {
        _ = try Manifest.decode(Array(text.utf8), file: "d.json")
        return []
    } catch {
        return error.diagnostics.map(\.description)
    }
}

/// The 1-based line and column right after the first `": ` of `mark`, which must occur in `text` exactly once.
private func valuePlace(_ mark: String, in text: String) -> (line: Int, column: Int)? {
    guard let range = text.range(of: mark), text.range(of: mark, range: range.upperBound..<text.endIndex) == nil,
        let colon = mark.range(of: "\": ")
    else { return nil }
    let value = text.index(range.lowerBound, offsetBy: mark.distance(from: mark.startIndex, to: colon.upperBound))
    let before = text[..<value]
    let line = before.filter { $0 == "\n" }.count + 1
    let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    return (line, text.distance(from: lineStart, to: value) + 1)
}

/// One change to `deliveryManifest` and the one error it must give, at the value that follows `mark`.
struct BadDelivery: Sendable, CustomTestStringConvertible {
    let label: String
    let old: String
    let new: String
    let path: String
    /// Text found once in the changed document, from the key whose value the error points at.
    let mark: String
    let says: String

    var testDescription: String { label }

    static let all: [BadDelivery] = [
        BadDelivery(
            label: "delivery 'ondemand'", old: "\"delivery\": \"on-demand\"", new: "\"delivery\": \"ondemand\"", path: "tracks[1].delivery",
            mark: "\"delivery\": \"ondemand\"", says: "expected 'bundled' or 'on-demand', found 'ondemand'"),
        BadDelivery(
            label: "delivery in capitals", old: "\"delivery\": \"bundled\"", new: "\"delivery\": \"Bundled\"", path: "tracks[0].delivery",
            mark: "\"delivery\": \"Bundled\"", says: "expected 'bundled' or 'on-demand', found 'Bundled'"),
        BadDelivery(
            label: "delivery a boolean", old: "\"delivery\": \"bundled\"", new: "\"delivery\": true", path: "tracks[0].delivery",
            mark: "\"delivery\": true", says: "expected 'bundled' or 'on-demand', found true"),
        BadDelivery(
            label: "delivery null", old: "\"delivery\": \"bundled\"", new: "\"delivery\": null", path: "tracks[0].delivery",
            mark: "\"delivery\": null", says: "expected 'bundled' or 'on-demand', found null"),
        BadDelivery(
            label: "bundle.bytes counting the on-demand track", old: "\"bytes\": 123456,\n    \"budget\"", new: "\"bytes\": 777777,\n    \"budget\"",
            path: "bundle.bytes", mark: "\"bytes\": 777777", says: "expected 123456 (the bytes of the tracks whose delivery is bundled), found 777777"
        ),
        BadDelivery(
            label: "bundle.bytes 0", old: "\"bytes\": 123456,\n    \"budget\"", new: "\"bytes\": 0,\n    \"budget\"", path: "bundle.bytes",
            mark: "\"bytes\": 0,", says: "expected 123456 (the bytes of the tracks whose delivery is bundled), found 0"),
        // bravo bundled too, bundle.bytes left as it was: the total is now both tracks'
        BadDelivery(
            label: "a delivery changed without bundle.bytes", old: "\"delivery\": \"on-demand\"", new: "\"delivery\": \"bundled\"",
            path: "bundle.bytes", mark: "\"bytes\": 123456,\n    \"budget\"",
            says: "expected 777777 (the bytes of the tracks whose delivery is bundled), found 123456"),
        BadDelivery(
            label: "bundle.budget 0", old: "\"budget\": 80000000", new: "\"budget\": 0", path: "bundle.budget", mark: "\"budget\": 0",
            says: "expected a budget in bytes from 1 to \(Manifest.Limits.maxBundleBytes), or null, found 0"),
        BadDelivery(
            label: "bundle.budget a size in words", old: "\"budget\": 80000000", new: "\"budget\": \"80MB\"", path: "bundle.budget",
            mark: "\"budget\": \"80MB\"", says: "found '80MB'"),
        BadDelivery(
            label: "bundle.budget not whole", old: "\"budget\": 80000000", new: "\"budget\": 1.5", path: "bundle.budget", mark: "\"budget\": 1.5",
            says: "found 1.5"),
        BadDelivery(
            label: "bundle an array", old: "\"bundle\": {\n    \"bytes\": 123456,\n    \"budget\": 80000000\n  }", new: "\"bundle\": [123456]",
            path: "bundle", mark: "\"bundle\": [", says: "expected an object"),
    ]
}

@Suite("catalog.json's delivery and bundle, read in process")
struct DeliveryManifestTests {
    @Test("a manifest with delivery and bundle reads, and writes back byte for byte")
    func roundTrip() throws {
        let manifest = try Manifest.decode(Array(deliveryManifest.utf8), file: "d.json")
        #expect(manifest.tracks.map(\.delivery) == [.bundled, .onDemand])
        #expect(manifest.budget == 80_000_000)
        #expect(manifest.bundledBytes == 123456)
        #expect(manifest.largestBundled.map(\.id) == ["alpha"])
        #expect(manifest.jsonText() == deliveryManifest)
    }

    @Test("bundle.budget null reads as no budget, and is written as null")
    func nullBudget() throws {
        let text = deliveryManifest.replacingOccurrences(of: "\"budget\": 80000000", with: "\"budget\": null")
        let manifest = try Manifest.decode(Array(text.utf8), file: "d.json")
        #expect(manifest.budget == nil)
        #expect(manifest.jsonText() == text)
    }

    @Test("each refused delivery or bundle is reported once, at its line and column, naming what was expected", arguments: BadDelivery.all)
    func refused(_ c: BadDelivery) throws {
        #expect(deliveryManifest.contains(c.old), "the case does not apply: \(c.old)")
        let text = deliveryManifest.replacingOccurrences(of: c.old, with: c.new)
        let place = try #require(valuePlace(c.mark, in: text), "'\(c.mark)' is not in the changed text once")
        let errors = deliveryErrors(text)
        let prefix = "d.json:\(place.line):\(place.column): error: \(c.path): "
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix(prefix) == true, "expected \(prefix)…, got \(errors)")
        #expect(errors.first?.contains(c.says) == true, "expected '\(c.says)' in \(errors)")
    }

    @Test("an older manifest, without delivery and without bundle, still reads: every track bundled, no budget")
    func olderManifest() throws {
        let bundleBlock = "  \"bundle\": {\n    \"bytes\": 123456,\n    \"budget\": 80000000\n  },\n"
        #expect(deliveryManifest.contains(bundleBlock))
        let older = deliveryManifest.replacingOccurrences(of: bundleBlock, with: "")
            .replacingOccurrences(of: "      \"delivery\": \"bundled\",\n", with: "")
            .replacingOccurrences(of: "      \"delivery\": \"on-demand\",\n", with: "")
        #expect(!older.contains("delivery") && !older.contains("bundle"))
        let manifest = try Manifest.decode(Array(older.utf8), file: "d.json")
        #expect(manifest.tracks.map(\.id) == ["alpha", "bravo"])
        #expect(manifest.tracks.allSatisfy { $0.delivery == .bundled }, "\(manifest.tracks.map(\.delivery))")
        #expect(manifest.budget == nil)
        #expect(manifest.bundledBytes == 123456 + 654321)
        // written again, it gains both: each track bundled, the total of both, no budget
        let written = manifest.jsonText()
        #expect(written.contains("  \"bundle\": {\n    \"bytes\": 777777,\n    \"budget\": null\n  },\n"), "\(written)")
        #expect(written.components(separatedBy: "\"delivery\": \"bundled\"").count == 3, "\(written)")
        #expect(try Manifest.decode(Array(written.utf8), file: "d.json") == manifest)
    }

    @Test("without delivery keys a bundle must count every track; with a bundle but no delivery keys the reader checks that total")
    func olderTracksNewerBundle() throws {
        let noDelivery =
            deliveryManifest
            .replacingOccurrences(of: "      \"delivery\": \"bundled\",\n", with: "")
            .replacingOccurrences(of: "      \"delivery\": \"on-demand\",\n", with: "")
        // bravo without its key is bundled: 123456 no longer the total
        let errors = deliveryErrors(noDelivery)
        #expect(errors.count == 1 && errors[0].contains("bundle.bytes: expected 777777"), "\(errors)")
        let fixed = noDelivery.replacingOccurrences(of: "\"bytes\": 123456,\n    \"budget\"", with: "\"bytes\": 777777,\n    \"budget\"")
        let manifest = try Manifest.decode(Array(fixed.utf8), file: "d.json")
        #expect(manifest.bundledBytes == 777777 && manifest.budget == 80_000_000)
    }
}
