#include <stdlib.h>
#include <gif_lib.h>
#include "common.h"

// giflib has no longjmp; it is here beside the other codecs so that Swift sees one C API.
typedef struct { const uint8_t *data; size_t size, offset; } gif_source;

static int on_read(GifFileType *gif, GifByteType *out, int n) {
    gif_source *s = gif->UserData;
    size_t take = (size_t)n <= s->size - s->offset ? (size_t)n : s->size - s->offset;
    memcpy(out, s->data + s->offset, take);
    s->offset += take;
    return (int)take;
}

static int fail(GifFileType *gif, shim_image_info *info, const char *what) {
    if (!info->error[0]) {
        const char *reason = gif ? GifErrorString(gif->Error) : NULL;
        shim_set_error(info->error, "%s%s%s", what, reason ? ": " : "", reason ? reason : "");
    }
    if (gif) { int e; DGifCloseFile(gif, &e); }
    return -1;
}

typedef struct { int disposal, transparent; } frame_control;

/// Walks the records; composes every frame up to `frame` onto `rgba` (NULL: only counts frames).
static int walk(const uint8_t *data, size_t size, int frame, const shim_limits *limits,
                uint8_t *rgba, size_t rgba_size, shim_image_info *info) {
    memset(info, 0, sizeof *info);
    gif_source src = { data, size, 0 };
    int error = 0;
    if (size == 0) { shim_set_error(info->error, "file is empty"); return -1; }
    GifFileType *gif = DGifOpen(&src, on_read, &error);
    if (!gif) { shim_set_error(info->error, "not a GIF file: %s", GifErrorString(error)); return -1; }
    const int W = gif->SWidth, H = gif->SHeight;
    info->width = info->image_width = W;
    info->height = info->image_height = H;
    info->orientation = 1;
    info->color_model = 4;
    if (shim_check_limits((uint64_t)W, (uint64_t)H, limits, info) != 0) return fail(gif, info, "");
    if (rgba && (size_t)W * H * 4 > rgba_size) return fail(gif, info, "output buffer too small");
    if (rgba) memset(rgba, 0, (size_t)W * H * 4);

    // Composing costs canvas copies per frame: a small file of many tiny frames on a huge canvas
    // must not cost minutes. The work allowed is a few canvases' worth, however many frames.
    const uint64_t budget = limits->max_pixels * 8;
    uint64_t work = 0;
    frame_control next = { 0, -1 }, previous = { 0, -1 };
    int prev_left = 0, prev_top = 0, prev_w = 0, prev_h = 0;
    uint8_t *saved = NULL, *line = NULL;
    GifRecordType type;
    do {
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) { free(saved); free(line); return fail(gif, info, "corrupt GIF"); }
        if (type == EXTENSION_RECORD_TYPE) {
            int code; GifByteType *ext;
            if (DGifGetExtension(gif, &code, &ext) == GIF_ERROR) { free(saved); free(line); return fail(gif, info, "corrupt GIF extension"); }
            if (code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4) {
                next.disposal = (ext[1] >> 2) & 7;
                next.transparent = (ext[1] & 1) ? ext[4] : -1;
            }
            while (ext) if (DGifGetExtensionNext(gif, &ext) == GIF_ERROR) { free(saved); free(line); return fail(gif, info, "corrupt GIF extension"); }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) { free(saved); free(line); return fail(gif, info, "corrupt GIF frame"); }
            const GifImageDesc d = gif->Image;
            const int index = info->frame_count++;
            if (!rgba || index > frame) { // skip the pixels without decoding them
                int cs; GifByteType *block;
                if (DGifGetCode(gif, &cs, &block) == GIF_ERROR) { free(saved); free(line); return fail(gif, info, "corrupt GIF frame"); }
                while (block) if (DGifGetCodeNext(gif, &block) == GIF_ERROR) { free(saved); free(line); return fail(gif, info, "corrupt GIF frame"); }
                next = (frame_control){ 0, -1 };
                continue;
            }
            if (d.Width <= 0 || d.Height <= 0 || (uint64_t)d.Width * d.Height > limits->max_pixels) {
                free(saved); free(line);
                shim_set_error(info->error, "GIF frame %d is %dx%d, over the limits", index, d.Width, d.Height);
                return fail(gif, info, "");
            }
            work += (uint64_t)d.Width * d.Height + ((previous.disposal == 3 || next.disposal == 3) ? 2 * (uint64_t)W * H : 0);
            if (work > budget) {
                free(saved); free(line);
                shim_set_error(info->error, "composing GIF frame %d of a %dx%d canvas takes more than %llu pixel operations", index, W, H,
                               (unsigned long long)budget);
                return fail(gif, info, "");
            }
            // Dispose of the previous frame before drawing this one.
            if (previous.disposal == 2) {
                for (int y = prev_top; y < prev_top + prev_h && y < H; y++)
                    for (int x = prev_left; x < prev_left + prev_w && x < W; x++) memset(rgba + ((size_t)y * W + x) * 4, 0, 4);
            } else if (previous.disposal == 3 && saved) {
                memcpy(rgba, saved, (size_t)W * H * 4);
            }
            if (next.disposal == 3) {
                if (!saved) saved = malloc((size_t)W * H * 4);
                if (saved) memcpy(saved, rgba, (size_t)W * H * 4);
            }
            ColorMapObject *map = d.ColorMap ? d.ColorMap : gif->SColorMap;
            if (!map) { free(saved); free(line); return fail(gif, info, "GIF frame has no colour table"); }
            line = realloc(line, (size_t)d.Width);
            static const int start[] = {0, 4, 2, 1}, step[] = {8, 8, 4, 2};
            int passes = d.Interlace ? 4 : 1;
            for (int pass = 0; pass < passes; pass++) {
                for (int y = d.Interlace ? start[pass] : 0; y < d.Height; y += d.Interlace ? step[pass] : 1) {
                    if (DGifGetLine(gif, line, d.Width) == GIF_ERROR) {
                        free(saved); free(line);
                        return fail(gif, info, "GIF frame data is truncated or corrupt");
                    }
                    int cy = d.Top + y;
                    if (cy < 0 || cy >= H) continue;
                    for (int x = 0; x < d.Width; x++) {
                        int cx = d.Left + x, i = line[x];
                        if (cx < 0 || cx >= W || i == next.transparent || i >= map->ColorCount) continue;
                        uint8_t *p = rgba + ((size_t)cy * W + cx) * 4;
                        p[0] = map->Colors[i].Red; p[1] = map->Colors[i].Green; p[2] = map->Colors[i].Blue; p[3] = 255;
                    }
                }
            }
            previous = next;
            prev_left = d.Left; prev_top = d.Top; prev_w = d.Width; prev_h = d.Height;
            next = (frame_control){ 0, -1 };
            if (index == frame) break;
        }
    } while (type != TERMINATE_RECORD_TYPE);
    free(saved); free(line);
    int e; DGifCloseFile(gif, &e);
    if (rgba && info->frame_count <= frame) {
        shim_set_error(info->error, "GIF has %d frame%s; frame %d was asked for", info->frame_count, info->frame_count == 1 ? "" : "s", frame);
        return -1;
    }
    return 0;
}

