import AudioCore

/// docs/recipes.md's format table, made from the output-format table (`FormatFacts`) and the
/// recipe's limits; `FormatTableTests` fails when the page's rows differ from these.
public enum FormatReference {
    /// The table's Markdown lines: the header, the rule, one row per format in `AudioFormat.allCases` order.
    public static var markdownLines: [String] {
        [
            "| format | file | bit depth | sample rates | bit rate | channels | codec | container | limiter ceiling |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ] + AudioFormat.allCases.map(row)
    }

    /// One format's row.
    static func row(_ format: AudioFormat) -> String {
        let facts = format.facts
        let depths = BitDepth.allCases.filter(facts.bitDepths.contains).map(\.rawValue)
        let cells = [
            "`\(format.rawValue)`", "`.\(facts.fileExtension)`", depths.isEmpty ? "none" : depths.joined(separator: ", "),
            facts.caveat ?? rates(facts.sampleRates), bitrates(facts),
            facts.channelCounts.map(list) ?? "\(RecipeLimits.channelCounts.lowerBound) to \(RecipeLimits.channelCounts.upperBound)",
            facts.codec, facts.container,
            (facts.ceilingHeadroom > 0 ? "`true_peak` − \(DiagnosticText.number(facts.ceilingHeadroom)) dB" : "`true_peak`")
                + (facts.decodedAndChecked ? "; the file is decoded and checked" : ""),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    private static func rates(_ rates: FormatSampleRates) -> String {
        switch rates {
        case .any: "\(thousands(RecipeLimits.sampleRates.lowerBound)) to \(thousands(RecipeLimits.sampleRates.upperBound)) Hz"
        case .upTo(let top, _, _): "\(thousands(RecipeLimits.sampleRates.lowerBound)) to \(thousands(top)) Hz"
        case .only(let list): list.map(thousands).joined(separator: ", ") + " Hz"
        }
    }

    private static func bitrates(_ facts: FormatFacts) -> String {
        let standard = facts.defaultBitrate.map { k($0) } ?? ""
        switch facts.bitrates {
        case nil:
            return "none"
        case .encoderTables:
            return "optional (default: quality \(facts.vorbisQuality.map(DiagnosticText.number) ?? ""))"
        case .perChannel(let each):
            return "\(k(each.lowerBound)) to \(k(each.upperBound)) per channel, default \(standard)"
        case .perChannelFrame(let bits):
            let lowest = RecipeLimits.sampleRates.lowerBound
            return "at most \(bits) × rate × channels bits/s (\(k(bits * lowest)) mono at \(lowest / 1000) kHz), default \(standard)"
        case .fromRate(let tiers):
            let steps = tiers.map { $0.fromRate > 0 ? "\(k($0.top)) from \($0.fromRate / 1000) kHz" : "\(k($0.top)) below" }
            return "up to " + steps.joined(separator: ", ") + "; default \(standard)"
        }
    }

    /// `128k`.
    private static func k(_ bits: Int) -> String { "\(bits / 1000)k" }

    /// `44,100`.
    private static func thousands(_ value: Int) -> String {
        value >= 1000 ? "\(value / 1000)," + String(String(value % 1000 + 1000).dropFirst()) : "\(value)"
    }

    /// `1, 2, 4, 5 or 6`.
    private static func list(_ counts: [Int]) -> String {
        counts.dropLast().map(String.init).joined(separator: ", ") + (counts.count > 1 ? " or " : "") + (counts.last.map(String.init) ?? "")
    }
}
