/// A constant gain: the loudness plan's, when no limiter is needed. Unity passes blocks untouched.
final class GainStage: Stage {
    let gain: Float
    private let channels: Int

    init(gain: Float, channels: Int) {
        self.gain = gain
        self.channels = channels
    }

    func flow(_ block: UnsafeMutableBufferPointer<Float>, frames: Int) -> Int {
        guard gain != 1 else { return frames }
        for i in 0..<(frames * channels) { block[i] *= gain }
        return frames
    }
}
