/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/buf.h - a growable byte buffer for plugins (libsbxu).
 *
 * The bytes are always followed by a NUL, so a buffer holding text (a JSON
 * answer, an error body) can be used as a C string. Part of lib/:
 * linked into plugins, never exported from them.
 */
#ifndef SBXU_BUF_H
#define SBXU_BUF_H

#include <stddef.h>

typedef struct sbxu_buf {
    char *data;     /* NULL until the first append */
    size_t len;     /* bytes held, not counting the NUL */
    size_t cap;
} sbxu_buf;

/* Append len bytes; SBX_OK, or SBX_E_NOMEM (the buffer is unchanged). */
int sbxu_buf_append(sbxu_buf *b, const void *data, size_t len);
/* Free the bytes and zero the buffer (safe on a zeroed buffer). */
void sbxu_buf_clear(sbxu_buf *b);

#endif
