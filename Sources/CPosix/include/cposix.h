#ifndef CADENCE_CPOSIX_H
#define CADENCE_CPOSIX_H
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <errno.h>

/// Opens an unnamed file in `dir` (Linux O_TMPFILE); -1 with errno set when the
/// file system cannot do it. The file vanishes if the process dies before it is linked.
int cadence_open_tmpfile(const char *dir);

/// Gives the unnamed file `fd` the name `path` (linkat through /proc/self/fd).
int cadence_link_tmpfile(int fd, const char *path);

#endif
