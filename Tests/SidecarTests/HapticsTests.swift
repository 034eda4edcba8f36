import CadenceCues
import Foundation
import Recipe
import Sidecars
import Testing
import Timeline

/// `OUT.ahap` and `OUT.haptics.json` (cues-v1.2): written from `HapticSteps`, read back with
/// JSONSerialization and checked against the steps, the envelope and the cues they came from.
@Suite struct HapticsTests {
    static func timeline(_ body: String) throws -> Timeline {
        try Timeline(recipe: RecipeLoader.parse(Array(("id: box-5m\ntitle: Box\n" + body).utf8), file: "box-5m.yml", defaultID: "box-5m"))
    }

    /// Box breathing with a 10 s intro and the default cues (start, inhale, exhale, end), as in the spec's example.
    static let boxBody = "pattern: box\ncycles: 17\nintro: 10s\noutro: 18s\n"

    static func haptics(_ body: String = boxBody, guide: BreathGuideSettings = .defaults) throws -> (Timeline, BreathEnvelope, HapticSteps) {
        let t = try timeline(body)
        let env = BreathEnvelope(timeline: t, guide: guide)
        return (t, env, HapticSteps(timeline: t, envelope: env))
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func ms(_ seconds: Any?) throws -> Int64 {
        let x = try #require(seconds as? Double)
        return Int64((x * 1000).rounded())
    }

    // MARK: - Android

    @Test("the spec's example: timings start [10000, 20, 80, 100], amplitudes [0, 255, 0, 1]")
    func specExample() throws {
        let (_, _, h) = try Self.haptics()
        let doc = try Self.json(AndroidHaptics.jsonText(of: h, id: "box-5m"))
        #expect(doc["format"] as? String == "cadence-haptics")
        #expect(doc["version"] as? Int == 1)
        #expect(doc["id"] as? String == "box-5m")
        let timings = try #require(doc["timings_ms"] as? [Int])
        let amplitudes = try #require(doc["amplitudes"] as? [Int])
        #expect(Array(timings.prefix(4)) == [10000, 20, 80, 100])
        #expect(Array(amplitudes.prefix(4)) == [0, 255, 0, 1])
    }

    /// The waveform millisecond by millisecond, from its pieces.
    static func perMillisecond(_ pieces: [AndroidHaptics.Piece]) -> [Int] {
        pieces.flatMap { [Int](repeating: $0.amplitude, count: Int($0.ms)) }
    }

    /// What each millisecond should be, straight from the spec: 0, a step's round(255·level), a transient's window.
    static func expected(_ h: HapticSteps) -> [Int] {
        var out = [Int](repeating: 0, count: Int(h.totalMS))
        for step in h.steps {
            for m in step.startMS..<step.endMS { out[Int(m)] = Int((255 * step.level).rounded()) }
        }
        var tap = [Int](repeating: -1, count: Int(h.totalMS))
        for t in h.transients {
            for m in t.ms..<min(t.ms + 20, h.totalMS) { tap[Int(m)] = max(tap[Int(m)], Int((255 * t.intensity).rounded())) }
        }
        for m in out.indices where tap[m] >= 0 { out[m] = tap[m] }
        return out
    }

    @Test(
        "the waveform: timings add up to ms(frames), every piece ≥ 1 ms, each millisecond as the spec says, a piece at every step boundary",
        arguments: [
            boxBody,
            // 44.1 kHz, odd lengths, an outro shorter than 2 s, every guide value
            "pattern:\n  phases:\n    - { inhale: 4.3001s }\n    - { hold: 1.7s }\n    - { exhale: 5.5003s }\n    - { rest: 0.9s }\n"
                + "cycles: 3\nintro: 7.123s\noutro: 1.3s\noutput: { sample_rate: 44100 }\n",
            // no intro, no outro
            "pattern: coherent\ncycles: 4\n",
        ])
    func waveform(_ body: String) throws {
        let (t, env, h) = try Self.haptics(body, guide: BreathGuideSettings(kinds: ["rest": .none]))
        let pieces = AndroidHaptics.pieces(of: h)
        #expect(pieces.reduce(0) { $0 + $1.ms } == HapticSteps.ms(t.totalFrames, rate: t.sampleRate))
        #expect(pieces.allSatisfy { $0.ms >= 1 && (0...255).contains($0.amplitude) })
        let got = Self.perMillisecond(pieces)
        let want = Self.expected(h)
        #expect(got.count == want.count)
        let wrong = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(wrong == nil, "first wrong millisecond: \(String(describing: wrong))")
        // step amplitudes are round(255 · E) at the step's middle frame
        for step in h.steps {
            let middle = Double(step.startMS + step.endMS) / 2 * Double(t.sampleRate) / 1000
            #expect(abs(step.level - env.value(atFractionalFrame: middle)) < 1e-9)
        }
        // a piece boundary at every step boundary outside the transients' windows
        var boundaries: Set<Int64> = [0]
        var at: Int64 = 0
        for p in pieces {
            at += p.ms
            boundaries.insert(at)
        }
        let windows = h.transients.map { ($0.ms, $0.ms + 20) }
        for step in h.steps {
            for m in [step.startMS, step.endMS] where !windows.contains(where: { $0.0 < m && m < $0.1 }) {
                #expect(boundaries.contains(m), "no piece boundary at \(m) ms")
            }
        }
        // and the JSON says the same
        let doc = try Self.json(AndroidHaptics.jsonText(of: h, id: "x"))
        #expect(doc["timings_ms"] as? [Int] == pieces.map { Int($0.ms) })
        #expect(doc["amplitudes"] as? [Int] == pieces.map(\.amplitude))
    }

    /// The waveform of a 1 s file without moving spans and with transients at `cues` (name, frame at 48 kHz).
    static func taps(_ cues: [(String, Int64)], totalFrames: Int64 = 48000) -> [AndroidHaptics.Piece] {
        let env = BreathEnvelope(phases: [], outroStart: nil, totalFrames: totalFrames, sampleRate: 48000, shape: .sine)
        return AndroidHaptics.pieces(of: HapticSteps(envelope: env, cues: cues.map { (name: $0.0, frame: $0.1) }))
    }

    @Test("overlapping transients: the higher holds over the overlap; a window is cut at the end; none of 0 ms")
    func overlaps() {
        // 0.8 at 100 ms, 1.0 at 110 ms
        #expect(
            Self.taps([("inhale", 4800), ("start", 5280)]).map { [$0.ms, Int64($0.amplitude)] } == [
                [100, 0], [10, 204], [20, 255], [870, 0],
            ])
        // 1.0 at 100 ms, 0.8 at 110 ms: the higher's window whole, the lower's rest after it
        #expect(
            Self.taps([("end", 4800), ("exhale", 5280)]).map { [$0.ms, Int64($0.amplitude)] } == [
                [100, 0], [20, 255], [10, 204], [870, 0],
            ])
        // the same millisecond: one piece of 20 ms at 255, the lower one's window all covered
        #expect(Self.taps([("start", 4800), ("inhale", 4800)]).map { [$0.ms, Int64($0.amplitude)] } == [[100, 0], [20, 255], [880, 0]])
        // at 990 ms of a 1 s file: 10 ms
        #expect(Self.taps([("hold", 47520)]).map { [$0.ms, Int64($0.amplitude)] } == [[990, 0], [10, 204]])
        // at the first millisecond
        #expect(Self.taps([("hold", 0)]).map { [$0.ms, Int64($0.amplitude)] } == [[20, 204], [980, 0]])
    }

    // MARK: - AHAP

    @Test("AHAP.write hands the file over in pieces of about chunkBytes that join into the one text, whatever the piece size")
    func ahapInPieces() throws {
        let (_, _, h) = try Self.haptics()
        var whole: [String] = []
        AHAP.write(h, id: "box-5m", chunkBytes: .max) { whole.append($0) }
        #expect(whole.count == 1)
        var pieces: [String] = []
        AHAP.write(h, id: "box-5m", chunkBytes: 512) { pieces.append($0) }
        // a piece is cut after the event that takes it to 512 bytes: never much over, and many of them
        #expect(pieces.count > 10 && pieces.dropLast().allSatisfy { $0.utf8.count >= 512 && $0.utf8.count < 1024 }, "\(pieces.map(\.utf8.count))")
        #expect(pieces.joined() == whole[0] && whole[0] == AHAP.text(of: h, id: "box-5m"))
    }

    @Test("AHAP: version, project, no curves; a continuous event per step above 0 with its level; transients at the cues")
    func ahap() throws {
        let (t, _, h) = try Self.haptics()
        let text = AHAP.text(of: h, id: "box-5m")
        #expect(text == AHAP.text(of: h, id: "box-5m"))
        #expect(!text.contains("ParameterCurve") && !text.contains("HapticDynamic"))
        let doc = try Self.json(text)
        #expect(doc["Version"] as? Double == 1.0)
        #expect((doc["Metadata"] as? [String: Any])?["Project"] as? String == "box-5m")
        let events = try #require(doc["Pattern"] as? [[String: Any]]).map { try #require($0["Event"] as? [String: Any]) }

        func parameter(_ e: [String: Any], _ id: String) throws -> Double {
            let list = try #require(e["EventParameters"] as? [[String: Any]])
            return try #require(list.first { $0["ParameterID"] as? String == id }?["ParameterValue"] as? Double)
        }
        var continuous: [(Int64, Int64, Double)] = []
        var transients: [(Int64, Double)] = []
        var last: (Int64, Int) = (-1, 0)
        for e in events {
            let time = try Self.ms(e["Time"])
            let type = try #require(e["EventType"] as? String)
            // time order; at the same time a transient (0) before a continuous event (1)
            let rank = type == "HapticTransient" ? 0 : 1
            #expect(last <= (time, rank), "event at \(time) ms after one at \(last.0) ms")
            last = (time, rank)
            if type == "HapticContinuous" {
                continuous.append((time, try Self.ms(e["EventDuration"]), try parameter(e, "HapticIntensity")))
                #expect(try parameter(e, "HapticSharpness") == 0.2)
            } else {
                #expect(type == "HapticTransient")
                #expect(e["EventDuration"] == nil)
                transients.append((time, try parameter(e, "HapticIntensity")))
                #expect(try parameter(e, "HapticSharpness") == 0.5)
            }
        }
        // one continuous event per step whose level rounds above 0, with that level to 4 decimals
        let audible = h.steps.filter { ($0.level * 10_000).rounded() > 0 }
        #expect(audible.count < h.steps.count)  // the steps near empty round to 0
        #expect(continuous.count == audible.count)
        for (event, step) in zip(continuous, audible) {
            #expect(event.0 == step.startMS && event.1 == step.endMS - step.startMS)
            #expect(event.2 == (step.level * 10_000).rounded() / 10_000)
            #expect(event.2 > 0 && event.2 <= 1)
        }
        // nothing starts inside a hold
        let rate = t.sampleRate
        for phase in t.phases where phase.kind == "hold" {
            let (s, e) = (HapticSteps.ms(phase.startFrame, rate: rate), HapticSteps.ms(phase.endFrame, rate: rate))
            #expect(!continuous.contains { $0.0 >= s && $0.0 < e }, "a continuous event in the hold at \(s) ms")
        }
        // a transient per cue that sounds (start, inhales, exhales, end; holds have none), at 0.8 or 1.0
        let cues = t.cues
        #expect(transients.count == cues.count)
        for (tap, cue) in zip(transients, cues) {
            #expect(tap.0 == HapticSteps.ms(cue.frame, rate: rate))
            #expect(tap.1 == (cue.name == "start" || cue.name == "end" ? 1.0 : 0.8))
        }
        #expect(transients.prefix(2).map(\.0) == [10000, 10000])
        #expect(transients.first?.1 == 1.0 && transients.last?.1 == 1.0)
        // seconds with 3 decimals and levels with 4 as written
        #expect(text.contains("\"Time\": 10.000, \"EventType\": \"HapticTransient\""))
        #expect(text.contains("{ \"Time\": 10.000, \"EventType\": \"HapticContinuous\", \"EventDuration\": 0.100"))
        #expect(text.contains("\"ParameterValue\": 0.0004 }"))
    }

    @Test("AHAP: ticks make no transients, a cue set to none makes none, kinds that hold make no continuous events")
    func ticksAndNone() throws {
        let body = "pattern: box\ncycles: 2\nintro: 2s\noutro: 3s\ncues: { inhale: bell, exhale: none, tick: { preset: click, every: 1s } }\n"
        let (t, _, h) = try Self.haptics(body, guide: BreathGuideSettings(kinds: ["inhale": .hold, "exhale": .hold]))
        #expect(t.cues.contains { $0.name == "tick" })
        #expect(h.transients.map(\.cue) == ["inhale", "inhale"])
        // only the outro's fall moves, from 0: 20 steps of E = 0, which AHAP leaves out
        #expect(h.steps.count == 20 && h.steps.allSatisfy { $0.level == 0 })
        let doc = try Self.json(AHAP.text(of: h, id: "x"))
        let events = try #require(doc["Pattern"] as? [[String: Any]])
        #expect(events.count == 2)
        // Android: still but for the taps
        // each step of the outro's fall its own piece (not merged), then the still second after it
        let pieces = AndroidHaptics.pieces(of: h)
        #expect(pieces.map(\.amplitude) == [0, 204, 0, 204, 0] + [Int](repeating: 0, count: 20) + [0])
        #expect(pieces.map(\.ms) == [2000, 20, 15980, 20, 15980] + [Int64](repeating: 100, count: 20) + [1000])
    }
}
