import Foundation
import TestKit
import Testing

/// Issue 30 item 8: `render --check` refuses what the render refuses, without decoding audio. All
/// the cue sound of a track (at most 8 × its length) is counted from a tone's `length` and a cue
/// file's header.
@Suite("--check refuses what render refuses")
struct CheckParityTests {
    struct CueCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// The cue: a tone or a file in the assets folder.
        let cue: String
        /// Whether it is over the limit on 100 one-second phases.
        let tooMuch: Bool
        var testDescription: String { name }
    }

    static let cases: [CueCase] = [
        CueCase(name: "a 60 s tone on every 1 s phase", cue: "{ tone: 440 Hz, length: 60s }", tooMuch: true),
        CueCase(name: "a 9 s file at the output's rate", cue: "{ file: cues/nine-48k.wav }", tooMuch: true),
        CueCase(name: "a 9 s file at 44.1 kHz, resampled", cue: "{ file: cues/nine-44k.wav }", tooMuch: true),
        CueCase(name: "a 7 s file (under the limit)", cue: "{ file: cues/seven-48k.wav }", tooMuch: false),
        CueCase(name: "a 7.9 s tone (under the limit)", cue: "{ tone: 440 Hz, length: 7.9s }", tooMuch: false),
    ]

    @Test("too much cue sound: --check and render both refuse it at the cue (65), or both accept it", arguments: cases)
    func cueSound(_ c: CueCase) throws {
        let folder = try TempFolder("check-parity")
        for (name, rate, seconds) in [("nine-48k", 48000, 9), ("nine-44k", 44100, 9), ("seven-48k", 48000, 7)] {
            try Fixture.writeSound(
                folder.file("assets/cues/\(name).wav"),
                Fixture.sine(frequency: 440, amplitudes: [0.1], sampleRate: rate, frames: rate * seconds), sampleRate: rate, channels: 1)
        }
        // 100 phases of 1 s: 100 s, at most 800 s of cue sound
        let recipe = try folder.write(
            "id: parity\npattern: { phases: [ { inhale: 1s } ] }\ncycles: 100\ncues:\n  inhale: \(c.cue)\n"
                + "output: { format: wav, loudness: off }\n",
            to: "recipes/parity.yml")
        let checked = try runRender(["--check", recipe])
        let rendered = try runRender([recipe, "-o", folder.file("out/parity.wav"), "-q"])
        if c.tooMuch {
            for result in [checked, rendered] {
                #expect(result.status == 65, "\(result)")
                #expect(
                    result.stderr.contains("parity.yml:5:") && result.stderr.contains("cues.inhale: expected at most 8 times the track's length"),
                    "\(result.stderr)")
            }
        } else {
            #expect(checked.status == 0, "\(checked)")
            #expect(rendered.status == 0, "\(rendered)")
        }
    }
}
