#include <FLAC/stream_encoder.h>
#include <FLAC/metadata.h>
