/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_profile.c - libFuzzer target: the YAML profiles reader.
 *
 * Properties: the reader never crashes or leaks on any bytes; a refusal has
 * a profile code (SBX_E1050-E1056, or out of memory) and a message that
 * starts "FILE:LINE:COLUMN: ", and leaves the profiles already read exactly
 * as they were; an accepted text gives profiles with a valid name and a
 * value for every item, and reads the same way twice.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "../../src/cli/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__attribute__((noreturn, format(printf, 1, 2))) static void violated(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("profile reader property violated: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static const char seed[] = "kept:\n  pids: 7\n";

static void same_sets(const struct profile_set *a, const struct profile_set *b)
{
    if (a->n != b->n)
        violated("%zu profiles, then %zu", a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        const struct profile *p = &a->profiles[i], *q = &b->profiles[i];
        if (strcmp(p->name, q->name) != 0 || p->n_items != q->n_items || p->ttl_ms != q->ttl_ms)
            violated("profile %zu read differently twice", i);
        for (size_t j = 0; j < p->n_items; j++) {
            if (p->items[j].key != q->items[j].key || strcmp(p->items[j].value, q->items[j].value) ||
                p->items[j].line != q->items[j].line)
                violated("item %zu of '%s' read differently twice", j, p->name);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct profile_set set = { 0 }, again = { 0 };
    struct profile_error err = { 0 };
    const char *text = (const char *)data;
    size_t line, column;
    char colon;
    int rc;

    if (profile_set_parse_yaml(&set, "seed.yaml", seed, strlen(seed), &err) != SBX_OK)
        violated("the seed is refused: %s", err.message);
    rc = profile_set_parse_yaml(&set, "f.yaml", text, size, &err);
    if (rc != SBX_OK) {
        if (rc != SBX_E_NOMEM && (rc < SBX_E_PROFILE_SYNTAX || rc > SBX_E_PROFILE_UNREADABLE))
            violated("refused with %s, not a profile code", sbx_error_id(rc));
        if (err.code != rc)
            violated("the error says %d, the call returned %d", err.code, rc);
        if (rc != SBX_E_NOMEM &&
            (sscanf(err.message, "f.yaml:%zu:%zu%c", &line, &column, &colon) != 3 || colon != ':' ||
             !line || !column))
            violated("the message names no FILE:LINE:COLUMN: %s", err.message);
        if (set.n != 1 || set.n_files != 1 || strcmp(set.profiles[0].name, "kept") ||
            strcmp(set.profiles[0].items[0].value, "7"))
            violated("a refused text changed the profiles already read");
        profile_set_free(&set);
        return 0;
    }
    for (size_t i = 0; i < set.n; i++) {
        const struct profile *p = &set.profiles[i];
        if (!p->name[0] || !p->file || p->line < 1)
            violated("profile %zu has no name, file or line", i);
        for (size_t j = 0; j < p->n_items; j++) {
            if (!p->items[j].value || p->items[j].key >= PROFILE_N_KEYS || p->items[j].line < 1)
                violated("item %zu of '%s' is incomplete", j, p->name);
        }
    }
    if (profile_set_parse_yaml(&again, "seed.yaml", seed, strlen(seed), &err) != SBX_OK ||
        profile_set_parse_yaml(&again, "f.yaml", text, size, &err) != SBX_OK)
        violated("an accepted text is refused the second time: %s", err.message);
    same_sets(&set, &again);
    profile_set_free(&again);
    profile_set_free(&set);
    return 0;
}
