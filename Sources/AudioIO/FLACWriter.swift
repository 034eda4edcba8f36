import AudioCore
import CFLAC
import Glibc

/// Writes FLAC through libFLAC's stream encoder on a descriptor the caller owns. Owns one
/// `FLAC__StreamEncoder*` and its metadata blocks.
///
/// libsndfile's FLAC writer can only store its ten fixed string tags, so chapter
/// comments (`CHAPTER001=…`) need libFLAC itself. The file gets a Vorbis comment
/// block with every tag given and a seek table (a point every 10 s), so players
/// can scrub long sessions, then 8 KiB of PADDING as the `flac` tool leaves, so a tag
/// editor (metaflac, Picard) rewrites the metadata in place instead of the whole file; the
/// encoder fills STREAMINFO (with the MD5 of the audio) and the seek table when it
/// finishes. Settings are `flac -5`'s.
public final class FLACWriter {
    public let path: String
    public let channels: Int
    private var encoder: UnsafeMutablePointer<FLAC__StreamEncoder>?
    private var metadata: [UnsafeMutablePointer<FLAC__StreamMetadata>?] = []

    /// Compression level 5: libFLAC's and libsndfile's default.
    public static let compressionLevel: UInt32 = 5
    /// Seconds between seek points.
    public static let seekSpacing = 10
    /// Bytes of the PADDING block, the last metadata block: the `flac` tool's default.
    public static let paddingBytes = 8192

    /// Opens an encoder writing to `fd` (duplicated; the caller's descriptor stays open).
    /// `bitsPerSample` is 16 or 24; `totalFrames` is the exact length to come.
    public init(
        fileDescriptor fd: Int32, path: String, sampleRate: Int, channels: Int, bitsPerSample: Int,
        totalFrames: Int64, comments: [(String, String)]
    ) throws(AudioError) {
        self.path = path
        self.channels = channels
        guard let encoder = FLAC__stream_encoder_new() else {
            throw AudioError(file: path, operation: "FLAC__stream_encoder_new", reason: "out of memory", kind: .software)
        }
        self.encoder = encoder
        var ok = FLAC__stream_encoder_set_channels(encoder, UInt32(channels)) != 0
        ok = ok && FLAC__stream_encoder_set_bits_per_sample(encoder, UInt32(bitsPerSample)) != 0
        ok = ok && FLAC__stream_encoder_set_sample_rate(encoder, UInt32(sampleRate)) != 0
        ok = ok && FLAC__stream_encoder_set_compression_level(encoder, Self.compressionLevel) != 0
        ok = ok && FLAC__stream_encoder_set_total_samples_estimate(encoder, UInt64(totalFrames)) != 0
        guard ok else { throw AudioError(file: path, operation: "FLAC__stream_encoder_set", reason: "settings refused", kind: .software) }

        metadata = try Self.metadataBlocks(path: path, sampleRate: sampleRate, totalFrames: totalFrames, comments: comments)
        let accepted = metadata.withUnsafeMutableBufferPointer {
            FLAC__stream_encoder_set_metadata(encoder, $0.baseAddress, UInt32($0.count)) != 0
        }
        guard accepted else { throw AudioError(file: path, operation: "FLAC__stream_encoder_set_metadata", reason: "refused", kind: .software) }

        let copy = dup(fd)
        guard copy >= 0, let file = fdopen(copy, "w+b") else {
            if copy >= 0 { close(copy) }
            throw AudioError(file: path, operation: "fdopen", reason: String(cString: strerror(errno)), kind: .cannotCreate)
        }
        // 1 MiB of stdio buffer: libFLAC writes frame by frame, and the default 4 KiB made
        // one write(2) per 4 KiB of output (about 200,000 calls for an hour of 24-bit stereo)
        setvbuf(file, nil, _IOFBF, 1 << 20)
        let status = FLAC__stream_encoder_init_FILE(encoder, file, nil, nil)
        guard status == FLAC__STREAM_ENCODER_INIT_STATUS_OK else {
            fclose(file)
            throw AudioError(
                file: path, operation: "FLAC__stream_encoder_init_FILE",
                reason: "init status \(status.rawValue) (\(stateText(encoder)))", kind: .cannotCreate)
        }
    }

