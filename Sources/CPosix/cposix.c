#define _GNU_SOURCE 1
#include <malloc.h>
#include "cposix.h"
#include <stdio.h>
#include <stdlib.h>

int cadence_open_tmpfile(const char *dir) {
#ifdef O_TMPFILE
    /* tests set CADENCE_NO_O_TMPFILE=1 to take the path of file systems without O_TMPFILE */
    const char *off = getenv("CADENCE_NO_O_TMPFILE");
    if (off != NULL && off[0] == '1') {
        errno = EOPNOTSUPP;
        return -1;
    }
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

#include <pthread.h>
#include <signal.h>
#include <string.h>

#define CADENCE_TEMP_SLOTS 64
#define CADENCE_TEMP_PATH 4096
static char temp_paths[CADENCE_TEMP_SLOTS][CADENCE_TEMP_PATH];
static volatile sig_atomic_t temp_used[CADENCE_TEMP_SLOTS];

/* remembers a staging name to delete if SIGINT, SIGTERM or SIGHUP ends the process;
   a slot, or -1 when all are taken */
static int cadence_register_temp(const char *path) {
    if (strlen(path) >= CADENCE_TEMP_PATH) return -1;
    for (int i = 0; i < CADENCE_TEMP_SLOTS; i++) {
        /* claim the slot (2: being filled, ignored by the handler), fill it, then arm it (1);
           several render threads register at once */
        if (__sync_bool_compare_and_swap(&temp_used[i], 0, 2)) {
            strcpy(temp_paths[i], path);
            __sync_synchronize();
            temp_used[i] = 1;
            return i;
        }
    }
    return -1;
}

void cadence_unregister_temp(int slot) {
    if (slot >= 0 && slot < CADENCE_TEMP_SLOTS) temp_used[slot] = 0;
}

/* set by the first handler to run: no new staging name may appear after it */
static volatile sig_atomic_t dying = 0;
/* threads inside cadence_stage_temp, between registering a name and creating it */
static volatile int staging = 0;

static void cleanup_and_reraise(int sig) {
    dying = 1;
    __sync_synchronize();
    /* a thread creating a staging name (signals blocked there, so never this thread) finishes
       first: then its name is both on disk and registered, and is deleted below */
    while (__sync_fetch_and_add(&staging, 0) > 0) {
    }
    for (int i = 0; i < CADENCE_TEMP_SLOTS; i++) {
        if (temp_used[i] == 1) unlink(temp_paths[i]);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

int cadence_stage_temp(const char *path, int fd, int *created_fd, int *slot) {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    __sync_fetch_and_add(&staging, 1);
    int result = -1;
    *slot = -1;
    if (dying) {
        errno = EINTR;
    } else {
        /* registered before it exists: a handler deleting a name not made yet is harmless */
        *slot = cadence_register_temp(path);
        if (fd >= 0) {
            result = cadence_link_tmpfile(fd, path);
        } else {
            *created_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            result = *created_fd >= 0 ? 0 : -1;
        }
        if (result != 0) {
            int failure = errno;
            cadence_unregister_temp(*slot);
            *slot = -1;
            errno = failure;
        }
    }
    __sync_fetch_and_sub(&staging, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return result;
}

void cadence_install_cleanup_handlers(void) {
    signal(SIGINT, cleanup_and_reraise);
    signal(SIGTERM, cleanup_and_reraise);
    signal(SIGHUP, cleanup_and_reraise);
}

int cadence_start_writeback(int fd) {
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int cadence_fix_mmap_threshold(void) { return mallopt(M_MMAP_THRESHOLD, 128 * 1024); }
