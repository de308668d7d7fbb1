/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader of the listing command's output (files_exec.c's script): the
 * count on a line of its own, the names each followed by a NUL, one
 * "hexmode size mtime" line per name, then each symlink's target followed
 * by a NUL, in the names' order. A command in the sandbox can plant any
 * name or target, so nothing is trusted: every name is non-empty, holds no
 * '/', and every field is within the output; the fuzz target
 * tests/fuzz/fuzz_docker_listing.c holds it to that.
 */
#include "docker.h"

#include <sandboxio/files.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int type_of(unsigned long mode)
{
    switch (mode & 0170000) {
    case 0100000:
        return 1;
    case 0040000:
        return 2;
    case 0120000:
        return 3;
    default:
        return 4;
    }
}

/* The next NUL-terminated string in [*p, end), or NULL. */
static char *next_string(char **p, char *end)
{
    char *s = *p, *nul = s < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;
    if (!nul)
        return NULL;
    *p = nul + 1;
    return s;
}

int dk_listing_parse(char *out, size_t len, size_t max_entries, dk_listing *l)
{
    memset(l, 0, sizeof *l);
    char *p = out, *end = out + len;
    /* The count: digits, then a newline, within the output. */
    char *nl = len ? memchr(out, '\n', len) : NULL;
    if (!nl || nl == out || strspn(out, "0123456789") != (size_t)(nl - out) || nl - out > 9)
        return l->why = "no count line", DK_LISTING_BAD;
    unsigned long count = strtoul(out, NULL, 10);
    if (count > max_entries)
        return l->why = "more entries than the bound", DK_LISTING_TOO_LARGE;
    p = nl + 1;
    if (count == 0)
        return p == end ? DK_LISTING_OK : (l->why = "output after an empty listing", DK_LISTING_BAD);
    l->ents = calloc(count, sizeof(*l->ents));
    if (!l->ents)
        return l->why = "out of memory", DK_LISTING_NOMEM;
    for (unsigned long i = 0; i < count; i++) {
        char *name = next_string(&p, end);
        if (!name || !*name || strchr(name, '/'))
            return dk_listing_clear(l), l->why = "a missing or bad name", DK_LISTING_BAD;
        l->ents[i] = (sbx_plugin_dirent){.struct_size = sizeof(l->ents[i]), .name = name};
    }
    for (unsigned long i = 0; i < count; i++) {
        unsigned long mode = 0;
        unsigned long long size = 0;
        long long mtime = 0;
        int used = 0;
        /* Its line alone: sscanf measures the whole of what it is given. */
        nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        if (!nl)
            return dk_listing_clear(l), l->why = "a missing stat line", DK_LISTING_BAD;
        *nl = '\0';
        if (strspn(p, "0123456789abcdef -") != (size_t)(nl - p) ||
            sscanf(p, "%lx %llu %lld%n", &mode, &size, &mtime, &used) != 3 || p[used])
            return dk_listing_clear(l), l->why = "a bad stat line", DK_LISTING_BAD;
        p = nl + 1;
        l->ents[i].type = type_of(mode);
        l->ents[i].size = size;
        l->ents[i].mode = (uint32_t)(mode & 07777);
        l->ents[i].mtime = mtime;
    }
    for (unsigned long i = 0; i < count; i++) {
        if (l->ents[i].type != 3)
            continue;
        l->ents[i].link_target = next_string(&p, end);
        if (!l->ents[i].link_target)
            return dk_listing_clear(l), l->why = "a link's target is missing", DK_LISTING_BAD;
    }
    if (p != end)
        return dk_listing_clear(l), l->why = "output after the last target", DK_LISTING_BAD;
    l->count = count;
    return DK_LISTING_OK;
}

void dk_listing_clear(dk_listing *l)
{
    free(l->ents);
    l->ents = NULL;
    l->count = 0;
}
