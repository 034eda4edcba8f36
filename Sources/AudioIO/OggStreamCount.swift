import CVorbis
import Glibc

/// Counts the logical streams of an Ogg file with libogg's page sync: a chained file
/// (two recordings joined end to end) holds one beginning-of-stream page per link.
///
/// libsndfile decodes only the first logical stream of an Ogg file and drops the
/// rest without a word, so a chained bed would silently lose its second half. The
/// reader refuses such a file instead (see `SoundFileReader`).
enum OggStreamCount {
    /// The beginning-of-stream pages in the Ogg data read from `descriptor` (from offset 0,
    /// with `pread`, leaving the file offset alone); nil when the data cannot be read.
    static func streams(descriptor: Int32) -> Int? {
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        var page = ogg_page()
        var offset: off_t = 0
        var count = 0
        let piece = 1 << 16
        while true {
            guard let buffer = ogg_sync_buffer(&sync, piece) else { return nil }
            let got = pread(descriptor, buffer, piece, offset)
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { return count }
            offset += off_t(got)
            ogg_sync_wrote(&sync, got)
            while ogg_sync_pageout(&sync, &page) == 1 {
                if ogg_page_bos(&page) != 0 { count += 1 }
            }
        }
    }
}
