import AudioCore
import AudioIO
import CSndfile
import CadenceCues
import Foundation
import Render
@_exported import TestKit
import Testing

// Shared helpers of the end-to-end tests: temporary folders, fixtures written
// with libsndfile, reading renders back, exact expected frames, running the
// `render` binary. Every expectation in the tests is computed here or in the
// test from the recipe's own numbers, never copied from a render.

// MARK: - Temporary folders

// MARK: - Exact decimal time (independent of the renderer's ExactSeconds)

/// A non-negative decimal number of seconds held exactly as picoseconds.
///
/// Parses the plain forms the tests write in recipes (`10.00001`, `1.23456s`,
/// `800ms`, `0:12.3456789`) so that expected frames come from the recipe's
/// text by integer arithmetic alone.
struct Seconds: Equatable, Comparable, CustomStringConvertible {
    static let scale: Int128 = 1_000_000_000_000
    var picoseconds: Int128

    init(picoseconds: Int128) { self.picoseconds = picoseconds }

    init(_ text: String) {
        var t = text.trimmingCharacters(in: .whitespaces)
        var unit: Int128 = Self.scale
        if t.hasSuffix("ms") { t.removeLast(2); unit = Self.scale / 1000 } else if t.hasSuffix("s") { t.removeLast() }
        if t.contains(":") {
            let parts = t.split(separator: ":").map(String.init)
            precondition(parts.count == 2 || parts.count == 3, "not m:s or h:m:s: \(text)")
            let weights: [Int128] = parts.count == 3 ? [3600, 60, 1] : [60, 1]
            var total = Seconds(picoseconds: 0)
            for (part, weight) in zip(parts, weights) {
                total.picoseconds += Seconds(part).picoseconds * weight
            }
            self = total
            return
        }
        let pieces = t.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        precondition(pieces.count <= 2, "not a decimal: \(text)")
        let whole = Int128(pieces[0].isEmpty ? "0" : pieces[0])!
        var value = whole * Self.scale
        if pieces.count == 2 {
            let digits = pieces[1]
            precondition(digits.count <= 12, "too many digits: \(text)")
            let padded = digits + String(repeating: "0", count: 12 - digits.count)
            value += Int128(padded)!
        }
        picoseconds = value * unit / Self.scale
    }

    /// `floor(self × rate + 1/2)`, the spec's boundary rule, in integers.
    func frame(at rate: Int) -> Int64 {
        Int64((2 * picoseconds * Int128(rate) + Self.scale) / (2 * Self.scale))
    }

    var double: Double { Double(picoseconds) / Double(Self.scale) }
    var description: String { "\(double)s" }

    static func + (a: Seconds, b: Seconds) -> Seconds { Seconds(picoseconds: a.picoseconds + b.picoseconds) }
    static func - (a: Seconds, b: Seconds) -> Seconds { Seconds(picoseconds: a.picoseconds - b.picoseconds) }
    static func * (a: Seconds, n: Int) -> Seconds { Seconds(picoseconds: a.picoseconds * Int128(n)) }
    static func < (a: Seconds, b: Seconds) -> Bool { a.picoseconds < b.picoseconds }
    static let zero = Seconds(picoseconds: 0)
}

/// One phase as a test writes it: kind and decimal length text.
struct TestPhase {
    let kind: String
    let length: String
}

/// The YAML of an inline pattern.
func inlinePattern(_ phases: [TestPhase], name: String = "Test Pattern") -> String {
    "pattern:\n  name: \(name)\n  phases:\n" + phases.map { "    - \($0.kind): \($0.length)\n" }.joined()
}

/// Phase start and end frames computed from exact decimal sums: boundary k of
/// cycle c starts at `intro + c × cycle + (lengths before it)`.
func expectedPhaseFrames(intro: Seconds, phases: [TestPhase], cycles: Int, rate: Int) -> [(kind: String, start: Int64, end: Int64)] {
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

// MARK: - Fixtures

enum Fixture {
    /// Writes interleaved float samples with libsndfile through `SoundFileWriter` on a descriptor.
    static func writeSound(
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
    static func sine(frequency: Double, amplitudes: [Double], sampleRate: Int, frames: Int) -> [Float] {
        let channels = amplitudes.count
        var out = [Float](repeating: 0, count: frames * channels)
        for n in 0..<frames {
            let x = sin(2 * Double.pi * frequency * Double(n) / Double(sampleRate))
            for c in 0..<channels { out[n * channels + c] = Float(amplitudes[c] * x) }
        }
        return out
    }

    /// Mono low-passed noise (one-pole), smooth enough that its sample-to-sample steps are small.
    static func smoothNoise(frames: Int, amplitude: Double, seed: UInt64) -> [Float] {
        var random = TestRandom(seed: seed)
        var y = 0.0
        var raw = [Double](repeating: 0, count: frames)
        for n in 0..<frames {
            y = 0.98 * y + 0.02 * random.bipolar()
            raw[n] = y
        }
        let peak = raw.map(abs).max() ?? 1
        return raw.map { Float($0 / peak * amplitude) }
    }

    /// Mono white noise, uniform in ±amplitude.
    static func whiteNoise(frames: Int, amplitude: Double, seed: UInt64) -> [Float] {
        var random = TestRandom(seed: seed)
        return (0..<frames).map { _ in Float(random.bipolar() * amplitude) }
    }

    /// Random bytes (a "corrupt" sound file).
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = TestRandom(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }
    }
}

/// SplitMix64: the tests' own reproducible random numbers.
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    mutating func bipolar() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}

