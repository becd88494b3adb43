#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avstring.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include "common.h"

// Every FFmpeg call of PushPreview. Input is a buffer already in memory: a custom AVIOContext
// reads it, and any nested open (a reference movie, a playlist, a data reference) is refused.

// The containers and video codecs of the types UNNotificationAttachment accepts; FFmpeg's own
// software decoders only (a codec's name is its native decoder's).
static const char READABLE_FORMATS[] = "mov,mp3,wav,aiff,avi,mpeg,mpegvideo";
static const char VIDEO_DECODERS[] = "h264,hevc,mpeg4,mpeg1video,mpeg2video,h263,mjpeg";
// Work after a seek is bounded: a file whose key frames are far apart is refused, not decoded
// for minutes. The pixel budget is 600 frames of 1080p, so 150 frames of 4K.
enum { MAX_FRAMES = 600, MAX_PACKETS = 2000, MAX_SEEK_RETRIES = 4, IO_BUFFER = 32768 };
static const int64_t MAX_PIXEL_WORK = 600LL * 1920 * 1080;


typedef struct { const uint8_t *data; size_t size; int64_t pos; } memory_source;

typedef struct {
    memory_source source;
    AVIOContext *io;
    AVFormatContext *format;
    int video;                  // stream index, -1 for none
} media_input;

// FFmpeg is loaded the first time a video or audio file is read, not when PushPreview starts:
// linked, its libraries and theirs (some seventy) would be mapped into every render worker,
// 14 MB of memory each, whether or not a gallery has any media. Each function is looked up once,
// by the name the headers declare it with, so a call reads AV(avformat_open_input)(…).
#define AV_FUNCTIONS(X) \
    X(avutil, av_log_set_level) \
    X(avutil, av_log_set_callback) \
    X(avutil, av_max_alloc) \
    X(avutil, av_strerror) \
    X(avutil, av_dict_set) \
    X(avutil, av_dict_set_int) \
    X(avutil, av_dict_free) \
    X(avutil, av_free) \
    X(avutil, av_freep) \
    X(avutil, av_malloc) \
    X(avutil, av_calloc) \
    X(avutil, av_frame_alloc) \
    X(avutil, av_frame_free) \
    X(avutil, av_frame_unref) \
    X(avutil, av_frame_move_ref) \
    X(avutil, av_get_pix_fmt_name) \
    X(avutil, av_match_list) \
    X(avutil, av_rescale_q) \
    X(avutil, av_display_rotation_get) \
    X(avformat, avformat_alloc_context) \
    X(avformat, avformat_open_input) \
    X(avformat, avformat_find_stream_info) \
    X(avformat, avformat_close_input) \
    X(avformat, avformat_index_get_entries_count) \
    X(avformat, avformat_index_get_entry) \
    X(avformat, avio_alloc_context) \
    X(avformat, avio_context_free) \
    X(avformat, av_probe_input_buffer2) \
    X(avformat, av_read_frame) \
    X(avformat, av_seek_frame) \
    X(avformat, av_guess_sample_aspect_ratio) \
    X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_find_decoder_by_name) \
    X(avcodec, avcodec_get_name) \
    X(avcodec, avcodec_send_packet) \
    X(avcodec, avcodec_receive_frame) \
    X(avcodec, avcodec_flush_buffers) \
    X(avcodec, av_packet_alloc) \
    X(avcodec, av_packet_free) \
    X(avcodec, av_packet_unref) \
    X(swscale, sws_getContext) \
    X(swscale, sws_freeContext) \
    X(swscale, sws_scale) \
    X(swscale, sws_isSupportedInput) \
    X(swscale, sws_getCoefficients) \
    X(swscale, sws_setColorspaceDetails)
#if defined(FF_API_AVSTREAM_SIDE_DATA)
#define AV_SIDE_DATA(X) X(avcodec, av_packet_side_data_get)
#else
#define AV_SIDE_DATA(X) X(avformat, av_stream_get_side_data)
#endif
#define AV_POINTER(lib, name) static __typeof__(name) *p_##name;
AV_FUNCTIONS(AV_POINTER)
AV_SIDE_DATA(AV_POINTER)
#define AV(name) (*p_##name)

