/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/parse.c - sizes, durations and counts given to options.
 */
#include "config.h"

#include <string.h>
#include <sandboxio/sandboxio.h>

#include "parse.h"

/*
 * Parse "D+[.D+]" at s times scale, rounding a non-zero fraction up; *end is
 * left on the first byte after the number.
 */
static int parse_scaled(const char *s, uint64_t scale, const char **end, uint64_t *out)
{
    unsigned __int128 whole = 0, frac = 0, den = 1, v;
    const char *p = s;

    if (*p < '0' || *p > '9')
        return SBX_E_BAD_SIZE;
    for (; *p >= '0' && *p <= '9'; p++) {
        whole = whole * 10 + (unsigned)(*p - '0');
        if (whole > UINT64_MAX)
            return SBX_E_BAD_SIZE;
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return SBX_E_BAD_SIZE;
        /* Digits past the 18th cannot change a 64-bit result's rounding much. */
        for (; *p >= '0' && *p <= '9'; p++) {
            if (den < (unsigned __int128)1000000000000000000ULL) {
                frac = frac * 10 + (unsigned)(*p - '0');
                den *= 10;
            } else if (*p != '0' && frac == 0) {
                frac = 1;
            }
        }
    }
    v = whole * scale + (frac * scale + den - 1) / den;
    if (v > UINT64_MAX)
        return SBX_E_BAD_SIZE;
    *end = p;
    *out = (uint64_t)v;
    return SBX_OK;
}

int sbx_cli_parse_size(const char *text, uint64_t *out)
{
    static const char units[] = "kmgt";
    const char *end, *u;
    uint64_t scale = 1;

    if (!text || !*text)
        return SBX_E_BAD_SIZE;
    end = text + strlen(text);
    u = end[-1] >= 'A' ? strchr(units, end[-1] | 0x20) : NULL;
    if (u) {
        for (const char *k = units; k <= u; k++)
            scale *= 1024;
        end--;
    }
    const char *stop;
    uint64_t v;
    if (parse_scaled(text, scale, &stop, &v) != SBX_OK || stop != end)
        return SBX_E_BAD_SIZE;
    *out = v;
    return SBX_OK;
}

int sbx_cli_parse_duration_ms(const char *text, uint64_t *out)
{
    static const struct {
        const char *suffix;
        uint64_t ms;
    } units[] = { { "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 } };
    const char *stop;
    uint64_t v;

    /* Find where the number ends first: the unit decides the scale. */
    if (!text || parse_scaled(text, 1, &stop, &v) != SBX_OK)
        return SBX_E_BAD_SIZE;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(stop, units[i].suffix) == 0)
            return parse_scaled(text, units[i].ms, &stop, out);
    }
    return SBX_E_BAD_SIZE;
}

int sbx_cli_parse_millis(const char *text, uint64_t *out)
{
    const char *stop;
    uint64_t v;

    if (!text || parse_scaled(text, 1000, &stop, &v) != SBX_OK || *stop)
        return SBX_E_BAD_SIZE;
    *out = v;
    return SBX_OK;
}

int sbx_cli_parse_uint(const char *text, uint64_t max, uint64_t *out)
{
    const char *stop;
    uint64_t v;

    if (!text || parse_scaled(text, 1, &stop, &v) != SBX_OK || *stop || strchr(text, '.') ||
        v > max)
        return SBX_E_BAD_SIZE;
    *out = v;
    return SBX_OK;
}
