#include <stdlib.h>
#include <libdeflate.h>
#include "common.h"

/* The mock-up writer: an opaque B, G, R, X image (cairo's ARGB32 on little-endian machines) as
   an RGB PNG, encoded the way fast PNG encoders such as fpnge do it, because general-purpose
   deflate was the largest cost of a gallery.

   - Each row is filtered with Up or Sub, whichever leaves fewer changed pixels. Mock-ups are
     flat colour, text and photos: both filters turn flat colour into zeros.
   - The image is cut into strips of about 256 KB (they stay in cache for the second pass).
     Each strip is one dynamic-Huffman deflate block, its code counted on every SAMPLE-th row.
   - Only literals and runs of zeros are coded. A run is a zero and then a match at distance 1.
     There is no search for earlier strings. On the bench's mock-ups the output is as small as
     libdeflate level 1's on unfiltered rows, in a third of its time.

   Little-endian only (pixels and bits are read and stored as little-endian words); the Swift
   side calls it only there. */

enum { STRIP_BYTES = 256 * 1024, SAMPLE = 4, LITLEN = 286, MAX_BITS = 15 };

typedef struct { uint8_t *out; size_t pos; uint64_t bits; int count; } bit_writer;

/* Adds up to 56 bits (a symbol is at most 21). The flush has no branch: it always stores eight
   bytes and keeps what is not yet a whole byte, so the buffer needs 8 bytes of slack. */
static inline void put_bits(bit_writer *w, uint32_t value, int length) {
    w->bits |= (uint64_t)value << w->count;
    w->count += length;
    memcpy(w->out + w->pos, &w->bits, 8); // little-endian, as deflate packs bits
    w->pos += (size_t)(w->count >> 3);
    w->bits >>= w->count & ~7;
    w->count &= 7;
}

static void align_to_byte(bit_writer *w) {
    if (w->count) { w->out[w->pos++] = (uint8_t)w->bits; }
    w->bits = 0; w->count = 0;
}

typedef struct { uint32_t freq; int symbol; } leaf;
static int by_frequency(const void *a, const void *b) {
    const leaf *x = a, *y = b;
    return x->freq != y->freq ? (x->freq < y->freq ? -1 : 1) : x->symbol - y->symbol;
}

/* Huffman code lengths of at most `limit` bits. Two-queue construction over the sorted leaves;
   when the tree is too deep, the counts are flattened and it is built again. */
static void code_lengths(const uint32_t *freq, int n, int limit, uint8_t *length) {
    leaf leaves[LITLEN];
    uint32_t weight[2 * LITLEN];
    int parent[2 * LITLEN], depth[2 * LITLEN];
    memset(length, 0, (size_t)n);
    for (int shift = 0;; shift++) {
        int m = 0;
        for (int i = 0; i < n; i++) if (freq[i]) leaves[m++] = (leaf){ (freq[i] >> shift) | 1, i };
        if (m == 0) return;
        if (m == 1) { length[leaves[0].symbol] = 1; return; }
        qsort(leaves, (size_t)m, sizeof(leaf), by_frequency);
        for (int i = 0; i < m; i++) weight[i] = leaves[i].freq;
        int next_leaf = 0, next_node = m, made = m;
        for (int k = 0; k < m - 1; k++, made++) {
            int pick[2];
            for (int j = 0; j < 2; j++) {
                if (next_leaf < m && (next_node >= made || weight[next_leaf] <= weight[next_node])) pick[j] = next_leaf++;
                else pick[j] = next_node++;
            }
            weight[made] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = parent[pick[1]] = made;
        }
        int root = made - 1, deepest = 0;
        depth[root] = 0;
        for (int i = root - 1; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
        for (int i = 0; i < m; i++) if (depth[i] > deepest) deepest = depth[i];
        if (deepest > limit) continue;
        for (int i = 0; i < m; i++) length[leaves[i].symbol] = (uint8_t)depth[i];
        return;
    }
}

/// Canonical codes (RFC 1951 §3.2.2), bit-reversed because deflate sends codes from the top bit.
static void canonical_codes(const uint8_t *length, int n, uint32_t *code) {
    int count[MAX_BITS + 1] = {0}, next[MAX_BITS + 1] = {0};
    for (int i = 0; i < n; i++) count[length[i]]++;
    count[0] = 0;
    for (int bits = 1, c = 0; bits <= MAX_BITS; bits++) { c = (c + count[bits - 1]) << 1; next[bits] = c; }
    for (int i = 0; i < n; i++) {
        if (!length[i]) { code[i] = 0; continue; }
        uint32_t c = (uint32_t)next[length[i]]++, r = 0;
        for (int b = 0; b < length[i]; b++) { r = (r << 1) | (c & 1); c >>= 1; }
        code[i] = r;
    }
}

static const uint16_t length_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t length_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };

