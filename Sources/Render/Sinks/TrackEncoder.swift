import AudioCore
import AudioIO
import DSP
import Recipe

/// What is written inside the audio file besides the samples.
struct EmbeddedMetadata {
    /// TITLE, ALBUM, COMMENT: every format that carries tags.
    var tags: [(String, String)]
    /// CHAPTER001=00:00:10.000, CHAPTER001NAME=…: FLAC, Ogg Vorbis and Ogg Opus comments.
    var chapterComments: [(String, String)]
    /// The same points as `chapterComments`, in frames: MP3's ID3v2 `CHAP` frames.
    var chapterPoints: [M4AWriter.Chapter] = []
    /// The same chapters in frames: M4A's chapter track.
    var chapters: [M4AWriter.Chapter]
    /// Labelled cue points: WAV.
    var markers: [WAVMarkers.Point]

    /// The tags an M4A carries, by libavformat's names (iTunes title, album, comment).
    var m4aTags: [(String, String)] {
        let names = ["TITLE": "title", "ALBUM": "album", "COMMENT": "comment"]
        return tags.compactMap { key, value in names[key].map { ($0, value) } }
    }
}

/// The output stage: float blocks → the chosen format, quantized and dithered as it needs.
///
/// One concrete type with a switch, not a protocol, so the per-block call has no
/// existential dispatch. 16-bit output is TPDF-dithered (seeded); 24-bit is
/// rounded; 32f and the lossy encoders take floats.
final class TrackEncoder {
    private enum Backend {
        case sndfile(SoundFileWriter, Sample)
        case flac(FLACWriter, Sample)
        /// FLAC on several cores: samples quantized here in order, chunks encoded by the lanes.
        case flacLanes(FLACLaneWriter, Sample)
        case vorbis(OggVorbisWriter)
        /// Apple Lossless (AAC is `AACDelivery`'s, in parts).
        case alac(M4AWriter, Sample)
        /// LAME through libsndfile, after an ID3v2.4 tag.
        case mp3(MP3Writer)
        /// libopus through libsndfile, its pages with our serial and tags.
        case opus(OggOpusWriter)
    }
    private enum Sample { case int16, int24, float }

    private let backend: Backend
    private var quantizer: Quantizer
    private var shorts: [Int16]
    private var ints: [Int32]
    private let markers: [WAVMarkers.Point]
    private let fileDescriptor: Int32
    private let path: String
    private var sinceWriteback = 0
    /// Frames encoded between two writeback starts (about 22 s of 48 kHz audio).
    static let writebackFrames = 1 << 20

