/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chunks.h - what the stream fuzz targets share: a record of the bytes a
 * decoder passes on, and the chunk sizes to split an input into.
 */
#ifndef SBX_FUZZ_CHUNKS_H
#define SBX_FUZZ_CHUNKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a decoder passed on: runs of bytes, each tagged with its stream. */
typedef struct fz_record {
    unsigned char *data;
    size_t len, cap;
    int last_stream;
} fz_record;

static inline int fz_record_out(void *ud, int stream, const void *data, size_t len)
{
    fz_record *r = ud;
    if (r->len + len + 2 > r->cap) {
        size_t cap = (r->len + len + 2) * 2;
        unsigned char *grown = realloc(r->data, cap);
        if (!grown)
            abort();
        r->data = grown;
        r->cap = cap;
    }
    if (len && stream != r->last_stream) {   /* a stream switch is part of the result */
        r->data[r->len++] = 0xff;
        r->data[r->len++] = (unsigned char)stream;
        r->last_stream = stream;
    }
    memcpy(r->data + r->len, data, len);
    r->len += len;
    return 0;
}

static inline void fz_same(const char *what, const fz_record *whole, const fz_record *chunked)
{
    if (whole->len != chunked->len ||
        (whole->len && memcmp(whole->data, chunked->data, whole->len) != 0)) {
        fprintf(stderr, "%s: chunked input gave other output than the whole input "
                "(%zu bytes, not %zu)\n", what, chunked->len, whole->len);
        abort();
    }
}

/* The next chunk size, 1..64, from a small generator seeded by the input. */
static inline size_t fz_next_chunk(uint32_t *state)
{
    *state = *state * 1103515245u + 12345u;
    return 1 + (*state >> 16) % 64;
}

#endif
