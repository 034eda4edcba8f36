import CadenceCues
import Foundation
import FuzzDriver

// Fuzzing build (scripts/fuzz.sh: -sanitize=fuzzer -DFUZZING): libFuzzer's own `main` calls
// `LLVMFuzzerTestOneInput`. Ordinary build: this `main` replays the files named on the command line.
//
/// `fuzz-cues`: JSON bytes → `CueSheet.decode(from:)` → `CueTimeline` lookups → `jsonText()`, as a player sees a sheet.
///
/// Any input must decode or throw a `CueSheetError`; never crash, hang or leak. Checked:
/// - an error has a one-line message without control characters (malformed JSON: a 1-based line and column inside the input);
/// - a decoded sheet passes `validate()` again, builds a `CueTimeline`, and every lookup answers
///   consistently: the frame clamped into `0…frames`, the phase and section holding it, progress
///   in 0…1, the next boundary after the frame, the end of the file only at `frames`, and a
///   time written from a frame gives that frame back;
/// - `jsonText()` reads back equal to the sheet and writes back the same bytes.
///
/// Inputs starting with a 0 byte are not JSON but a description of a valid sheet (`SyntheticSheet`),
/// which must validate and then goes through the same checks (or, given a non-finite loudness or
/// true peak, must be refused by `validate()` and `CueTimeline`).
///
/// Inputs starting with a 1 byte are text for `DecimalText(_:)`, which must accept exactly the
/// JSON numbers (checked against a grammar written here, apart from the library's parser), hold
/// them in their plain form, and write them into a sheet that reads back equal.
#if !FUZZING
    @main
    enum FuzzCuesMain {
        static func main() { FuzzDriver.replay("fuzz-cues", fuzzCues) }
    }
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCues(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CuesFuzz.run(fuzzBytes(data, size))
    return 0
}

enum CuesFuzz {
    /// Up to this many frames, a time computed from a frame must give the frame back (cues-v1's rule);
    /// beyond 2⁵⁰ a `Double` time cannot promise it (a sheet of 24 h at 384 kHz is about 2³⁵ frames).
    static let exactFrameLimit: Int64 = 1 << 50

    static func run(_ bytes: [UInt8]) {
        let sheet: CueSheet
        if bytes.first == 1 {
            checkDecimalText(String(decoding: bytes.dropFirst(), as: UTF8.self))
            return
        }
        if bytes.first == 0 {
            // Not JSON: a description of a valid sheet (see SyntheticSheet).
            sheet = SyntheticSheet.make(bytes.dropFirst())
            if checkNonFiniteLevel(sheet) { return }
            do {
                try sheet.validate()
            } catch {
                fuzzCheck(false, "a sheet built as the renderer builds one fails validate(): \(error)")
            }
        } else {
            do {
                sheet = try CueSheet.decode(from: Data(bytes))
            } catch {
                checkError(error, bytes)
                return
            }
            do {
                try sheet.validate()
            } catch {
                fuzzCheck(false, "a decoded sheet fails validate(): \(error)")
            }
        }
        let timeline: CueTimeline
        do {
            timeline = try CueTimeline(sheet)
        } catch {
            fuzzCheck(false, "a decoded sheet makes no CueTimeline: \(error)")
            return
        }
        checkLookups(timeline)
        checkRoundTrip(sheet)
        if fuzzVerbose { print("sheet \(sheet.id): \(sheet.audio.frames) frames, \(sheet.phases.count) phases, \(sheet.cues.count) cues") }
    }

    static func checkError(_ error: CueSheetError, _ bytes: [UInt8]) {
        if fuzzVerbose { print("error: \(error)") }
        let text = error.description
        fuzzCheck(!text.isEmpty, "empty error message")
        // One line, no control characters: a player logs or shows it (strings in it are JSON-escaped).
        fuzzCheck(!text.unicodeScalars.contains { $0.value < 0x20 }, "control character in an error message: \(text.debugDescription)")
        if case .malformed(let reason, let line, let column) = error {
            fuzzCheck(!reason.isEmpty, "malformed without a reason")
            let lines = bytes.count { $0 == 0x0A } + 1
            fuzzCheck(line >= 1 && line <= lines && column >= 1 && column <= bytes.count + 1, "malformed at \(line):\(column): \(text)")
        }
    }

    // MARK: - Levels JSON cannot hold

