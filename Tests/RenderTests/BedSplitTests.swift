import AudioCore
import AudioIO
import CSndfile
import Foundation
import Testing

@testable import Render

/// A long bed is resampled in two pieces on two threads; the result must be the continuous conversion.
@Suite("Bed preparation in two pieces")
struct BedSplitTests {
    /// Containers the second piece seeks into (WAV, FLAC, Ogg Vorbis: `seeksExactly`), and MP3, which it reads through.
    static let formats: [String: SoundFileWriter.Format] = [
        "wav": .wavFloat, "flac": .flac24, "ogg": SoundFileWriter.Format(major: Int32(SF_FORMAT_OGG), subtype: Int32(SF_FORMAT_VORBIS)),
        "mp3": .mp3,
    ]

    @Test(
        "the two-piece conversion matches one continuous conversion: same length, same samples at the seam",
        arguments: [
            (44100, 48000, "wav"), (48000, 44100, "wav"), (22050, 48000, "wav"), (32000, 44100, "wav"),
            (44100, 48000, "flac"), (44100, 48000, "ogg"), (48000, 44100, "mp3"),
        ])
    func seam(rates: (Int, Int, String)) throws {
        let (input, output, container) = rates
        let format = try #require(Self.formats[container])
        try #require(canWrite(format, sampleRate: input), "libsndfile here cannot write \(container)")
        let folder = try TempFolder("bedsplit")
        let path = folder.file("bed.\(container)")
        let seconds = 25
        try Fixture.writeSound(
            path, Fixture.whiteNoise(frames: input * seconds * 2, amplitude: 0.5, seed: 9), sampleRate: input, channels: 2, format: format)
        let source = try SoundFileReader(path: path)
        #expect(source.seeksExactly == (container != "mp3"))
        let cut = try #require(PreparedBed.cut(frames: Int64(input * seconds), from: input, to: output))
        // the cut lands on a source frame whose output time is a whole frame
        #expect(cut.cut * Int64(output) % Int64(input) == 0)

        var reference: [Float] = []
        let frames = try AudioDecoder.decode(path: path, sampleRate: output, channels: 2, maximumFrames: 1 << 40) { p, n in
            reference.append(contentsOf: p[0..<(n * 2)])
        }
        let bed = try PreparedBed(path: path, sampleRate: output, channels: 2)
        #expect(bed.frames == frames, "two pieces gave \(bed.frames) frames, one conversion \(frames)")
        var split = [Float](repeating: 0, count: Int(bed.frames) * 2)
        try split.withUnsafeMutableBufferPointer { p in try bed.read(frame: 0, count: Int(bed.frames), into: p.baseAddress!) }
        var worst: Float = 0
        var worstAt = 0
        for i in 0..<min(split.count, reference.count) where abs(split[i] - reference[i]) > worst {
            worst = abs(split[i] - reference[i])
            worstAt = i / 2
        }
        let seamFrame = cut.cut * Int64(output) / Int64(input)
        // far below the 24-bit step (1.2e-7 of full scale is one LSB)
        #expect(worst < 1e-6, "largest difference \(worst) at frame \(worstAt) (seam at \(seamFrame))")
    }
}
