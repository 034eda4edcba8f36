#define _GNU_SOURCE 1
#include "cspeech.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <espeak-ng/speak_lib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the child: C only, writes to `out`, ends with _exit ---- */

static int child_out = -1;
static size_t child_written = 0;
static size_t child_limit = 0;
static int child_too_long = 0;

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

static void speak_in_child(int out, const char *text, const char *voice, size_t max_samples) {
    child_out = out;
    child_limit = max_samples;
    int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) _exit(CADENCE_SPEECH_NO_DATA);
    if (espeak_SetVoiceByName(voice) != EE_OK) _exit(CADENCE_SPEECH_NO_VOICE);
    int32_t header = rate;
    if (write_all(out, &header, sizeof header) != 0) _exit(CADENCE_SPEECH_SYSTEM);
    espeak_SetSynthCallback(on_samples);
    size_t size = strlen(text) + 1;
    if (espeak_Synth(text, size, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL) != EE_OK) _exit(CADENCE_SPEECH_SYNTH_FAILED);
    if (espeak_Synchronize() != EE_OK) _exit(CADENCE_SPEECH_SYNTH_FAILED);
    _exit(child_too_long ? CADENCE_SPEECH_TOO_LONG : CADENCE_SPEECH_OK);
}

static void add_name(int out, const char *name) {
    char lower[256];
    size_t n = strlen(name);
    if (n >= sizeof lower) return;
    for (size_t i = 0; i < n; i++) lower[i] = (char)tolower((unsigned char)name[i]);
    lower[n] = 0;
    if (write_all(out, lower, n + 1) != 0) _exit(CADENCE_SPEECH_SYSTEM);
}

static void voices_in_child(int out) {
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

/* Runs `work` in a child with a pipe for its output; reads all of it into a malloc'd buffer. */
static int run_child(void (*work)(int, const char *, const char *, size_t), const char *text, const char *voice, size_t max,
                     char **data, size_t *size) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return CADENCE_SPEECH_SYSTEM;
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return CADENCE_SPEECH_SYSTEM;
    }
    if (pid == 0) {
        close(fds[0]);
        work(fds[1], text, voice, max);
        _exit(CADENCE_SPEECH_SYSTEM);
    }
    close(fds[1]);
    size_t capacity = 1 << 16, used = 0;
    char *buffer = malloc(capacity);
    int failed = buffer == NULL;
    while (!failed) {
        if (used == capacity) {
            char *bigger = realloc(buffer, capacity * 2);
            if (bigger == NULL) { failed = 1; break; }
            buffer = bigger;
            capacity *= 2;
        }
        ssize_t n = read(fds[0], buffer + used, capacity - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            failed = 1;
            break;
        }
        if (n == 0) break;
        used += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) { failed = 1; break; }
    }
    if (failed) {
        free(buffer);
        return CADENCE_SPEECH_SYSTEM;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : CADENCE_SPEECH_SYNTH_FAILED;
    if (code != CADENCE_SPEECH_OK) {
        free(buffer);
        return code;
    }
    *data = buffer;
    *size = used;
    return CADENCE_SPEECH_OK;
}

static void speak_work(int out, const char *text, const char *voice, size_t max) { speak_in_child(out, text, voice, max); }
static void voices_work(int out, const char *text, const char *voice, size_t max) {
    (void)text;
    (void)voice;
    (void)max;
    voices_in_child(out);
}

int cadence_speak(const char *text, const char *voice, size_t max_samples, int16_t **samples, size_t *count, int *rate) {
    char *data = NULL;
    size_t size = 0;
    int status = run_child(speak_work, text, voice, max_samples, &data, &size);
    if (status != CADENCE_SPEECH_OK) return status;
    if (size < sizeof(int32_t)) {
        free(data);
        return CADENCE_SPEECH_SYNTH_FAILED;
    }
    int32_t header;
    memcpy(&header, data, sizeof header);
    size_t bytes = size - sizeof header;
    memmove(data, data + sizeof header, bytes);
    *samples = (int16_t *)data;
    *count = bytes / sizeof(int16_t);
    *rate = header;
    return CADENCE_SPEECH_OK;
}

int cadence_voices(char **names, size_t *size) { return run_child(voices_work, NULL, NULL, 0, names, size); }

const char *cadence_speech_version(void) { return espeak_Info(NULL); }
