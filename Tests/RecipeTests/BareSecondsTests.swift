import AudioCore
import Testing

@testable import Recipe

/// Issue 30 item 18: `fade_in: 4000` is an hour and six minutes, and the error says a bare number
/// is seconds; a problem every variant shares is reported once.
@Suite("Bare numbers of seconds")
struct BareSecondsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let yaml: String
        /// Words the one error at `line` must hold.
        let line: Int
        let words: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a bare fade longer than the track",
            yaml: "pattern: box\nduration: 10m\nbed: { synth: pink-noise, fade_in: 4000 }\n", line: 3,
            words: ["bed.fade_in: expected fades that fit in the track (10m)", "a bare number is seconds: '4000' is 1h6m40s", "'4000ms'"]),
        Case(
            name: "the other fade is the bare one",
            yaml: "pattern: box\nduration: 10m\nbed: { synth: pink-noise, fade_in: 10s, fade_out: 3000 }\n", line: 3,
            words: ["expected fades that fit", "a bare number is seconds: '3000' is 50m"]),
        Case(
            name: "a bare cue length over 60 s",
            yaml: "pattern: box\nduration: 10m\ncues: { inhale: { tone: 440 Hz, length: 800 } }\n", line: 3,
            words: ["cues.inhale.length", "longer than 60s", "a bare number is seconds: '800' is 13m20s"]),
        Case(
            name: "a bare intro that leaves no room for a cycle", yaml: "pattern: box\nduration: 10m\nintro: 4000\n", line: 2,
            words: ["room for one cycle", "intro: a bare number is seconds: '4000' is 1h6m40s"]),
        Case(
            name: "a bare outro over 24 h", yaml: "pattern: box\ncycles: 3\noutro: 90000\n", line: 3,
            words: ["outro: expected a length", "over 24 h; a bare number is seconds"]),
        Case(
            name: "a fade that fits no variant: once, at the shortest",
            yaml: "pattern: box\nvariants: { duration: [5m, 10m, 20m] }\nbed: { synth: pink-noise, fade_in: 4000 }\n", line: 3,
            words: ["fit in the track (5m, the shortest variant)", "a bare number is seconds: '4000' is 1h6m40s"]),
    ]

    @Test("the error at a length written as a bare number says it is seconds, and is reported once", arguments: cases)
    func bareNumber(_ c: Case) {
        let found = problems(c.yaml)
        #expect(found.count == 1, "\(found)")
        let message = found.first?.message ?? ""
        #expect(found.first?.location?.line == c.line, "\(found)")
        for word in c.words { #expect(message.contains(word), "'\(word)' not in: \(message)") }
    }

    @Test("a length with a unit gets no note about bare numbers")
    func withUnit() {
        let found = problems("pattern: box\nduration: 10m\nbed: { synth: pink-noise, fade_in: 4000s }\n")
        #expect(found.count == 1 && !(found.first?.message.contains("bare number") ?? true), "\(found)")
    }
}
