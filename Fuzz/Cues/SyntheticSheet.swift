import AudioCore
import CadenceCues

/// `fuzz-cues`'s second mode, for inputs starting with a 0 byte: the bytes describe a sheet that
/// is valid by construction (sample rate, spans, phases, cues, any strings), built in memory the
/// way the renderer builds one.
///
/// Few mutated JSON texts stay valid sheets (frames and times must agree), so this is what feeds
/// the lookups, `validate()` and the JSON writer a wide variety of valid sheets: odd sample rates,
/// spans from 1 frame to 2⁴⁵, empty sections, any text in kinds, labels and names. A sheet made
/// here must validate, and then goes through the same checks as a decoded one; except that one
/// input in eight may give it a non-finite loudness or true peak, which `validate()` must refuse.
enum SyntheticSheet {
    static let commonRates = [8000, 11025, 16000, 22050, 44100, 48000, 88200, 96000, 176400, 192000, 352800, 384000]

    /// Reads numbers and strings off the input; past its end, zeros.
    struct Reader {
        let bytes: ArraySlice<UInt8>
        var at: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.at = bytes.startIndex
        }

        mutating func byte() -> UInt8 {
            guard at < bytes.endIndex else { return 0 }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func uint32() -> UInt32 { (0..<4).reduce(0) { value, _ in value << 8 | UInt32(byte()) } }

        /// 0 to 23 bytes as UTF-8 (invalid sequences replaced).
        mutating func string() -> String {
            let count = Int(byte() % 24)
            return String(decoding: (0..<count).map { _ in byte() }, as: UTF8.self)
        }

        /// A length in frames: 16 bits shifted left by up to 23, so from 0 to about 2³⁹.
        mutating func span() -> Int64 {
            let shift = Int64(byte() % 24)
            return Int64(uint32() % 65536) << shift
        }
    }

    static func make(_ bytes: ArraySlice<UInt8>) -> CueSheet {
        var r = Reader(bytes)
        let rateByte = r.byte()
        let rate = rateByte < 128 ? commonRates[Int(rateByte) % commonRates.count] : 1 + Int(r.uint32() % 1_000_000)
        let channels = 1 + Int(r.byte() % 8)
        let intro = r.span()

        var phases: [CueSheet.Phase] = []
        var frame = intro
        var cycle = 0
        for index in 0..<Int(r.byte() % 48) {
            let length = 1 + r.span()
            if index > 0, r.byte() % 4 == 0 { cycle += 1 }
            phases.append(
                CueSheet.Phase(
                    index: index, cycle: cycle, kind: r.string(), label: r.string(), startFrame: frame,
                    endFrame: frame + length, sampleRate: rate))
            frame += length
        }
        let practiceEnd = frame
        let outro = r.span()
        let frames = practiceEnd + outro

        // Sections: each present when it has frames, or (zero-length ones) when the input says so;
        // a practice section whenever there are phases.
        let flags = r.byte()
        var sections: [CueSheet.Section] = []
        if intro > 0 || flags & 1 != 0 {
            sections.append(CueSheet.Section(kind: "intro", startFrame: 0, endFrame: intro, sampleRate: rate))
        }
        if !phases.isEmpty || flags & 2 != 0 {
            sections.append(CueSheet.Section(kind: "practice", startFrame: intro, endFrame: practiceEnd, sampleRate: rate))
        }
        if outro > 0 || flags & 4 != 0 {
            sections.append(CueSheet.Section(kind: "outro", startFrame: practiceEnd, endFrame: frames, sampleRate: rate))
        }

        var cues: [CueSheet.Cue] = []
        if !phases.isEmpty {
            for _ in 0..<Int(r.byte() % 12) {
                let phase = phases[Int(r.byte()) % phases.count]
                // At the phase's start, or at its end (the `end` cue) when that is still inside the file.
                let atEnd = r.byte() % 2 == 1 && phase.endFrame < frames
                cues.append(
                    CueSheet.Cue(
                        name: r.string(), phase: phase.index, frame: atEnd ? phase.endFrame : phase.startFrame,
                        lengthFrames: Int64(r.uint32()), sampleRate: rate))
            }
        }

        // one input in eight (flags 0xE0) may hold a level JSON cannot write: NaN or ±infinity, on an odd raw
        // value; such a sheet is not valid, and `validate()` must say so (see `CuesFuzz.checkNonFiniteLevel`)
        let nonFinite = flags & 0xE0 == 0xE0
        func level() -> Double? {
            let raw = Int16(bitPattern: UInt16(r.byte()) << 8 | UInt16(r.byte()))
            guard flags & 8 != 0 else { return nil }
            if nonFinite, raw % 2 != 0 { return [Double.nan, .infinity, -.infinity][Int(raw.magnitude / 2) % 3] }
            return Double(raw) / 100
        }
        let audio = CueSheet.Audio(
            file: r.string(), sampleRate: rate, channels: channels, frames: frames, sha256: r.string(),
            loudnessLUFS: level(), truePeakDBTP: level())
        var patternPhases: [CueSheet.PatternPhase] = []
        var cycleLength = ExactSeconds.zero
        for _ in 0..<Int(r.byte() % 8) {
            let length = ExactSeconds(nanoseconds: Int64(r.uint32()) * Int64(1 + r.byte() % 100))
            cycleLength += length
            patternPhases.append(
                CueSheet.PatternPhase(kind: r.string(), label: r.string(), length: DecimalText(length.nanoseconds, decimalPlaces: 9)))
        }
        return CueSheet(
            id: r.string(), title: r.string(), category: flags & 16 != 0 ? r.string() : nil, audio: audio,
            pattern: CueSheet.PatternInfo(name: r.string(), cycle: DecimalText(cycleLength.nanoseconds, decimalPlaces: 9), phases: patternPhases),
            sections: sections, phases: phases, cues: cues)
    }
}
