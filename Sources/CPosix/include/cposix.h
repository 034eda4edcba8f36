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

/// Creates the staging name `path` and registers it for the handlers, as one step no signal
/// can split: with `fd` >= 0 it links that unnamed file there, otherwise it creates the file
/// (O_CREAT | O_EXCL) and sets `*created_fd`. The name is registered before it exists, the step
/// runs with SIGINT, SIGTERM and SIGHUP blocked in this thread, and a handler running on another
/// thread waits for it to end; once a handler has run it fails with EINTR. So a signal finds every
/// staging name registered. Returns 0 and sets `*slot` (-1 when all slots are taken), or -1 with errno.
int cadence_stage_temp(const char *path, int fd, int *created_fd, int *slot);
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
