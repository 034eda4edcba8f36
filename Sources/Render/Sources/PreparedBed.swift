import AudioCore
import AudioIO
import Dispatch
import Foundation

/// A bed file decoded and resampled once, kept in a scratch file, read at any frame.
///
/// Resampling a whole hour costs more than encoding it, so a bed is converted
/// once per file and output format and every loop pass reads the result.
/// `BedCache` shares them between the passes of a render (and between tracks).
public final class PreparedBed: @unchecked Sendable {
    /// The longest bed, in seconds of audio: 24 h, the longest track.
    ///
    /// A bed whose header claims more is refused before decoding; one whose
    /// header does not say (an Ogg or FLAC stream of unknown length) stops with an
    /// error when it gets there. Nothing is allocated from a claimed length: the
    /// scratch file grows with the frames actually decoded.
    public static let maximumSeconds = 24 * 3600

    public let frames: Int64
    public let channels: Int
    let store: ScratchFile

    /// The shortest bed: 1 s. A bed loops under the whole track, and a shorter loop is
    /// heard as a buzz at its repetition rate (one frame is a DC offset), not as a bed.
    public static let minimumSeconds = 1

    /// Throws when `frames` at `rate` is shorter than `minimumSeconds`.
    static func checkLength(frames: Int64, rate: Int, path: String) throws(AudioError) {
        guard frames < Int64(minimumSeconds) * Int64(rate) else { return }
        throw AudioError(
            file: path, operation: "open",
            reason:
                "the bed lasts \(AudioDecoder.duration(frames, rate: rate)) (\(frames) frame\(frames == 1 ? "" : "s") at \(rate) Hz); a bed must last at least \(minimumSeconds) s, since it loops under the whole track (use a cue for a short sound)",
            kind: .data)
    }

    /// Whether `frames` is the whole file, or only the part a track needed.
    public let isWhole: Bool

    /// Output frames decoded past what a track needs: the resampler's filter then sees real
    /// samples on both sides of every frame kept, as in a conversion of the whole file.
    static func leadFrames(rate: Int) -> Int64 { Int64(rate) }

    /// Decodes the bed at `path`, as far as `needed` output frames (nil: all of it);
    /// `expected`: the version it must be (the one a catalog fingerprinted).
    ///
    /// A bed longer than the longest track that uses it is decoded and resampled only as
    /// far as that track (plus a second of lead), and one whose header gives no length is
    /// never decoded past it: no scratch grows toward the 24-hour limit for a 5-minute track.
    init(path: String, sampleRate: Int, channels: Int, needed: Int64? = nil, expected: FileIdentity? = nil) throws(AudioError) {
        let maximum = Int64(sampleRate) * Int64(Self.maximumSeconds)
        let source = try SoundFileReader(path: path)
        if let expected, source.identity != expected {
            throw FileIdentity.changedError(path: path, "since it was fingerprinted (it is another version now)")
        }
        try AudioDecoder.checkClaimedLength(of: source, sampleRate: sampleRate, maximumFrames: maximum)
        let sourceRate = source.sampleRate
        // source frames worth decoding: the output frames needed plus the lead, at the source rate
        let wanted = needed.map { ($0 + Self.leadFrames(rate: sampleRate)) * Int64(sourceRate) / Int64(sampleRate) + 1 }
        // the decode stops at `bound` when the file is (or may be) longer than that
        let bound = wanted.flatMap { wanted in (source.knownFrames.map { $0 > wanted } ?? true) ? wanted : nil }
        let claimed = bound ?? source.knownFrames
        let input = bound.map { 0..<$0 }
        // every piece must decode this version of the file: one overwritten between pieces is refused
        let identity = source.identity
        source.close()
        var store = try ScratchFile(channels: channels, name: path)
        var frames: Int64?
        if let claimed, let (cut, lead) = Self.cut(frames: claimed, from: sourceRate, to: sampleRate) {
            // nil when the file holds less than its header claims and the halves do not meet
            frames = try Self.convertInTwo(
                path: path, sampleRate: sampleRate, channels: channels, sourceRate: sourceRate,
                sourceFrames: claimed, cut: cut, lead: lead, maximum: maximum, identity: identity, into: store)
            if frames == nil { store = try ScratchFile(channels: channels, name: path) }
        }
        if frames == nil {
            frames = try AudioDecoder.decode(
                path: path, sampleRate: sampleRate, channels: channels, maximumFrames: maximum, input: input, identity: identity
            ) {
                (p, n) throws(AudioError) in try store.append(p, frames: n)
            }
        }
        // the loop period is the bed's length: it must not be 0 (decode throws first; this is the guard)
        guard var frames, frames > 0 else {
            throw AudioError(file: path, operation: "decode", reason: "no audio could be decoded", kind: .data)
        }
        // a bounded decode that reached its bound keeps the frames needed; one that ended first is the whole file
        var whole = true
        if bound != nil, let needed, frames > needed {
            frames = needed
            whole = false
        } else {
            try Self.checkLength(frames: frames, rate: sampleRate, path: path)
        }
        self.frames = frames
        self.isWhole = whole
        self.store = store
        self.channels = channels
        StageClock.shared.countBed()
    }

