import AudioCore

/// Decodes a sound file to a given rate and channel count, block by block.
///
/// libsndfile reads, channels are mapped (mono is spread to every channel,
/// more channels are averaged down to mono, otherwise channel i takes source
/// channel i mod n), and libsamplerate converts the rate. A mono source is
/// resampled before it is spread, so it costs one channel's work.
public enum AudioDecoder {
    /// Decodes `path`, handing converted blocks to `sink`; returns the frames produced.
    /// Throws when the result would exceed `maximumFrames`.
    ///
    /// `input` limits the source frames converted (decoded from the start, the frames
    /// before the range are read and dropped): the conversion then starts and ends there,
    /// as if the file held only that range. Used to convert a long bed in parallel pieces.
    ///
    /// A file whose header claims more than `maximumFrames` (at the output rate) is refused
    /// before anything is decoded. One that holds less than its header claims (a WAV cut
    /// short, a FLAC STREAMINFO that overstates its length) is decoded as far as it goes;
    /// a decoder error on the way (a FLAC stream that loses sync) throws. A file that yields
    /// no frame at all throws, except for an `input` range starting past its end, which
    /// yields nothing. A file that changes while it is decoded throws, and so does one that
    /// is not `identity` (the version a caller decoding it in pieces opened first).
    @discardableResult
    public static func decode(
        path: String, sampleRate: Int, channels: Int, maximumFrames: Int64,
        quality: SampleRateConverter.Quality = .medium, input: Range<Int64>? = nil, identity: FileIdentity? = nil,
        sink: (UnsafeBufferPointer<Float>, Int) throws(AudioError) -> Void
    ) throws(AudioError) -> Int64 {
        let reader = try SoundFileReader(path: path)
        if let identity, reader.identity != identity {
            throw FileIdentity.changedError(path: path, "since it was first read or fingerprinted (it is another version now)")
        }
        try checkClaimedLength(of: reader, sampleRate: sampleRate, maximumFrames: maximumFrames)
        var sourcePosition: Int64 = 0
        // a piece that starts part-way seeks there when that is exact, instead of decoding up to it
        if let start = input?.lowerBound, start > 0, reader.seeksExactly {
            guard reader.seek(to: start) else { return 0 }
            sourcePosition = start
        }
        let source = reader.channels
        let work = source == 1 ? 1 : channels
        let converter =
            reader.sampleRate == sampleRate
            ? nil
            : try SampleRateConverter(channels: work, inputRate: reader.sampleRate, outputRate: sampleRate, quality: quality, name: path)
        let blockFrames = Block.frames
        var raw = [Float](repeating: 0, count: blockFrames * source)
        var mapped = [Float](repeating: 0, count: blockFrames * work)
        let ratio = Double(sampleRate) / Double(reader.sampleRate)
        let outCapacity = Int((Double(blockFrames) * ratio).rounded(.up)) + 64
        var converted = [Float](repeating: 0, count: outCapacity * work)
        var spread = [Float](repeating: 0, count: outCapacity * channels)
        var produced: Int64 = 0
        var ended = false

        func emit(_ samples: UnsafeBufferPointer<Float>, _ frames: Int) throws(AudioError) {
            guard frames > 0 else { return }
            produced += Int64(frames)
            guard produced <= maximumFrames else {
                throw AudioError(
                    file: path, operation: "decode",
                    reason: "the audio is longer than the limit of \(duration(maximumFrames, rate: sampleRate))", kind: .data)
            }
            if work == channels {
                try sink(samples, frames)
                return
            }
            spread.withUnsafeMutableBufferPointer { out in
                for i in 0..<frames { for c in 0..<channels { out[i * channels + c] = samples[i] } }
            }
            try spread.withUnsafeBufferPointer { (p) throws(AudioError) in try sink(p, frames) }
        }

        while !ended {
            var got = try StageClock.shared.time(.decode) { () throws(AudioError) in
                try raw.withUnsafeMutableBufferPointer { (p) throws(AudioError) in try reader.read(into: p, frames: blockFrames) }
            }
            ended = got < blockFrames
            var first = 0
            if let input {
                // keep only the source frames inside the range
                let blockStart = sourcePosition
                sourcePosition += Int64(got)
                first = Int(max(0, min(Int64(got), input.lowerBound - blockStart)))
                let last = Int(max(0, min(Int64(got), input.upperBound - blockStart)))
                if sourcePosition >= input.upperBound { ended = true }
                if first > 0 || last < got {
                    raw.withUnsafeMutableBufferPointer { p in
                        guard let base = p.baseAddress else { return }  // an empty block holds nothing to move
                        base.update(from: base + first * source, count: max(0, last - first) * source)
                    }
                }
                got = max(0, last - first)
                if got == 0 && !ended { continue }
            }
            map(raw, source: source, into: &mapped, work: work, frames: got)
            guard let converter else {
                try mapped.withUnsafeBufferPointer { (p) throws(AudioError) in try emit(p, got) }
                continue
            }
            var offset = 0
            while true {
                let (used, generated) = try StageClock.shared.time(.resample) { () throws(AudioError) in
                    try mapped.withUnsafeBufferPointer { (input) throws(AudioError) in
                        try converted.withUnsafeMutableBufferPointer { (output) throws(AudioError) in
                            try converter.process(
                                input: input.baseAddress?.advanced(by: offset * work), inputFrames: got - offset,
                                output: output.baseAddress, outputCapacity: outCapacity, endOfInput: ended)
                        }
                    }
                }
                offset += used
                try converted.withUnsafeBufferPointer { (p) throws(AudioError) in try emit(p, generated) }
                // more input needed, or (at the end) the converter is drained
                if offset >= got && (!ended || generated == 0) { break }
                if !ended && used == 0 && generated == 0 { break }
            }
        }
        // a file written to while it was decoded gave a mix of two versions
        try reader.checkUnchanged()
        guard produced > 0 || (input?.lowerBound ?? 0) > 0 else {
            let claim = reader.knownFrames.map {
                " although the header claims \(duration($0, rate: reader.sampleRate)) (\($0) frames)"
            }
            throw AudioError(
                file: path, operation: "decode",
                reason: "no audio could be decoded\(claim ?? ""): the file is damaged, cut short or holds no frames", kind: .data)
        }
        return produced
    }