/// slot[n]: the length code (less 257) for a match of n bytes, 3 ≤ n ≤ 258.
static void length_slots(uint8_t slot[259]) {
    for (int n = 3, s = 0; n <= 258; n++) { while (s < 28 && length_base[s + 1] <= n) s++; slot[n] = (uint8_t)s; }
}

static inline size_t zeros_at(const uint8_t *p, size_t max) {
    size_t n = 0;
    for (; n + 8 <= max; n += 8) {
        uint64_t v; memcpy(&v, p + n, 8);
        if (v) return n + ((size_t)__builtin_ctzll(v) >> 3);
    }
    while (n < max && !p[n]) n++;
    return n;
}

/* One pass over a strip: counts symbols when `w` is NULL, else writes them with `code`/`length`.
   A zero followed by three or more zeros becomes the zero and matches of up to 258 at distance 1. */
static void code_strip(const uint8_t *data, size_t size, const uint8_t *slots, uint32_t *freq, bit_writer *w, const uint32_t *code, const uint8_t *length) {
    size_t i = 0;
    while (i < size) {
        uint8_t byte = data[i++];
        if (w) put_bits(w, code[byte], length[byte]); else freq[byte]++;
        if (byte) continue;
        size_t run = zeros_at(data + i, size - i);
        while (run >= 3) {
            size_t n = run > 258 ? 258 : run;
            int slot = slots[n];
            if (w) {
                put_bits(w, code[257 + slot], length[257 + slot]);
                if (length_extra[slot]) put_bits(w, (uint32_t)(n - length_base[slot]), length_extra[slot]);
                put_bits(w, 0, 1); // the only distance code: distance 1
            } else freq[257 + slot]++;
            run -= n; i += n;
        }
    }
}

/* The block header: literal/length code lengths, run-length coded with the code-length alphabet
   (17 and 18 for runs of unused symbols), and a distance code with one symbol of one bit. */
static void write_block_header(bit_writer *w, const uint8_t *length, int last) {
    int hlit = LITLEN;
    while (hlit > 257 && !length[hlit - 1]) hlit--;
    uint8_t lengths[LITLEN + 1];
    memcpy(lengths, length, (size_t)hlit);
    lengths[hlit] = 1; // distance code 0
    int total = hlit + 1;
    uint8_t symbol[LITLEN + 1], extra[LITLEN + 1];
    int symbols = 0;
    uint32_t freq[19] = {0};
    for (int i = 0; i < total;) {
        int run = 1;
        if (lengths[i] == 0) while (i + run < total && lengths[i + run] == 0 && run < 138) run++;
        if (run >= 11) { symbol[symbols] = 18; extra[symbols++] = (uint8_t)(run - 11); }
        else if (run >= 3) { symbol[symbols] = 17; extra[symbols++] = (uint8_t)(run - 3); }
        else { run = 1; symbol[symbols] = lengths[i]; extra[symbols++] = 0; }
        freq[symbol[symbols - 1]]++;
        i += run;
    }
    uint8_t cl_length[19]; uint32_t cl_code[19];
    code_lengths(freq, 19, 7, cl_length);
    canonical_codes(cl_length, 19, cl_code);
    static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
    int hclen = 19;
    while (hclen > 4 && !cl_length[order[hclen - 1]]) hclen--;
    put_bits(w, last ? 1 : 0, 1);
    put_bits(w, 2, 2); // dynamic Huffman
    put_bits(w, (uint32_t)(hlit - 257), 5);
    put_bits(w, 0, 5); // one distance code
    put_bits(w, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++) put_bits(w, cl_length[order[i]], 3);
    for (int i = 0; i < symbols; i++) {
        put_bits(w, cl_code[symbol[i]], cl_length[symbol[i]]);
        if (symbol[i] == 17) put_bits(w, extra[i], 3);
        if (symbol[i] == 18) put_bits(w, extra[i], 7);
    }
}

