import CadenceCues
import Foundation
import TestKit
import Testing

/// Two renders of one `-o` at the same moment (two CI jobs, an author and a watcher).
@Suite("Two renders writing the same output")
struct ConcurrentOutputTests {
    static func recipe(id: String, seconds: Int) -> String {
        """
        id: \(id)
        duration: \(seconds)s
        pattern: { phases: [ inhale: 2s, exhale: 2s ] }
        output: { loudness: off }
        """
    }

    /// Before the commits were one step, 5 runs of 30 left one render's cue sheet beside the other's audio.
    @Test("each round leaves an audio file and a cue sheet of the same render")
    func pairsStayTogether() throws {
        let folder = try TempFolder("race")
        let a = try folder.write(Self.recipe(id: "alpha", seconds: 12), to: "a.yml")
        let b = try folder.write(Self.recipe(id: "beta", seconds: 16), to: "b.yml")
        let output = try folder.folder("out") + "/x.wav"
        for round in 0..<16 {
            let renders = try [a, b].map { try startRender([$0, "-o", output, "--quiet"]) }
            for render in renders {
                let result = try render.wait()
                #expect(result.status == 0 && !result.signaled, "round \(round): \(result)")
            }
            let sheet = try readCueSheet(folder.file("out/x.cues.json"))
            #expect(sheet.audio.sha256 == (try sha256(ofFile: output)), "round \(round): \(sheet.id)'s cue sheet beside the other render's audio")
            #expect(try decodedShape(output).frames == sheet.audio.frames, "round \(round)")
            #expect(try folder.listing("out") == ["x.cues.json", "x.wav"], "round \(round): staging files left")
        }
    }
}