    /// Where a bed that needs resampling is cut in two, on a source frame whose output
    /// time is a whole frame, with a lead of about half a second (for the sinc filter to
    /// fill with real samples); nil for beds too short to be worth it or at the output rate.
    ///
    /// `frames` is the header's claim, at most `maximumSeconds` long (so `cut × output`
    /// stays far inside `Int64`).
    static func cut(frames: Int64, from rate: Int, to output: Int) -> (cut: Int64, lead: Int64)? {
        guard rate != output, frames >= 20 * Int64(rate), frames / Int64(rate) <= Int64(maximumSeconds) else { return nil }
        var a = rate, b = output
        while b != 0 { (a, b) = (b, a % b) }
        let step = Int64(rate / a)  // source frames between instants that fall on output frames
        let lead = (Int64(rate) / 2 / step + 1) * step
        let cut = frames / 2 / step * step
        guard cut > lead, cut + lead < frames else { return nil }
        return (cut, lead)
    }

    /// Resamples [0, cut) and [cut, end) on two threads into their places in `store`;
    /// returns the frames written, or nil when the file ended before the cut's place in
    /// the output (its header claims more than it holds), leaving the caller to decode
    /// it in one piece.
    ///
    /// Each piece is converted with real samples on both sides of the cut (the first runs
    /// on `lead` frames past it, the second starts `lead` frames before it) and keeps
    /// only its own output frames, so the seam is as clean as one continuous conversion
    /// (the tests compare them). Preparing a bed is the part of a render that nothing
    /// else can overlap; this halves it on two cores.
    private static func convertInTwo(
        path: String, sampleRate: Int, channels: Int, sourceRate: Int, sourceFrames: Int64, cut: Int64, lead: Int64,
        maximum: Int64, identity: FileIdentity, into store: ScratchFile
    ) throws(AudioError) -> Int64? {
        let outputCut = cut * Int64(sampleRate) / Int64(sourceRate)
        let outputLead = lead * Int64(sampleRate) / Int64(sourceRate)
        var results = [Result<Int64, AudioError>](repeating: .success(0), count: 2)
        results.withUnsafeMutableBufferPointer { slots in
            // the pieces write disjoint frame ranges of the store (pwrite) and their own slot
            nonisolated(unsafe) let (slots, store) = (slots, store)
            DispatchQueue.concurrentPerform(iterations: 2) { piece in
                slots[piece] = Result { () throws(AudioError) in
                    // piece 0: source [0, cut + lead) → output [0, outputCut); piece 1: [cut − lead, end) → [outputCut, …)
                    let input = piece == 0 ? 0..<(cut + lead) : (cut - lead)..<sourceFrames
                    let first = piece == 0 ? Int64(0) : outputCut - outputLead
                    let keep = piece == 0 ? 0..<outputCut : outputCut..<Int64.max
                    var position = first
                    var kept: Int64 = 0
                    try AudioDecoder.decode(
                        path: path, sampleRate: sampleRate, channels: channels, maximumFrames: maximum, input: input,
                        identity: identity
                    ) { (p, n) throws(AudioError) in
                        let range = position..<(position + Int64(n))
                        let mine = range.clamped(to: keep)
                        if !mine.isEmpty {
                            let from = Int(mine.lowerBound - position) * channels
                            try store.write(
                                UnsafeBufferPointer(rebasing: p[from..<(from + mine.count * channels)]), frames: mine.count,
                                at: mine.lowerBound)
                            kept += Int64(mine.count)
                        }
                        position += Int64(n)
                    }
                    return kept
                }
            }
        }
        let first = try results[0].get(), second = try results[1].get()
        // the halves tile [0, total) only if the first reached the cut
        guard first == outputCut else { return nil }
        store.finish(frames: first + second)
        return first + second
    }

