#define _GNU_SOURCE 1
#include "cspeech.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <espeak-ng/speak_lib.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a speaking worker writes: a header, the samples, a trailer with their count. */
static const char header_magic[4] = {'C', 'S', 'P', '1'};
static const char trailer_magic[4] = {'E', 'N', 'D', '1'};
enum { HEADER_SIZE = 8, TRAILER_SIZE = 12 };
/* The most a voice list may be: espeak-ng 1.51 lists about 11 KiB of names. */
enum { MAX_VOICES_BYTES = 4 << 20 };

/* What a worker is asked to do. */
struct job {
    const char *text;
    const char *voice;
    size_t max_samples;
    int fault;
};

/* ---- the worker: C only, after fork; writes to `out`, ends with _exit ---- */

static int write_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* Every descriptor but `keep` (which is 3 or more) closed. */
static void close_all_but(int keep) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 0u, (unsigned)keep - 1, 0u) == 0 && syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0) return;
#endif
    /* a kernel before 5.9: every number up to the descriptor limit */
    struct rlimit limit;
    long last = 65536;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < (1u << 20)) last = (long)limit.rlim_cur;
    for (long fd = 0; fd < last; fd++) {
        if (fd != keep) close((int)fd);
    }
}

/* Makes the worker a sandboxed process of its own: what it inherited from the parent (the Swift
   runtime's signal handlers and crash reporter, a signal mask, every open descriptor: other tracks'
   outputs, the terminal) is undone before espeak-ng runs. `*out` is the pipe, moved to 3 or more. */
