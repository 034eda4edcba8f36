#define _GNU_SOURCE 1
#include "cposix.h"
#include <stdio.h>

int cadence_open_tmpfile(const char *dir) {
#ifdef O_TMPFILE
    return open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
#else
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int cadence_link_tmpfile(int fd, const char *path) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}