static char load_error[SHIM_ERR_LEN];

static void *open_library(const char *name) {
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle && !load_error[0])
        snprintf(load_error, sizeof load_error, "FFmpeg's libraries are not installed (%s; make deps installs libavformat, libavcodec and libswscale)", dlerror());
    return handle;
}

static void discard_log(void *context, int level, const char *format, va_list args);
#define MAX_ALLOCATION ((size_t)256 << 20)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void load(void) {
    // The major versions the headers were written for: the ABI these calls assume.
    void *avutil = open_library("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR));
    void *avformat = open_library("libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR));
    void *avcodec = open_library("libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR));
    void *swscale = open_library("libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR));
    if (load_error[0]) return;
#define AV_RESOLVE(lib, name) \
    if (!(p_##name = (__typeof__(name) *)dlsym(lib, #name))) { snprintf(load_error, sizeof load_error, "FFmpeg's %s has no %s", #lib, #name); return; }
    AV_FUNCTIONS(AV_RESOLVE)
    AV_SIDE_DATA(AV_RESOLVE)
    // FFmpeg logs to stderr by default; errors reach the caller as messages instead.
    AV(av_log_set_level)(AV_LOG_QUIET);
    AV(av_log_set_callback)(discard_log);
    // Demuxers size some tables by the count a box declares (MP4's stss takes 300 million key
    // frames from 4 bytes): no single allocation may pass ImageLimits' decoder memory, 256 MB.
    AV(av_max_alloc)(MAX_ALLOCATION);
}


static int on_read(void *opaque, uint8_t *out, int n) {
    memory_source *s = opaque;
    if (n <= 0 || s->pos < 0 || (uint64_t)s->pos >= s->size) return AVERROR_EOF;
    size_t left = s->size - (size_t)s->pos, take = (size_t)n < left ? (size_t)n : left;
    memcpy(out, s->data + s->pos, take);
    s->pos += (int64_t)take;
    return (int)take;
}

static int64_t on_seek(void *opaque, int64_t offset, int whence) {
    memory_source *s = opaque;
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) return (int64_t)s->size;
    int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? s->pos : whence == SEEK_END ? (int64_t)s->size : -1;
    if (base < 0) return AVERROR(EINVAL);
    // A position past the end is an offset a corrupt index gave: refuse it, as a short file would.
    if (offset < -base || offset > (int64_t)s->size - base) return AVERROR(EINVAL);
    s->pos = base + offset;
    return s->pos;
}

static int refuse_nested_open(AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    (void)s; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

static void discard_log(void *context, int level, const char *format, va_list args) {
    (void)context; (void)level; (void)format; (void)args;
}
static int fail(shim_media_info *info, const char *format, ...) {
    va_list args; va_start(args, format);
    vsnprintf(info->error, SHIM_ERR_LEN, format, args);
    va_end(args);
    return -1;
}

static int fail_av(shim_media_info *info, int rc) {
    if (rc == AVERROR(ENOMEM)) return fail(info, "corrupt: it declares a table or frame larger than the %zu MB allowed", MAX_ALLOCATION >> 20);
    char text[AV_ERROR_MAX_STRING_SIZE] = "";
    if (AV(av_strerror)(rc, text, sizeof text) < 0) snprintf(text, sizeof text, "FFmpeg error %d", rc);
    return fail(info, "truncated or corrupt: %s", text);
}

static int check_size(int64_t width, int64_t height, const char *what, const shim_limits *limits, shim_media_info *info) {
    if (width <= 0 || height <= 0) return 0; // not declared; the decoder's own size is checked later
    if (width > limits->max_width || height > limits->max_height || (uint64_t)(width * height) > limits->max_pixels)
        return fail(info, "the video %s %lldx%lld, over the limit of %ux%u and %llu pixels", what, (long long)width,
                    (long long)height, limits->max_width, limits->max_height, (unsigned long long)limits->max_pixels);
    return 0;
}

/// Clockwise quarter turns a player applies, from the stream's display matrix.
static int rotation_of(const AVStream *st) {
    const uint8_t *matrix = NULL;
#if defined(FF_API_AVSTREAM_SIDE_DATA) // FFmpeg 6.1 moved stream side data into codecpar
    const AVPacketSideData *sd = AV(av_packet_side_data_get)(st->codecpar->coded_side_data, st->codecpar->nb_coded_side_data,
                                                         AV_PKT_DATA_DISPLAYMATRIX);
    if (sd && sd->size >= 9 * sizeof(int32_t)) matrix = sd->data;
#else
    size_t n = 0;
    matrix = AV(av_stream_get_side_data)(st, AV_PKT_DATA_DISPLAYMATRIX, &n);
    if (n < 9 * sizeof(int32_t)) matrix = NULL;
#endif
    if (!matrix) return 0;
    double counterclockwise = AV(av_display_rotation_get)((const int32_t *)matrix);
    if (!isfinite(counterclockwise)) return 0;
    long turns = lround(-counterclockwise / 90) % 4;
    return (int)(turns < 0 ? turns + 4 : turns) * 90;
}

/// Width over height of one pixel; 1 when unset or absurd (a hostile 65535:1).
static double pixel_aspect(AVRational sar) {
    double r = sar.num > 0 && sar.den > 0 ? av_q2d(sar) : 1;
    return r >= 0.01 && r <= 100 ? r : 1;
}

static void close_input(media_input *in) {
    if (in->format) AV(avformat_close_input)(&in->format);
    if (in->io) { AV(av_freep)(&in->io->buffer); AV(avio_context_free)(&in->io); }
}

static int open_input(media_input *in, const uint8_t *data, size_t size, const shim_limits *limits, shim_media_info *info) {
    memset(info, 0, sizeof *info);
    info->duration = -1;
    *in = (media_input){ .source = { data, size, 0 }, .video = -1 };
    if (size == 0) return fail(info, "the file is empty");

    uint8_t *buffer = AV(av_malloc)(IO_BUFFER);
    if (buffer) in->io = AV(avio_alloc_context)(buffer, IO_BUFFER, 0, &in->source, on_read, NULL, on_seek);
    if (!in->io) { AV(av_free)(buffer); return fail(info, "out of memory"); }
    const AVInputFormat *kind = NULL;
    int rc = AV(av_probe_input_buffer2)(in->io, &kind, "", NULL, 0, 1 << 20);
    if (rc < 0 || !kind) return fail(info, "not a video or audio file (no container format recognised)");
    if (AV(av_match_list)(kind->name, READABLE_FORMATS, ',') <= 0)
        return fail(info, "%s is not a format iOS shows in a notification (MP4, MOV, M4A, MP3, WAV, AIFF, AVI or MPEG)",
                    kind->long_name ? kind->long_name : kind->name);

    if (!(in->format = AV(avformat_alloc_context)())) return fail(info, "out of memory");
    AVFormatContext *fmt = in->format;
    fmt->pb = in->io;
    fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    fmt->io_open = refuse_nested_open;
    fmt->probesize = 2 << 20;
    fmt->max_analyze_duration = 2 * AV_TIME_BASE;
    fmt->max_streams = 32;
    fmt->max_probe_packets = 500;
    AVDictionary *options = NULL;
    AV(av_dict_set)(&options, "protocol_whitelist", "none", 0);
    AV(av_dict_set)(&options, "format_whitelist", READABLE_FORMATS, 0);
    rc = AV(avformat_open_input)(&in->format, "", kind, &options);
    AV(av_dict_free)(&options);
    if (rc < 0) return fail_av(info, rc); // avformat_open_input freed the context

    // Sizes the header declares, refused before any decoder opens (stream info opens them).
    for (unsigned i = 0; i < in->format->nb_streams; i++) {
        const AVCodecParameters *par = in->format->streams[i]->codecpar;
        if (par->codec_type == AVMEDIA_TYPE_VIDEO && check_size(par->width, par->height, "is declared as", limits, info)) return -1;
    }
    AVDictionary **per_stream = AV(av_calloc)(in->format->nb_streams ? in->format->nb_streams : 1, sizeof *per_stream);
    if (!per_stream) return fail(info, "out of memory");
    unsigned probed = in->format->nb_streams;
    for (unsigned i = 0; i < probed; i++) {
        AV(av_dict_set_int)(&per_stream[i], "max_pixels", (int64_t)limits->max_pixels, 0);
        AV(av_dict_set)(&per_stream[i], "threads", "1", 0);
        if (in->format->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO)
            AV(av_dict_set)(&per_stream[i], "codec_whitelist", VIDEO_DECODERS, 0);
    }
    rc = AV(avformat_find_stream_info)(in->format, per_stream);
    for (unsigned i = 0; i < probed; i++) AV(av_dict_free)(&per_stream[i]);
    AV(av_free)(per_stream);
    if (rc < 0) return fail_av(info, rc);

    fmt = in->format;
    for (unsigned i = 0; i < fmt->nb_streams; i++) {
        AVStream *st = fmt->streams[i];
        // A cut-off download keeps its index (MP4s put it first): samples placed past the end.
        for (int e = 0, n = AV(avformat_index_get_entries_count)(st); limits->strict && e < n; e++) {
            const AVIndexEntry *entry = AV(avformat_index_get_entry)(st, e);
            if (entry->pos + entry->size > (int64_t)size)
                return fail(info, "truncated: the file is %zu bytes, but its index places media up to byte %lld (was the download cut short?)", size,
                            (long long)(entry->pos + entry->size));
        }
        if (st->codecpar->codec_type == AVMEDIA_TYPE_AUDIO) info->has_audio = 1;
        if (st->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && !(st->disposition & AV_DISPOSITION_ATTACHED_PIC) && in->video < 0)
            in->video = (int)i;
    }
    if (fmt->duration != AV_NOPTS_VALUE && fmt->duration >= 0) info->duration = (double)fmt->duration / AV_TIME_BASE;
    if (in->video >= 0) {
        AVStream *st = fmt->streams[in->video];
        const AVCodecParameters *par = st->codecpar;
        if (check_size(par->width, par->height, "is", limits, info)) return -1;
        int w = (int)lround(par->width * pixel_aspect(AV(av_guess_sample_aspect_ratio)(fmt, st, NULL))), h = par->height;
        info->has_video = 1;
        info->rotation = rotation_of(st);
        info->width = info->rotation % 180 ? h : w;
        info->height = info->rotation % 180 ? w : h;
    }
    return 0;
}

/// Loads FFmpeg on first use; nonzero (and the reason in `info`) when it cannot be.
static int loaded(shim_media_info *info) {
    pthread_once(&load_once, load);
    if (!load_error[0]) return 1;
    memset(info, 0, sizeof *info);
    info->duration = -1;
    fail(info, "%s", load_error);
    return 0;
}

int shim_media_probe(const uint8_t *data, size_t size, const shim_limits *limits, shim_media_info *info) {
    if (!loaded(info)) return -1;
    media_input in;
    int rc = open_input(&in, data, size, limits, info);
    close_input(&in);
    return rc;
}

typedef struct { int frames, packets; int64_t pixels; } work_done;
enum { DECODED = 0, FAILED = -1, NO_FRAME = 1 };

/// Decodes forward from where the demuxer stands; `chosen` gets the last frame whose time is at
/// or before `target` (or the first frame, if even that one is later). first_only: stop at one.
/// from_key: drop packets before the first key frame (a seek by timestamp may land between them).
static int decode_forward(media_input *in, AVCodecContext *ctx, int64_t target, int first_only, int from_key, double seconds,
                          const shim_limits *limits, work_done *work, AVFrame *chosen, int64_t *first_pts,
                          int64_t *first_dts, shim_media_info *info) {
    AVPacket *pkt = AV(av_packet_alloc)();
    AVFrame *frame = AV(av_frame_alloc)();
    int rc = DECODED, have = 0, draining = 0, done = 0;
    *first_pts = *first_dts = AV_NOPTS_VALUE;
    if (!pkt || !frame) rc = fail(info, "out of memory");
    while (rc == DECODED && !done) {
        if (!draining) {
            int r = AV(av_read_frame)(in->format, pkt);
            if (r == AVERROR_EOF) { draining = 1; AV(avcodec_send_packet)(ctx, NULL); }
            else if (r < 0) rc = fail_av(info, r);
            else if (pkt->stream_index == in->video) {
                if (++work->packets > MAX_PACKETS)
                    rc = fail(info, "read %d video packets without reaching %.3f s; the file is corrupt or its key frames are too far apart",
                              MAX_PACKETS, seconds);
                else if (from_key && !(pkt->flags & AV_PKT_FLAG_KEY)) { /* not decodable on its own */ }
                else if (limits->strict && (pkt->flags & AV_PKT_FLAG_CORRUPT))
                    rc = fail(info, "truncated or corrupt: a video packet is incomplete");
                else {
                    from_key = 0;
                    if (*first_dts == AV_NOPTS_VALUE) *first_dts = pkt->dts;
                    if ((r = AV(avcodec_send_packet)(ctx, pkt)) < 0 && r != AVERROR(EAGAIN)) rc = fail_av(info, r);
                }
            }
            AV(av_packet_unref)(pkt);
        }
        while (rc == DECODED && !done) {
            int r = AV(avcodec_receive_frame)(ctx, frame);
            if (r == AVERROR(EAGAIN) && !draining) break;
            if (r == AVERROR_EOF || r == AVERROR(EAGAIN)) { done = 1; break; }
            if (r < 0) { rc = fail_av(info, r); break; }
            work->pixels += (int64_t)frame->width * frame->height;
            if (++work->frames > MAX_FRAMES || work->pixels > MAX_PIXEL_WORK) {
                rc = fail(info, "decoded %d frames without reaching %.3f s; key frames are too far apart (re-encode with one every few seconds)",
                          work->frames - 1, seconds);
            } else if (check_size(frame->width, frame->height, "frame is", limits, info)) {
                rc = FAILED;
            } else {
                int64_t pts = frame->best_effort_timestamp;
                if (!have) *first_pts = pts;
                if (!have || target == INT64_MAX || (pts != AV_NOPTS_VALUE && pts <= target)) {
                    AV(av_frame_unref)(chosen);
                    AV(av_frame_move_ref)(chosen, frame);
                    have = 1;
                    if (first_only) done = 1;
                } else if (pts != AV_NOPTS_VALUE) {
                    done = 1; // the frame after the one shown at the target time
                } // else: a frame of unknown time is neither
            }
            AV(av_frame_unref)(frame);
        }
    }
    if (rc == DECODED && !have) { fail(info, "truncated or corrupt: no video frame could be decoded"); rc = NO_FRAME; }
    if (rc == DECODED && limits->strict && (chosen->decode_error_flags || (chosen->flags & AV_FRAME_FLAG_CORRUPT)))
        rc = fail(info, "truncated or corrupt: the frame at %.3f s has errors the decoder had to hide", seconds);
    AV(av_packet_free)(&pkt);
    AV(av_frame_free)(&frame);
    return rc;
}

/// The frame shown at `seconds` into `chosen`. A seek goes to the key frame before the target by
/// decode time (AVI), or by a search of timestamps (MPEG), so the first frame it shows may come
/// after the target: then aim before it, a second further back, two, four... down to the first
/// key frame. A file whose index is empty is decoded from the start.
static int decode_at(media_input *in, AVCodecContext *ctx, double seconds, const shim_limits *limits, AVFrame *chosen,
                     shim_media_info *info) {
    AVStream *st = in->format->streams[in->video];
    AVRational tb = st->time_base;
    if (tb.num <= 0 || tb.den <= 0) return fail(info, "truncated or corrupt: the video stream has no time base");
    int64_t start = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
    int first_only = !(seconds >= 0); // negative or NaN
    // Past the end means the last frame: any frame qualifies, and the seek aims at the declared end.
    int past_end = !first_only && info->duration >= 0 && seconds >= info->duration;
    // Whole ticks at or before the time (less a hair of float error: 2.9 s * 90 kHz is 260999.99…).
    double ticks = floor((first_only ? 0 : past_end ? info->duration : seconds) * tb.den / tb.num + 1e-6);
    int64_t offset = ticks < 4e18 ? (int64_t)ticks : (int64_t)4e18;
    int64_t aim = start > INT64_MAX - offset ? INT64_MAX : start + offset;
    int64_t target = past_end ? INT64_MAX : aim;
    const AVIndexEntry *first_key = AV(avformat_index_get_entries_count)(st) > 0 ? AV(avformat_index_get_entry)(st, 0) : NULL;
    int64_t earliest = first_key ? first_key->timestamp : start;
    int seekable = first_key && !first_only && aim > start;
    int64_t back = 1, second = AV(av_rescale_q)(1, (AVRational){ 1, 1 }, tb), first_pts, first_dts;
    work_done work = { 0, 0, 0 };
    int rc = FAILED;
    for (int attempt = 0; attempt <= MAX_SEEK_RETRIES; attempt++) {
        int sought = seekable && AV(av_seek_frame)(in->format, in->video, aim, AVSEEK_FLAG_BACKWARD) >= 0;
        if (attempt > 0 && !sought) break; // keep what the last attempt found
        if (attempt > 0) AV(avcodec_flush_buffers)(ctx);
        rc = decode_forward(in, ctx, target, first_only, sought, first_only ? 0 : seconds, limits, &work, chosen,
                            &first_pts, &first_dts, info);
        int64_t shown = first_pts != AV_NOPTS_VALUE ? first_pts : first_dts;
        int late = rc == NO_FRAME || (rc == DECODED && shown != AV_NOPTS_VALUE && shown > target);
        if (!late || !sought || aim <= earliest) break;
        int64_t before = first_dts != AV_NOPTS_VALUE && first_dts < aim ? first_dts : aim;
        aim = before - earliest > back ? before - back : earliest;
        back = attempt == 0 ? (second > 0 ? second : 1) : back > INT64_MAX / 2 ? back : back * 2;
    }
    return rc == DECODED ? 0 : -1;
}

static int open_decoder(media_input *in, const shim_limits *limits, AVCodecContext **out, shim_media_info *info) {
    AVStream *st = in->format->streams[in->video];
    const char *name = AV(avcodec_get_name)(st->codecpar->codec_id);
    const AVCodec *codec = AV(av_match_list)(name, VIDEO_DECODERS, ',') > 0 ? AV(avcodec_find_decoder_by_name)(name) : NULL;
    if (!codec) return fail(info, "the video is %s, not a codec PushPreview decodes (H.264, HEVC, MPEG-4, MPEG-1/2, H.263, Motion JPEG)", name);
    AVCodecContext *ctx = *out = AV(avcodec_alloc_context3)(codec);
    if (!ctx) return fail(info, "out of memory");
    int rc = AV(avcodec_parameters_to_context)(ctx, st->codecpar);
    if (rc < 0) return fail_av(info, rc);
    ctx->pkt_timebase = st->time_base;
    ctx->thread_count = 1; // one thread: the same frame, byte for byte, on every machine
    ctx->max_pixels = (int64_t)limits->max_pixels;
    if (limits->strict) ctx->err_recognition |= AV_EF_EXPLODE;
    if ((rc = AV(avcodec_open2)(ctx, codec, NULL)) < 0) return fail_av(info, rc);
    for (unsigned i = 0; i < in->format->nb_streams; i++)
        if ((int)i != in->video) in->format->streams[i]->discard = AVDISCARD_ALL;
    return 0;
}

/// Scales and converts to RGBA; *out is malloc'ed, poster_width x poster_height, rows packed.
static int convert(const AVFrame *f, int box_w, int box_h, const shim_limits *limits, uint8_t **out, shim_media_info *info) {
    if (!AV(sws_isSupportedInput)(f->format))
        return fail(info, "the video's pixel format %s cannot be converted", AV(av_get_pix_fmt_name)(f->format) ? AV(av_get_pix_fmt_name)(f->format) : "(none)");
    double dw = f->width * pixel_aspect(f->sample_aspect_ratio), dh = f->height;
    double scale = fmin(1, fmin(box_w / dw, box_h / dh));
    int tw = (int)fmax(1, fmin(box_w, lround(dw * scale))), th = (int)fmax(1, fmin(box_h, lround(dh * scale)));
    if (check_size(tw, th, "poster is", limits, info)) return -1;
    struct SwsContext *sws = AV(sws_getContext)(f->width, f->height, f->format, tw, th, AV_PIX_FMT_RGBA, SWS_BICUBIC, NULL, NULL, NULL);
    if (!sws) return fail(info, "cannot scale the %dx%d frame to %dx%d", f->width, f->height, tw, th);
    // The frame's own matrix and range, as FFmpeg's scale filter reads them; BT.601 when unset.
    const int *matrix = AV(sws_getCoefficients)(f->colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_DEFAULT : (int)f->colorspace);
    AV(sws_setColorspaceDetails)(sws, matrix, f->color_range == AVCOL_RANGE_JPEG, AV(sws_getCoefficients)(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    // Aligned rows (and slack) for swscale's vector stores, packed once it is done.
    size_t stride = ((size_t)tw * 4 + 63) & ~(size_t)63;
    void *buffer = NULL;
    if (posix_memalign(&buffer, 64, stride * (size_t)th + 64) != 0) { AV(sws_freeContext)(sws); return fail(info, "out of memory"); }
    uint8_t *dst[4] = { buffer, NULL, NULL, NULL };
    int lines[4] = { (int)stride, 0, 0, 0 };
    int rows = AV(sws_scale)(sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst, lines);
    AV(sws_freeContext)(sws);
    if (rows != th) { free(buffer); return fail(info, "scaling the frame failed"); }
    for (int y = 1; y < th; y++) memmove(dst[0] + (size_t)y * tw * 4, dst[0] + (size_t)y * stride, (size_t)tw * 4);
    *out = buffer;
    info->poster_width = tw;
    info->poster_height = th;
    return 0;
}

int shim_media_poster(const uint8_t *data, size_t size, double seconds, int max_width, int max_height,
                      const shim_limits *limits, uint8_t **rgba, shim_media_info *info) {
    *rgba = NULL;
    if (!loaded(info)) return -1;
    media_input in;
    AVCodecContext *ctx = NULL;
    AVFrame *chosen = NULL;
    int rc = open_input(&in, data, size, limits, info);
    if (rc == 0 && in.video < 0) rc = fail(info, "no video stream (%s)", info->has_audio ? "an audio file has no poster frame" : "the file has neither video nor audio");
    if (rc == 0 && (max_width < 1 || max_height < 1)) rc = fail(info, "poster size must be at least 1x1, got %dx%d", max_width, max_height);
    if (rc == 0) rc = open_decoder(&in, limits, &ctx, info);
    if (rc == 0 && !(chosen = AV(av_frame_alloc)())) rc = fail(info, "out of memory");
    if (rc == 0) rc = decode_at(&in, ctx, seconds, limits, chosen, info);
    if (rc == 0) {
        int turned = info->rotation % 180 != 0;
        rc = convert(chosen, turned ? max_height : max_width, turned ? max_width : max_height, limits, rgba, info);
    }
    AV(av_frame_free)(&chosen);
    AV(avcodec_free_context)(&ctx);
    close_input(&in);
    return rc;
}
