import AudioCore
import AudioIO

/// The track before loudness: the bed and the cues, rendered block by block from frame 0.
///
/// Built fresh for each pass; everything it draws on (prepared beds, cue
/// sounds, the noise seed) is fixed, so every pass produces the same samples.
struct MixSource: BlockSource {
    private var bed: BedSource
    private var cues: CueTrack
    /// The swell (recipe-v1.2 § Breath guidance), mixed with the cues; nil: none.
    private var swell: SwellSource?
    let channels: Int
    let totalFrames: Int64
    private(set) var position: Int64 = 0
    /// Where this mix stops: the track's end, or earlier for one thread's share of a pass.
    let end: Int64

    /// A mix of frames [start, end) of the track (the whole track by default).
    init(
        bed: BedSource, cues: CueTrack, swell: SwellSource? = nil, channels: Int, totalFrames: Int64, start: Int64 = 0, end: Int64? = nil
    ) {
        self.bed = bed
        self.cues = cues
        self.swell = swell
        self.channels = channels
        self.totalFrames = totalFrames
        self.position = start
        self.end = min(end ?? totalFrames, totalFrames)
        if start > 0 { self.cues.seek(to: start) }
    }

    /// Renders the next block into `out`; returns the frames written, 0 at the end.
    mutating func render(into out: UnsafeMutableBufferPointer<Float>) throws(AudioError) -> Int {
        let count = Int(min(Int64(out.count / channels), end - position))
        guard count > 0 else { return 0 }
        try StageClock.shared.time(.mix) { () throws(AudioError) in
            try bed.render(into: out, from: position, count: count)
            cues.mix(into: out, from: position, count: count)
            swell?.mix(into: out, from: position, count: count)
        }
        position += Int64(count)
        return count
    }
}
