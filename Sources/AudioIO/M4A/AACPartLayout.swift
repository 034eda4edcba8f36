/// Where an AAC track is cut into parts that are encoded apart (on several threads) and
/// joined again at packet boundaries: a function of the track's length only, so the same
/// track gives the same packets whatever the number of threads.
///
/// Part k stands for the frames between two nominal boundaries (the track cut in `count`
/// equal lengths on the 1024-frame packet grid), but its encoder is fed more: from `settle +
/// reach` frames before (a fresh AAC encoder's rate control takes about 3 s to reach its
/// steady state: measured on rain at 128k, the first 0.7 s after a fresh start decode 2.5 dB
/// less clean and the next 2 s 1.5 dB; its first packets are thrown away) to `reach +
/// lookAhead` frames after (the encoder chooses a packet's window from the frames after it).
/// The join between part k and k+1 is a packet timestamp within `reach` of their nominal
/// boundary where both encoders chose the same window for the packet before it
/// (`AACWindow`), so the decoder's overlap-add across the join cancels its aliasing as it
/// does inside one encoding. The same settle, reach and look-ahead serve the patches that
/// replace a stretch of a track (`AACTrack.patch`). Every bound is a multiple of 1024, so
/// every encoder's packets fall on the one grid of the track's timestamps.
public struct AACPartLayout: Sendable, Equatable {
    /// Frames per AAC packet.
    public static let packetFrames: Int64 = 1024
    /// Frames an encoder runs before the first place its packets may be used (192 packets: 4.1 s at 48 kHz).
    public static let settle: Int64 = 192 * packetFrames
    /// How far from a nominal boundary a join may move, each way.
    public static let reach: Int64 = 8 * packetFrames
    /// Frames encoded past the last packet an encoder may give.
    public static let lookAhead: Int64 = 4 * packetFrames
    /// Parts are at least this many seconds long; a track has at most `maximumParts`.
    public static let partSeconds: Int64 = 300
    public static let maximumParts = 4

    public let totalFrames: Int64
    /// The nominal first frame of each part, and the end of the track.
    public let boundaries: [Int64]

    /// The layout of a track of `totalFrames`; `partSeconds`: the shortest part (tests cut shorter tracks).
    public init(totalFrames: Int64, sampleRate: Int, partSeconds: Int64 = AACPartLayout.partSeconds) {
        let total = max(0, totalFrames)
        self.totalFrames = total
        let count = Int(max(1, min(Int64(Self.maximumParts), total / (max(1, partSeconds) * Int64(sampleRate)))))
        boundaries = (0...count).map { k in k == count ? total : total * Int64(k) / Int64(count) / Self.packetFrames * Self.packetFrames }
    }

    /// How many parts.
    public var count: Int { boundaries.count - 1 }

    /// The frames part `k`'s encoder is fed.
    public func input(_ k: Int) -> Range<Int64> {
        Self.input(around: boundaries[k]..<boundaries[k + 1], totalFrames: totalFrames)
    }

    /// The frames an encoder is fed to give the packets for `span` (aligned to packets) and the
    /// joins around it: from `settle + reach` before to `reach + lookAhead` after, within the track.
    public static func input(around span: Range<Int64>, totalFrames: Int64) -> Range<Int64> {
        let lower = span.lowerBound - reach - settle
        let upper = span.upperBound + reach + lookAhead
        return max(0, lower)..<min(totalFrames, upper)
    }

    /// The packet timestamps at which one encoder's packets may hand over to another's near
    /// `boundary`, nearest first.
    public static func joins(near boundary: Int64) -> [Int64] {
        var candidates = [boundary]
        for step in stride(from: packetFrames, through: reach, by: Int(packetFrames)) {
            candidates += [boundary - step, boundary + step]
        }
        return candidates
    }
}
