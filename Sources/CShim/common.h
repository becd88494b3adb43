#ifndef CSHIM_COMMON_H
#define CSHIM_COMMON_H
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
#include "cshim.h"

static inline void shim_set_error(char *dst, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); vsnprintf(dst, SHIM_ERR_LEN, fmt, ap); va_end(ap);
}

/// Growable output buffer for the encoders.
typedef struct { uint8_t *data; size_t size, capacity; int failed; } shim_buffer;
int shim_buffer_append(shim_buffer *b, const uint8_t *bytes, size_t n);

/// 0 when the dimensions are within the limits, else fills info->error.
int shim_check_limits(uint64_t width, uint64_t height, const shim_limits *limits, shim_image_info *info);
#endif
