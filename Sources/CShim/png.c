#include <setjmp.h>
#include <stdlib.h>
#include <png.h>
#include "common.h"

// libpng reports fatal errors through png_error -> our handler -> longjmp; warnings are kept
// because limit errors arrive as a generic "Invalid IHDR data" with the reason in the warning.
typedef struct {
    jmp_buf jump;
    shim_image_info *info;
    char last_warning[SHIM_ERR_LEN];
    const uint8_t *data;
    size_t size, offset;
} shim_png_state;

static void on_error(png_structp png, png_const_charp message) {
    shim_png_state *s = png_get_error_ptr(png);
    if (s->last_warning[0]) shim_set_error(s->info->error, "%s (%s)", message, s->last_warning);
    else shim_set_error(s->info->error, "%s", message);
    longjmp(s->jump, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    shim_png_state *s = png_get_error_ptr(png);
    s->info->warnings++;
    shim_set_error(s->last_warning, "%s", message);
}

static void on_read(png_structp png, png_bytep out, png_size_t n) {
    shim_png_state *s = png_get_io_ptr(png);
    if (n > s->size - s->offset) png_error(png, "file is truncated");
    memcpy(out, s->data + s->offset, n);
    s->offset += n;
}

/// Reads the header and sets every transform that turns any PNG into RGBA8 without gamma.
static void read_header(png_structp png, png_infop info_ptr, shim_png_state *s, const shim_limits *limits) {
    png_set_user_limits(png, limits->max_width, limits->max_height);
    // Metadata is never drawn: text and colour-profile chunks are skipped unread, so a small file
    // cannot inflate hundreds of megabytes of zTXt; at most 64 other ancillary chunks, 8 MB each.
    static const png_byte skipped[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0eXIf\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, 6);
    png_set_chunk_cache_max(png, 64);
    png_set_chunk_malloc_max(png, limits->max_memory < (8u << 20) ? limits->max_memory : (8u << 20));
    png_set_read_fn(png, s, on_read);
    png_read_info(png, info_ptr);
    png_uint_32 w, h; int depth, type, interlace;
    png_get_IHDR(png, info_ptr, &w, &h, &depth, &type, &interlace, NULL, NULL);
    s->info->image_width = s->info->width = (int)w;
    s->info->image_height = s->info->height = (int)h;
    s->info->orientation = 1;
    s->info->color_model = type == PNG_COLOR_TYPE_GRAY ? 0 : type == PNG_COLOR_TYPE_RGB ? 1 :
                           type == PNG_COLOR_TYPE_PALETTE ? 4 : type == PNG_COLOR_TYPE_GRAY_ALPHA ? 5 : 6;
    s->info->progressive = interlace != PNG_INTERLACE_NONE;
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info_ptr, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER); // no-op when alpha is already there
    png_set_interlace_handling(png);
    png_read_update_info(png, info_ptr);
}

int shim_png_read_header(const uint8_t *data, size_t size, const shim_limits *limits, shim_image_info *info) {
    return shim_png_decode(data, size, limits, NULL, 0, info);
}

/// With rgba == NULL only the header is read (and the limits checked).
int shim_png_decode(const uint8_t *data, size_t size, const shim_limits *limits,
                    uint8_t *rgba, size_t rgba_size, shim_image_info *info) {
    memset(info, 0, sizeof *info);
    shim_png_state s = { .info = info, .data = data, .size = size };
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) { shim_set_error(info->error, "not a PNG file (bad signature)"); return -1; }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    if (!png) { shim_set_error(info->error, "out of memory"); return -1; }
    png_infop info_ptr = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (setjmp(s.jump)) { png_destroy_read_struct(&png, &info_ptr, NULL); free(rows); return -1; }
    // CRC errors in ancillary chunks are warnings by default; critical ones stay errors.
    read_header(png, info_ptr, &s, limits);
    if (shim_check_limits((uint64_t)info->width, (uint64_t)info->height, limits, info) != 0) {
        png_destroy_read_struct(&png, &info_ptr, NULL);
        return -1;
    }
    if (rgba) {
        if ((size_t)info->width * info->height * 4 > rgba_size || png_get_rowbytes(png, info_ptr) != (size_t)info->width * 4) {
            shim_set_error(info->error, "output buffer does not fit the image");
            png_destroy_read_struct(&png, &info_ptr, NULL);
            return -1;
        }
        rows = malloc(sizeof(png_bytep) * (size_t)info->height);
        for (int y = 0; y < info->height; y++) rows[y] = rgba + (size_t)y * info->width * 4;
        png_read_image(png, rows);
        png_read_end(png, NULL);
        free(rows);
        if (limits->strict && info->warnings > 0 && s.last_warning[0]) {
            shim_set_error(info->error, "%s", s.last_warning);
            png_destroy_read_struct(&png, &info_ptr, NULL);
            return -1;
        }
    }
    png_destroy_read_struct(&png, &info_ptr, NULL);
    info->error[0] = 0;
    return 0;
}

static void on_write(png_structp png, png_bytep bytes, png_size_t n) {
    if (shim_buffer_append(png_get_io_ptr(png), bytes, n) != 0) png_error(png, "out of memory");
}
static void on_flush(png_structp png) { (void)png; }

int shim_png_encode(const uint8_t *rgba, int width, int height, int compression_level, int filters, uint32_t ppm,
                    uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]) {
    shim_image_info info;
    memset(&info, 0, sizeof info);
    shim_png_state s = { .info = &info };
    shim_buffer buffer = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    if (!png) { shim_set_error(error, "out of memory"); return -1; }
    png_infop info_ptr = png_create_info_struct(png);
    if (setjmp(s.jump)) {
        png_destroy_write_struct(&png, &info_ptr);
        free(buffer.data);
        memcpy(error, info.error, SHIM_ERR_LEN);
        return -1;
    }
    png_set_write_fn(png, &buffer, on_write, on_flush);
    png_set_compression_level(png, compression_level);
    if (filters) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info_ptr, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (ppm) png_set_pHYs(png, info_ptr, ppm, ppm, PNG_RESOLUTION_METER);
    png_write_info(png, info_ptr);
    for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rgba + (size_t)y * width * 4));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info_ptr);
    *out = buffer.data;
    *out_size = buffer.size;
    return 0;
}
