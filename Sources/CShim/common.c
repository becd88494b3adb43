#include <stdlib.h>
#include "common.h"

int shim_buffer_append(shim_buffer *b, const uint8_t *bytes, size_t n) {
    if (b->failed) return -1;
    if (b->size + n > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 65536;
        while (cap < b->size + n) cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (!p) { b->failed = 1; return -1; }
        b->data = p; b->capacity = cap;
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
    return 0;
}

int shim_check_limits(uint64_t width, uint64_t height, const shim_limits *limits, shim_image_info *info) {
    if (width == 0 || height == 0) {
        shim_set_error(info->error, "image has no pixels (%llux%llu)", (unsigned long long)width, (unsigned long long)height);
        return -1;
    }
    if (width > limits->max_width || height > limits->max_height || width * height > limits->max_pixels) {
        shim_set_error(info->error, "image is %llux%llu, over the limit of %ux%u and %llu pixels",
                       (unsigned long long)width, (unsigned long long)height,
                       limits->max_width, limits->max_height, (unsigned long long)limits->max_pixels);
        return -1;
    }
    return 0;
}

void shim_free(void *p) { free(p); }

void shim_argb32_to_rgba(const uint8_t *argb, int width, int height, int stride, uint8_t *rgba) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(argb + (size_t)y * stride);
        uint8_t *out = rgba + (size_t)y * width * 4;
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            uint32_t a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
            if (a != 0 && a != 255) {
                r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a;
            }
            out[4 * x] = (uint8_t)r; out[4 * x + 1] = (uint8_t)g; out[4 * x + 2] = (uint8_t)b; out[4 * x + 3] = (uint8_t)a;
        }
    }
}

/* Rows of opaque pixels (photos, most attachments) take a swizzle the compiler vectorizes;
   others are premultiplied pixel by pixel. */
/* Not under ThreadSanitizer: an ifunc resolver runs while libraries are relocated, before the
   sanitizer's runtime exists, and its instrumented entry crashes there. */
#if defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define SHIM_NO_IFUNC 1
#  endif
#endif
#if defined(__x86_64__) && defined(__clang__) && !defined(SHIM_NO_IFUNC)
__attribute__((target_clones("avx2", "default")))
#endif
void shim_rgba_to_argb32(const uint8_t *rgba, int width, int height, uint8_t *argb, int stride) {
    for (int y = 0; y < height; y++) {
        const uint8_t *in = rgba + (size_t)y * width * 4;
        uint32_t *row = (uint32_t *)(argb + (size_t)y * stride);
        uint32_t opaque = 0xFF;
        for (int x = 0; x < width; x++) opaque &= in[4 * x + 3];
        if (opaque == 0xFF && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
            for (int x = 0; x < width; x++) {
                uint32_t v; memcpy(&v, in + 4 * x, 4); // R, G, B, A in memory
                row[x] = (v & 0xFF00FF00u) | ((v & 0xFF) << 16) | ((v >> 16) & 0xFF);
            }
            continue;
        }
        for (int x = 0; x < width; x++) {
            uint32_t r = in[4 * x], g = in[4 * x + 1], b = in[4 * x + 2], a = in[4 * x + 3];
            r = (r * a + 127) / 255; g = (g * a + 127) / 255; b = (b * a + 127) / 255;
            row[x] = (a << 24) | (r << 16) | (g << 8) | b;
        }
    }
}
