import AudioCore
import Foundation
import Testing

/// A render that fails, and whether an older output sits where it would go.
struct FailingRender: CustomTestStringConvertible, Sendable {
    /// Why it fails: the bed it names (and writes, if any), and the failure's kind, exit status and words.
    struct Cause: Sendable {
        let rawValue: String
        let bedName: String
        let writeBed: @Sendable (_ folder: TempFolder, _ rate: Int) throws -> Void
        let kind: FailureKind
        let status: Int32
        let words: String

        /// `loudness: off` and gains that push the mix over full scale, two seconds in.
        static let clippingMix = Cause(
            rawValue: "clippingMix", bedName: "loud.wav",
            writeBed: { folder, rate in
                // 2 s at 0.1, then 3.5 s at 0.9; with +6 dB the second part peaks at 1.8
                let quiet = Fixture.sine(frequency: 300, amplitudes: [0.1], sampleRate: rate, frames: 2 * rate)
                let loud = Fixture.sine(frequency: 300, amplitudes: [0.9], sampleRate: rate, frames: 7 * rate / 2)
                try Fixture.writeSound(folder.file("assets/loud.wav"), quiet + loud, sampleRate: rate, channels: 1)
            }, kind: .data, status: 65, words: "clip")
        /// `bed.file` names a file that does not exist.
        static let missingBed = Cause(
            rawValue: "missingBed", bedName: "absent.wav", writeBed: { folder, _ in try folder.folder("assets") }, kind: .noInput, status: 66,
            words: "absent.wav")
    }
    let cause: Cause
    let fileExtension: String
    let existing: Bool
    let viaBinary: Bool
    var testDescription: String {
        "\(cause.rawValue) → .\(fileExtension)\(existing ? " over an existing file" : "")\(viaBinary ? " (binary)" : "")"
    }
}

@Suite("A failed render leaves nothing behind")
struct AtomicOutputTests {
    static let rate = 48000

    @Test(
        "no partial or hidden file appears, and an existing output stays byte for byte",
        arguments: [
            FailingRender(cause: .clippingMix, fileExtension: "flac", existing: false, viaBinary: false),
            FailingRender(cause: .clippingMix, fileExtension: "flac", existing: true, viaBinary: false),
            FailingRender(cause: .clippingMix, fileExtension: "wav", existing: true, viaBinary: true),
            FailingRender(cause: .clippingMix, fileExtension: "ogg", existing: true, viaBinary: false),
            FailingRender(cause: .missingBed, fileExtension: "flac", existing: false, viaBinary: false),
            FailingRender(cause: .missingBed, fileExtension: "wav", existing: true, viaBinary: true),
        ])
    func failedRender(_ c: FailingRender) throws {
        let folder = try TempFolder("atomic")
        let rate = Self.rate
        try c.cause.writeBed(folder, rate)
        let bedName = c.cause.bedName
        let recipe = try folder.write(
            """
            duration: 5s
            \(inlinePattern([TestPhase(kind: "inhale", length: "2s"), TestPhase(kind: "exhale", length: "2s")]))cues: {}
            bed:
              file: \(bedName)
              gain: 6 dB
            output:
              sample_rate: \(rate)
              channels: 2
              loudness: off
            """, to: "recipes/mix.yml")
        let outFolder = try folder.folder("out")
        let output = folder.file("out/mix.\(c.fileExtension)")
        var before: [String: [UInt8]] = [:]
        if c.existing {
            before["mix.\(c.fileExtension)"] = Fixture.randomBytes(4096, seed: 7)
            before["mix.cues.json"] = Array("{\"format\": \"session-cues\", \"old\": true}\n".utf8)
            for (name, content) in before { try folder.write(content, to: "out/\(name)") }
        }

        if c.viaBinary {
            let result = try runRender([recipe, "-o", output, "--assets", folder.file("assets")])
            #expect(result.status != 0, "the render should fail")
            #expect(result.status == c.cause.status, "exit status \(result.status): \(result.stderr)")
            #expect(result.stderr.contains(c.cause.words), "\(result.stderr)")
            #expect(result.stderr.contains("error:"))
        } else {
            let failure = renderFailure(recipe, to: output, assets: folder.file("assets"))
            let error = try #require(failure, "the render should fail")
            #expect(error.kind == c.cause.kind)
            #expect(error.description.contains(c.cause.words), "\(error)")
        }

        // nothing new in the output folder, not even a hidden temporary file
        let after = try FileManager.default.contentsOfDirectory(atPath: outFolder).sorted()
        #expect(after == before.keys.sorted(), "the output folder holds \(after)")
        for (name, content) in before {
            #expect(try bytes(folder.file("out/\(name)")) == content, "\(name) was changed by a failed render")
        }
        // nor beside the recipe or in the assets
        #expect(try folder.listing("recipes") == ["mix.yml"])
    }

    @Test("a successful render replaces an existing output whole")
    func replaces() throws {
        let folder = try TempFolder("replace")
        let recipe = try folder.write(
            """
            duration: 3s
            \(inlinePattern([TestPhase(kind: "inhale", length: "1s"), TestPhase(kind: "exhale", length: "1s")]))output:
              loudness: off
            """, to: "r.yml")
        let old = Fixture.randomBytes(100, seed: 3)
        try folder.write(old, to: "out/r.flac")
        try folder.write(Array("old".utf8), to: "out/r.cues.json")
        let (_, sheet) = try renderInProcess(recipe, to: folder.file("out/r.flac"))
        #expect(try folder.listing("out") == ["r.cues.json", "r.flac"])
        #expect(try bytes(folder.file("out/r.flac")) != old)
        #expect(sheet.audio.sha256 == (try sha256(ofFile: folder.file("out/r.flac"))))
        #expect(try readAudio(folder.file("out/r.flac")).frames == 3 * 48000)
    }
}
