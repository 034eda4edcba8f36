import Foundation
import Recipe
import Render
import TestKit
import Testing

/// Tracing goes through the observer the caller passes to `TrackRenderer`, never through the
/// environment: what a lossy encoding measured reaches it as `cadence-lossy` lines' text.
@Suite("Render's observer")
struct RenderObserverTests {
    /// Keeps every line it is told.
    final class Lines: RenderObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String] = []
        var all: [String] { lock.withLock { kept } }
        func lossy(_ line: String) { lock.withLock { kept.append(line) } }
    }

    /// Renders a pink-noise track to `name` with `observer`.
    static func render(_ name: String, observer: (any RenderObserver)?) throws -> RenderedTrack {
        let folder = try TempFolder("observer")
        let recipe = try folder.write(
            """
            duration: 6s
            \(inlinePattern([TestPhase(kind: "inhale", length: "1s"), TestPhase(kind: "exhale", length: "1s")]))cues: {}
            bed: { synth: pink-noise }
            output: { channels: 2, loudness: -18 LUFS }
            """, to: "track.yml")
        let loaded = try RecipeLoader.load(path: recipe)
        return try TrackRenderer(observer: observer).render(recipe: loaded, outputPath: folder.file(name), assets: nil)
    }

    @Test("an Ogg Vorbis render tells its observer each encoding as decoded, the last one what the cue sheet says")
    func lossyEncodingsReachTheObserver() throws {
        let lines = Lines()
        let track = try Self.render("track.ogg", observer: lines)
        let encodings = lines.all.filter { $0.hasPrefix("encoding ") }
        try #require(!encodings.isEmpty, "no encoding line: \(lines.all)")
        #expect(encodings.first?.hasPrefix("encoding 1: ") == true, "\(encodings)")
        let pattern = #/^encoding \d: -?\d+\.\d\d LUFS, -?\d+\.\d\d dBTP decoded \(aimed [+-]\d+\.\d\d LU, ceiling -?\d+\.\d\d dBTP\)$/#
        for line in encodings { #expect(line.wholeMatch(of: pattern) != nil, "\(line)") }
        let loudness = try #require(track.loudness)
        #expect(encodings.last?.hasPrefix(String(format: "encoding %d: %.2f LUFS", encodings.count, loudness)) == true, "\(encodings)")
    }

    @Test("a FLAC render has no lossy encoding to tell, and a render without an observer writes the same bytes")
    func losslessTellsNothing() throws {
        let lines = Lines()
        let watched = try Self.render("track.flac", observer: lines)
        #expect(lines.all.isEmpty, "\(lines.all)")
        let unwatched = try Self.render("track.flac", observer: nil)
        #expect(watched.sha256 == unwatched.sha256)
    }
}