    /// The metadata blocks after STREAMINFO: the Vorbis comments, the seek table's template
    /// (a point every `seekSpacing` seconds; libFLAC fills it in), the padding. The caller
    /// deletes them after the encoder is done with them.
    static func metadataBlocks(
        path: String, sampleRate: Int, totalFrames: Int64, comments: [(String, String)]
    ) throws(AudioError) -> [UnsafeMutablePointer<FLAC__StreamMetadata>?] {
        var blocks: [UnsafeMutablePointer<FLAC__StreamMetadata>?] = []
        do throws(AudioError) {
            guard let tags = FLAC__metadata_object_new(FLAC__METADATA_TYPE_VORBIS_COMMENT) else {
                throw AudioError(file: path, operation: "FLAC__metadata_object_new", reason: "out of memory", kind: .software)
            }
            blocks.append(tags)
            for (name, value) in comments {
                var entry = FLAC__StreamMetadata_VorbisComment_Entry()
                guard FLAC__metadata_object_vorbiscomment_entry_from_name_value_pair(&entry, name, value) != 0,
                    FLAC__metadata_object_vorbiscomment_append_comment(tags, entry, 0) != 0
                else {
                    throw AudioError(file: path, operation: "FLAC vorbis comment", reason: "cannot store the tag \(name)", kind: .data)
                }
            }
            if totalFrames > 0 {
                guard let seekTable = FLAC__metadata_object_new(FLAC__METADATA_TYPE_SEEKTABLE) else {
                    throw AudioError(file: path, operation: "FLAC__metadata_object_new", reason: "out of memory", kind: .software)
                }
                blocks.append(seekTable)
                guard
                    FLAC__metadata_object_seektable_template_append_spaced_points_by_samples(
                        seekTable, UInt32(Self.seekSpacing * sampleRate), UInt64(totalFrames)) != 0,
                    FLAC__metadata_object_seektable_template_sort(seekTable, 1) != 0
                else {
                    throw AudioError(file: path, operation: "FLAC seek table", reason: "out of memory", kind: .software)
                }
            }
            guard let padding = FLAC__metadata_object_new(FLAC__METADATA_TYPE_PADDING) else {
                throw AudioError(file: path, operation: "FLAC__metadata_object_new", reason: "out of memory", kind: .software)
            }
            padding.pointee.length = UInt32(Self.paddingBytes)
            blocks.append(padding)
        } catch {
            for block in blocks { FLAC__metadata_object_delete(block) }
            throw error
        }
        return blocks
    }

    deinit {
        if let encoder {
            FLAC__stream_encoder_finish(encoder)
            FLAC__stream_encoder_delete(encoder)
        }
        for block in metadata { FLAC__metadata_object_delete(block) }
    }

    /// Encodes `frames` frames of interleaved, right-justified integer samples.
    public func write(_ samples: UnsafeBufferPointer<Int32>, frames: Int) throws(AudioError) {
        guard let encoder else {
            throw AudioError(file: path, operation: "FLAC write", reason: "the writer is already finished", kind: .software)
        }
        errno = 0
        guard FLAC__stream_encoder_process_interleaved(encoder, samples.baseAddress, UInt32(frames)) != 0 else {
            throw failure("FLAC__stream_encoder_process_interleaved", encoder, errno)
        }
    }

    /// Encodes the last frames and rewrites STREAMINFO and the seek table; throws if that fails.
    public func finish() throws(AudioError) {
        guard let encoder else { return }
        self.encoder = nil
        defer { FLAC__stream_encoder_delete(encoder) }
        errno = 0
        guard FLAC__stream_encoder_finish(encoder) != 0 else {
            throw failure("FLAC__stream_encoder_finish", encoder, errno)
        }
    }

    /// A failed encode: libFLAC only says its write callback failed, so a full disk or a
    /// quota (left in `errno` by the stdio write under it) is named as such (`cannotCreate`).
    private func failure(_ operation: String, _ encoder: UnsafeMutablePointer<FLAC__StreamEncoder>, _ code: Int32) -> AudioError {
        if AtomicOutputFile.meansNoRoom(code) { return AtomicOutputFile.writeError(path: path, operation: operation, code) }
        return AudioError(file: path, operation: operation, reason: stateText(encoder), kind: .ioError)
    }

    private func stateText(_ encoder: UnsafeMutablePointer<FLAC__StreamEncoder>) -> String {
        String(cString: FLAC__stream_encoder_get_resolved_state_string(encoder))
    }
}
