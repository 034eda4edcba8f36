// libavformat, libavcodec and libavutil (FFmpeg 5.1 on Debian 12), for the M4A writer.
// The function-like macros Swift cannot import are given as inline functions here.
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>

static inline int cadence_averror(int posix) { return AVERROR(posix); }
static inline int cadence_averror_eof(void) { return AVERROR_EOF; }
static inline int cadence_avseek_size(void) { return AVSEEK_SIZE; }
static inline int cadence_codec_flag_bitexact(void) { return AV_CODEC_FLAG_BITEXACT; }
static inline int cadence_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int cadence_dict_ignore_suffix(void) { return AV_DICT_IGNORE_SUFFIX; }
