#include <FLAC/stream_encoder.h>
#include <FLAC/metadata.h>

/* Exported by libFLAC (FLAC_API, in its protected header, which the -dev package does not
 * ship); `flac --no-md5-sum` and libFLAC's own tests use it. FLACLaneWriter turns each
 * lane's MD5 off and computes the stream's once, in order. */
FLAC_API FLAC__bool FLAC__stream_encoder_set_do_md5(FLAC__StreamEncoder *encoder, FLAC__bool value);
