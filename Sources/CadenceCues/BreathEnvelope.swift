import Foundation

/// How a phase kind moves the breath (recipe-v1.2 § Breath guidance): toward full, toward
/// empty, staying where it is, or empty throughout.
public enum BreathGuide: String, Sendable, CaseIterable {
    /// Toward full: E goes from where it was to 1.
    case rise
    /// Toward empty: E goes from where it was to 0.
    case fall
    /// E stays where it was.
    case hold
    /// E is 0 throughout the phase.
    case none

    /// `inhale: rise`, `exhale: fall`, `transition: fall`, every other kind `hold`.
    public static func defaultGuide(for kind: String) -> BreathGuide {
        switch kind {
        case "inhale": .rise
        case "exhale", "transition": .fall
        default: .hold
        }
    }
}

/// How E moves inside a moving phase: w(u) for u in [0, 1].
public enum BreathShape: String, Sendable, CaseIterable {
    /// Raised cosine: w(u) = (1 − cos πu) / 2.
    case sine
    /// w(u) = u.
    case linear

    /// w(u).
    @inline(__always)
    public func weight(_ u: Double) -> Double {
        switch self {
        case .sine: (1 - cos(Double.pi * u)) / 2
        case .linear: u
        }
    }
}

/// What `guide:` says: a guide per phase kind (defaults for the kinds it leaves out) and the shape.
public struct BreathGuideSettings: Sendable, Equatable {
    /// The kinds `guide:` names; the others take `BreathGuide.defaultGuide(for:)`.
    public var kinds: [String: BreathGuide]
    /// How E moves inside a rising or falling phase (`sine` unless `guide.shape` says).
    public var shape: BreathShape

    /// Settings with `kinds` as written and `shape`.
    public init(kinds: [String: BreathGuide] = [:], shape: BreathShape = .sine) {
        self.kinds = kinds
        self.shape = shape
    }

    /// Every default: the envelope of a recipe that turns it on without `guide:`.
    public static let defaults = BreathGuideSettings()

    /// A kind's guide: as written, else its default.
    public func guide(for kind: String) -> BreathGuide { kinds[kind] ?? BreathGuide.defaultGuide(for: kind) }
}

/// The breath envelope E(f) of recipe-v1.2 § Breath guidance: a number in [0, 1] for every frame,
/// how full the breath is. The one computation behind the swell, the haptics, the cue sheet's guide
/// and a player's ring (`CueTimeline.guide(atFrame:)`); Timeline builds it from a timeline.
///
/// Built once from the phases' exact frames as pieces that tile `[0, totalFrames)`: the intro (0),
/// each phase (a rise or fall from a to b, or a constant), the outro's fall over
/// `min(2 s × rate, frames − o)` frames, then 0. A phase's a is the value the piece before it ends at
/// (0 for the first phase); a rise ends at 1, a fall at 0, a hold at its a, a `none` phase is 0.
/// Inside a moving piece [s, e), E(f) = a + (b − a)·w(u) with u = (f − s)/(e − s), computed in
/// Double from the integers each time (nothing accumulates). A lookup is a binary search: O(log n).
public struct BreathEnvelope: Sendable {
    /// One piece of the envelope: frames [start, end), from `a` to `b` when it moves, else `a` throughout.
    public struct Piece: Sendable, Equatable {
        /// The piece's first frame.
        public let start: Int64
        /// The frame after its last.
        public let end: Int64
        /// E at `start`.
        public let a: Double
        /// E at `end` (reached at the end of a moving piece; `a` again for a still one).
        public let b: Double
        /// A rise or fall phase, or the outro's fall: a moving span of the haptics, even where a == b.
        public let moving: Bool

        /// A piece of frames [start, end) from `a` to `b` (`moving`: a rise or fall).
        public init(start: Int64, end: Int64, a: Double, b: Double, moving: Bool) {
            self.start = start
            self.end = end
            self.a = a
            self.b = b
            self.moving = moving
        }
    }

    /// A phase as the envelope sees it: its frames and its guide.
    public struct PhaseGuide: Sendable, Equatable {
        /// The phase's first frame.
        public let startFrame: Int64
        /// The frame after its last.
        public let endFrame: Int64
        /// How the phase moves E.
        public let guide: BreathGuide

