import AudioIO
import CSndfile
import CadenceCues
import Foundation

// What the render suites (in-process, command line, end to end) share: test phases and their
// exact frames, reading renders back, measurements, and running the `render` binary. Every
// expectation in the tests is computed here or in the test from the recipe's own numbers,
// never copied from a render.

// MARK: - Phases (TestKit's Seconds gives their exact frames)

/// One phase as a test writes it: kind and decimal length text.
public struct TestPhase: Sendable {
    public let kind: String
    public let length: String

    public init(kind: String, length: String) {
        self.kind = kind
        self.length = length
    }
}

/// The YAML of an inline pattern.
public func inlinePattern(_ phases: [TestPhase], name: String = "Test Pattern") -> String {
    "pattern:\n  name: \(name)\n  phases:\n" + phases.map { "    - \($0.kind): \($0.length)\n" }.joined()
}

/// Phase start and end frames computed from exact decimal sums: boundary k of
/// cycle c starts at `intro + c × cycle + (lengths before it)`.
public func expectedPhaseFrames(intro: Seconds, phases: [TestPhase], cycles: Int, rate: Int) -> [(kind: String, start: Int64, end: Int64)] {
    let lengths = phases.map { Seconds($0.length) }
    let cycle = lengths.reduce(Seconds.zero, +)
    var out: [(String, Int64, Int64)] = []
    for c in 0..<cycles {
        var offset = intro + cycle * c
        for (p, length) in lengths.enumerated() {
            out.append((phases[p].kind, offset.frame(at: rate), (offset + length).frame(at: rate)))
            offset = offset + length
        }
    }
    return out
}

// MARK: - Reading renders back

/// A decoded sound file: interleaved floats as libsndfile returns them.
public struct DecodedAudio: Sendable {
    public let sampleRate: Int
    public let channels: Int
    public let samples: [Float]
    /// The frame count the header claims.
    public let headerFrames: Int64

    public init(sampleRate: Int, channels: Int, samples: [Float], headerFrames: Int64) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
        self.headerFrames = headerFrames
    }

    public var frames: Int { samples.count / channels }

    public subscript(frame: Int, channel: Int) -> Float { samples[frame * channels + channel] }

    /// One channel's samples in [from, to).
    public func channel(_ c: Int, _ range: Range<Int>) -> [Float] {
        range.map { samples[$0 * channels + c] }
    }

    /// RMS of channel `c` over [from, to).
    public func rms(_ c: Int, _ range: Range<Int>) -> Double {
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        for n in range { let x = Double(samples[n * channels + c]); sum += x * x }
        return (sum / Double(range.count)).squareRoot()
    }

    /// The largest |x| over all channels in [from, to).
    public func peak(_ range: Range<Int>) -> Float {
        var p: Float = 0
        for n in range { for c in 0..<channels { p = max(p, abs(samples[n * channels + c])) } }
        return p
    }
}

/// Reads every frame of `path` with AudioIO's `SoundFileReader` (libsndfile).
public func readAudio(_ path: String) throws -> DecodedAudio {
    let reader = try SoundFileReader(path: path)
    defer { reader.close() }
    var samples: [Float] = []
    samples.reserveCapacity(Int(max(reader.frames, 0)) * reader.channels)
    var block = [Float](repeating: 0, count: 8192 * reader.channels)
    while true {
        let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0, frames: 8192) }
        if n == 0 { break }
        samples.append(contentsOf: block[0..<(n * reader.channels)])
    }
    return DecodedAudio(sampleRate: reader.sampleRate, channels: reader.channels, samples: samples, headerFrames: reader.frames)
}

/// The libsndfile major format of a file (`SF_FORMAT_WAV`…) and its subtype.
public func soundFormat(_ path: String) -> (major: Int32, subtype: Int32)? {
    var info = SF_INFO()
    guard let handle = sf_open(path, Int32(SFM_READ), &info) else { return nil }
    sf_close(handle)
    return (info.format & Int32(SF_FORMAT_TYPEMASK), info.format & Int32(SF_FORMAT_SUBMASK))
}

/// Whether this libsndfile can write a format at a rate and channel count.
public func canWrite(_ format: SoundFileWriter.Format, sampleRate: Int = 48000, channels: Int = 2) -> Bool {
    var info = SF_INFO()
    info.samplerate = Int32(sampleRate)
    info.channels = Int32(channels)
    info.format = format.major | format.subtype
    return sf_format_check(&info) != 0
}

/// The cue sheet beside an audio file: `x.flac` → `x.cues.json`.
public func cueSheetPath(for audio: String) -> String {
    (audio as NSString).deletingPathExtension + ".cues.json"
}

/// The raw JSON object of a cue sheet (for keys the model may not show, like explicit nulls).
public func readJSONObject(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw TestFailure("\(path) is not a JSON object")
    }
    return object
}

// MARK: - Measurements

/// Integrated loudness (LUFS) and true peak (dBTP) of a decoded file, by libebur128.
public func measureLoudness(_ audio: DecodedAudio) throws -> (lufs: Double, truePeak: Double) {
    let meter = try LoudnessMeter(channels: audio.channels, sampleRate: audio.sampleRate, truePeak: true)
    try audio.samples.withUnsafeBufferPointer { try meter.add($0, frames: audio.frames) }
    return (meter.integratedLoudness(), meter.truePeakDB())
}

/// Goertzel power of `frequency` in channel `c` over [from, to).
public func goertzel(_ audio: DecodedAudio, channel c: Int, frequency: Double, range: Range<Int>) -> Double {
    let w = 2 * Double.pi * frequency / Double(audio.sampleRate)
    let coefficient = 2 * cos(w)
    var s1 = 0.0, s2 = 0.0
    for n in range {
        let s = Double(audio.samples[n * audio.channels + c]) + coefficient * s1 - s2
        s2 = s1
        s1 = s
    }
    return s1 * s1 + s2 * s2 - coefficient * s1 * s2
}

public func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

// MARK: - Processes

/// Runs the built `render` binary.
public func runRender(_ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
    try run(renderPath(), arguments, in: directory)
}

// MARK: - Variants

/// A recipe with `variants:` for the suites of a recipe's several lengths (in process and through the binary).
public enum VariantRecipe {
    public static let rate = 48000

    /// Inhale 1 s, exhale 1 s, with white noise under it (so that the seed shows in the bytes).
    public static func text(variants: String, extra: String = "") -> String {
        """
        id: calm
        title: Calm
        variants: { duration: \(variants) }
        pattern:
          name: Even
          phases: [{ inhale: 1s }, { exhale: 1s }]
        intro: 1s
        bed: { synth: white-noise, gain: -30 dB }
        cues:
          inhale: { preset: bell, until: end - 2s }
        output: { sample_rate: \(rate), channels: 1, format: wav, loudness: off }
        \(extra)
        """
    }
}