static inline uint32_t bytewise_sub(uint32_t a, uint32_t b) {
    return ((a | 0x80808080u) - (b & 0x7f7f7f7fu)) ^ ((a ^ ~b) & 0x80808080u);
}

/* Filters one row into `out` (filter byte, then R, G, B per pixel); `above` is NULL on the first
   row. May write up to 16 bytes past the row. */
static void filter_row_portable(const uint32_t *row, const uint32_t *above, int width, uint8_t *out) {
    int up = 0;
    if (above) {
        int changed_up = 0, changed_left = 1;
        for (int x = 0; x < width; x++) changed_up += ((row[x] ^ above[x]) & 0xFFFFFF) != 0;
        for (int x = 1; x < width; x++) changed_left += ((row[x] ^ row[x - 1]) & 0xFFFFFF) != 0;
        up = changed_up < changed_left;
    }
    *out++ = up ? 2 : 1;
    for (int x = 0; x < width; x++) {
        uint32_t reference = up ? above[x] : x ? row[x - 1] : 0;
        uint32_t d = __builtin_bswap32(bytewise_sub(row[x], reference)) >> 8; // R, G, B, 0 in memory
        memcpy(out + 3 * x, &d, 4);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>
/* The same with AVX2, eight pixels at a time: byte-wise differences, then a shuffle per lane
   from B, G, R, X to R, G, B. */
__attribute__((target("avx2")))
static void filter_row_avx2(const uint32_t *row, const uint32_t *above, int width, uint8_t *out) {
    const __m256i colour = _mm256_set1_epi32(0xFFFFFF), zero = _mm256_setzero_si256();
    int up = 0, x;
    if (above) {
        int changed_up = 0, changed_left = 1;
        for (x = 0; x + 8 <= width; x += 8) {
            __m256i p = _mm256_loadu_si256((const __m256i *)(row + x));
            __m256i a = _mm256_loadu_si256((const __m256i *)(above + x));
            changed_up += 8 - __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
                _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_xor_si256(p, a), colour), zero))));
        }
        for (; x < width; x++) changed_up += ((row[x] ^ above[x]) & 0xFFFFFF) != 0;
        for (x = 1; x + 8 <= width; x += 8) {
            __m256i p = _mm256_loadu_si256((const __m256i *)(row + x));
            __m256i l = _mm256_loadu_si256((const __m256i *)(row + x - 1));
            changed_left += 8 - __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
                _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_xor_si256(p, l), colour), zero))));
        }
        for (; x < width; x++) changed_left += ((row[x] ^ row[x - 1]) & 0xFFFFFF) != 0;
        up = changed_up < changed_left;
    }
    *out++ = up ? 2 : 1;
    const __m256i shuffle = _mm256_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
                                             2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    x = 0;
    if (!up) { // the first pixel has nothing to its left
        uint32_t d = __builtin_bswap32(row[0]) >> 8;
        memcpy(out, &d, 4);
        x = 1;
    }
    const uint32_t *reference = up ? above : row - 1;
    for (; x + 8 <= width; x += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(row + x));
        __m256i r = _mm256_loadu_si256((const __m256i *)(reference + x));
        __m256i d = _mm256_shuffle_epi8(_mm256_sub_epi8(p, r), shuffle);
        _mm_storeu_si128((__m128i *)(out + 3 * x), _mm256_castsi256_si128(d));
        _mm_storeu_si128((__m128i *)(out + 3 * x + 12), _mm256_extracti128_si256(d, 1));
    }
    for (; x < width; x++) {
        uint32_t d = __builtin_bswap32(bytewise_sub(row[x], reference[x])) >> 8;
        memcpy(out + 3 * x, &d, 4);
    }
}
#endif

static void filter_row(const uint32_t *row, const uint32_t *above, int width, uint8_t *out) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) { filter_row_avx2(row, above, width, out); return; }
#endif
    filter_row_portable(row, above, width, out);
}

static int put_chunk(shim_buffer *b, const char type[4], const uint8_t *data, uint32_t length) {
    uint8_t head[8] = { length >> 24, length >> 16, length >> 8, length, type[0], type[1], type[2], type[3] };
    uint32_t crc = libdeflate_crc32(0, head + 4, 4);
    if (length) crc = libdeflate_crc32(crc, data, length);
    uint8_t tail[4] = { crc >> 24, crc >> 16, crc >> 8, crc };
    return shim_buffer_append(b, head, 8) || (length && shim_buffer_append(b, data, length)) || shim_buffer_append(b, tail, 4);
}

