// FFmpeg's demuxers, decoders and scaler. Only Sources/CShim/media.c uses them; this target
// carries pkg-config's flags (Debian keeps the headers under /usr/include/<triplet>).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/display.h>
