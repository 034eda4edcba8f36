#ifndef CADENCE_CPOSIX_H
#define CADENCE_CPOSIX_H
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <errno.h>

/// Opens an unnamed file in `dir` (Linux O_TMPFILE); -1 with errno set when the
/// file system cannot do it. The file vanishes if the process dies before it is linked.
/// With CADENCE_NO_O_TMPFILE=1 in the environment it always fails with EOPNOTSUPP, so
/// tests can take the path of file systems without O_TMPFILE.
int cadence_open_tmpfile(const char *dir);

/// Gives the unnamed file `fd` the name `path` (linkat through /proc/self/fd).
int cadence_link_tmpfile(int fd, const char *path);



/// Starts writing `fd`'s dirty pages to disk without waiting (sync_file_range with
/// SYNC_FILE_RANGE_WRITE), so that the fsync before the rename has little left to do.
int cadence_start_writeback(int fd);

/// Remembers a named temporary file to delete if SIGINT, SIGTERM or SIGHUP ends the process
/// (only needed where O_TMPFILE is unavailable). Returns a slot, or -1 when all are taken.
int cadence_register_temp(const char *path);
/// Forgets a slot (after the file was renamed into place or deleted).
void cadence_unregister_temp(int slot);
/// Installs the handlers that delete registered files and then re-raise the signal.
void cadence_install_cleanup_handlers(void);

/// Fixes glibc's mmap threshold at its default, 128 KiB (mallopt M_MMAP_THRESHOLD), which
/// turns off its dynamic raising: every block that large is its own mapping, grown in place
/// by mremap and unmapped when freed, instead of a heap chunk that a growing array's copies
/// leave behind. Returns mallopt's result (1 on success).
int cadence_fix_mmap_threshold(void);
#endif