int shim_gif_read_header(const uint8_t *data, size_t size, const shim_limits *limits, shim_image_info *info) {
    return walk(data, size, 0, limits, NULL, 0, info);
}

int shim_gif_decode(const uint8_t *data, size_t size, int frame, const shim_limits *limits,
                    uint8_t *rgba, size_t rgba_size, shim_image_info *info) {
    return walk(data, size, frame, limits, rgba, rgba_size, info);
}

static int on_write(GifFileType *gif, const GifByteType *bytes, int n) {
    return shim_buffer_append(gif->UserData, bytes, (size_t)n) == 0 ? n : 0;
}

int shim_gif_encode(int width, int height, const uint8_t *palette, int palette_size,
                    const shim_gif_frame *frames, int frame_count,
                    uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]) {
    shim_buffer buffer = {0};
    int err = 0;
    GifFileType *gif = EGifOpen(&buffer, on_write, &err);
    if (!gif) { shim_set_error(error, "%s", GifErrorString(err)); return -1; }
    GifColorType colors[256];
    for (int i = 0; i < palette_size && i < 256; i++) {
        colors[i].Red = palette[3 * i]; colors[i].Green = palette[3 * i + 1]; colors[i].Blue = palette[3 * i + 2];
    }
    ColorMapObject *map = GifMakeMapObject(palette_size, colors);
    EGifSetGifVersion(gif, true);
    int ok = map && EGifPutScreenDesc(gif, width, height, 8, 0, map) != GIF_ERROR;
    for (int f = 0; ok && f < frame_count; f++) {
        const shim_gif_frame *fr = &frames[f];
        GifByteType gce[4] = {
            (GifByteType)(((fr->disposal & 7) << 2) | (fr->transparent_index >= 0 ? 1 : 0)),
            (GifByteType)(fr->delay_cs & 255), (GifByteType)(fr->delay_cs >> 8),
            (GifByteType)(fr->transparent_index >= 0 ? fr->transparent_index : 0) };
        ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, gce) != GIF_ERROR
          && EGifPutImageDesc(gif, fr->left, fr->top, fr->width, fr->height, false, NULL) != GIF_ERROR;
        for (int y = 0; ok && y < fr->height; y++)
            ok = EGifPutLine(gif, (GifPixelType *)(fr->indices + (size_t)y * fr->width), fr->width) != GIF_ERROR;
    }
    if (!ok) shim_set_error(error, "%s", GifErrorString(gif->Error));
    GifFreeMapObject(map);
    EGifCloseFile(gif, &err);
    if (!ok || buffer.failed) { free(buffer.data); if (ok) shim_set_error(error, "out of memory"); return -1; }
    *out = buffer.data;
    *out_size = buffer.size;
    return 0;
}
