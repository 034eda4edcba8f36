import AudioCore
import AudioIO
import Testing

/// AudioIO's binding of each output format to its writer and reader agrees with the format's row
/// of the table (`FormatFacts`).
@Suite struct FormatBindingTests {
    @Test("each format's writer stores what its row says: the depths, floats for lossy formats, AAC in parts, Vorbis's quality")
    func writersAgreeWithTheTable() {
        for format in AudioFormat.allCases {
            let facts = format.facts
            for depth in BitDepth.allCases where facts.bitDepths.isEmpty || facts.bitDepths.contains(depth) {
                let writer = format.writer(bitDepth: depth)
                switch writer {
                case .soundFile(let written, let riff):
                    #expect(!facts.decodedAndChecked && riff == (format == .wav), "\(format) \(depth)")
                    let byDepth: [BitDepth: SoundFileWriter.Format] =
                        riff ? [.int16: .wav16, .int24: .wav24, .float32: .wavFloat] : [.int16: .caf16, .int24: .caf24]
                    #expect(written == byDepth[depth], "\(format) \(depth)")
                case .flac(let bits), .alac(let bits):
                    #expect(!facts.decodedAndChecked && bits == depth.bytes * 8, "\(format) \(depth)")
                case .vorbis(let quality):
                    #expect(facts.decodedAndChecked && Double(quality) == facts.vorbisQuality)
                case .opus, .mp3:
                    #expect(facts.decodedAndChecked && facts.defaultBitrate != nil)
                case .aacInParts:
                    #expect(facts.encodedInParts)
                }
                #expect(facts.encodedInParts == (writer == .aacInParts), "\(format)")
            }
            // both M4A codecs are read back through libavformat, everything else through libsndfile
            #expect((format.reader == .m4a) == (facts.container == "MP4"), "\(format)")
        }
    }
}
