/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encode.c - UTF-8 validation and the choice between text and base64
 * (sbxu/base64.h), for binary command output in JSON.
 */
#include "config.h"

#include <stdint.h>

#include "encode.h"

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
