import Foundation
import TestKit
import Testing

/// Issue 30 item 17: a missing asset gets the near miss the folder holds, as a misspelt key does,
/// and an overlap error gives the other prompt's line.
@Suite("Hints for assets and prompts")
struct AssetHintTests {
    struct Miss: Sendable, CustomTestStringConvertible {
        let written: String
        /// The suggestion, or nil when nothing in the folder is close.
        let meant: String?
        var testDescription: String { written }
    }

    static let misses: [Miss] = [
        Miss(written: "voice/breath-in.wav", meant: "voice/breathe-in.wav"),
        Miss(written: "voice/Breathe-In.wav", meant: "voice/breathe-in.wav"),
        Miss(written: "vocie/breathe-in.wav", meant: "voice/breathe-in.wav"),
        Miss(written: "./voice/breathe-out.wav", meant: "voice/breathe-in.wav"),
        Miss(written: "voice/welcome.wav", meant: nil),
        Miss(written: "voice/breathe-in.flac", meant: "voice/breathe-in.wav"),
        Miss(written: "voice/exhale.wav", meant: nil),
        Miss(written: "nowhere/breathe-in.wav", meant: nil),
    ]

    @Test("a missing prompt clip: did you mean the near miss in its folder? (66, by --check and render)", arguments: misses)
    func nearMiss(_ m: Miss) throws {
        let folder = try TempFolder("asset-hint")
        try Fixture.writeSound(
            folder.file("assets/voice/breathe-in.wav"), Fixture.sine(frequency: 440, amplitudes: [0.2], sampleRate: 48000, frames: 24000),
            sampleRate: 48000, channels: 1)
        let recipe = try folder.write(
            "id: hint\npattern: box\ncycles: 2\nvoice:\n  prompts:\n    - { at: 1s, file: '\(m.written)', text: In }\n", to: "recipes/hint.yml")
        for arguments in [["--check", recipe], [recipe, "-o", folder.file("out/hint.wav"), "-q"]] {
            let result = try runRender(arguments)
            #expect(result.status == 66, "\(result)")
            #expect(result.stderr.contains("hint.yml:6:") && result.stderr.contains("asset '\(m.written)' not found"), "\(result.stderr)")
            if let meant = m.meant {
                #expect(result.stderr.contains("(did you mean '\(meant)'?)"), "\(result.stderr)")
            } else {
                #expect(!result.stderr.contains("did you mean"), "\(result.stderr)")
            }
        }
    }

    @Test("two prompts that overlap: the error at the second names the first's line")
    func overlapNamesBothLines() throws {
        let folder = try TempFolder("overlap-lines")
        try Fixture.writeSound(
            folder.file("assets/voice/two.wav"), Fixture.sine(frequency: 440, amplitudes: [0.2], sampleRate: 48000, frames: 96000),
            sampleRate: 48000, channels: 1)
        let recipe = try folder.write(
            "id: overlap\npattern: box\ncycles: 2\nvoice:\n  prompts:\n    - { at: 3s, file: voice/two.wav, text: A }\n\n"
                + "    - { at: 4s, file: voice/two.wav, text: B }\n",
            to: "recipes/overlap.yml")
        let result = try runRender(["--check", recipe])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.contains("overlap.yml:8:7: error: voice.prompts.1: the prompt at 4s starts while voice.prompts.0 at line 6 (3s to 5s)"),
            "\(result.stderr)")
    }
}
