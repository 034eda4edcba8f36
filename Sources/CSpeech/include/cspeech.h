#ifndef CADENCE_CSPEECH_H
#define CADENCE_CSPEECH_H
#include <stddef.h>
#include <stdint.h>

/// What `cadence_speak` and `cadence_voices` report.
enum cadence_speech_status {
    CADENCE_SPEECH_OK = 0,
    /// espeak_Initialize failed (espeak-ng-data missing).
    CADENCE_SPEECH_NO_DATA = 1,
    /// espeak-ng has no voice of that name.
    CADENCE_SPEECH_NO_VOICE = 2,
    /// espeak_Synth failed.
    CADENCE_SPEECH_SYNTH_FAILED = 3,
    /// fork, pipe, poll or a read failed; errno says why.
    CADENCE_SPEECH_SYSTEM = 4,
    /// The speech would be longer than `max_samples`.
    CADENCE_SPEECH_TOO_LONG = 5,
    /// The worker was ended by a signal: espeak-ng crashed (`signal` says which).
    CADENCE_SPEECH_CRASHED = 6,
    /// The worker did not finish within the time limit: it was killed (SIGKILL) and reaped.
    CADENCE_SPEECH_TIMED_OUT = 7,
    /// The worker wrote something that is not speech, or ended with a status it never gives.
    CADENCE_SPEECH_GARBAGE = 8,
};

/// How a worker went: what it wrote, and how it ended.
struct cadence_speech_result {
    /// Speech: mono 16-bit samples at `rate` Hz, malloc'd (free it with `free`), or NULL.
    int16_t *samples;
    size_t count;
    int rate;
    /// The signal that ended the worker (CADENCE_SPEECH_CRASHED), else 0.
    int signal;
    /// The worker's process id (for tests: it is reaped when the call returns).
    int pid;
};

/// Speaks `text` (UTF-8) with espeak-ng's voice `voice` in a worker process forked for this one
/// utterance, so that it starts from espeak-ng's pristine state: libespeak-ng keeps state from one
/// utterance to the next (its glottal phase, pitch flutter, queued pauses) and cannot be initialized
/// twice in a process, so the same text would sound otherwise after other texts.
///
/// The worker is isolated like a sandboxed one, because libespeak-ng crashes on some texts
/// (stack smashing, segmentation faults): after the fork it runs C only (nothing of the Swift
/// runtime, whose crash reporter it would otherwise inherit), puts every signal back to its default
/// action with none blocked, dumps no core, dies with its parent, keeps no descriptor but its pipe
/// (0, 1 and 2 are /dev/null) and ends with `_exit`. The parent reads the pipe for at most
/// `timeout_ms` milliseconds in all (then kills the worker with SIGKILL), always reaps it, and checks
/// what it wrote (a header with the rate, the samples, a trailer with their count; anything else is
/// CADENCE_SPEECH_GARBAGE). On success `result->samples` holds `result->count` samples.
int cadence_speak(const char *text, const char *voice, size_t max_samples, int timeout_ms, struct cadence_speech_result *result);

/// What a worker does instead of speaking: test hooks of `cadence_speak_faulty`, never reachable
/// from a recipe.
enum cadence_speech_fault {
    CADENCE_SPEECH_FAULT_NONE = 0,
    /// Isolated, then raises SIGSEGV (after writing a valid header).
    CADENCE_SPEECH_FAULT_CRASH = 1,
    /// Isolated, then never answers (sleeps, the pipe open).
    CADENCE_SPEECH_FAULT_HANG = 2,
    /// Isolated, then writes bytes that are not speech and exits 0.
    CADENCE_SPEECH_FAULT_GARBAGE = 3,
    /// Isolated, then writes without end.
    CADENCE_SPEECH_FAULT_FLOOD = 4,
    /// Isolated, then writes a report of itself as text instead of speech: a line `fd N TARGET` per
    /// open descriptor, `handled N` per signal whose action is not the default, `blocked N` per
    /// blocked signal, `core N` (RLIMIT_CORE's soft limit), `pipe N` (its pipe's descriptor); exits 0.
    CADENCE_SPEECH_FAULT_REPORT = 5,
};

/// `cadence_speak` with a fault injected into the worker, for tests. With
/// CADENCE_SPEECH_FAULT_REPORT the report is returned in `result->samples` as `result->count` bytes.
int cadence_speak_faulty(
    const char *text, const char *voice, size_t max_samples, int timeout_ms, int fault, struct cadence_speech_result *result);

/// espeak-ng's voices, in a worker like `cadence_speak`'s: a malloc'd buffer of NUL-separated
/// lower-case names (each voice's identifier, its last path part, and every language it lists),
/// `*size` bytes in all; free it with `free`.
int cadence_voices(int timeout_ms, char **names, size_t *size);

/// espeak-ng's version text (`espeak_Info`), without initializing it.
const char *cadence_speech_version(void);
#endif
