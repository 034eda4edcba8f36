import CPosix

/// Process-wide memory settings of the `render` command (a library leaves them to its host).
public enum ProcessMemory {
    /// Keeps large allocations in mappings of their own (glibc's mmap threshold fixed at
    /// 128 KiB; `cadence_fix_mmap_threshold`). By default glibc raises the threshold each
    /// time a mapped block is freed, after which the large arrays that grow with a track (the
    /// mov muxer's index of every AAC packet, reallocated 1,024 entries at a time) are copied
    /// on the heap and their old copies stay resident: an hour of M4A peaked 35 MB over a
    /// minute's render. Fixed, they grow in place by mremap.
    public static func keepLargeAllocationsMapped() {
        _ = cadence_fix_mmap_threshold()
    }
}