static void isolate(int *out, pid_t parent) {
    /* default actions, nothing blocked: a crash ends the worker at once, reported by its status */
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (int s = 1; s < NSIG; s++) {
        if (s != SIGKILL && s != SIGSTOP) sigaction(s, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* no core file of a crash; gone when the parent is */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(CADENCE_SPEECH_SYSTEM);
    /* only the pipe; 0, 1 and 2 on /dev/null, so that no file espeak-ng opens becomes one of them */
    int fd = *out;
    if (fd < 3) {
        fd = fcntl(fd, F_DUPFD, 3);
        if (fd < 0) _exit(CADENCE_SPEECH_SYSTEM);
    }
    close_all_but(fd);
    int null = open("/dev/null", O_RDWR);
    if (null == 0) {
        dup2(0, 1);
        dup2(0, 2);
    } else if (null > 0) {
        close(null);
    }
    *out = fd;
}

static int child_out = -1;
static size_t child_written = 0;
static size_t child_limit = 0;
static int child_too_long = 0;

static int on_samples(short *wav, int count, espeak_EVENT *events) {
    (void)events;
    if (wav == NULL || count <= 0) return 0;
    if (child_written + (size_t)count > child_limit) {
        child_too_long = 1;
        return 1; /* stop synthesis */
    }
    if (write_all(child_out, wav, (size_t)count * sizeof(short)) != 0) _exit(CADENCE_SPEECH_SYSTEM);
    child_written += (size_t)count;
    return 0;
}

static void write_header(int out, int32_t rate) {
    char header[HEADER_SIZE];
    memcpy(header, header_magic, 4);
    memcpy(header + 4, &rate, 4);
    if (write_all(out, header, sizeof header) != 0) _exit(CADENCE_SPEECH_SYSTEM);
}

/* A line of the worker's self-report. */
static void report_line(int out, const char *format, long a, const char *b) {
    char line[4200];
    int n = snprintf(line, sizeof line, format, a, b);
    if (n > 0 && write_all(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) != 0) _exit(CADENCE_SPEECH_SYSTEM);
}

static void report_in_child(int out) {
    DIR *dir = opendir("/proc/self/fd");
    if (dir != NULL) {
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            long fd = strtol(entry->d_name, NULL, 10);
            if (fd == dirfd(dir)) continue;
            char path[64], target[4096];
            snprintf(path, sizeof path, "/proc/self/fd/%ld", fd);
            ssize_t n = readlink(path, target, sizeof target - 1);
            target[n > 0 ? n : 0] = 0;
            report_line(out, "fd %ld %s\n", fd, target);
        }
        closedir(dir);
    }
    sigset_t mask;
    sigprocmask(SIG_SETMASK, NULL, &mask);
    for (int s = 1; s < NSIG; s++) {
        struct sigaction old;
        if (sigaction(s, NULL, &old) == 0 && ((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL)) {
            report_line(out, "handled %ld%s\n", s, "");
        }
        if (sigismember(&mask, s) == 1) report_line(out, "blocked %ld%s\n", s, "");
    }
    struct rlimit core;
    if (getrlimit(RLIMIT_CORE, &core) == 0) report_line(out, "core %ld%s\n", (long)core.rlim_cur, "");
    report_line(out, "pipe %ld%s\n", out, "");
    _exit(CADENCE_SPEECH_OK);
}

static void fault_in_child(int out, int fault) {
    static const char garbage[] = "this is not speech: no header, no trailer\n";
    static char zeros[65536];
    switch (fault) {
    case CADENCE_SPEECH_FAULT_CRASH:
        write_header(out, 22050);
        raise(SIGSEGV);
        break;
    case CADENCE_SPEECH_FAULT_HANG:
        for (;;) pause();
    case CADENCE_SPEECH_FAULT_GARBAGE:
        if (write_all(out, garbage, sizeof garbage - 1) != 0) _exit(CADENCE_SPEECH_SYSTEM);
        _exit(CADENCE_SPEECH_OK);
    case CADENCE_SPEECH_FAULT_FLOOD:
        write_header(out, 22050);
        for (;;) {
            if (write_all(out, zeros, sizeof zeros) != 0) _exit(CADENCE_SPEECH_SYSTEM);
        }
    case CADENCE_SPEECH_FAULT_REPORT:
        report_in_child(out);
        break;
    default:
        break;
    }
    _exit(CADENCE_SPEECH_SYSTEM);
}

static void speak_in_child(int out, const struct job *job) {
    if (job->fault != CADENCE_SPEECH_FAULT_NONE) fault_in_child(out, job->fault);
    child_out = out;
    child_limit = job->max_samples;
    int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) _exit(CADENCE_SPEECH_NO_DATA);
    if (espeak_SetVoiceByName(job->voice) != EE_OK) _exit(CADENCE_SPEECH_NO_VOICE);
    write_header(out, rate);
    espeak_SetSynthCallback(on_samples);
    size_t size = strlen(job->text) + 1;
    if (espeak_Synth(job->text, size, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL) != EE_OK) _exit(CADENCE_SPEECH_SYNTH_FAILED);
    if (espeak_Synchronize() != EE_OK) _exit(CADENCE_SPEECH_SYNTH_FAILED);
    if (child_too_long) _exit(CADENCE_SPEECH_TOO_LONG);
    char trailer[TRAILER_SIZE];
    uint64_t count = child_written;
    memcpy(trailer, trailer_magic, 4);
    memcpy(trailer + 4, &count, 8);
    if (write_all(out, trailer, sizeof trailer) != 0) _exit(CADENCE_SPEECH_SYSTEM);
    _exit(CADENCE_SPEECH_OK);
}

static void add_name(int out, const char *name) {
    char lower[256];
    size_t n = strlen(name);
    if (n >= sizeof lower) return;
    for (size_t i = 0; i < n; i++) lower[i] = (char)tolower((unsigned char)name[i]);
    lower[n] = 0;
    if (write_all(out, lower, n + 1) != 0) _exit(CADENCE_SPEECH_SYSTEM);
}

static void voices_in_child(int out, const struct job *job) {
    (void)job;
    if (espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT) <= 0) _exit(CADENCE_SPEECH_NO_DATA);
    const espeak_VOICE **list = espeak_ListVoices(NULL);
    for (int i = 0; list != NULL && list[i] != NULL; i++) {
        const espeak_VOICE *v = list[i];
        if (v->identifier != NULL) {
            add_name(out, v->identifier);
            const char *slash = strrchr(v->identifier, '/');
            if (slash != NULL) add_name(out, slash + 1);
        }
        /* languages: a priority byte, a name, a zero byte; repeated, then one more zero byte */
        const char *p = v->languages;
        while (p != NULL && *p != 0) {
            p += 1;
            add_name(out, p);
            p += strlen(p) + 1;
        }
    }
    _exit(CADENCE_SPEECH_OK);
}

