/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Growable string vectors and byte buffers used across the core.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int strvec_reserve(sbx_strvec *sv, size_t extra)
{
    /* Keep room for the terminating NULL so sv->v is always an argv. */
    if (sv->n + extra + 1 <= sv->cap)
        return SBX_OK;
    size_t cap = sv->cap ? sv->cap * 2 : 8;
    while (cap < sv->n + extra + 1)
        cap *= 2;
    char **v = realloc(sv->v, cap * sizeof(*v));
    if (!v)
        return sbx__error_set(SBX_E_NOMEM, "out of memory growing a string list");
    sv->v = v;
    sv->cap = cap;
    return SBX_OK;
}

int sbx__strvec_push(sbx_strvec *sv, const char *s)
{
    int rc = strvec_reserve(sv, 1);
    if (rc)
        return rc;
    char *copy = sbx__strdup(s);
    if (!copy)
        return SBX_E_NOMEM;
    sv->v[sv->n++] = copy;
    sv->v[sv->n] = NULL;
    return SBX_OK;
}

int sbx__strvec_push_kv(sbx_strvec *sv, const char *name, const char *value)
{
    size_t nl = strlen(name);
    size_t prefix = nl + 1;
    /* An earlier NAME= is replaced so the last setting wins. */
    for (size_t i = 0; i < sv->n; i++) {
        if (strncmp(sv->v[i], name, nl) == 0 && sv->v[i][nl] == '=') {
            free(sv->v[i]);
            memmove(&sv->v[i], &sv->v[i + 1], (sv->n - i) * sizeof(char *));
            sv->n--;
            break;
        }
    }
    size_t len = prefix + strlen(value) + 1;
    char *kv = malloc(len);
    if (!kv)
        return sbx__error_set(SBX_E_NOMEM, "out of memory");
    snprintf(kv, len, "%s=%s", name, value);
    int rc = strvec_reserve(sv, 1);
    if (rc) {
        free(kv);
        return rc;
    }
    sv->v[sv->n++] = kv;
    sv->v[sv->n] = NULL;
    return SBX_OK;
}

int sbx__strvec_copy(sbx_strvec *dst, const sbx_strvec *src)
{
    memset(dst, 0, sizeof(*dst));
    for (size_t i = 0; i < src->n; i++) {
        int rc = sbx__strvec_push(dst, src->v[i]);
        if (rc) {
            sbx__strvec_clear(dst);
            return rc;
        }
    }
    return SBX_OK;
}

void sbx__strvec_clear(sbx_strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    memset(sv, 0, sizeof(*sv));
}

int sbx__buf_append(sbx_buf *b, const void *data, size_t len)
{
    if (len == 0)
        return SBX_OK;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d)
            return sbx__error_set(SBX_E_NOMEM, "out of memory buffering %zu bytes", b->len + len);
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return SBX_OK;
}

void sbx__buf_clear(sbx_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}
