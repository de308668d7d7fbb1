/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_set.c - what the commands do with profiles once read: the keys'
 * names, finding a profile, freeing a set. No YAML here: these are linked
 * into `sandboxio` itself, the reader only into its module (profile.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profile.h"

static const char *const names[PROFILE_N_KEYS] = {
    [PROFILE_DSN] = "dsn",
    [PROFILE_NETWORK] = "network",
    [PROFILE_ALLOW_HOSTS] = "allow-hosts",
    [PROFILE_MEMORY] = "memory",
    [PROFILE_CPUS] = "cpus",
    [PROFILE_PIDS] = "pids",
    [PROFILE_DISK] = "disk",
    [PROFILE_DEFAULT_LIMITS] = "default-limits",
    [PROFILE_MIN_TIER] = "min-tier",
    [PROFILE_TIMEOUT] = "timeout",
    [PROFILE_OUTPUT_CAP] = "output-cap",
    [PROFILE_ENV] = "env",
    [PROFILE_ENV_PASS] = "env-pass",
    [PROFILE_TTL] = "ttl",
};

const char *profile_key_name(enum profile_key key)
{
    return key < PROFILE_N_KEYS ? names[key] : "?";
}

void profile_clear(struct profile *p)
{
    for (size_t i = 0; i < p->n_items; i++)
        free(p->items[i].value);
    free(p->items);
    free(p->name);
    memset(p, 0, sizeof(*p));
}

const struct profile *profile_set_find(const struct profile_set *set, const char *name)
{
    for (size_t i = 0; i < set->n; i++) {
        if (strcmp(set->profiles[i].name, name) == 0)
            return &set->profiles[i];
    }
    return NULL;
}

void profile_set_free(struct profile_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        profile_clear(&set->profiles[i]);
    free(set->profiles);
    for (size_t i = 0; i < set->n_files; i++)
        free(set->files[i]);
    free(set->files);
    memset(set, 0, sizeof(*set));
}
