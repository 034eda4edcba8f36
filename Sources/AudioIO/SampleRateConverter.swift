import AudioCore
import CSamplerate

/// Streaming sample-rate conversion with libsamplerate's sinc converters. Owns one `SRC_STATE*`.
public final class SampleRateConverter {
    public enum Quality: Int32, Sendable {
        case best = 0, medium = 1, fastest = 2  // SRC_SINC_BEST_QUALITY, _MEDIUM_, _FASTEST
    }

    /// The largest conversion factor, up or down: libsamplerate's `SRC_MAX_RATIO`.
    ///
    /// With sources of `SoundFileReader.rateRange` and outputs of 8–384 kHz, only a
    /// source under 1500 Hz rendered over 256 times its rate (1000 Hz at 384 kHz)
    /// goes past it, and is refused.
    public static let ratioLimit = 256

    public let channels: Int
    public let ratio: Double
    private let name: String
    private var state: OpaquePointer?

    /// Throws when `inputRate` → `outputRate` is not a conversion libsamplerate makes (`ratioLimit`):
    /// `render --check` asks before any decoding, from the file's header.
    public static func checkRatio(inputRate: Int, outputRate: Int, name: String) throws(AudioError) {
        let limit = Double(ratioLimit)
        guard inputRate > 0, outputRate > 0,
            Double(outputRate) <= Double(inputRate) * limit, Double(inputRate) <= Double(outputRate) * limit
        else {
            throw AudioError(
                file: name, operation: "resample",
                reason: "cannot convert \(inputRate) Hz to \(outputRate) Hz (libsamplerate converts by at most \(ratioLimit)× up or down)",
                kind: .data)
        }
    }

    /// `src_new` for `channels` interleaved channels, converting `inputRate` → `outputRate`.
    /// Rates that are not positive, or further apart than `ratioLimit`, throw `.data`.
    public init(channels: Int, inputRate: Int, outputRate: Int, quality: Quality = .medium, name: String) throws(AudioError) {
        self.channels = channels
        self.name = name
        try Self.checkRatio(inputRate: inputRate, outputRate: outputRate, name: name)
        self.ratio = Double(outputRate) / Double(inputRate)
        var error: Int32 = 0
        guard let state = src_new(quality.rawValue, Int32(channels), &error) else {
            throw AudioError(file: name, operation: "src_new", reason: String(cString: src_strerror(error)), kind: .software)
        }
        self.state = state
        guard src_is_valid_ratio(ratio) != 0 else {
            throw AudioError(
                file: name, operation: "src_new",
                reason: "cannot convert \(inputRate) Hz to \(outputRate) Hz (libsamplerate refuses the ratio)", kind: .data)
        }
    }

    deinit { if let state { src_delete(state) } }

    /// Converts (`src_process`) up to `inputFrames` frames; returns frames consumed and produced.
    public func process(
        input: UnsafePointer<Float>?, inputFrames: Int, output: UnsafeMutablePointer<Float>?,
        outputCapacity: Int, endOfInput: Bool
    ) throws(AudioError) -> (used: Int, generated: Int) {
        var data = SRC_DATA()
        data.data_in = input
        data.input_frames = inputFrames
        data.data_out = output
        data.output_frames = outputCapacity
        data.src_ratio = ratio
        data.end_of_input = endOfInput ? 1 : 0
        let error = src_process(state, &data)
        guard error == 0 else {
            throw AudioError(file: name, operation: "src_process", reason: String(cString: src_strerror(error)), kind: .software)
        }
        return (Int(data.input_frames_used), Int(data.output_frames_gen))
    }

    /// Converts a whole buffer held in memory (a spoken prompt, seconds long) at once: every
    /// frame in, the converter drained to its end. The same buffer gives the same samples.
    public static func convert(
        _ samples: [Float], channels: Int, from inputRate: Int, to outputRate: Int, quality: Quality = .medium, name: String
    ) throws(AudioError) -> [Float] {
        guard inputRate != outputRate else { return samples }
        let converter = try SampleRateConverter(channels: channels, inputRate: inputRate, outputRate: outputRate, quality: quality, name: name)
        let frames = samples.count / channels
        let capacity = 8192
        var output = [Float]()
        output.reserveCapacity(Int(Double(frames) * converter.ratio) + capacity * channels)
        var block = [Float](repeating: 0, count: capacity * channels)
        var offset = 0
        while true {
            let (used, generated) = try samples.withUnsafeBufferPointer { (input) throws(AudioError) in
                try block.withUnsafeMutableBufferPointer { (out) throws(AudioError) in
                    try converter.process(
                        input: input.baseAddress.map { $0 + offset * channels }, inputFrames: frames - offset, output: out.baseAddress,
                        outputCapacity: capacity, endOfInput: true)
                }
            }
            offset += used
            output.append(contentsOf: block[0..<(generated * channels)])
            if generated == 0 && offset >= frames { break }
        }
        return output
    }
}
