#include <setjmp.h>
#include <stdlib.h>
#include "common.h" // <stdio.h> before <jpeglib.h>
#include <jpeglib.h>

// libjpeg calls error_exit on fatal errors (default: print and exit()); we longjmp back instead.
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    shim_image_info *info;
    int max_scans;
} shim_jpeg_error;

static void on_error_exit(j_common_ptr cinfo) {
    shim_jpeg_error *err = (shim_jpeg_error *)cinfo->err;
    char message[JMSG_LENGTH_MAX];
    err->base.format_message(cinfo, message);
    shim_set_error(err->info->error, "%s", message);
    longjmp(err->jump, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    shim_jpeg_error *err = (shim_jpeg_error *)cinfo->err;
    if (level < 0) { // a warning: corrupt or truncated data that libjpeg papers over with grey
        if (err->info->warnings++ == 0) {
            char message[JMSG_LENGTH_MAX];
            err->base.format_message(cinfo, message);
            shim_set_error(err->info->error, "%s", message);
        }
    }
}

static void on_progress(j_common_ptr cinfo) {
    shim_jpeg_error *err = (shim_jpeg_error *)cinfo->err;
    if (cinfo->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        if (err->max_scans > 0 && d->input_scan_number > err->max_scans) {
            shim_set_error(err->info->error, "progressive JPEG has more than %d scans", err->max_scans);
            longjmp(err->jump, 1);
        }
    }
}

static uint16_t read16(const uint8_t *p, int little) { return little ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t read32(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                  : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/// EXIF orientation (tag 0x0112 of IFD0) from an APP1 marker, or 1.
static int exif_orientation(const uint8_t *d, unsigned len) {
    if (len < 14 || memcmp(d, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *t = d + 6; unsigned n = len - 6;
    int little = t[0] == 'I' && t[1] == 'I';
    if (!little && !(t[0] == 'M' && t[1] == 'M')) return 1;
    uint32_t ifd = read32(t + 4, little);
    if (ifd > n - 2) return 1;
    unsigned count = read16(t + ifd, little);
    for (unsigned i = 0; i < count; i++) {
        uint32_t e = ifd + 2 + i * 12;
        if (e + 12 > n) return 1;
        if (read16(t + e, little) == 0x0112) {
            unsigned v = read16(t + e + 8, little);
            return v >= 1 && v <= 8 ? (int)v : 1;
        }
    }
    return 1;
}

static void describe(j_decompress_ptr c, shim_image_info *info) {
    info->image_width = (int)c->image_width;
    info->image_height = (int)c->image_height;
    info->width = (int)c->output_width;
    info->height = (int)c->output_height;
    info->progressive = c->progressive_mode;
    info->adobe = c->saw_Adobe_marker;
    switch (c->jpeg_color_space) {
        case JCS_GRAYSCALE: info->color_model = 0; break;
        case JCS_CMYK: info->color_model = 2; break;
        case JCS_YCCK: info->color_model = 3; break;
        default: info->color_model = 1; break;
    }
    info->orientation = 1;
    for (jpeg_saved_marker_ptr m = c->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1) { info->orientation = exif_orientation(m->data, m->data_length); break; }
}

/// Opens the stream and reads the header; shared by read_header and decode.
static int open_header(j_decompress_ptr c, const uint8_t *data, size_t size, int scale_denom, const shim_limits *limits) {
    jpeg_mem_src(c, data, (unsigned long)size);
    jpeg_save_markers(c, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(c, TRUE);
    c->scale_num = 1;
    c->scale_denom = (unsigned)scale_denom;
    int cmyk = c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK;
    c->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(c);
    c->mem->max_memory_to_use = (long)limits->max_memory;
    return 0;
}

#define JPEG_SETUP(info, limits)                                  \
    struct jpeg_decompress_struct c;                              \
    shim_jpeg_error err;                                          \
    struct jpeg_progress_mgr progress;                            \
    memset(info, 0, sizeof *info);                                \
    c.err = jpeg_std_error(&err.base);                            \
    err.base.error_exit = on_error_exit;                          \
    err.base.emit_message = on_emit_message;                      \
    err.info = info;                                              \
    err.max_scans = limits->max_scans;                            \
    progress.progress_monitor = on_progress;                      \
    if (setjmp(err.jump)) { jpeg_destroy_decompress(&c); return -1; } \
    jpeg_create_decompress(&c);                                   \
    c.progress = &progress;

int shim_jpeg_read_header(const uint8_t *data, size_t size, int scale_denom, const shim_limits *limits, shim_image_info *info) {
    JPEG_SETUP(info, limits)
    if (size == 0) { shim_set_error(info->error, "file is empty"); jpeg_destroy_decompress(&c); return -1; }
    open_header(&c, data, size, scale_denom, limits);
    describe(&c, info);
    int rc = shim_check_limits(c.image_width, c.image_height, limits, info);
    jpeg_destroy_decompress(&c);
    return rc;
}

int shim_jpeg_decode(const uint8_t *data, size_t size, int scale_denom, const shim_limits *limits,
                     uint8_t *rgba, size_t rgba_size, shim_image_info *info) {
    JPEG_SETUP(info, limits)
    if (size == 0) { shim_set_error(info->error, "file is empty"); jpeg_destroy_decompress(&c); return -1; }
    open_header(&c, data, size, scale_denom, limits);
    describe(&c, info);
    if (shim_check_limits(c.image_width, c.image_height, limits, info) != 0 ||
        (size_t)c.output_width * c.output_height * 4 > rgba_size) {
        if (!info->error[0]) shim_set_error(info->error, "output buffer too small");
        jpeg_destroy_decompress(&c);
        return -1;
    }
    jpeg_start_decompress(&c);
    const int cmyk = c.out_color_space == JCS_CMYK;
    const int inverted = c.saw_Adobe_marker;
    const size_t stride = (size_t)c.output_width * 4;
    while (c.output_scanline < c.output_height) {
        uint8_t *row = rgba + (size_t)c.output_scanline * stride;
        jpeg_read_scanlines(&c, &row, 1);
        if (cmyk) { // libjpeg stops at CMYK; Adobe files store the inks inverted
            for (unsigned x = 0; x < c.output_width; x++) {
                unsigned k0 = row[4 * x], k1 = row[4 * x + 1], k2 = row[4 * x + 2], k3 = row[4 * x + 3];
                if (!inverted) { k0 = 255 - k0; k1 = 255 - k1; k2 = 255 - k2; k3 = 255 - k3; }
                row[4 * x] = (uint8_t)((k0 * k3 + 127) / 255);
                row[4 * x + 1] = (uint8_t)((k1 * k3 + 127) / 255);
                row[4 * x + 2] = (uint8_t)((k2 * k3 + 127) / 255);
                row[4 * x + 3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&c);
    jpeg_destroy_decompress(&c);
    if (limits->strict && info->warnings > 0) return -1;
    info->error[0] = 0;
    return 0;
}

int shim_jpeg_encode(const uint8_t *pixels, int width, int height, const shim_jpeg_options *o,
                     uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]) {
    struct jpeg_compress_struct c;
    shim_jpeg_error err;
    shim_image_info info;
    memset(&info, 0, sizeof info);
    unsigned char *volatile buffer = NULL;
    unsigned long volatile buffer_size = 0;
    uint8_t *volatile row = NULL;
    c.err = jpeg_std_error(&err.base);
    err.base.error_exit = on_error_exit;
    err.base.emit_message = on_emit_message;
    err.info = &info;
    err.max_scans = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&c);
        free(buffer); free(row);
        memcpy(error, info.error, SHIM_ERR_LEN);
        return -1;
    }
    jpeg_create_compress(&c);
    jpeg_mem_dest(&c, (unsigned char **)&buffer, (unsigned long *)&buffer_size);
    c.image_width = (JDIMENSION)width;
    c.image_height = (JDIMENSION)height;
    c.input_components = o->grayscale ? 1 : 4;
    c.in_color_space = o->grayscale ? JCS_GRAYSCALE : (o->cmyk ? JCS_CMYK : JCS_EXT_RGBA);
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, o->quality, TRUE);
    if (o->cmyk && o->adobe_inverted) jpeg_set_colorspace(&c, JCS_YCCK); // writes the Adobe marker
    if (o->cmyk && !o->adobe_inverted) { jpeg_set_colorspace(&c, JCS_CMYK); c.write_Adobe_marker = FALSE; }
    if (o->progressive) jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    if (o->orientation >= 1 && o->orientation <= 8) {
        // Minimal big-endian EXIF: one IFD0 entry, Orientation (SHORT, count 1).
        uint8_t exif[] = {'E','x','i','f',0,0, 'M','M',0,42, 0,0,0,8, 0,1,
                          0x01,0x12, 0,3, 0,0,0,1, 0,(uint8_t)o->orientation,0,0, 0,0,0,0};
        jpeg_write_marker(&c, JPEG_APP0 + 1, exif, sizeof exif);
    }
    const int components = c.input_components;
    row = malloc((size_t)width * components);
    while (c.next_scanline < c.image_height) {
        const uint8_t *src = pixels + (size_t)c.next_scanline * width * 4;
        if (components == 1) for (int x = 0; x < width; x++) row[x] = src[4 * x];
        else memcpy(row, src, (size_t)width * 4);
        JSAMPROW r = row;
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    free(row);
    *out = buffer;
    *out_size = buffer_size;
    return 0;
}
