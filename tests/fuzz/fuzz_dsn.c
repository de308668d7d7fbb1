/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_dsn.c - libFuzzer target: the DSN parser and printer.
 *
 * Property: for every text the parser accepts, printing the parse gives a
 * text that parses again to the same DSN (scheme, authority, path, every
 * key and value, in order; a value the printer redacts reads "REDACTED"),
 * and printing that gives the same text again. Any violation aborts, which
 * libFuzzer reports as a crash with the input that caused it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__attribute__((noreturn, format(printf, 1, 2))) static void violated(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("DSN round trip violated: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static void same_part(const char *what, const char *a, const char *b)
{
    if (strcmp(a, b) != 0)
        violated("%s \"%s\" became \"%s\"", what, a, b);
}

static void same_dsn(const sbx_dsn *a, const sbx_dsn *b)
{
    same_part("scheme", sbx_dsn_scheme(a), sbx_dsn_scheme(b));
    same_part("authority", sbx_dsn_authority(a), sbx_dsn_authority(b));
    same_part("path", sbx_dsn_path(a), sbx_dsn_path(b));
    size_t n = sbx_dsn_query_count(a);
    if (sbx_dsn_query_count(b) != n)
        violated("%zu query options became %zu", n, sbx_dsn_query_count(b));
    for (size_t i = 0; i < n; i++) {
        const char *ka, *va, *kb, *vb;
        if (sbx_dsn_query_at(a, i, &ka, &va) != SBX_OK || sbx_dsn_query_at(b, i, &kb, &vb) != SBX_OK)
            violated("option %zu cannot be read", i);
        same_part("key", ka, kb);
        if (strcmp(vb, "REDACTED") != 0)
            same_part("value", va, vb);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    sbx_dsn *first;
    if (sbx_dsn_parse(&first, text) != SBX_OK) {
        free(text);
        return 0;    /* refused: the parser's unit tests check the codes */
    }
    char *printed;
    int rc = sbx_dsn_to_string(first, &printed);
    if (rc != SBX_OK)
        violated("an accepted DSN cannot be printed (%s)", sbx_error_id(rc));
    sbx_dsn *second;
    rc = sbx_dsn_parse(&second, printed);
    if (rc != SBX_OK)
        violated("the printed form (%zu bytes) does not parse: %s", strlen(printed),
                 sbx_error_id(rc));
    same_dsn(first, second);
    char *again;
    if (sbx_dsn_to_string(second, &again) != SBX_OK)
        violated("the reparsed DSN cannot be printed");
    same_part("printed form", printed, again);

    sbx_free(again);
    sbx_dsn_free(second);
    sbx_free(printed);
    sbx_dsn_free(first);
    free(text);
    return 0;
}