        /// A phase of frames [startFrame, endFrame) with `guide`.
        public init(startFrame: Int64, endFrame: Int64, guide: BreathGuide) {
            self.startFrame = startFrame
            self.endFrame = endFrame
            self.guide = guide
        }
    }

    /// The length of the outro's fall at most, in seconds (times the sample rate: frames).
    public static let outroFallSeconds: Int64 = 2

    /// Frames per second (the outro's fall lasts at most `outroFallSeconds` of them).
    public let sampleRate: Int
    /// The file's length in frames: E is 0 from there on.
    public let totalFrames: Int64
    /// How E moves inside a moving piece.
    public let shape: BreathShape
    /// The pieces in frame order, tiling [0, totalFrames); pieces of no length are left out.
    public let pieces: [Piece]
    /// Each piece's start, for the binary search.
    private let starts: [Int64]
    /// E at and after `totalFrames` (and the value a caller past the end sees).
    private let endValue: Double

    /// The envelope of phases (in frame order, tiling the practice), an outro starting at `outroStart`
    /// (nil: none) in a file of `totalFrames`.
    public init(phases: [PhaseGuide], outroStart: Int64?, totalFrames: Int64, sampleRate: Int, shape: BreathShape) {
        self.sampleRate = sampleRate
        self.totalFrames = totalFrames
        self.shape = shape
        var pieces: [Piece] = []
        pieces.reserveCapacity(phases.count + 4)
        var cursor: Int64 = 0
        var level = 0.0
        func still(to end: Int64, _ value: Double) {
            if end > cursor { pieces.append(Piece(start: cursor, end: end, a: value, b: value, moving: false)) }
            cursor = max(cursor, end)
        }
        for phase in phases {
            // the intro, or a gap the phases leave (they tile the practice, so none): E stays
            still(to: phase.startFrame, level)
            guard phase.endFrame > phase.startFrame else { continue }
            let a = level
            switch phase.guide {
            case .rise, .fall:
                level = phase.guide == .rise ? 1 : 0
                pieces.append(Piece(start: phase.startFrame, end: phase.endFrame, a: a, b: level, moving: true))
            case .hold:
                pieces.append(Piece(start: phase.startFrame, end: phase.endFrame, a: a, b: a, moving: false))
            case .none:
                level = 0
                pieces.append(Piece(start: phase.startFrame, end: phase.endFrame, a: 0, b: 0, moving: false))
            }
            cursor = phase.endFrame
        }
        if let o = outroStart, o < totalFrames {
            still(to: o, level)
            let fallEnd = o + min(Self.outroFallSeconds * Int64(sampleRate), totalFrames - o)
            pieces.append(Piece(start: o, end: fallEnd, a: level, b: 0, moving: true))
            cursor = fallEnd
            level = 0
        }
        still(to: totalFrames, level)
        self.pieces = pieces
        self.starts = pieces.map(\.start)
        self.endValue = level
    }

