import AudioIO
import CadenceCues
import Foundation
@_exported import TestKit
import Testing

// Helpers of the preview tests (folders, processes with a time limit, sound
// fixtures and the `render` binary come from TestKit): a 16-bit WAV fixture, cue
// sheets built from whole seconds, and a reference phase lookup written
// independently of the page's script.

// MARK: - Audio fixture

extension Fixture {
    /// Writes a 16-bit WAV of a sine at `amplitude` on every channel (TestKit's `sine` and `writeSound`); returns its samples.
    static func writeSine(
        _ path: String, seconds: Int, sampleRate: Int = 48000, channels: Int = 2, frequency: Double = 220,
        amplitude: Double = 0.1
    ) throws -> [Float] {
        let samples = sine(frequency: frequency, amplitude: amplitude, sampleRate: sampleRate, channels: channels, frames: seconds * sampleRate)
        try writeSound(path, samples, sampleRate: sampleRate, channels: channels, format: .wav16)
        return samples
    }

    /// The largest |sample| of each of `columns` equal spans of interleaved samples (as the catalog computes its pictures' peaks).
    static func peaks(_ samples: [Float], channels: Int, columns: Int = 600) -> [Float] {
        let frames = samples.count / channels
        return (0..<columns).map { column in
            let from = frames * column / columns, to = frames * (column + 1) / columns
            var peak: Float = 0
            for i in (from * channels)..<(to * channels) { peak = max(peak, abs(samples[i])) }
            return peak
        }
    }
}

// MARK: - Cue sheets

/// A phase of a test pattern: kind, label and whole seconds.
struct TestPhase {
    var kind: String
    var label: String
    var seconds: Int
}

/// Box breathing: four phases of 4 s.
let boxPattern = [
    TestPhase(kind: "inhale", label: "Breathe In", seconds: 4),
    TestPhase(kind: "hold", label: "Hold", seconds: 4),
    TestPhase(kind: "exhale", label: "Breathe Out", seconds: 4),
    TestPhase(kind: "hold", label: "Hold", seconds: 4),
]

/// A cue sheet with an intro, `cycles` cycles of `pattern`, an outro, and one cue at each phase's start.
func testSheet(
    id: String, title: String, category: String?, pattern: [TestPhase] = boxPattern, cycles: Int = 2,
    intro: Int = 4, outro: Int = 4, rate: Int = 48000
) -> CueSheet {
    let r = Int64(rate)
    var phases: [CueSheet.Phase] = []
    var cues: [CueSheet.Cue] = []
    var at = Int64(intro) * r
    for cycle in 0..<cycles {
        for p in pattern {
            let end = at + Int64(p.seconds) * r
            phases.append(.init(index: phases.count, cycle: cycle, kind: p.kind, label: p.label, startFrame: at, endFrame: end, sampleRate: rate))
            cues.append(.init(name: p.kind, phase: phases.count - 1, frame: at, lengthFrames: r / 2, sampleRate: rate))
            at = end
        }
    }
    let practiceStart = Int64(intro) * r
    let frames = at + Int64(outro) * r
    var sections: [CueSheet.Section] = []
    if intro > 0 { sections.append(.init(kind: "intro", startFrame: 0, endFrame: practiceStart, sampleRate: rate)) }
    sections.append(.init(kind: "practice", startFrame: practiceStart, endFrame: at, sampleRate: rate))
    if outro > 0 { sections.append(.init(kind: "outro", startFrame: at, endFrame: frames, sampleRate: rate)) }
    let cycleSeconds = pattern.reduce(0) { $0 + $1.seconds }
    return CueSheet(
        id: id, title: title, category: category,
        audio: .init(
            file: "\(id).wav", sampleRate: rate, channels: 2, frames: frames, sha256: String(repeating: "0", count: 64),
            loudnessLUFS: -16, truePeakDBTP: -1),
        pattern: .init(
            name: "Box", cycle: DecimalText(Int64(cycleSeconds), decimalPlaces: 0),
            phases: pattern.map { .init(kind: $0.kind, label: $0.label, length: DecimalText(Int64($0.seconds), decimalPlaces: 0)) }),
        sections: sections, phases: phases, cues: cues)
}

/// What the ring should show at `seconds`, looked up by a linear scan (independent of the page's binary search).
struct ExpectedRing {
    var section: String
    var phaseIndex: Int
    var kind: String
    var label: String
    var progress: Double
}

func expectedRing(_ sheet: CueSheet, at seconds: Double) -> ExpectedRing {
    let frame = Int64((seconds * Double(sheet.audio.sampleRate) + 0.5).rounded(.down))
    if frame >= sheet.audio.frames { return ExpectedRing(section: "end", phaseIndex: -1, kind: "", label: "Done", progress: 1) }
    let section = sheet.sections.first { $0.startFrame <= frame && frame < $0.endFrame }
    if let (i, p) = sheet.phases.enumerated().first(where: { $0.element.startFrame <= frame && frame < $0.element.endFrame }) {
        return ExpectedRing(
            section: section?.kind ?? "", phaseIndex: i, kind: p.kind, label: p.label,
            progress: Double(frame - p.startFrame) / Double(p.endFrame - p.startFrame))
    }
    let kind = section?.kind ?? ""
    let label = kind == "intro" ? "Settle in" : kind == "outro" ? "Done" : kind.capitalized
    let progress = section.map { Double(frame - $0.startFrame) / Double($0.endFrame - $0.startFrame) } ?? 0
    return ExpectedRing(section: kind, phaseIndex: -1, kind: "", label: label, progress: progress)
}

// MARK: - Reading the page

extension String {
    /// Every text between `start` and the next `end`, in order.
    func between(_ start: String, _ end: String) -> [String] {
        var found: [String] = []
        var rest = self[...]
        while let a = rest.range(of: start), let b = rest[a.upperBound...].range(of: end) {
            found.append(String(rest[a.upperBound..<b.lowerBound]))
            rest = rest[b.upperBound...]
        }
        return found
    }

    /// How many times `needle` occurs.
    func occurrences(of needle: String) -> Int {
        components(separatedBy: needle).count - 1
    }

    /// The `<article …>…</article>` of the track with `data-track-id="id"` (id already escaped).
    func article(ofTrack id: String) -> String? {
        guard let start = range(of: "data-track-id=\"\(id)\"") else { return nil }
        guard let open = self[..<start.lowerBound].range(of: "<article", options: .backwards),
            let close = self[start.upperBound...].range(of: "</article>")
        else { return nil }
        return String(self[open.lowerBound..<close.upperBound])
    }
}
