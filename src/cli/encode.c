/*
 * encode.c - UTF-8 validation and base64 (plugins/lib's), for binary command
 * output in JSON.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "encode.h"
#include "../../plugins/lib/sbx-base64.h"

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

char *sbx_cli_base64(const void *data, size_t len)
{
    return sbx_base64_encode(data, len);
}