    /// The index of the piece holding `frame` (num / den): the last whose start ≤ it; nil before the first.
    @inline(__always)
    private func pieceIndex(_ num: Int64, over den: Int64) -> Int? {
        var lo = 0
        var hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] * den <= num { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// E at the frame `num / den` (den > 0): the haptic steps evaluate at half milliseconds,
    /// `(a + b) × rate / 2000`. u is one division of two exact integers.
    public func value(atFrame num: Int64, over den: Int64) -> Double {
        guard let i = pieceIndex(num, over: den) else { return 0 }
        let piece = pieces[i]
        guard num < piece.end * den else { return endValue }
        guard piece.moving else { return piece.a }
        let u = Double(num - piece.start * den) / Double((piece.end - piece.start) * den)
        return piece.a + (piece.b - piece.a) * shape.weight(u)
    }

    /// E at a frame; 0 before the file, the last value after it.
    public func value(atFrame frame: Int64) -> Double { value(atFrame: frame, over: 1) }

    /// E at a fractional frame.
    public func value(atFractionalFrame frame: Double) -> Double {
        guard frame.isFinite, frame >= 0 else { return 0 }
        guard frame < Double(totalFrames) else { return endValue }
        guard let i = pieceIndex(Int64(frame.rounded(.down)), over: 1) else { return 0 }
        let piece = pieces[i]
        guard piece.moving else { return piece.a }
        let u = (frame - Double(piece.start)) / Double(piece.end - piece.start)
        return piece.a + (piece.b - piece.a) * shape.weight(u)
    }

    /// The moving spans (rise and fall phases, the outro's fall), in frame order.
    public var movingSpans: [Piece] { pieces.filter(\.moving) }

    /// Writes E of frames [frame, frame + count) to `buffer[0..<count]`: still pieces (intro, holds,
    /// `none`, after the outro's fall) as one fill each, moving pieces frame by frame.
    public func fill(_ buffer: inout [Float], from frame: Int64, count: Int) {
        precondition(count >= 0 && buffer.count >= count, "fill: the buffer holds fewer than \(count) frames")
        buffer.withUnsafeMutableBufferPointer { fill($0, from: frame, count: count) }
    }

    /// Frames per anchor of `fillSine`.
    static let anchorRun = 64

    /// A sine piece's frames [frame, frame + count) without a cosine per frame: at every `anchorRun`-th
    /// frame of the piece (f − s a multiple of it) an anchor angle πu₀ from the exact integers
    /// (u₀ = (f − s)/(e − s)), and each frame k after it by the angle sum
    /// cos(πu₀ + πk/L) = cos πu₀·cos(πk/L) − sin πu₀·sin(πk/L), with cos(πk/L) and sin(πk/L) computed
    /// once per call. Nothing accumulates: every value is two exact roundings from the integers (within
    /// 1e-15 of `weight`), and a frame's value is the same whichever call fills it (the anchors belong to
    /// the piece, not to the call), so a mix that starts part-way has the whole mix's E.
    static func fillSine(_ out: UnsafeMutablePointer<Float>, piece: Piece, from frame: Int64, count: Int) {
        let run = anchorRun
        let length = piece.end - piece.start
        let (a, d) = (piece.a, piece.b - piece.a)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * run) { table in
            for k in 0..<run {
                let x = Double.pi * (Double(k) / Double(length))
                table[k] = cos(x)
                table[run + k] = sin(x)
            }
            var i = 0
            while i < count {
                let offset = frame + Int64(i) - piece.start
                let skew = Int(offset % Int64(run))
                let x0 = Double.pi * (Double(offset - Int64(skew)) / Double(length))
                let (c0, s0) = (cos(x0), sin(x0))
                let m = min(run - skew, count - i)
                for k in 0..<m {
                    let c = c0 * table[skew + k] - s0 * table[run + skew + k]
                    out[i + k] = Float(a + d * ((1 - c) / 2))
                }
                i += m
            }
        }
    }

    /// `fill(_:from:count:)` into memory the caller owns.
    public func fill(_ out: UnsafeMutableBufferPointer<Float>, from frame: Int64, count: Int) {
        guard count > 0 else { return }
        let end = frame + Int64(count)
        var f = frame
        var written = 0
        if f < 0 {
            let n = Int(min(end, 0) - f)
            out.baseAddress?.update(repeating: 0, count: n)
            written = n
            f += Int64(n)
        }
        var i = pieceIndex(f, over: 1) ?? 0
        while f < end, i < pieces.count {
            let piece = pieces[i]
            let stop = min(end, piece.end)
            let n = Int(stop - f)
            if n > 0 {
                let base = out.baseAddress.map { $0 + written }
                if piece.moving && piece.a != piece.b, let base {
                    if shape == .sine {
                        Self.fillSine(base, piece: piece, from: f, count: n)
                    } else {
                        let length = Double(piece.end - piece.start)
                        let (a, d) = (piece.a, piece.b - piece.a)
                        for k in 0..<n {
                            let u = Double(f + Int64(k) - piece.start) / length
                            base[k] = Float(a + d * shape.weight(u))
                        }
                    }
                } else {
                    base?.update(repeating: Float(piece.a), count: n)
                }
                written += n
                f = stop
            }
            i += 1
        }
        if written < count { out.baseAddress.map { ($0 + written).update(repeating: Float(endValue), count: count - written) } }
    }
}