    /// Opens the encoder for `format` on `fd`, with `metadata` in the file. FLAC of at least
    /// `minimumLaneFrames` is encoded on `lanes` cores when `lanes` > 1.
    init(
        format: AudioFormat, bitDepth: BitDepth, bitrate: Int?, fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int,
        totalFrames: Int64, seed: UInt64, serial: Int32, metadata: EmbeddedMetadata, lanes: Int = 1
    ) throws(AudioError) {
        self.fileDescriptor = fd
        self.path = path
        guard format.facts.bitDepths.isEmpty || format.facts.bitDepths.contains(bitDepth) else {
            throw AudioError(
                file: path, operation: "open",
                reason: "\(format.rawValue) cannot store 32-bit float samples (use bit_depth \(format.facts.depthList(" or ")))",
                kind: .data)
        }
        let sample: Sample = format.isLossy || bitDepth == .float32 ? .float : bitDepth == .int16 ? .int16 : .int24
        var markers: [WAVMarkers.Point] = []
        switch format.writer(bitDepth: bitDepth) {
        case .soundFile(let sfFormat, let riff):
            markers = riff ? metadata.markers : []
            let large =
                riff
                && Self.needsRF64(
                    frames: totalFrames, channels: channels, bytesPerSample: sample == .int16 ? 2 : sample == .int24 ? 3 : 4, metadata: metadata)
            let writer = try SoundFileWriter(
                fileDescriptor: fd, path: path, format: large ? sfFormat.rf64 : sfFormat, sampleRate: sampleRate, channels: channels,
                bitrate: bitrate)
            writer.setTags(metadata.tags)
            backend = .sndfile(writer, sample)
        case .flac(let bits) where lanes > 1 && totalFrames >= Self.minimumLaneFrames:
            backend = .flacLanes(
                try FLACLaneWriter(
                    fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels, bitsPerSample: bits, totalFrames: totalFrames,
                    comments: metadata.tags + metadata.chapterComments, lanes: lanes),
                sample)
        case .flac(let bits):
            backend = .flac(
                try FLACWriter(
                    fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels, bitsPerSample: bits, totalFrames: totalFrames,
                    comments: metadata.tags + metadata.chapterComments),
                sample)
        case .alac(let bits):
            backend = .alac(
                try M4AWriter(
                    fileDescriptor: fd, path: path, codec: .alac(bitDepth: bits), sampleRate: sampleRate, channels: channels,
                    totalFrames: totalFrames, metadata: metadata.m4aTags, chapters: metadata.chapters),
                sample)
        case .mp3:
            backend = .mp3(
                try MP3Writer(
                    fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels, bitrate: bitrate, tags: metadata.tags,
                    chapters: metadata.chapterPoints, totalFrames: totalFrames))
        case .opus:
            backend = .opus(
                try OggOpusWriter(
                    fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels, bitrate: bitrate, serial: serial,
                    comments: metadata.tags + metadata.chapterComments))
        case .vorbis(let quality):
            backend = .vorbis(
                try OggVorbisWriter(
                    fileDescriptor: fd, path: path, sampleRate: sampleRate, channels: channels,
                    rate: bitrate.map(OggVorbisWriter.Rate.bitrate) ?? .quality(quality), serial: serial,
                    comments: metadata.tags + metadata.chapterComments))
        case .aacInParts:
            throw AudioError(file: path, operation: "open", reason: "AAC is encoded in parts (AACDelivery), not by TrackEncoder", kind: .software)
        }
        self.markers = markers
        quantizer = Quantizer(depth: sample == .int16 ? .int16 : .int24, seed: seed)
        shorts = sample == .int16 ? [Int16](repeating: 0, count: Self.maximumFrames * channels) : []
        ints = sample != .float ? [Int32](repeating: 0, count: Self.maximumFrames * channels) : []
    }

    /// Whether a WAV of `frames` frames, with its tags and markers, would pass RIFF's 4 GiB
    /// size field: it is then written as RF64 (EBU Tech 3306, libsndfile's `SF_FORMAT_RF64`),
    /// which keeps 64-bit sizes in a `ds64` chunk and which players and DAWs read. An 8-hour
    /// 48 kHz stereo 32-bit float master is 11 GB. Smaller files stay plain RIFF, byte for byte.
    static func needsRF64(frames: Int64, channels: Int, bytesPerSample: Int, metadata: EmbeddedMetadata) -> Bool {
        let data = frames * Int64(channels) * Int64(bytesPerSample)
        let tags = metadata.tags.reduce(Int64(0)) { $0 + 16 + Int64($1.1.utf8.count) }
        let header: Int64 = 4096  // RIFF, fmt, fact, LIST/INFO headers and padding, generously
        return header + data + tags + WAVMarkers.size(of: metadata.markers) > Int64(UInt32.max)
    }

    /// Frames converted at once (the encoder pipeline's chunk): a FLAC lane's chunk.
    static let maximumFrames = FLACLaneWriter.chunkFrames
    /// The shortest FLAC encoded in lanes: two chunks (about 1.4 s at 48 kHz), so each lane has one.
    static let minimumLaneFrames = Int64(2 * FLACLaneWriter.chunkFrames)

    /// Lanes encoding on threads of their own (`write(lane:…)`), or 1: `write(_:frames:channels:)`.
    var lanes: Int {
        if case .flacLanes(let writer, _) = backend { return writer.lanes }
        return 1
    }

    /// Lanes: quantizes the next chunk of the stream into `ints` (dither in order) and adds it to
    /// STREAMINFO's MD5. On the thread that produces the blocks, in order.
    func prepare(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int, into ints: UnsafeMutableBufferPointer<Int32>) {
        guard case .flacLanes(let writer, let sample) = backend else { return }
        StageClock.shared.time(.encode) {
            let count = frames * channels
            quantizeRight(samples, into: ints, count: count, sample)
            writer.digest(UnsafeBufferPointer(rebasing: ints[0..<count]))
            sinceWriteback += frames
            if sinceWriteback >= Self.writebackFrames {
                sinceWriteback = 0
                AtomicOutputFile.startWriteback(fileDescriptor: fileDescriptor)
            }
        }
    }

