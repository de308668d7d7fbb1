/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbx-buf.h - a growable byte buffer for plugins (libsbxutil).
 *
 * The bytes are always followed by a NUL, so a buffer holding text (a JSON
 * answer, an error body) can be used as a C string. Part of plugins/lib:
 * linked into plugins, never exported from them.
 */
#ifndef SBX_LIB_BUF_H
#define SBX_LIB_BUF_H

#include <stddef.h>

typedef struct sbx_buf {
    char *data;     /* NULL until the first append */
    size_t len;     /* bytes held, not counting the NUL */
    size_t cap;
} sbx_buf;

/* Append len bytes; SBX_OK, or SBX_E_NOMEM (the buffer is unchanged). */
int sbx_buf_append(sbx_buf *b, const void *data, size_t len);
/* Free the bytes and zero the buffer (safe on a zeroed buffer). */
void sbx_buf_clear(sbx_buf *b);

#endif
