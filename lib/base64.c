/* SPDX-License-Identifier: Apache-2.0 */
/*
 * base64 both ways. Decoding accepts the URL-safe alphabet too, since
 * providers use either for headers and JSON members; the strict decoder
 * takes only what the encoder writes, for input a user gives.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sbxu/base64.h>

char *sbxu_base64_encode(const void *data, size_t len)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *s = data;

    if (len > (SIZE_MAX - 1) / 4 * 3 - 3)
        return NULL;
    char *out = malloc((len + 2) / 3 * 4 + 1);
    if (!out)
        return NULL;
    char *p = out;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < len)
            v |= s[i + 2];
        *p++ = alphabet[(v >> 18) & 63];
        *p++ = alphabet[(v >> 12) & 63];
        *p++ = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
        *p++ = i + 2 < len ? alphabet[v & 63] : '=';
    }
    *p = '\0';
    return out;
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

char *sbxu_base64_decode(const char *text, size_t *len)
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

char *sbxu_base64_decode_strict(const char *text, size_t len, size_t *out_len)
{
    if (len % 4)
        return NULL;
    char *out = malloc(len / 4 * 3 + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)text[i + k];
            if (c == '=' && i + 4 == len && k >= 2) {
                v[k] = 0, pad++;
            } else if (pad || c == '-' || c == '_' || (v[k] = b64_value(c)) < 0) {
                free(out);
                return NULL;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 |
                     (uint32_t)v[3];
        out[n++] = (char)(w >> 16);
        if (pad < 2)
            out[n++] = (char)(w >> 8);
        if (pad < 1)
            out[n++] = (char)w;
    }
    out[n] = '\0';
    *out_len = n;
    return out;
}
