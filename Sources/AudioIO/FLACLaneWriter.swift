import AudioCore
import CCrypto
import CFLAC
import Foundation

/// FLAC on several cores: one libFLAC encoder per lane, each taking every `lanes`-th chunk of
/// the stream, their frames written in the stream's order. The file is byte for byte the one
/// `FLACWriter` writes from the same samples (issue 34's stretch: libFLAC 1.4 has no threads).
///
/// At `flac -5`'s settings a frame depends on its own 4096 samples only (the stereo mode is
/// chosen per frame, the predictor too), so a lane's frames are the stream's frames but for
/// their numbers. A chunk is whole blocks (`chunkFrames`), so the lane-local frame k of lane L
/// is the stream's frame (k / 8 · lanes + L) · 8 + k % 8. Each lane renumbers its frames
/// (`FLACFrameNumber`) on its own thread; under one lock they are written when their turn
/// comes, which also counts each frame's offset for the seek table and its size for
/// STREAMINFO. Lane 0's encoder writes the metadata blocks as `FLACWriter`'s does; the other
/// lanes' are dropped. libFLAC's MD5 would see one lane's samples only, so the lanes compute
/// none: the caller passes every sample to `digest` in order (OpenSSL's MD5 of the samples as
/// libFLAC packs them: little-endian, whole bytes), and `finish` writes STREAMINFO's frame
/// sizes, sample count and MD5 and the seek table where lane 0 wrote them, as libFLAC's own
/// finish does through its seek callback.
///
/// Memory is a lane's frames waiting for their turn: at most what the caller queues ahead.
public final class FLACLaneWriter: @unchecked Sendable {
    public let path: String
    public let channels: Int
    public let lanes: Int
    /// libFLAC's block size at level 5: every frame but the stream's last holds this many.
    public static let blockFrames = 4096
    static let blocksPerChunk = 8
    /// Frames a lane takes at a time: whole blocks. Every chunk but the stream's last is this long.
    public static let chunkFrames = blocksPerChunk * blockFrames

    private let bytesPerSample: Int
    private let totalFrames: Int64
    private var encoders: [UnsafeMutablePointer<FLAC__StreamEncoder>?] = []
    private var metadata: [UnsafeMutablePointer<FLAC__StreamMetadata>?] = []
    private var laneTokens: [Unmanaged<FLACLaneWriterLane>] = []
    private var file: UnsafeMutablePointer<FILE>?
    private let digestContext: OpaquePointer
    private var packed: [UInt8] = []

    // Under `lock`: the frames waiting for their turn, and what the written ones were.
    private let lock = NSLock()
    private var waiting: [[[UInt8]]]
    private var waitingHead: [Int]
    private var nextFrame = 0
    private var bytesWritten: Int64 = 0
    private var audioOffset: Int64 = 0
    private var streamInfo: (offset: Int64, bytes: [UInt8])?
    private var seekTable: (offset: Int64, bytes: [UInt8])?
    private var seekSamples: [UInt64] = []
    private var nextSeekPoint = 0
    private var smallestFrame = Int.max
    private var largestFrame = 0
    private var writeErrno: Int32 = 0
    private var broken: String?

