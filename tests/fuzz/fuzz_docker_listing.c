/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_docker_listing.c - libFuzzer target: the docker backend's reader of
 * its listing command's output (plugins/docker/listing.c), which a command
 * in the sandbox controls through the names and links it plants.
 *
 * Properties: an accepted listing has at most the bound's entries, each
 * with a non-empty name without '/', inside the input, a type 1..4, a
 * mode of permission bits only, and a link target exactly when it is a
 * link (inside the input too); a refused one leaves nothing allocated
 * (LeakSanitizer) and says why.
 */
#include "../../plugins/docker/docker.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small, so the bound is reached too. */
#define FUZZ_MAX_ENTRIES 64

static int inside(const char *s, const char *buf, size_t size)
{
    return s >= buf && s < buf + size && memchr(s, '\0', (size_t)(buf + size - s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes: a read past them is caught by ASan. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    dk_listing l;
    int rc = dk_listing_parse(text, size, FUZZ_MAX_ENTRIES, &l);
    if (rc != DK_LISTING_OK) {
        if (l.ents || l.count || !l.why)
            abort();
        free(text);
        return 0;
    }
    if (l.count > FUZZ_MAX_ENTRIES || (l.count && !l.ents))
        abort();
    for (size_t i = 0; i < l.count; i++) {
        const sbx_plugin_dirent *e = &l.ents[i];
        if (!inside(e->name, text, size) || !e->name[0] || strchr(e->name, '/'))
            abort();
        if (e->type < 1 || e->type > 4 || (e->mode & ~07777u))
            abort();
        if ((e->type == 3) != (e->link_target != NULL))
            abort();
        if (e->link_target && !inside(e->link_target, text, size))
            abort();
    }
    dk_listing_clear(&l);
    free(text);
    return 0;
}
