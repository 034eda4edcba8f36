import Foundation

/// The bed's gain under voice prompts, scheduled from the timeline (recipe-v1.1 § Voice prompts).
///
/// For a prompt sounding on frames [s, e) at depth d dB, the gain in dB falls as
/// `-d × (1 − cos(π·u)) / 2` over the `attack` frames before s (u from 0 to 1), stays
/// at `-d` over [s, e), and comes back the same way over the `release` frames from e.
/// Prompts whose ramps meet or overlap form one span: the bed stays down from the
/// first prompt's start to the last one's end, at the deepest of their depths. Spans
/// are cut at the file's first and last frame. Outside every span the gain is 1 and
/// blocks are left alone; inside a span's flat part a block is scaled by one constant.
public struct DuckCurve: Sendable, Equatable {
    /// One merged span: the ramp down ends at `holdStart`, the ramp up starts at `holdEnd`.
    public struct Span: Sendable, Equatable {
        public let holdStart: Int64
        public let holdEnd: Int64
        public let depthDB: Double
        /// The frames the gain starts to fall and is back at unity: `holdStart − attack`, `holdEnd + release`.
        public let start: Int64
        public let end: Int64
    }

    public let spans: [Span]
    public let attack: Int64
    public let release: Int64

    /// The curve for `prompts` (frames [start, end) and a depth each), `attack` and `release` in frames.
    /// Prompts of depth 0 do not duck.
    public init(prompts: [(start: Int64, end: Int64, depthDB: Double)], attack: Int64, release: Int64) {
        self.attack = attack
        self.release = release
        var spans: [Span] = []
        for prompt in prompts.filter({ $0.depthDB > 0 && $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
            if let last = spans.last, prompt.start - attack <= last.end {
                let holdEnd = max(last.holdEnd, prompt.end)
                spans[spans.count - 1] = Span(
                    holdStart: last.holdStart, holdEnd: holdEnd, depthDB: max(last.depthDB, prompt.depthDB),
                    start: last.start, end: holdEnd + release)
            } else {
                spans.append(
                    Span(
                        holdStart: prompt.start, holdEnd: prompt.end, depthDB: prompt.depthDB,
                        start: prompt.start - attack, end: prompt.end + release))
            }
        }
        self.spans = spans
    }

    /// No prompt ducks: every gain is 1.
    public var isFlat: Bool { spans.isEmpty }

    /// The gain in dB at `frame` (0 outside every span).
    public func gainDB(at frame: Int64) -> Double {
        let index = firstSpan(endingAfter: frame)
        guard index < spans.count, spans[index].start <= frame else { return 0 }
        return Self.gainDB(spans[index], at: frame, attack: attack, release: release)
    }

    /// Scales `count` interleaved frames of `block`, which hold track frames [from, from + count).
    public func apply(_ block: UnsafeMutableBufferPointer<Float>, channels: Int, from: Int64, count: Int) {
        guard !spans.isEmpty, count > 0 else { return }
        let to = from + Int64(count)
        var index = firstSpan(endingAfter: from)
        while index < spans.count, spans[index].start < to {
            let span = spans[index]
            // the flat part of the span inside the block: one constant
            let flatFrom = max(from, span.holdStart), flatTo = min(to, span.holdEnd)
            if flatTo > flatFrom {
                let gain = Float(pow(10, -span.depthDB / 20))
                for k in Int(flatFrom - from) * channels..<Int(flatTo - from) * channels { block[k] *= gain }
            }
            // the ramps inside the block: a gain per frame
            for (rampFrom, rampTo) in [(max(from, span.start), min(to, span.holdStart)), (max(from, span.holdEnd), min(to, span.end))]
            where rampTo > rampFrom {
                for frame in rampFrom..<rampTo {
                    let gain = Float(pow(10, Self.gainDB(span, at: frame, attack: attack, release: release) / 20))
                    let base = Int(frame - from) * channels
                    for c in 0..<channels { block[base + c] *= gain }
                }
            }
            index += 1
        }
    }

    /// The index of the first span whose end is after `frame`.
    private func firstSpan(endingAfter frame: Int64) -> Int {
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].end > frame { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The raised-cosine gain of `span` at a frame inside it.
    private static func gainDB(_ span: Span, at frame: Int64, attack: Int64, release: Int64) -> Double {
        if frame < span.holdStart {
            let u = Double(frame - span.start) / Double(attack)
            return -span.depthDB * (1 - cos(Double.pi * u)) / 2
        }
        if frame < span.holdEnd { return -span.depthDB }
        let u = Double(frame - span.holdEnd) / Double(release)
        return -span.depthDB * (1 + cos(Double.pi * u)) / 2
    }
}
