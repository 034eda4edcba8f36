import CadenceCues
import Foundation
import Sidecars
import TestKit
import Testing

/// A rendered program (recipe-v1.1 § Programs, § Ramps; cues-v1.1): the sheet's practice sections,
/// per-phase lengths and ramp, what `CueTimeline` answers, the sidecars' segments, and the audio's
/// onsets on the sheet's frames.
@Suite struct ProgramRenderTests {
    static let rate = 8000

    /// intro 2 s · coherent for 25 s ramped to 6 bpm over 1 cycle (cycles of 11 s, then 10 s: 21 s and a 4 s
    /// transition) · box × 1 "Hold on" · outro 1 s; inhale tones and a transition tone.
    static let recipe = """
        id: program
        intro: 2s
        program:
          - { pattern: coherent, duration: 25s, ramp: { to: 6 bpm, over: 1 cycle } }
          - { pattern: box, cycles: 1, label: Hold on }
        outro: 1s
        cues:
          inhale: { tone: 440 Hz, length: 100ms, gain: -12 dB, envelope: click }
          transition: { tone: 660 Hz, length: 100ms, gain: -12 dB, envelope: click }
        output: { sample_rate: \(rate), channels: 1, bit_depth: 32f, loudness: off, true_peak: 0 dBTP }
        """

    @Test("the sheet is version 1.1: one practice section per segment with name and ramp, phases with segment and exact length")
    func sheet() throws {
        let folder = try TempFolder("program-sheet")
        let recipe = try folder.write(Self.recipe, to: "recipes/program.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let json = try String(contentsOfFile: folder.file("out.cues.json"), encoding: .utf8)
        #expect(json.contains("\"version\": 1.1"))
        let f = { (seconds: Int64) in seconds * Int64(Self.rate) }
        #expect(sheet.audio.frames == f(2 + 25 + 16 + 1))
        let practice = sheet.sections.filter { $0.kind == "practice" }
        #expect(practice.map(\.segment) == [0, 1])
        #expect(practice.map(\.name) == ["Coherent Breathing", "Hold on"])
        #expect(practice.map(\.startFrame) == [f(2), f(27)])
        #expect(practice.map(\.endFrame) == [f(27), f(43)])
        // r0 = 60 / 11 s = 5.454545… bpm (6 decimals), r1 = 6, over 1
        #expect(
            practice[0].ramp == CueSheet.Ramp(fromBPM: DecimalText(5_454_545, decimalPlaces: 6), toBPM: DecimalText(6, decimalPlaces: 0), over: 1))
        #expect(practice[1].ramp == nil)
        // cycle 0 at 5.5 + 5.5 s, cycle 1 at the target: 5.5 × (60/11) / 6 = 5 s each; 25 − 21 = 4 s transition
        #expect(sheet.phases.map(\.kind) == ["inhale", "exhale", "inhale", "exhale", "transition", "inhale", "hold", "exhale", "hold"])
        #expect(sheet.phases.map { $0.length?.text } == ["5.5", "5.5", "5", "5", "4", "4", "4", "4", "4"])
        #expect(sheet.phases.map(\.segment) == [0, 0, 0, 0, 0, 1, 1, 1, 1])
        #expect(sheet.phases.map(\.cycle) == [0, 0, 1, 1, 2, 0, 0, 0, 0])
        #expect(sheet.phases[4].label == "Transition")
        let starts: [Int64] = [2000, 7500, 13000, 18000, 23000, 27000, 31000, 35000, 39000].map { $0 * Int64(Self.rate) / 1000 }
        #expect(sheet.phases.map(\.startFrame) == starts)

        // onsets: every inhale and the transition sound exactly at their phase's first frame, nothing before
        let audio = try readAudio(folder.file("out.wav"))
        let onsets = sheet.cues.map(\.frame)
        #expect(onsets == [starts[0], starts[2], starts[4], starts[5]])
        for onset in onsets {
            #expect((Int(onset) - 40..<Int(onset)).allSatisfy { audio[$0, 0] == 0 }, "sound before \(onset)")
            #expect(audio.rms(0, Int(onset)..<Int(onset) + 400) > 0.01, "no tone at \(onset)")
        }
    }

    @Test("CueTimeline answers the segment; chapters, markers and WebVTT show the segments")
    func readers() throws {
        let folder = try TempFolder("program-readers")
        let recipe = try folder.write(Self.recipe, to: "recipes/program.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let timeline = try CueTimeline(sheet)
        #expect(timeline.segments.count == 2)
        #expect(timeline.position(atTime: 1).segment == nil)
        #expect(timeline.position(atTime: 2).segment == 0)
        #expect(timeline.position(atTime: 26.999).segmentName == "Coherent Breathing")
        #expect(timeline.position(atTime: 27).segment == 1)
        #expect(timeline.position(atTime: 27).segmentName == "Hold on")
        #expect(timeline.position(atTime: 10).ramp?.over == 1)
        #expect(timeline.position(atTime: 30).ramp == nil)
        #expect(timeline.position(atTime: 43.5).segment == nil)
        #expect(timeline.segment(atTime: 30)?.name == "Hold on")

        #expect(sheet.chapters.map(\.title) == ["Intro", "Coherent Breathing", "Hold on", "Outro"])
        let markers = sheet.markers
        #expect(markers.contains { $0.frame == 27 * Int64(Self.rate) && $0.label == "Hold on" })
        #expect(markers.contains { $0.frame == 2 * Int64(Self.rate) && $0.label == "Coherent Breathing" })
        let vtt = WebVTT.text(of: sheet)
        #expect(vtt.contains("segment-1\n00:00:27.000 --> 00:00:43.000\nHold on\n"))
        #expect(vtt.contains("segment-0\n00:00:02.000 --> 00:00:27.000\nCoherent Breathing\n"))
    }

    @Test("a v1 recipe's sheet stays version 1, without segment, name, length or ramp")
    func v1SheetUnchanged() throws {
        let folder = try TempFolder("program-v1")
        let recipe = try folder.write(
            "id: plain\npattern: box\ncycles: 1\ncues: { inhale: click }\noutput: { sample_rate: 8000, channels: 1, loudness: off }\n",
            to: "recipes/plain.yml")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out.wav"))
        let json = try String(contentsOfFile: folder.file("out.cues.json"), encoding: .utf8)
        #expect(json.contains("\"version\": 1,"))
        for key in ["\"segment\"", "\"ramp\""] { #expect(!json.contains(key), "\(key) in a v1 sheet") }
        // `length` only in pattern.phases (4), none on the 4 phases; `name` only the pattern's and the cues'
        #expect(json.components(separatedBy: "\"length\":").count - 1 == 4)
        #expect(json.components(separatedBy: "\"name\":").count - 1 == 1 + sheet.cues.count)
        #expect(sheet.minorVersion == 0 && sheet.phases.allSatisfy { $0.segment == nil && $0.length == nil })
    }
}