/* ---- the parent ---- */

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Kills the worker and reaps it. */
static void kill_and_reap(pid_t pid) {
    kill(pid, SIGKILL);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

/* Reads the pipe `fd` to its end before `deadline`, at most `max_bytes`: OK, TIMED_OUT, GARBAGE
   (more than `max_bytes`) or SYSTEM. */
static int read_until(int fd, int64_t deadline, size_t max_bytes, char **data, size_t *size) {
    size_t capacity = 1 << 16, used = 0;
    char *buffer = malloc(capacity);
    if (buffer == NULL) return CADENCE_SPEECH_SYSTEM;
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            free(buffer);
            return CADENCE_SPEECH_TIMED_OUT;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
        int ready = poll(&p, 1, left > 60000 ? 60000 : (int)left);
        if (ready < 0 && errno != EINTR) {
            free(buffer);
            return CADENCE_SPEECH_SYSTEM;
        }
        if (ready <= 0) continue;
        if (used == capacity) {
            char *bigger = realloc(buffer, capacity * 2);
            if (bigger == NULL) {
                free(buffer);
                return CADENCE_SPEECH_SYSTEM;
            }
            buffer = bigger;
            capacity *= 2;
        }
        ssize_t n = read(fd, buffer + used, capacity - used);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            free(buffer);
            return CADENCE_SPEECH_SYSTEM;
        }
        if (n == 0) break;
        used += (size_t)n;
        if (used > max_bytes) {
            free(buffer);
            return CADENCE_SPEECH_GARBAGE;
        }
    }
    *data = buffer;
    *size = used;
    return CADENCE_SPEECH_OK;
}

