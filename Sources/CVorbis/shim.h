#include <vorbis/vorbisenc.h>
#include <ogg/ogg.h>
