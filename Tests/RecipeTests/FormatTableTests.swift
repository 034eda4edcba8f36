import AudioCore
import Foundation
import Recipe
import TestKit
import Testing

/// The output-format table (`FormatFacts`, AudioCore): its rows hold together (docs/recipes.md's format
/// table is written from it: `GeneratedFilesTests`).
@Suite struct FormatTableTests {
    @Test("each format's row holds together: lossy formats have a bit rate and headroom and are checked, lossless ones store bit depths")
    func rowsAgree() {
        for format in AudioFormat.allCases {
            let facts = format.facts
            #expect(facts.format == format)
            #expect(AudioFormat(fileExtension: facts.fileExtension.uppercased())?.fileExtension == facts.fileExtension)
            #expect(format.matches(fileExtension: facts.fileExtension))
            for other in facts.otherExtensions { #expect(AudioFormat(fileExtension: other) == format, "\(format): .\(other)") }
            let lossy = facts.decodedAndChecked
            #expect(lossy == (facts.bitrates != nil), "\(format): a bit rate exactly when lossy")
            #expect(lossy == facts.bitDepths.isEmpty, "\(format): bit depths exactly when lossless")
            #expect(lossy == (facts.ceilingHeadroom > 0), "\(format): headroom exactly when lossy")
            #expect((facts.defaultBitrate == nil) == (facts.vorbisQuality != nil) || !lossy, "\(format): a default bit rate or quality")
            if case .only(let rates) = facts.sampleRates {
                #expect(rates == rates.sorted() && rates.allSatisfy(RecipeLimits.sampleRates.contains), "\(format): \(rates)")
            }
            if let counts = facts.channelCounts {
                #expect(counts == counts.sorted() && counts.allSatisfy(RecipeLimits.channelCounts.contains), "\(format): \(counts)")
            }
            if let standard = facts.defaultBitrate, let range = facts.bitrates(sampleRate: 48000, channels: 2)?.range {
                #expect(range.contains(standard), "\(format): default \(standard) at 48 kHz stereo")
            }
        }
        // one format per extension read: .m4a is AAC; Apple Lossless is asked for by name
        #expect(AudioFormat(fileExtension: "m4a") == .m4a && AudioFormat.alac.matches(fileExtension: "M4A"))
        #expect(AudioFormat.fileExtensions == ["wav", "flac", "ogg", "opus", "mp3", "caf", "m4a"])
    }

    @Test("the recipe's checks read the table: ALAC's channel layouts, AAC's rates without 7350 Hz, the float-depth rule")
    func checksReadTheTable() {
        #expect(RecipeLimits.fixedChannelCounts(of: .alac) == [1, 2, 4, 5, 6])
        #expect(RecipeLimits.channelCountMessage(3, format: .alac)?.contains("it takes 1, 2, 4, 5, 6 (did you mean 4?") == true)
        #expect(RecipeLimits.sampleRateMessage(7350, format: .m4a)?.contains("it takes 8000, 11025,") == true)
        #expect(AudioFormat.allCases.filter(\.isIntegerOnly) == [.flac, .caf, .alac])
        #expect(AudioFormat.allCases.filter(\.isLossy) == [.ogg, .opus, .mp3, .m4a])
        #expect(AudioFormat.allCases.filter(\.hasVorbisOrder) == [.ogg, .opus])
        #expect(
            RecipeLimits.bitrateProblem(128_000, format: .wav, sampleRate: 48000, channels: 2)?.hasSuffix("or choose m4a, ogg, opus or mp3") == true)
    }
}
