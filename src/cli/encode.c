/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encode.c - UTF-8 validation and base64 (sbxu's), for binary command
 * output in JSON.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "encode.h"
#include <sbxu/base64.h>

int sbx_cli_utf8_valid(const void *data, size_t len)
{
    const unsigned char *s = data;
    size_t i = 0;

    while (i < len) {
        unsigned char c = s[i];
        size_t n;
        uint32_t cp, min;

        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 1, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2, cp = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return 0;
        }
        if (len - i <= n)
            return 0;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += n + 1;
    }
    return 1;
}

size_t sbx_cli_json_escaped_len(const void *data, size_t len)
{
    const unsigned char *s = data;
    size_t n = 0;

    /* What json-c writes with JSON_C_TO_STRING_NOSLASHESCAPE (util.c). */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' ||
            c == '\t')
            n += 2;
        else if (c < 0x20)
            n += 6;     /* \u00XX */
        else
            n += 1;
    }
    return n;
}

size_t sbx_cli_base64_len(size_t len)
{
    return (len + 2) / 3 * 4;
}

int sbx_cli_json_wants_base64(const void *data, size_t len)
{
    return !sbx_cli_utf8_valid(data, len) ||
           sbx_cli_json_escaped_len(data, len) > sbx_cli_base64_len(len);
}

char *sbx_cli_base64(const void *data, size_t len)
{
    return sbxu_base64_encode(data, len);
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

int sbx_cli_base64_decode(const char *in, size_t len, unsigned char **out, size_t *out_len)
{
    unsigned char *buf;
    size_t n = 0;

    if (len % 4)
        return -1;
    buf = malloc(len / 4 * 3 + 1);
    if (!buf)
        return -1;
    for (size_t i = 0; i < len; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)in[i + k];
            if (c == '=' && i + 4 == len && k >= 2) {
                v[k] = 0, pad++;
            } else if (pad || (v[k] = b64_value(c)) < 0) {
                free(buf);
                return -1;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        buf[n++] = (unsigned char)(w >> 16);
        if (pad < 2) buf[n++] = (unsigned char)(w >> 8);
        if (pad < 1) buf[n++] = (unsigned char)w;
    }
    *out = buf, *out_len = n;
    return 0;
}
