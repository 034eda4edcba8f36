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
    /// fork, pipe or a read failed; errno says why.
    CADENCE_SPEECH_SYSTEM = 4,
    /// The speech would be longer than `max_samples`.
    CADENCE_SPEECH_TOO_LONG = 5,
};

/// Speaks `text` (UTF-8) with espeak-ng's voice `voice` in a child process forked for this one
/// utterance, so that it starts from espeak-ng's pristine state: libespeak-ng keeps state from one
/// utterance to the next (its glottal phase, pitch flutter, queued pauses) and cannot be initialized
/// twice in a process, so the same text would sound otherwise after other texts. The child runs
/// C only, writes the samples to a pipe and ends with `_exit`. On success `*samples` is a malloc'd
/// buffer of `*count` mono 16-bit samples at `*rate` Hz (free it with `free`).
int cadence_speak(const char *text, const char *voice, size_t max_samples, int16_t **samples, size_t *count, int *rate);

/// espeak-ng's voices, in a child process like `cadence_speak`: a malloc'd buffer of NUL-separated
/// lower-case names (each voice's identifier, its last path part, and every language it lists),
/// `*size` bytes in all; free it with `free`.
int cadence_voices(char **names, size_t *size);

/// espeak-ng's version text (`espeak_Info`), without initializing it.
const char *cadence_speech_version(void);
#endif
