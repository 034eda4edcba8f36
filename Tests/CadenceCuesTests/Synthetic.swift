import CadenceCues

/// Cue sheets made in the test, laid out as the renderer's Timeline does: every boundary from an exact
/// time in nanoseconds, rounded to a frame once (`floor(t × rate + 1/2)`), so nothing accumulates.
enum Synthetic {
    struct PhaseSpec {
        var kind: String
        var label: String
        var nanoseconds: Int64
    }

    /// Box-like breaths of uneven lengths (4 s, 1.234567891 s, 6.5 s, 3.265432109 s: a 15 s cycle).
    static let unevenPattern = [
        PhaseSpec(kind: "inhale", label: "Breathe In", nanoseconds: 4_000_000_000),
        PhaseSpec(kind: "hold", label: "Hold", nanoseconds: 1_234_567_891),
        PhaseSpec(kind: "exhale", label: "Breathe Out", nanoseconds: 6_500_000_000),
        PhaseSpec(kind: "rest", label: "Rest", nanoseconds: 3_265_432_109),
    ]

    /// An 8-hour sheet at 48 kHz: a 30 min intro, 7200 phases (7.5 h), a 7.5 s outro; 1,382,760,000 frames.
    static func eightHours() -> CueSheet {
        sheet(rate: 48000, intro: 1_800_000_000_000, outro: 7_500_000_000, pattern: unevenPattern, phaseCount: 7200)
    }

    /// The frame of an exact time: `floor(ns × rate / 10⁹ + 1/2)` in integers.
    static func frame(_ nanoseconds: Int64, rate: Int) -> Int64 {
        (nanoseconds * Int64(rate) * 2 + 1_000_000_000) / 2_000_000_000
    }

    static func sheet(rate: Int, intro: Int64, outro: Int64, pattern: [PhaseSpec], phaseCount: Int) -> CueSheet {
        let cycle = pattern.reduce(0) { $0 + $1.nanoseconds }
        var offsets: [Int64] = []
        var offset: Int64 = 0
        for p in pattern {
            offsets.append(offset)
            offset += p.nanoseconds
        }
        var phases: [CueSheet.Phase] = []
        var cues: [CueSheet.Cue] = []
        for index in 0..<phaseCount {
            let (c, position) = index.quotientAndRemainder(dividingBy: pattern.count)
            let start = intro + cycle * Int64(c) + offsets[position]
            let spec = pattern[position]
            let phase = CueSheet.Phase(
                index: index, cycle: c, kind: spec.kind, label: spec.label, startFrame: frame(start, rate: rate),
                endFrame: frame(start + spec.nanoseconds, rate: rate), sampleRate: rate)
            phases.append(phase)
            if spec.kind == "inhale" {
                cues.append(CueSheet.Cue(name: "inhale", phase: index, frame: phase.startFrame, lengthFrames: 38400, sampleRate: rate))
            }
        }
        let practiceEnd =
            intro + cycle * Int64(phaseCount / pattern.count)
            + (phaseCount % pattern.count == 0 ? 0 : offsets[phaseCount % pattern.count])
        let total = practiceEnd + outro
        var sections: [CueSheet.Section] = []
        for (kind, a, b) in [("intro", Int64(0), intro), ("practice", intro, practiceEnd), ("outro", practiceEnd, total)]
        where frame(b, rate: rate) > frame(a, rate: rate) {
            sections.append(CueSheet.Section(kind: kind, startFrame: frame(a, rate: rate), endFrame: frame(b, rate: rate), sampleRate: rate))
        }
        let audio = CueSheet.Audio(
            file: "synthetic.flac", sampleRate: rate, channels: 2, frames: frame(total, rate: rate),
            sha256: String(repeating: "0", count: 64), loudnessLUFS: -16, truePeakDBTP: nil)
        let info = CueSheet.PatternInfo(
            name: "Synthetic", cycle: DecimalText(cycle, decimalPlaces: 9),
            phases: pattern.map { CueSheet.PatternPhase(kind: $0.kind, label: $0.label, length: DecimalText($0.nanoseconds, decimalPlaces: 9)) })
        return CueSheet(
            id: "synthetic", title: "Synthetic", category: nil, audio: audio, pattern: info, sections: sections, phases: phases,
            cues: cues)
    }

    /// Nanoseconds as the renderer's decimal text: `15`, `1.234567891`.
    static func decimal(_ nanoseconds: Int64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = nanoseconds % 1_000_000_000
        if fraction == 0 { return "\(whole)" }
        var digits = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }
}