    /// Throws when the length `reader`'s header claims, converted to `sampleRate`, is over
    /// `maximumFrames`: a long or lying file is refused before any of it is decoded
    /// (a FLAC STREAMINFO can claim 2^36 frames in a few bytes). A header that does not
    /// say (`knownFrames` nil) passes; decoding then stops at the limit.
    public static func checkClaimedLength(of reader: SoundFileReader, sampleRate: Int, maximumFrames: Int64) throws(AudioError) {
        try checkClaimedLength(
            reader.knownFrames, inputRate: reader.sampleRate, path: reader.path, sampleRate: sampleRate, maximumFrames: maximumFrames)
    }

    /// The same check on a header's facts: `claimed` frames at `inputRate` (nil: not said).
    public static func checkClaimedLength(
        _ claimed: Int64?, inputRate: Int, path: String, sampleRate: Int, maximumFrames: Int64
    ) throws(AudioError) {
        guard let claimed else { return }
        // in floating point: 2^63 frames × 384000 Hz must not overflow
        let converted = Double(claimed) * Double(sampleRate) / Double(inputRate)
        guard converted <= Double(maximumFrames) else {
            throw AudioError(
                file: path, operation: "open",
                reason:
                    "the header claims \(duration(claimed, rate: inputRate)) of audio (\(claimed) frames at \(inputRate) Hz), longer than the limit of \(duration(maximumFrames, rate: sampleRate))",
                kind: .data)
        }
    }

    /// `frames` at `rate` as text: `60 s`, `1 h 30 min`, `432 h`.
    public static func duration(_ frames: Int64, rate: Int) -> String {
        let seconds = Double(frames) / Double(rate)
        if seconds < 3600 { return seconds.rounded() == seconds ? "\(Int64(seconds)) s" : String(format: "%.3f s", seconds) }
        let minutes = Int64(seconds / 60)
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    private static func map(_ raw: [Float], source: Int, into mapped: inout [Float], work: Int, frames: Int) {
        raw.withUnsafeBufferPointer { input in
            mapped.withUnsafeMutableBufferPointer { out in
                if source == work {
                    guard let destination = out.baseAddress, let source = input.baseAddress else { return }  // no frames
                    destination.update(from: source, count: frames * work)
                } else if work == 1 {
                    let scale = 1 / Float(source)
                    for i in 0..<frames {
                        var sum: Float = 0
                        for c in 0..<source { sum += input[i * source + c] }
                        out[i] = sum * scale
                    }
                } else {
                    for i in 0..<frames { for c in 0..<work { out[i * work + c] = input[i * source + c % source] } }
                }
            }
        }
    }
}