int shim_png_encode_opaque(const uint8_t *bgrx, int width, int height, size_t stride, uint32_t ppm,
                           uint8_t **out, size_t *out_size, char error[SHIM_ERR_LEN]) {
    if (width <= 0 || height <= 0) { shim_set_error(error, "empty image"); return -1; }
    if (stride % 4) { shim_set_error(error, "rows are not 4-byte aligned"); return -1; }
    size_t row_bytes = 1 + (size_t)width * 3;
    int strip_rows = (int)(STRIP_BYTES / row_bytes);
    if (strip_rows < 1) strip_rows = 1;
    size_t strip_bytes = row_bytes * (size_t)strip_rows;
    uint8_t *strip = malloc(strip_bytes + 16);
    // A strip's code: at most 15 bits a byte, plus its header; drained after every strip.
    bit_writer w = { malloc(strip_bytes * 2 + 1024 + 8), 0, 0, 0 };
    shim_buffer png = {0}, zlib = {0};
    if (!strip || !w.out) goto oom;
    static const uint8_t zlib_header[2] = { 0x78, 0x01 }; // deflate, 32K window, fastest
    if (shim_buffer_append(&zlib, zlib_header, 2)) goto oom;
    uint32_t adler = 1;
    uint8_t slots[259];
    length_slots(slots);
    for (int y0 = 0; y0 < height; y0 += strip_rows) {
        int rows = height - y0 < strip_rows ? height - y0 : strip_rows;
        for (int y = y0; y < y0 + rows; y++) {
            const uint32_t *row = (const uint32_t *)(bgrx + (size_t)y * stride);
            filter_row(row, y ? (const uint32_t *)(bgrx + (size_t)(y - 1) * stride) : NULL, width, strip + (size_t)(y - y0) * row_bytes);
        }
        size_t size = row_bytes * (size_t)rows;
        adler = libdeflate_adler32(adler, strip, size);
        // The code comes from every SAMPLE-th row; every symbol keeps a code, seen or not.
        uint32_t freq[LITLEN] = {0}, code[LITLEN];
        uint8_t length[LITLEN];
        for (int r = 0; r < rows; r += SAMPLE) code_strip(strip + (size_t)r * row_bytes, row_bytes, slots, freq, NULL, NULL, NULL);
        for (int i = 0; i < LITLEN; i++) freq[i] = freq[i] * SAMPLE + 1;
        code_lengths(freq, LITLEN, MAX_BITS, length);
        canonical_codes(length, LITLEN, code);
        write_block_header(&w, length, y0 + rows == height);
        code_strip(strip, size, slots, NULL, &w, code, length);
        put_bits(&w, code[256], length[256]);
        if (y0 + rows == height) align_to_byte(&w);
        // Whole bytes out; a partial last byte stays in w.bits and is stored again from out[0].
        if (shim_buffer_append(&zlib, w.out, w.pos)) goto oom;
        w.pos = 0;
    }
    uint8_t trailer[4] = { adler >> 24, adler >> 16, adler >> 8, adler };
    if (shim_buffer_append(&zlib, trailer, 4)) goto oom;
    if (zlib.size > 0x7FFFFFF0u) { shim_set_error(error, "image too large for one PNG data chunk"); goto fail; }
    static const uint8_t signature[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    uint8_t ihdr[13] = { width >> 24, width >> 16, width >> 8, width, height >> 24, height >> 16, height >> 8, height, 8, 2, 0, 0, 0 };
    uint8_t phys[9] = { ppm >> 24, ppm >> 16, ppm >> 8, ppm, ppm >> 24, ppm >> 16, ppm >> 8, ppm, 1 };
    if (shim_buffer_append(&png, signature, 8) || put_chunk(&png, "IHDR", ihdr, 13)
        || (ppm && put_chunk(&png, "pHYs", phys, 9)) || put_chunk(&png, "IDAT", zlib.data, (uint32_t)zlib.size)
        || put_chunk(&png, "IEND", NULL, 0)) goto oom;
    free(strip); free(w.out); free(zlib.data);
    *out = png.data;
    *out_size = png.size;
    return 0;
oom:
    shim_set_error(error, "out of memory");
fail:
    free(strip); free(w.out); free(zlib.data); free(png.data);
    return -1;
}
