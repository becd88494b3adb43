// The C side of PushPreview's codecs. Every setjmp/longjmp of libjpeg and libpng lives in
// this target; Swift calls these plain functions and never sees a jmp_buf or a codec struct.
#ifndef CSHIM_H
#define CSHIM_H
#include <stddef.h>
#include <stdint.h>

#define SHIM_ERR_LEN 256

/// What a decoder learned about an image; filled by the *_read_header and *_decode calls.
typedef struct {
    int width, height;          // pixels of the decoded output (after DCT scaling for JPEG)
    int image_width, image_height;
    int orientation;            // EXIF orientation 1...8 (JPEG), 1 otherwise
    int progressive;            // JPEG: progressive scans
    int color_model;            // 0 gray, 1 rgb/ycc, 2 cmyk, 3 ycck, 4 palette, 5 gray+alpha, 6 rgba
    int adobe;                  // JPEG: an Adobe APP14 marker was seen (CMYK stored inverted)
    int frame_count;            // GIF
    int warnings;               // recoverable problems (truncated/corrupt data) seen while decoding
    char error[SHIM_ERR_LEN];   // message when a call returns non-zero
} shim_image_info;

/// Limits checked before any large allocation.
typedef struct {
    uint32_t max_width, max_height;
    uint64_t max_pixels;
    uint64_t max_memory;        // decoder working memory (libjpeg max_memory_to_use)
    int max_scans;              // progressive JPEG scans
    int strict;                 // treat warnings (e.g. a truncated file) as errors
} shim_limits;

// JPEG (libjpeg-turbo). scale_denom is 1, 2, 4 or 8; output is RGBA, 4 bytes a pixel.
int shim_jpeg_read_header(const uint8_t *data, size_t size, int scale_denom, const shim_limits *limits, shim_image_info *info);
int shim_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, const shim_limits *limits,
                     uint8_t *rgba, size_t rgba_size, shim_image_info *info);

typedef struct {
    int quality, progressive, cmyk, orientation; // cmyk: rgba is read as C,M,Y,K bytes; orientation 0 = no EXIF
    int grayscale, adobe_inverted;
} shim_jpeg_options;
/// Encodes RGBA (or CMYK bytes); *out is malloc'ed and owned by the caller (free with shim_free).
int shim_jpeg_encode(const uint8_t *pixels, int width, int height, const shim_jpeg_options *options,
                     uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]);

// PNG (libpng). Output is RGBA 8-bit; 16-bit channels are scaled, no gamma applied.
int shim_png_read_header(const uint8_t *data, size_t size, const shim_limits *limits, shim_image_info *info);
int shim_png_decode(const uint8_t *data, size_t size, const shim_limits *limits,
                    uint8_t *rgba, size_t rgba_size, shim_image_info *info);
/// Encodes straight-alpha RGBA. ppm: pixels per metre for pHYs (0 = none); filters: a
/// PNG_FILTER_* mask (0 = libpng's default adaptive choice).
int shim_png_encode(const uint8_t *rgba, int width, int height, int compression_level, int filters, uint32_t ppm,
                    uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]);
/// An opaque B, G, R, X image (cairo's ARGB32 on little-endian machines) as an RGB PNG, with
/// the fast filter-and-Huffman encoder of png_opaque.c. `stride` must be a multiple of 4.
int shim_png_encode_opaque(const uint8_t *bgrx, int width, int height, size_t stride, uint32_t ppm,
                           uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]);

// GIF (giflib). Composes frame `frame` onto the logical screen, honouring disposal and transparency.
int shim_gif_read_header(const uint8_t *data, size_t size, const shim_limits *limits, shim_image_info *info);
int shim_gif_decode(const uint8_t *data, size_t size, int frame, const shim_limits *limits,
                    uint8_t *rgba, size_t rgba_size, shim_image_info *info);
typedef struct {
    const uint8_t *indices;      // width*height palette indices
    int left, top, width, height;
    int delay_cs, disposal, transparent_index; // transparent_index -1 = none
} shim_gif_frame;
/// palette: 3*palette_size bytes (palette_size a power of two, 2...256).
int shim_gif_encode(int width, int height, const uint8_t *palette, int palette_size,
                    const shim_gif_frame *frames, int frame_count,
                    uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]);

// Video and audio (media.c, over FFmpeg's libraries). The file is read from memory only: no
// path, no protocol, no nested file is ever opened. Formats: MP4/MOV/M4A, MP3, WAV, AIFF, AVI,
// MPEG; video codecs: H.264, HEVC, MPEG-4 Part 2, MPEG-1/2, H.263, Motion JPEG.
typedef struct {
    double duration;            // seconds, as the container declares it; -1 when it does not say
    int has_video, has_audio;   // cover art in an audio file is not video
    int width, height;          // video: the size a player shows (sample aspect ratio and rotation applied)
    int rotation;               // clockwise degrees the stored frames are turned to be shown: 0, 90, 180 or 270
    int poster_width, poster_height; // poster: the pixels written, as stored (before the rotation)
    char error[SHIM_ERR_LEN];   // message when a call returns non-zero
} shim_media_info;

int shim_media_probe(const uint8_t *data, size_t size, const shim_limits *limits, shim_media_info *info);
/// The frame shown at `seconds` (< 0: the first frame; past the end: the last frame), scaled down
/// (never up) so that, once turned by info->rotation, it fits max_width x max_height. *rgba is
/// malloc'ed straight-alpha RGBA, poster_width x poster_height, owned by the caller (shim_free).
int shim_media_poster(const uint8_t *data, size_t size, double seconds, int max_width, int max_height,
                      const shim_limits *limits, uint8_t **rgba, shim_media_info *info);

// Pixels: cairo's premultiplied native-endian ARGB32 <-> straight RGBA.
void shim_argb32_to_rgba(const uint8_t *argb, int width, int height, int stride, uint8_t *rgba);
void shim_rgba_to_argb32(const uint8_t *rgba, int width, int height, uint8_t *argb, int stride);

void shim_free(void *p);
/// CLDR plural rules (icu.c, over ICU): rules for a locale ("pt_BR"), or NULL; the category
/// of n ("one", "few", …) into out, returning its length or -1.
void *shim_plural_rules_open(const char *locale);
int shim_plural_rules_select(void *rules, double n, char *out, int capacity);
/// The locale's word for "now" (as in "delivered now"), UTF-8 into out; its length, or -1.
int shim_relative_now(const char *locale, char *out, int capacity);

#endif