    /// For a sheet whose loudness or true peak is NaN or infinite (issue 17: `validate()` accepted it, and
    /// `jsonText()` wrote `null`): `validate()` and `CueTimeline` must refuse it, naming the key. False when
    /// both levels are finite or nil.
    static func checkNonFiniteLevel(_ sheet: CueSheet) -> Bool {
        let levels = [(CueSheet.Audio.Key.loudnessLUFS, sheet.audio.loudnessLUFS), (.truePeakDBTP, sheet.audio.truePeakDBTP)]
        guard let key = levels.first(where: { $0.1.map { !$0.isFinite } ?? false })?.0 else { return false }
        if fuzzVerbose { print("a non-finite \(key.rawValue): \(sheet.audio)") }
        let path = CueSheet.Key.audio.rawValue + "." + key.rawValue
        do {
            try sheet.validate()
            fuzzCheck(false, "validate() accepts a non-finite \(path): \(sheet.audio)")
        } catch {
            guard case .invalidValue(let at, _) = error else {
                fuzzCheck(false, "a non-finite \(path) refused as \(error)")
                return true
            }
            fuzzCheck(at == path, "a non-finite \(path) refused at \(at): \(error)")
        }
        fuzzCheck((try? CueTimeline(sheet)) == nil, "CueTimeline accepts a non-finite \(path)")
        return true
    }

    // MARK: - Decimal text

    /// `DecimalText(_:)` on any text (issue 17: it held any text, which `jsonText()` wrote as invalid JSON).
    static func checkDecimalText(_ text: String) {
        let decimal = DecimalText(text)
        if fuzzVerbose { print("DecimalText(\(text.debugDescription.prefix(200))): \(decimal.map { String($0.text.prefix(200)) } ?? "nil")") }
        fuzzCheck((decimal != nil) == isJSONNumber(text), "DecimalText(\(text.debugDescription.prefix(200))) is \(String(describing: decimal))")
        guard let decimal else { return }
        fuzzCheck(isPlainDecimal(decimal.text), "\(text.debugDescription.prefix(200)) held as \(decimal.text.prefix(200))")
        fuzzCheck(DecimalText(decimal.text) == decimal, "the plain form \(decimal.text.prefix(200)) reads differently")
        fuzzCheck(!decimal.value.isNaN, "\(decimal.text.prefix(200)) has no value")
        // in every place a sheet holds one, written and read back
        let pattern = CueSheet.PatternInfo(
            name: "d", cycle: decimal, phases: [CueSheet.PatternPhase(kind: "inhale", label: "In", length: decimal)])
        let audio = CueSheet.Audio(file: "d.flac", sampleRate: 1, channels: 1, frames: 0, sha256: "", loudnessLUFS: nil, truePeakDBTP: nil)
        let sheet = CueSheet(id: "d", title: "d", category: nil, audio: audio, pattern: pattern, sections: [], phases: [], cues: [])
        checkRoundTrip(sheet)
    }

