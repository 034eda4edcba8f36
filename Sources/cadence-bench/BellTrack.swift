import AudioCore
import AudioIO
import DSP
import Foundation

/// The reference job's cue as a sound file for ffmpeg and SoX: one 528 Hz bell (0.8 s, -18 dB,
/// bell envelope), padded with silence to one 4 s phase, stereo 48 kHz. Looped, it puts a bell
/// on every phase boundary, as the recipe's cues do.
///
/// The samples come from DSP's `ToneSynth`, the synthesizer `render` uses for the same cue.
enum BellTrack {
    static let sampleRate = 48_000
    static let channels = 2
    static let frequency = 528.0
    static let toneSeconds = 0.8
    static let gainDB = -18.0
    /// One phase of the box pattern: the bell's period.
    static let periodSeconds = 4

    /// One period of interleaved stereo samples at `rate`: the bell, then silence.
    static func period(rate: Int = sampleRate) -> [Float] {
        let toneFrames = Int((toneSeconds * Double(rate)).rounded())
        let mono = ToneSynth.render(
            frequency: frequency, frames: toneFrames, sampleRate: rate, shape: .bell, harmonics: [],
            amplitude: Gain.linear(dB: gainDB))
        var samples = [Float](repeating: 0, count: periodSeconds * rate * channels)
        for (i, s) in mono.enumerated() { for c in 0..<channels { samples[i * channels + c] = s } }
        return samples
    }

    /// Writes one period as a 24-bit WAV to `path`.
    static func write(to path: String) throws(BenchError) {
        let samples = period()
        do {
            let file = try AtomicOutputFile(path: path)
            let writer = try SoundFileWriter(
                fileDescriptor: file.fileDescriptor, path: path, format: .wav24, sampleRate: sampleRate, channels: channels)
            try samples.withUnsafeBufferPointer { (p) throws(AudioError) in try writer.write(p, frames: p.count / channels) }
            try writer.finish()
            try file.commit()
        } catch {
            throw BenchError("\(path): writing the bell track failed: \(error)")
        }
    }
}