// MARK: - Reading renders back

/// A decoded sound file: interleaved floats as libsndfile returns them.
struct DecodedAudio {
    let sampleRate: Int
    let channels: Int
    let samples: [Float]
    /// The frame count the header claims.
    let headerFrames: Int64

    var frames: Int { samples.count / channels }

    subscript(frame: Int, channel: Int) -> Float { samples[frame * channels + channel] }

    /// One channel's samples in [from, to).
    func channel(_ c: Int, _ range: Range<Int>) -> [Float] {
        range.map { samples[$0 * channels + c] }
    }

    /// RMS of channel `c` over [from, to).
    func rms(_ c: Int, _ range: Range<Int>) -> Double {
        guard !range.isEmpty else { return 0 }
        var sum = 0.0
        for n in range { let x = Double(samples[n * channels + c]); sum += x * x }
        return (sum / Double(range.count)).squareRoot()
    }

    /// The largest |x| over all channels in [from, to).
    func peak(_ range: Range<Int>) -> Float {
        var p: Float = 0
        for n in range { for c in 0..<channels { p = max(p, abs(samples[n * channels + c])) } }
        return p
    }
}

/// Reads every frame of `path` with AudioIO's `SoundFileReader` (libsndfile).
func readAudio(_ path: String) throws -> DecodedAudio {
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
func soundFormat(_ path: String) -> (major: Int32, subtype: Int32)? {
    var info = SF_INFO()
    guard let handle = sf_open(path, Int32(SFM_READ), &info) else { return nil }
    sf_close(handle)
    return (info.format & Int32(SF_FORMAT_TYPEMASK), info.format & Int32(SF_FORMAT_SUBMASK))
}

/// Whether this libsndfile can write a format at a rate and channel count.
func canWrite(_ format: SoundFileWriter.Format, sampleRate: Int = 48000, channels: Int = 2) -> Bool {
    var info = SF_INFO()
    info.samplerate = Int32(sampleRate)
    info.channels = Int32(channels)
    info.format = format.major | format.subtype
    return sf_format_check(&info) != 0
}

/// The cue sheet beside an audio file: `x.flac` → `x.cues.json`.
func cueSheetPath(for audio: String) -> String {
    (audio as NSString).deletingPathExtension + ".cues.json"
}

/// Reads and validates a cue sheet with CadenceCues' reader, as a player app would.
func readCueSheet(_ path: String) throws -> CueSheet {
    try CueSheet.decode(from: Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The raw JSON object of a cue sheet (for keys the model may not show, like explicit nulls).
func readJSONObject(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw TestFailure("\(path) is not a JSON object")
    }
    return object
}

/// Every byte of a file.
func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// SHA-256 of a file as lower-case hex: `sha256sum` when installed, else OpenSSL through AudioIO.
func sha256(ofFile path: String) throws -> String {
    if let tool = which("sha256sum") {
        let result = try run(tool, [path])
        guard result.status == 0, let hex = result.stdout.split(separator: " ").first else {
            throw TestFailure("sha256sum \(path) failed: \(result.stderr)")
        }
        return String(hex)
    }
    return SHA256Hasher.hex(SHA256Hasher.digest(try bytes(path)))
}

// MARK: - Measurements

/// Integrated loudness (LUFS) and true peak (dBTP) of a decoded file, by libebur128.
func measureLoudness(_ audio: DecodedAudio) throws -> (lufs: Double, truePeak: Double) {
    let meter = try LoudnessMeter(channels: audio.channels, sampleRate: audio.sampleRate, truePeak: true)
    try audio.samples.withUnsafeBufferPointer { try meter.add($0, frames: audio.frames) }
    return (meter.integratedLoudness(), meter.truePeakDB())
}

/// Goertzel power of `frequency` in channel `c` over [from, to).
func goertzel(_ audio: DecodedAudio, channel c: Int, frequency: Double, range: Range<Int>) -> Double {
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

func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }

// MARK: - Rendering

/// Renders in-process; returns the track and its decoded cue sheet.
@discardableResult
func renderInProcess(_ recipe: String, to output: String, assets: String? = nil) throws -> (track: RenderedTrack, sheet: CueSheet) {
    let track = try TrackRenderer().render(recipePath: recipe, outputPath: output, assets: assets)
    return (track, try readCueSheet(track.cueSheetPath))
}

/// The diagnostics of a render expected to fail (empty if it succeeded).
func renderFailure(_ recipe: String, to output: String, assets: String? = nil) -> DiagnosticList? {
    do {
        _ = try TrackRenderer().render(recipePath: recipe, outputPath: output, assets: assets)
        return nil
    } catch {
        return error
    }
}

// MARK: - Processes

/// Runs the built `render` binary.
func runRender(_ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
    guard let executable = renderExecutable else {
        throw TestFailure(
            "the 'render' executable was not found next to the test binary (\(CommandLine.arguments.first ?? "?")); build it or set CADENCE_RENDER")
    }
    return try run(executable, arguments, in: directory)
}

/// The 1-based line of the first line of `text` containing `needle`, and the 1-based column where it starts.
func position(of needle: String, in text: String) -> (line: Int, column: Int)? {
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if let range = line.range(of: needle) {
            return (index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
        }
    }
    return nil
}