    /// Opens `lanes` encoders writing to `fd` (duplicated; the caller's descriptor stays open),
    /// with `FLACWriter`'s settings and metadata.
    public init(
        fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int, bitsPerSample: Int,
        totalFrames: Int64, comments: [(String, String)], lanes: Int
    ) throws(AudioError) {
        self.path = path
        self.channels = channels
        self.lanes = max(1, lanes)
        self.totalFrames = totalFrames
        bytesPerSample = (bitsPerSample + 7) / 8
        waiting = Array(repeating: [], count: max(1, lanes))
        waitingHead = Array(repeating: 0, count: max(1, lanes))
        guard let context = EVP_MD_CTX_new() else {
            throw AudioError(file: path, operation: "EVP_MD_CTX_new", reason: "out of memory", kind: .software)
        }
        digestContext = context
        EVP_DigestInit_ex(context, EVP_md5(), nil)

        metadata = try FLACWriter.metadataBlocks(
            path: path, sampleRate: sampleRate, totalFrames: totalFrames, comments: comments)
        if let table = metadata.first(where: { $0?.pointee.type == FLAC__METADATA_TYPE_SEEKTABLE }) ?? nil {
            let points = table.pointee.data.seek_table
            seekSamples = (0..<Int(points.num_points)).map { points.points[$0].sample_number }
        }

        let copy = dup(fd)
        guard copy >= 0, let file = fdopen(copy, "wb") else {
            if copy >= 0 { close(copy) }
            throw AudioError(file: path, operation: "fdopen", reason: String(cString: strerror(errno)), kind: .cannotCreate)
        }
        setvbuf(file, nil, _IOFBF, 1 << 20)
        self.file = file

        for index in 0..<self.lanes {
            guard let encoder = FLAC__stream_encoder_new() else {
                throw AudioError(file: path, operation: "FLAC__stream_encoder_new", reason: "out of memory", kind: .software)
            }
            encoders.append(encoder)
            var ok = FLAC__stream_encoder_set_channels(encoder, UInt32(channels)) != 0
            ok = ok && FLAC__stream_encoder_set_bits_per_sample(encoder, UInt32(bitsPerSample)) != 0
            ok = ok && FLAC__stream_encoder_set_sample_rate(encoder, UInt32(sampleRate)) != 0
            ok = ok && FLAC__stream_encoder_set_compression_level(encoder, FLACWriter.compressionLevel) != 0
            ok = ok && FLAC__stream_encoder_set_do_md5(encoder, 0) != 0
            ok = ok && FLAC__stream_encoder_set_total_samples_estimate(encoder, UInt64(totalFrames)) != 0
            if index == 0 {
                ok =
                    ok
                    && metadata.withUnsafeMutableBufferPointer {
                        FLAC__stream_encoder_set_metadata(encoder, $0.baseAddress, UInt32($0.count)) != 0
                    }
            }
            guard ok else { throw AudioError(file: path, operation: "FLAC__stream_encoder_set", reason: "settings refused", kind: .software) }
            let token = Unmanaged.passRetained(FLACLaneWriterLane(writer: self, index: index))
            laneTokens.append(token)
            let status = FLAC__stream_encoder_init_stream(encoder, laneWrite, nil, nil, nil, token.toOpaque())
            guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
                throw failure("FLAC__stream_encoder_init_stream", encoder)
            }
        }
        audioOffset = bytesWritten
    }

    deinit {
        // deleting an encoder finishes it without writing (libFLAC skips the last frame then)
        for encoder in encoders { FLAC__stream_encoder_delete(encoder) }
        for token in laneTokens { token.release() }
        for block in metadata { FLAC__metadata_object_delete(block) }
        if let file { fclose(file) }
        EVP_MD_CTX_free(digestContext)
    }

    /// Adds interleaved right-justified samples to STREAMINFO's MD5. Every sample of the
    /// stream, in order, on one thread.
    public func digest(_ samples: UnsafeBufferPointer<Int32>) {
        let count = samples.count * bytesPerSample
        if packed.count < count { packed = [UInt8](repeating: 0, count: count) }
        packed.withUnsafeMutableBufferPointer { out in
            if bytesPerSample == 2 {
                for i in 0..<samples.count {
                    let v = UInt32(bitPattern: samples[i])
                    out[2 * i] = UInt8(truncatingIfNeeded: v)
                    out[2 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                }
            } else {
                for i in 0..<samples.count {
                    let v = UInt32(bitPattern: samples[i])
                    out[3 * i] = UInt8(truncatingIfNeeded: v)
                    out[3 * i + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    out[3 * i + 2] = UInt8(truncatingIfNeeded: v >> 16)
                }
            }
            _ = EVP_DigestUpdate(digestContext, out.baseAddress, count)
        }
    }

    /// Encodes `lane`'s next chunk: `frames` interleaved right-justified frames, `chunkFrames`
    /// long unless it is the stream's last. One thread per lane; lanes take chunks in turn.
    public func write(lane: Int, _ samples: UnsafeBufferPointer<Int32>, frames: Int) throws(AudioError) {
        guard lane < encoders.count, let encoder = encoders[lane] else {
            throw AudioError(file: path, operation: "FLAC write", reason: "the writer is already finished", kind: .software)
        }
        guard FLAC__stream_encoder_process_interleaved(encoder, samples.baseAddress, UInt32(frames)) != 0 else {
            throw failure("FLAC__stream_encoder_process_interleaved", encoder)
        }
    }

    /// Encodes each lane's last frames, writes STREAMINFO and the seek table, and closes.
    public func finish() throws(AudioError) {
        guard file != nil else { return }
        for lane in encoders.indices {
            guard let encoder = encoders[lane] else { continue }
            guard FLAC__stream_encoder_finish(encoder) != 0 else { throw failure("FLAC__stream_encoder_finish", encoder) }
            FLAC__stream_encoder_delete(encoder)
            encoders[lane] = nil
        }
        lock.lock()
        let written = Int64(nextFrame - 1) * Int64(Self.blockFrames)
        let left = waiting.indices.reduce(0) { $0 + waiting[$1].count - waitingHead[$1] }
        lock.unlock()
        guard left == 0, nextFrame > 0, written < totalFrames, totalFrames <= written + Int64(Self.blockFrames) else {
            throw AudioError(
                file: path, operation: "FLAC lanes",
                reason: "\(nextFrame) frames in order and \(left) out of turn for \(totalFrames) samples", kind: .software)
        }
        var md5 = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(digestContext, &md5, &length)
        guard let file, let info = streamInfo else {
            throw AudioError(file: path, operation: "FLAC lanes", reason: "lane 0 wrote no STREAMINFO", kind: .software)
        }
        self.file = nil
        var block = info.bytes
        put(UInt64(smallestFrame), bytes: 3, at: 8, in: &block)
        put(UInt64(largestFrame), bytes: 3, at: 11, in: &block)
        block[17] = (block[17] & 0xF0) | UInt8(truncatingIfNeeded: UInt64(totalFrames) >> 32)
        put(UInt64(totalFrames) & 0xFFFF_FFFF, bytes: 4, at: 18, in: &block)
        block.replaceSubrange(22..<38, with: md5)
        var blocks = [(info.offset, block)]
        if let table = seekTable { blocks.append((table.offset, table.bytes)) }
        guard fflush(file) == 0 else {
            let code = errno
            fclose(file)
            throw AtomicOutputFile.writeError(path: path, operation: "fflush", code)
        }
        for (offset, bytes) in blocks {
            let done = bytes.withUnsafeBytes { pwrite(fileno(file), $0.baseAddress, $0.count, off_t(offset)) }
            guard done == bytes.count else {
                let code = errno
                fclose(file)
                throw AtomicOutputFile.writeError(path: path, operation: "pwrite", code)
            }
        }
        guard fclose(file) == 0 else { throw AtomicOutputFile.writeError(path: path, operation: "fclose", errno) }
    }

    // MARK: the lanes' frames

    /// One write of a lane's encoder: a metadata block (lane 0's go to the file), or a frame.
    fileprivate func accept(lane: Int, _ bytes: UnsafeRawBufferPointer, samples: Int, laneFrame: Int) -> FLAC__StreamEncoderWriteStatus {
        if samples == 0 {
            guard lane == 0 else { return FLAC__STREAM_ENCODER_WRITE_STATUS_OK }
            lock.lock()
            defer { lock.unlock() }
            // a block's header: is-last flag and type (0 STREAMINFO, 3 SEEKTABLE), then its length
            if bytes.count > 4 && bytes[0] & 0x7F == 0 { streamInfo = (bytesWritten, Array(bytes)) }
            if bytes.count > 4 && bytes[0] & 0x7F == 3 { seekTable = (bytesWritten, Array(bytes)) }
            return put(bytes) ? FLAC__STREAM_ENCODER_WRITE_STATUS_OK : FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR
        }
        let chunk = laneFrame / Self.blocksPerChunk * lanes + lane
        let number = chunk * Self.blocksPerChunk + laneFrame % Self.blocksPerChunk
        guard let frame = FLACFrameNumber.renumbered(bytes, as: UInt32(number)) else {
            lock.lock()
            broken = "lane \(lane) wrote a frame that is not a fixed-block-size FLAC frame"
            lock.unlock()
            return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR
        }
        lock.lock()
        defer { lock.unlock() }
        guard broken == nil, writeErrno == 0 else { return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR }
        waiting[lane].append(frame)
        return flush() ? FLAC__STREAM_ENCODER_WRITE_STATUS_OK : FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR
    }

    /// Writes the frames whose turn has come (under `lock`).
    private func flush() -> Bool {
        while true {
            let lane = nextFrame / Self.blocksPerChunk % lanes
            guard waitingHead[lane] < waiting[lane].count else { break }
            let frame = waiting[lane][waitingHead[lane]]
            waiting[lane][waitingHead[lane]] = []
            waitingHead[lane] += 1
            if waitingHead[lane] >= 64 {
                waiting[lane].removeFirst(waitingHead[lane])
                waitingHead[lane] = 0
            }
            // libFLAC's seek points: a point names the frame that holds its sample
            let first = UInt64(nextFrame) * UInt64(Self.blockFrames)
            let last = min(first + UInt64(Self.blockFrames), UInt64(totalFrames))
            while nextSeekPoint < seekSamples.count && seekSamples[nextSeekPoint] < last {
                if seekSamples[nextSeekPoint] >= first, var table = seekTable?.bytes {
                    let at = 4 + 18 * nextSeekPoint
                    put(first, bytes: 8, at: at, in: &table)
                    put(UInt64(bytesWritten - audioOffset), bytes: 8, at: at + 8, in: &table)
                    put(last - first, bytes: 2, at: at + 16, in: &table)
                    seekTable?.bytes = table
                }
                nextSeekPoint += 1
            }
            smallestFrame = min(smallestFrame, frame.count)
            largestFrame = max(largestFrame, frame.count)
            nextFrame += 1
            guard frame.withUnsafeBytes({ put($0) }) else { return false }
        }
        return true
    }

    /// Appends `bytes` to the file (under `lock`).
    private func put(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let file else { return false }
        errno = 0
        guard fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count else {
            writeErrno = errno == 0 ? EIO : errno
            return false
        }
        bytesWritten += Int64(bytes.count)
        return true
    }

    /// `value`'s low `bytes` bytes, big-endian, at `at` in `block`.
    private func put(_ value: UInt64, bytes: Int, at: Int, in block: inout [UInt8]) {
        for k in 0..<bytes { block[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(bytes - 1 - k))) }
    }

    /// A failed encode, named as the disk's failure when a write failed for want of room.
    private func failure(_ operation: String, _ encoder: UnsafeMutablePointer<FLAC__StreamEncoder>) -> AudioError {
        lock.lock()
        let (code, reason) = (writeErrno, broken)
        lock.unlock()
        if code != 0 { return AtomicOutputFile.writeError(path: path, operation: operation, code) }
        return AudioError(
            file: path, operation: operation, reason: reason ?? String(cString: FLAC__stream_encoder_get_resolved_state_string(encoder)),
            kind: reason == nil ? .ioError : .software)
    }
}

/// One encoder's identity in its callbacks (the writer outlives its encoders).
private final class FLACLaneWriterLane {
    unowned(unsafe) let writer: FLACLaneWriter
    let index: Int
    init(writer: FLACLaneWriter, index: Int) {
        self.writer = writer
        self.index = index
    }
}

/// libFLAC's write callback for every lane: the lane is in the client data.
private let laneWrite: FLAC__StreamEncoderWriteCallback = { _, buffer, bytes, samples, currentFrame, client in
    guard let client, let buffer else { return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR }
    let lane = Unmanaged<FLACLaneWriterLane>.fromOpaque(client).takeUnretainedValue()
    return lane.writer.accept(
        lane: lane.index, UnsafeRawBufferPointer(start: buffer, count: bytes), samples: Int(samples), laneFrame: Int(currentFrame))
}
