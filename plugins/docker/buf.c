/*
 * Bytes: a growable buffer, always NUL-terminated after its bytes so text
 * answers can be used as strings, and the base64 the engine wraps its
 * path stat header in.
 */
#include "docker.h"

#include <stdlib.h>
#include <string.h>

int dk_buf_append(dk_buf *b, const void *data, size_t len)
{
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

void dk_buf_clear(dk_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

static int b64_value(int ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '+' || ch == '-')
        return 62;
    if (ch == '/' || ch == '_')
        return 63;
    return -1;
}

char *dk_base64_decode(const char *text, size_t *len)
{
    size_t n = strlen(text);
    char *out = malloc(n / 4 * 3 + 4);
    if (!out)
        return NULL;
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '=')
            break;
        int v = b64_value((unsigned char)text[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((acc >> bits) & 0xff);
        }
    }
    out[o] = '\0';
    if (len)
        *len = o;
    return out;
}
