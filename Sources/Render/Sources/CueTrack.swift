import AudioCore

/// Every cue of a track, mixed into blocks at their exact frames.
///
/// Cue sounds are prepared once (a tone is synthesized once, a file decoded
/// once) and shared by every event that plays them. Events are sorted by
/// frame; a block adds the overlap of each event still sounding.
struct CueTrack {
    struct Event {
        let frame: Int64
        let sound: Int
    }

    private let sounds: [[Float]]
    private let events: [Event]
    private let channels: Int
    private var next = 0
    private var active: [Int] = []

    init(sounds: [[Float]], events: [Event], channels: Int) {
        self.sounds = sounds
        self.events = events.sorted { $0.frame < $1.frame }
        self.channels = channels
        self.active.reserveCapacity(64)
    }

    /// Starts the track at `start` instead of frame 0: the cues begun before it and still
    /// sounding are picked up part-way.
    mutating func seek(to start: Int64) {
        next = events.partitioningIndex { $0.frame >= start }
        active = (0..<next).filter { events[$0].frame + length(ofSound: events[$0].sound) > start }
    }

    /// Frames of a sound.
    func length(ofSound index: Int) -> Int64 { Int64(sounds[index].count / channels) }

    /// Adds the cues sounding in track frames [start, start+count) into `out`.
    mutating func mix(into out: UnsafeMutableBufferPointer<Float>, from start: Int64, count: Int) {
        let end = start + Int64(count)
        while next < events.count && events[next].frame < end {
            active.append(next)
            next += 1
        }
        var i = 0
        while i < active.count {
            let event = events[active[i]]
            let samples = sounds[event.sound]
            let length = Int64(samples.count / channels)
            let from = max(start, event.frame)
            let to = min(end, event.frame + length)
            if to > from {
                let n = Int(to - from) * channels
                let src = Int(from - event.frame) * channels
                let dst = Int(from - start) * channels
                samples.withUnsafeBufferPointer { s in
                    for k in 0..<n { out[dst + k] += s[src + k] }
                }
            }
            if event.frame + length <= end {
                active.swapAt(i, active.count - 1)
                active.removeLast()
            } else {
                i += 1
            }
        }
    }
}

extension Array {
    /// The first index whose element satisfies `belongs` (which must be false, then true, along the array).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if belongs(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