    /// Reads `count` frames from bed position `frame`.
    func read(frame: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws(AudioError) {
        try store.read(frame: frame, count: count, into: out)
    }
}

/// Prepared beds by file, rate and channel count; a file changed on disk is prepared again.
///
/// A bed is prepared as far as the longest track that asks for it needs (`reserve`, from a
/// catalog's plan, says that length up front); a later, longer track prepares it again.
public final class BedCache: @unchecked Sendable {
    private struct Key: Hashable {
        let path: String
        let identity: FileIdentity?
        let sampleRate: Int
        let channels: Int
    }
    private var beds: [Key: PreparedBed] = [:]
    private var reserved: [String: Int64] = [:]
    private var inFlight: Set<Key> = []
    private let condition = NSCondition()

    public init() {}

    /// Notes that a track of `frames` frames will use the bed at `path`, so that the first
    /// preparation goes as far as the longest of them.
    public func reserve(path: String, frames: Int64) {
        condition.lock()
        reserved[path] = max(reserved[path] ?? 0, frames)
        condition.unlock()
    }

    /// The prepared bed for `path` at the given format, covering at least `needed` frames
    /// (or the whole file), decoding it on first use.
    ///
    /// Each bed is decoded once however many tracks ask for it at the same time:
    /// the first caller decodes while the others wait for its result; beds of
    /// other files decode in parallel.
    /// `expected`: the version of the file the bed must be decoded from (a catalog's fingerprint).
    public func bed(
        path: String, sampleRate: Int, channels: Int, needed: Int64? = nil, expected: FileIdentity? = nil
    ) throws(AudioError) -> PreparedBed {
        // a bed is shared only between renders of the same version of its file
        let identity = FileIdentity.of(path: path)
        if let expected, let identity, identity != expected {
            throw FileIdentity.changedError(path: path, "since it was fingerprinted (it is another version now)")
        }
        let key = Key(path: path, identity: identity, sampleRate: sampleRate, channels: channels)
        condition.lock()
        while inFlight.contains(key) { condition.wait() }
        if let bed = beds[key], bed.isWhole || needed.map({ bed.frames >= $0 }) ?? false {
            condition.unlock()
            return bed
        }
        inFlight.insert(key)
        let length = needed.map { max($0, reserved[path] ?? 0) }
        condition.unlock()
        let result: Result<PreparedBed, AudioError>
        do {
            result = .success(
                try PreparedBed(path: path, sampleRate: sampleRate, channels: channels, needed: length, expected: identity))
        } catch { result = .failure(error) }
        condition.lock()
        inFlight.remove(key)
        if case .success(let bed) = result { beds[key] = bed }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}
