/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A growable byte buffer, always NUL-terminated after its bytes so text
 * answers can be used as strings.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/buf.h>

int sbxu_buf_append(sbxu_buf *b, const void *data, size_t len)
{
    if (len > (size_t)-1 / 2 - b->len - 1)
        return SBX_E_NOMEM;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + len + 1)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return SBX_E_NOMEM;
        b->data = p;
        b->cap = cap;
    }
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return SBX_OK;
}

void sbxu_buf_clear(sbxu_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}