/* Waits for the worker's end before `deadline` (it closed its pipe: it is about to `_exit`). */
static int reap_until(pid_t pid, int64_t deadline, int *status) {
    for (;;) {
        pid_t done = waitpid(pid, status, WNOHANG);
        if (done == pid) return CADENCE_SPEECH_OK;
        if (done < 0 && errno != EINTR) return CADENCE_SPEECH_SYSTEM;
        if (now_ms() >= deadline) {
            kill_and_reap(pid);
            return CADENCE_SPEECH_TIMED_OUT;
        }
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

/* Runs `work` in an isolated worker with a pipe for its output, for at most `timeout_ms`; reads at
   most `max_bytes` of it into a malloc'd buffer. Returns what the worker's exit status says (or
   CRASHED with `*signal`, TIMED_OUT, GARBAGE, SYSTEM); the worker is reaped whatever happens. */
static int run_worker(void (*work)(int, const struct job *), const struct job *job, int timeout_ms, size_t max_bytes, char **data,
                      size_t *size, int *signal, int *worker) {
    *data = NULL;
    *size = 0;
    *signal = 0;
    int64_t deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return CADENCE_SPEECH_SYSTEM;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return CADENCE_SPEECH_SYSTEM;
    }
    if (pid == 0) {
        int out = fds[1];
        isolate(&out, parent);
        work(out, job);
        _exit(CADENCE_SPEECH_SYSTEM);
    }
    *worker = (int)pid;
    close(fds[1]);
    char *buffer = NULL;
    size_t used = 0;
    int outcome = read_until(fds[0], deadline, max_bytes, &buffer, &used);
    int saved = errno;
    close(fds[0]);
    int status = 0;
    if (outcome != CADENCE_SPEECH_OK) {
        kill_and_reap(pid);
        errno = saved;
        return outcome;
    }
    outcome = reap_until(pid, deadline, &status);
    if (outcome != CADENCE_SPEECH_OK) {
        free(buffer);
        return outcome;
    }
    if (WIFSIGNALED(status)) {
        free(buffer);
        *signal = WTERMSIG(status);
        return CADENCE_SPEECH_CRASHED;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : CADENCE_SPEECH_GARBAGE;
    if (code != CADENCE_SPEECH_OK) {
        free(buffer);
        switch (code) {
        case CADENCE_SPEECH_NO_DATA:
        case CADENCE_SPEECH_NO_VOICE:
        case CADENCE_SPEECH_SYNTH_FAILED:
        case CADENCE_SPEECH_TOO_LONG:
            return code;
        case CADENCE_SPEECH_SYSTEM:
            errno = EIO; /* a write to the pipe failed in the worker */
            return code;
        default:
            return CADENCE_SPEECH_GARBAGE;
        }
    }
    *data = buffer;
    *size = used;
    return CADENCE_SPEECH_OK;
}

/* Speech as a speaking worker writes it: a header with a plausible rate, samples, a trailer with
   their count, at most `max_samples`. Moves the samples to the buffer's start. */
static int check_speech(char *data, size_t size, size_t max_samples, struct cadence_speech_result *result) {
    if (size < HEADER_SIZE + TRAILER_SIZE || memcmp(data, header_magic, 4) != 0) return CADENCE_SPEECH_GARBAGE;
    int32_t rate;
    memcpy(&rate, data + 4, 4);
    const char *trailer = data + size - TRAILER_SIZE;
    uint64_t count;
    memcpy(&count, trailer + 4, 8);
    size_t bytes = size - HEADER_SIZE - TRAILER_SIZE;
    if (rate < 8000 || rate > 192000 || memcmp(trailer, trailer_magic, 4) != 0 || bytes % 2 != 0 || count != bytes / 2 || count > max_samples) {
        return CADENCE_SPEECH_GARBAGE;
    }
    memmove(data, data + HEADER_SIZE, bytes);
    result->samples = (int16_t *)(void *)data;
    result->count = (size_t)count;
    result->rate = rate;
    return CADENCE_SPEECH_OK;
}

int cadence_speak_faulty(
    const char *text, const char *voice, size_t max_samples, int timeout_ms, int fault, struct cadence_speech_result *result) {
    memset(result, 0, sizeof *result);
    if (max_samples > (SIZE_MAX - HEADER_SIZE - TRAILER_SIZE) / 2) max_samples = (SIZE_MAX - HEADER_SIZE - TRAILER_SIZE) / 2;
    struct job job = {.text = text, .voice = voice, .max_samples = max_samples, .fault = fault};
    char *data = NULL;
    size_t size = 0;
    size_t max_bytes = HEADER_SIZE + max_samples * 2 + TRAILER_SIZE;
    if (fault == CADENCE_SPEECH_FAULT_REPORT) max_bytes = 1 << 20;
    int status = run_worker(speak_in_child, &job, timeout_ms, max_bytes, &data, &size, &result->signal, &result->pid);
    if (status != CADENCE_SPEECH_OK) return status;
    if (fault == CADENCE_SPEECH_FAULT_REPORT) {
        result->samples = (int16_t *)(void *)data;
        result->count = size;
        return CADENCE_SPEECH_OK;
    }
    status = check_speech(data, size, max_samples, result);
    if (status != CADENCE_SPEECH_OK) free(data);
    return status;
}

int cadence_speak(const char *text, const char *voice, size_t max_samples, int timeout_ms, struct cadence_speech_result *result) {
    return cadence_speak_faulty(text, voice, max_samples, timeout_ms, CADENCE_SPEECH_FAULT_NONE, result);
}

int cadence_voices(int timeout_ms, char **names, size_t *size) {
    struct job job = {.text = NULL, .voice = NULL, .max_samples = 0, .fault = CADENCE_SPEECH_FAULT_NONE};
    int signal = 0, worker = 0;
    int status = run_worker(voices_in_child, &job, timeout_ms, MAX_VOICES_BYTES, names, size, &signal, &worker);
    if (status == CADENCE_SPEECH_OK && *size > 0 && (*names)[*size - 1] != 0) {
        free(*names);
        *names = NULL;
        *size = 0;
        return CADENCE_SPEECH_GARBAGE;
    }
    return status;
}

const char *cadence_speech_version(void) { return espeak_Info(NULL); }
