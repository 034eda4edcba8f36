import CadenceCues
import Foundation
import Testing

/// cues-v1.1's voice prompts: "which prompt is sounding at time t", for captions in the apps.
@Suite struct VoiceLookupTests {
    /// The 8-hour sheet with a prompt of uneven length at the start of every inhale and every 7th exhale.
    static func guidedEightHours() -> CueSheet {
        var sheet = Synthetic.eightHours()
        var voice: [CueSheet.VoicePrompt] = []
        for phase in sheet.phases where phase.kind == "inhale" || (phase.kind == "exhale" && phase.cycle % 7 == 0) {
            let length = Int64(9_600 + (phase.index * 7_919) % 120_000)
            voice.append(
                CueSheet.VoicePrompt(
                    index: voice.count, text: "\(phase.label) \(phase.index)", file: nil, draft: true, phase: phase.index,
                    frame: phase.startFrame, lengthFrames: min(length, phase.endFrame - phase.startFrame), duckDB: 12,
                    sampleRate: sheet.audio.sampleRate))
        }
        sheet.voice = voice
        sheet.minorVersion = 1
        return sheet
    }

    @Test("the prompt at a frame agrees with a linear scan at every prompt edge and at random frames of an 8-hour sheet")
    func agreesWithLinearScan() throws {
        let sheet = Self.guidedEightHours()
        try sheet.validate()
        let timeline = try CueTimeline(sheet)
        let voice = try #require(sheet.voice)
        #expect(voice.count > 2000)
        // the reference: every prompt's frames, scanned in order (one array, read without copying the sheet)
        let spans = voice.map { (frame: $0.frame, end: $0.endFrame, index: $0.index) }
        func linear(_ frame: Int64) -> Int? { spans.first { $0.frame <= frame && frame < $0.end }?.index }
        var mismatches: [String] = []
        var checked = 0
        func check(_ frame: Int64) {
            checked += 1
            let got = timeline.prompt(atFrame: frame)?.index, want = linear(frame)
            if got != want { mismatches.append("frame \(frame): got \(got.map(String.init) ?? "none"), want \(want.map(String.init) ?? "none")") }
        }
        for prompt in voice {
            for frame in [prompt.frame - 1, prompt.frame, prompt.frame + 1, prompt.endFrame - 1, prompt.endFrame] { check(frame) }
            if timeline.prompt(atTime: prompt.time)?.index != prompt.index { mismatches.append("time \(prompt.time): not prompt \(prompt.index)") }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        // random frames besides: between prompts, inside long ones (the edges above are where a search goes wrong)
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            check(Int64(state >> 33) % sheet.audio.frames)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(checked) frames differ, first: \(mismatches.prefix(3))")
        #expect(try CueTimeline(Synthetic.eightHours()).prompt(atFrame: 0) == nil, "a v1 sheet has no prompts")
    }

    @Test("a v1.1 sheet writes version 1.1 and its voice, and reads back to the same sheet and bytes")
    func roundTrip() throws {
        let sheet = Self.guidedEightHours()
        let text = sheet.jsonText()
        #expect(text.contains("\"version\": 1.1,"))
        let read = try CueSheet.decode(from: text)
        #expect(read == sheet)
        #expect(read.jsonText() == text)
    }

    /// A sheet edit and the path the reader reports it at.
    static let broken: [(String, String, String)] = [
        ("\"index\": 1, \"text\"", "\"index\": 5, \"text\"", "voice[1].index"),
        ("\"duck_db\": 12.0 }", "\"duck_db\": -1.0 }", "voice[0].duck_db"),
        ("\"file\": \"v.wav\", \"draft\": false", "\"file\": \"v.wav\", \"draft\": true", "voice[0].file"),
        ("\"segment\": 0, \"cycle\"", "\"segment\": -1, \"cycle\"", "phases[0].segment"),
        ("\"segment\": 0, \"cycle\"", "\"segment\": 1, \"cycle\"", "phases[0].segment"),
        ("\"kind\": \"practice\", \"segment\": 0", "\"kind\": \"practice\", \"segment\": -2", "sections[1].segment"),
        ("\"length\": 4.0, \"start_frame\"", "\"length\": 0, \"start_frame\"", "phases[0].length"),
    ]

    @Test(
        "a voice entry out of order, with a wrong index, a negative depth, a draft naming a file, or a bad segment or phase length is refused at its path",
        arguments: broken.indices)
    func refusals(_ i: Int) {
        let (of, with, path) = Self.broken[i]
        var sheet = Synthetic.sheet(rate: 48000, intro: 10_000_000_000, outro: 0, pattern: Synthetic.unevenPattern, phaseCount: 8)
        sheet.voice = [0, 4].enumerated().map { n, phase in
            CueSheet.VoicePrompt(
                index: n, text: "p", file: "v.wav", draft: false, phase: phase, frame: sheet.phases[phase].startFrame, lengthFrames: 4800,
                duckDB: 12, sampleRate: 48000)
        }
        sheet.minorVersion = 1
        for i in sheet.sections.indices where sheet.sections[i].kind == "practice" { sheet.sections[i].segment = 0 }
        for i in sheet.phases.indices {
            sheet.phases[i].segment = 0
            sheet.phases[i].length = DecimalText("4")
        }
        #expect(throws: Never.self) { try sheet.validate() }
        let text = sheet.jsonText()
        let edited = text.replacingOccurrences(of: of, with: with, options: [], range: text.range(of: of))
        #expect(edited != text)
        do {
            _ = try CueSheet.decode(from: edited)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains(path), "\(error)")
        }
    }
}
