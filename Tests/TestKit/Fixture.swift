import AudioIO
import Foundation

/// Sound fixtures the end-to-end tests write: sines, noise, random bytes, and sound files
/// written with libsndfile through AudioIO's `SoundFileWriter`. Targets add their own
/// fixtures in `extension Fixture`.
public enum Fixture {
    /// Writes interleaved float samples with libsndfile through `SoundFileWriter` on a descriptor
    /// (the file's folder is created).
    public static func writeSound(
        _ path: String, _ samples: [Float], sampleRate: Int, channels: Int,
        format: SoundFileWriter.Format = .wavFloat
    ) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let writer = try SoundFileWriter(fileDescriptor: fd, path: path, format: format, sampleRate: sampleRate, channels: channels)
        try samples.withUnsafeBufferPointer { try writer.write($0, frames: samples.count / channels) }
        try writer.finish()
    }

    /// A sine of `frequency` Hz, `amplitudes[c]` on channel c, interleaved (phase from the frame index).
    public static func sine(frequency: Double, amplitudes: [Double], sampleRate: Int, frames: Int) -> [Float] {
        let channels = amplitudes.count
        var out = [Float](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            let x = sin(2 * Double.pi * frequency * Double(n) / Double(sampleRate))
            for c in 0..<channels { out[n * channels + c] = Float(amplitudes[c] * x) }
        }
        return out
    }

    /// A sine of `frequency` Hz at `amplitude` on every one of `channels`, interleaved.
    public static func sine(frequency: Double, amplitude: Double, sampleRate: Int, channels: Int, frames: Int) -> [Float] {
        sine(frequency: frequency, amplitudes: Array(repeating: amplitude, count: channels), sampleRate: sampleRate, frames: frames)
    }

    /// Low-passed (one-pole) noise, smooth enough that its sample-to-sample steps are small:
    /// a different generator state per channel (drawn in turn from one `SplitMix64`), peak
    /// `amplitude`, interleaved.
    public static func smoothNoise(frames: Int, channels: Int = 1, amplitude: Double, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        var state = [Double](repeating: 0, count: channels)
        var raw = [Double](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            for c in 0..<channels {
                state[c] = 0.98 * state[c] + 0.02 * random.bipolar()
                raw[n * channels + c] = state[c]
            }
        }
        let peak = max(raw.map(abs).max() ?? 1, 1e-9)
        return raw.map { Float($0 / peak * amplitude) }
    }

    /// Mono white noise, uniform in ±amplitude.
    public static func whiteNoise(frames: Int, amplitude: Double, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<frames).map { _ in Float(random.bipolar() * amplitude) }
    }

    /// Random bytes (a "corrupt" sound file): `SplitMix64.bytes`.
    public static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        SplitMix64.bytes(count, seed: seed)
    }
}