    /// RFC 8259 § 6, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` and nothing else, with a written
    /// exponent of at most 10,000 (the reader's limit): the oracle for `DecimalText(_:)`.
    static func isJSONNumber(_ text: String) -> Bool {
        var rest = Array(text.utf8)[...]
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        func digits() -> ArraySlice<UInt8> {
            let run = rest.prefix(while: isDigit)
            rest = rest.dropFirst(run.count)
            return run
        }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let whole = digits()
        guard let first = whole.first, first != UInt8(ascii: "0") || whole.count == 1 else { return false }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard !digits().isEmpty else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            let exponent = digits()
            guard !exponent.isEmpty else { return false }
            let significant = exponent.drop { $0 == UInt8(ascii: "0") }
            guard significant.count <= 5, Int(String(decoding: significant, as: UTF8.self)) ?? 0 <= 10_000 else { return false }
        }
        return rest.isEmpty
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, but not `-0`: the one way `DecimalText` writes a number.
    static func isPlainDecimal(_ text: String) -> Bool {
        guard text != "-0", text != "-" else { return false }
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : text[...]
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        guard !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }), whole == "0" || !whole.hasPrefix("0") else { return false }
        guard parts.count == 2 else { return true }
        let fraction = parts[1]
        return !fraction.isEmpty && fraction.allSatisfy({ $0.isASCII && $0.isNumber }) && !fraction.hasSuffix("0")
    }

    // MARK: - Lookups

    static func checkLookups(_ timeline: CueTimeline) {
        let sheet = timeline.sheet
        let frames = timeline.frames
        var probes: [Int64] = [0, 1, frames / 3, frames / 2, frames &- 1, frames, frames &+ 1, -1, .min, .max]
        for section in sheet.sections.prefix(3) {
            probes += [section.startFrame &- 1, section.startFrame, section.endFrame &- 1, section.endFrame]
        }
        for phase in sheet.phases.prefix(8) + sheet.phases.suffix(4) { probes += [phase.startFrame, phase.endFrame &- 1, phase.endFrame] }
        for cue in sheet.cues.prefix(4) { probes.append(cue.frame) }
        for frame in probes { checkPosition(timeline, requested: frame) }

        for time in [0, -0.0, -1, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, 1e-300, timeline.duration, timeline.duration / 2] {
            let position = timeline.position(atTime: time)
            fuzzCheck(position.frame >= 0 && position.frame <= frames, "time \(time) gave frame \(position.frame) of \(frames)")
            fuzzCheck(position == timeline.position(atFrame: position.frame), "time \(time): position differs from its frame's")
        }
        if frames <= exactFrameLimit {
            for frame in probes where frame >= 0 && frame <= frames {
                let time = timeline.time(atFrame: frame)
                fuzzCheck(timeline.frame(atTime: time) == frame, "frame \(frame) → \(time) s → frame \(timeline.frame(atTime: time))")
            }
        }
    }

    static func checkPosition(_ timeline: CueTimeline, requested: Int64) {
        let sheet = timeline.sheet
        let frames = timeline.frames
        let p = timeline.position(atFrame: requested)
        let expected = min(max(requested, 0), frames)
        let at = "frame \(requested) (of \(frames))"
        fuzzCheck(p.frame == expected, "\(at): clamped to \(p.frame)")
        fuzzCheck(p.progress >= 0 && p.progress <= 1, "\(at): progress \(p.progress)")
        // Progress is exact below 2^53 frames (so under 1 inside a span); beyond, it may round up to 1.
        let below = { (x: Double) in frames < 1 << 53 ? x < 1 : x <= 1 }
        fuzzCheck(
            p.phase == nil ? p.phaseProgress == 0 : p.phaseProgress >= 0 && below(p.phaseProgress), "\(at): phase progress \(p.phaseProgress)")
        fuzzCheck(
            p.section == nil ? p.sectionProgress == 0 : p.sectionProgress >= 0 && below(p.sectionProgress),
            "\(at): section progress \(p.sectionProgress)")
        if let phase = p.phase {
            fuzzCheck(phase.startFrame <= p.frame && p.frame < phase.endFrame, "\(at): not in its phase \(phase.index)")
            fuzzCheck(sheet.phases[phase.index] == phase, "\(at): phase \(phase.index) is not the sheet's")
            fuzzCheck(p.nextBoundaryFrame == phase.endFrame, "\(at): next boundary \(String(describing: p.nextBoundaryFrame))")
            fuzzCheck(p.previousPhase == (phase.index > 0 ? sheet.phases[phase.index - 1] : nil), "\(at): previous phase")
            fuzzCheck(p.section?.kind == "practice", "\(at): a phase outside the practice section")
        } else if let holder = sheet.phases.first(where: { $0.startFrame <= p.frame && p.frame < $0.endFrame }) {
            fuzzCheck(false, "\(at): no phase, but phase \(holder.index) holds it")
        }
        if let section = p.section {
            fuzzCheck(section.startFrame <= p.frame && p.frame < section.endFrame, "\(at): not in its section \(section.kind)")
            fuzzCheck(p.sectionKind?.rawValue == section.kind, "\(at): section kind")
        }
        fuzzCheck(p.isAtEnd == (p.frame == frames), "\(at): isAtEnd \(p.isAtEnd)")
        if let next = p.nextBoundaryFrame {
            fuzzCheck(next > p.frame && next <= frames, "\(at): next boundary \(next)")
            fuzzCheck(p.framesToNextBoundary == next - p.frame, "\(at): frames to the next boundary")
            fuzzCheck((p.secondsToNextBoundary ?? -1) >= 0, "\(at): seconds to the next boundary")
        }
        if let nextPhase = p.nextPhase {
            fuzzCheck(nextPhase.startFrame == p.nextBoundaryFrame, "\(at): next phase \(nextPhase.index) not at the boundary")
        }
        if let nextSection = p.nextSection {
            fuzzCheck(nextSection.startFrame == p.nextBoundaryFrame, "\(at): next section not at the boundary")
        }
        if let index = timeline.phaseIndex(atFrame: p.frame) {
            fuzzCheck(p.phase?.index == index, "\(at): phaseIndex \(index), position's phase \(String(describing: p.phase?.index))")
        } else {
            fuzzCheck(p.phase == nil, "\(at): phaseIndex nil, position has a phase")
        }
    }

    // MARK: - Round trip

    static func checkRoundTrip(_ sheet: CueSheet) {
        let text = sheet.jsonText()
        do {
            let back = try CueSheet.decode(from: Data(text.utf8))
            fuzzCheck(back == sheet, "jsonText() reads back different:\n\(text.prefix(2000))")
            fuzzCheck(back.jsonText() == text, "jsonText() of the read-back sheet differs")
        } catch {
            fuzzCheck(false, "jsonText() does not read back: \(error)\n\(text.prefix(2000))")
        }
    }
}
