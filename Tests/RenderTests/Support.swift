import AudioCore
import AudioIO
import CSndfile
import CadenceCues
import Foundation
@_exported import TestKit
import Testing

@testable import Render

// Helpers of the render tests (folders, processes, sound fixtures, exact decimal
// time, cue sheets and the `render` binary come from TestKit): test phases and
// their exact frames, reading renders back, measurements, rendering in-process.
// Every expectation in the tests is computed here or in the test from the
// recipe's own numbers, never copied from a render.

// MARK: - Rendering

/// Renders in-process (a `RenderJob` of a recipe without variants); returns the track and its decoded cue sheet.
@discardableResult
func renderInProcess(_ recipe: String, to output: String, assets: String? = nil) throws -> (track: RenderedTrack, sheet: CueSheet) {
    let tracks = try RenderJob(recipePath: recipe, outputPath: output, assets: assets).run()
    try #require(tracks.count == 1, "a recipe with variants: \(tracks.count) tracks")
    let track = tracks[0].rendered
    return (track, try readCueSheet(track.cueSheetPath))
}

/// The diagnostics of a render expected to fail (empty if it succeeded).
func renderFailure(_ recipe: String, to output: String, assets: String? = nil) -> DiagnosticList? {
    do {
        try RenderJob(recipePath: recipe, outputPath: output, assets: assets).run()
        return nil
    } catch {
        return error
    }
}

/// Pass 1's measurement (`Measurement.run`) of interleaved `samples`, fed to each span's meter in
/// pieces of 4096 frames: the meters as a render drives them, on a signal made in the test.
func measurement(
    of samples: [Float], channels: Int, sampleRate: Int, canSplit: Bool, probe: Bool = false
) throws -> Render.Measurement {
    try Render.Measurement.run(
        totalFrames: Int64(samples.count / channels), sampleRate: sampleRate, channels: channels, threads: 2, canSplit: canSplit,
        probe: probe
    ) { (span, meter) throws(AudioError) in
        try samples.withUnsafeBufferPointer { all throws(AudioError) in
            var at = Int(span.start)
            while at < Int(span.end) {
                let n = min(4096, Int(span.end) - at)
                _ = try meter.consume(UnsafeBufferPointer(rebasing: all[(channels * at)..<(channels * (at + n))]), frames: n)
                at += n
            }
        }
    }
}
