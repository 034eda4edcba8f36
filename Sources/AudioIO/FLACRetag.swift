import AudioCore
import CFLAC
import Glibc

/// Copies a FLAC file that `FLACWriter` wrote with other Vorbis comments: the bytes a fresh
/// encoding of the same audio with those comments would give, without encoding again.
///
/// A FLAC stream is its metadata blocks, then frames that do not depend on them: STREAMINFO
/// (with the audio's MD5), the seek table (offsets from the first frame) and the frames stay
/// as they are; the Vorbis comment block keeps its vendor string and takes `comments`; the
/// PADDING block keeps its length. libFLAC's level-2 metadata interface does the writing: in
/// place on a copy when the blocks keep their size, else through its temp-file path into the
/// destination. Renditions of a session whose sound is the same (only their texts differ)
/// are made this way from the first one encoded (issue 34).
public enum FLACRetag {
    /// Writes `source` with `comments` (replacing every comment it has) to `fileDescriptor`
    /// (duplicated; an empty file the caller owns, named `path` in errors).
    public static func copy(from source: String, toDescriptor fileDescriptor: Int32, path: String, comments: [(String, String)]) throws(AudioError) {
        guard let input = fopen(source, "rb") else {
            throw AudioError(file: source, operation: "fopen", reason: String(cString: strerror(errno)), kind: .noInput)
        }
        defer { fclose(input) }
        let copy = dup(fileDescriptor)
        guard copy >= 0, let output = fdopen(copy, "w+b") else {
            if copy >= 0 { close(copy) }
            throw AudioError(file: path, operation: "fdopen", reason: String(cString: strerror(errno)), kind: .cannotCreate)
        }
        defer { fclose(output) }
        guard let chain = FLAC__metadata_chain_new() else {
            throw AudioError(file: path, operation: "FLAC__metadata_chain_new", reason: "out of memory", kind: .software)
        }
        defer { FLAC__metadata_chain_delete(chain) }
        guard FLAC__metadata_chain_read_with_callbacks(chain, UnsafeMutableRawPointer(input), callbacks) != 0 else {
            throw failure(chain, source, "FLAC__metadata_chain_read_with_callbacks")
        }
        try replaceComments(in: chain, with: comments, path: path)
        if FLAC__metadata_chain_check_if_tempfile_needed(chain, 0) != 0 {
            // the blocks changed size: libFLAC writes the new blocks, then copies the frames from the source
            guard
                FLAC__metadata_chain_write_with_callbacks_and_tempfile(
                    chain, 0, UnsafeMutableRawPointer(input), callbacks, UnsafeMutableRawPointer(output), callbacks) != 0
            else { throw failure(chain, path, "FLAC__metadata_chain_write_with_callbacks_and_tempfile") }
        } else {
            // the same sizes: the source copied whole, then the blocks written over it in place
            try copyBytes(from: input, to: output, source: source, path: path)
            guard FLAC__metadata_chain_write_with_callbacks(chain, 0, UnsafeMutableRawPointer(output), callbacks) != 0 else {
                throw failure(chain, path, "FLAC__metadata_chain_write_with_callbacks")
            }
        }
        guard fflush(output) == 0 else {
            throw AudioError(file: path, operation: "fflush", reason: String(cString: strerror(errno)), kind: .ioError)
        }
    }

    /// Empties the chain's Vorbis comment block (its vendor string kept) and appends `comments`.
    private static func replaceComments(
        in chain: OpaquePointer, with comments: [(String, String)], path: String
    ) throws(AudioError) {
        guard let iterator = FLAC__metadata_iterator_new() else {
            throw AudioError(file: path, operation: "FLAC__metadata_iterator_new", reason: "out of memory", kind: .software)
        }
        defer { FLAC__metadata_iterator_delete(iterator) }
        FLAC__metadata_iterator_init(iterator, chain)
        repeat {
            guard FLAC__metadata_iterator_get_block_type(iterator) == FLAC__METADATA_TYPE_VORBIS_COMMENT,
                let block = FLAC__metadata_iterator_get_block(iterator)
            else { continue }
            guard FLAC__metadata_object_vorbiscomment_resize_comments(block, 0) != 0 else {
                throw AudioError(file: path, operation: "FLAC vorbis comment", reason: "out of memory", kind: .software)
            }
            for (name, value) in comments {
                var entry = FLAC__StreamMetadata_VorbisComment_Entry()
                guard FLAC__metadata_object_vorbiscomment_entry_from_name_value_pair(&entry, name, value) != 0,
                    FLAC__metadata_object_vorbiscomment_append_comment(block, entry, 0) != 0
                else {
                    throw AudioError(file: path, operation: "FLAC vorbis comment", reason: "cannot store the tag \(name)", kind: .data)
                }
            }
            return
        } while FLAC__metadata_iterator_next(iterator) != 0
        throw AudioError(file: path, operation: "FLAC retag", reason: "the source has no Vorbis comment block", kind: .software)
    }

    private static func copyBytes(
        from input: UnsafeMutablePointer<FILE>, to output: UnsafeMutablePointer<FILE>, source: String, path: String
    ) throws(AudioError) {
        guard fseeko(input, 0, SEEK_SET) == 0, fseeko(output, 0, SEEK_SET) == 0 else {
            throw AudioError(file: source, operation: "fseeko", reason: String(cString: strerror(errno)), kind: .ioError)
        }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let read = fread(buffer, 1, size, input)
            if read == 0 {
                if ferror(input) != 0 { throw AudioError(file: source, operation: "fread", reason: "read error", kind: .ioError) }
                return
            }
            guard fwrite(buffer, 1, read, output) == read else {
                throw AudioError(file: path, operation: "fwrite", reason: String(cString: strerror(errno)), kind: .ioError)
            }
        }
    }

    private static func failure(_ chain: OpaquePointer, _ file: String, _ operation: String) -> AudioError {
        let status = FLAC__metadata_chain_status(chain)
        // FLAC__Metadata_ChainStatusString is an array of unknown size, which Swift cannot index
        let text = "metadata chain status \(status.rawValue)"
        return AudioError(
            file: file, operation: operation, reason: text, kind: status == FLAC__METADATA_CHAIN_STATUS_NOT_A_FLAC_FILE ? .data : .ioError)
    }

    /// stdio, for libFLAC's callbacks interface.
    private static let callbacks = FLAC__IOCallbacks(
        read: { buffer, size, count, handle in fread(buffer, size, count, handle?.assumingMemoryBound(to: FILE.self)) },
        write: { buffer, size, count, handle in fwrite(buffer, size, count, handle?.assumingMemoryBound(to: FILE.self)) },
        seek: { handle, offset, whence in fseeko(handle?.assumingMemoryBound(to: FILE.self), off_t(offset), whence) },
        tell: { handle in Int64(ftello(handle?.assumingMemoryBound(to: FILE.self))) },
        eof: { handle in feof(handle?.assumingMemoryBound(to: FILE.self)) },
        close: nil)
}