    /// Lanes: encodes a chunk `prepare` made, on `lane`'s thread (chunk k goes to lane k % lanes).
    func write(lane: Int, _ ints: UnsafeBufferPointer<Int32>, frames: Int) throws(AudioError) {
        guard case .flacLanes(let writer, _) = backend else { return }
        try StageClock.shared.time(.encode) { () throws(AudioError) in try writer.write(lane: lane, ints, frames: frames) }
    }

    /// Encodes `frames` frames of interleaved floats.
    func write(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) throws(AudioError) {
        try StageClock.shared.time(.encode) { () throws(AudioError) in
            var done = 0
            while done < frames {
                let n = min(frames - done, Self.maximumFrames)
                try encode(UnsafeBufferPointer(rebasing: samples[(done * channels)..<((done + n) * channels)]), frames: n, channels: channels)
                done += n
            }
            sinceWriteback += frames
            if sinceWriteback >= Self.writebackFrames {
                sinceWriteback = 0
                AtomicOutputFile.startWriteback(fileDescriptor: fileDescriptor)
            }
        }
    }

    private func encode(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) throws(AudioError) {
        let count = frames * channels
        switch backend {
        case .vorbis(let writer):
            try writer.write(samples, frames: frames)
        case .mp3(let writer):
            try writer.write(samples, frames: frames)
        case .opus(let writer):
            try writer.write(samples, frames: frames)
        case .sndfile(let writer, .float):
            try writer.write(samples, frames: frames)
        case .sndfile(let writer, .int16):
            try shorts.withUnsafeMutableBufferPointer { (out) throws(AudioError) in
                quantizer.quantize16(samples, into: out, count: count)
                try writer.write(UnsafeBufferPointer(out), frames: frames)
            }
        case .sndfile(let writer, .int24):
            try ints.withUnsafeMutableBufferPointer { (out) throws(AudioError) in
                quantizer.quantize24(samples, into: out, count: count)
                try writer.write(UnsafeBufferPointer(out), frames: frames)
            }
        case .alac(let writer, let sample):
            try rightJustified(samples, count: count, sample) { (ints) throws(AudioError) in try writer.write(ints, frames: frames) }
        case .flac(let writer, let sample):
            try rightJustified(samples, count: count, sample) { (ints) throws(AudioError) in try writer.write(ints, frames: frames) }
        case .flacLanes:
            throw AudioError(file: path, operation: "encode", reason: "FLAC in lanes takes prepared chunks (write(lane:))", kind: .software)
        }
    }

    /// `samples` as right-justified Int32, what libFLAC and the ALAC encoder take: 16-bit with
    /// the same dither as 16-bit WAV, widened; otherwise 24-bit, rounded.
    private func rightJustified(
        _ samples: UnsafeBufferPointer<Float>, count: Int, _ sample: Sample, _ write: (UnsafeBufferPointer<Int32>) throws(AudioError) -> Void
    ) throws(AudioError) {
        try ints.withUnsafeMutableBufferPointer { (wide) throws(AudioError) in
            quantizeRight(samples, into: wide, count: count, sample)
            try write(UnsafeBufferPointer(wide))
        }
    }

    /// `count` samples as right-justified Int32 into `wide`: 16-bit through the 16-bit quantizer
    /// (its dither), widened; otherwise 24-bit, rounded.
    private func quantizeRight(_ samples: UnsafeBufferPointer<Float>, into wide: UnsafeMutableBufferPointer<Int32>, count: Int, _ sample: Sample) {
        if sample == .int16 {
            shorts.withUnsafeMutableBufferPointer { out in
                quantizer.quantize16(samples, into: out, count: count)
                for i in 0..<count { wide[i] = Int32(out[i]) }
            }
        } else {
            quantizer.quantize24Right(samples, into: wide, count: count)
        }
    }

    /// Completes the file; its failure is the render's failure.
    func finish() throws(AudioError) {
        try StageClock.shared.time(.encode) { () throws(AudioError) in try complete() }
    }

    private func complete() throws(AudioError) {
        switch backend {
        case .vorbis(let writer): try writer.finish()
        case .flac(let writer, _): try writer.finish()
        case .flacLanes(let writer, _): try writer.finish()
        case .alac(let writer, _): try writer.finish()
        case .mp3(let writer): try writer.finish()
        case .opus(let writer): try writer.finish()
        case .sndfile(let writer, _):
            try writer.finish()
            try WAVMarkers.append(markers, fileDescriptor: fileDescriptor, path: path)
        }
    }
}
