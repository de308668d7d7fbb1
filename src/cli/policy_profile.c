/* SPDX-License-Identifier: Apache-2.0 */
/*
 * policy_profile.c - a profile's values, applied as the options they stand for.
 *
 * A profile is applied before the command line's options, so that an
 * option given overrides the profile: a later value of a single setting
 * replaces an earlier one, a later --env NAME=... replaces the profile's
 * NAME, and --network or --allow-host on the command line replace the
 * profile's network and allow-hosts together (a list cannot be half
 * overridden without surprise).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "profile.h"
#include "run.h"
#include "util.h"

/* The option each profile key stands for; 0 for ttl, which is no policy option. */
static const int option_of[PROFILE_N_KEYS] = {
    [PROFILE_DSN] = OPT_DSN,
    [PROFILE_NETWORK] = OPT_NETWORK,
    [PROFILE_ALLOW_HOSTS] = OPT_ALLOW_HOST,
    [PROFILE_MEMORY] = OPT_MEMORY,
    [PROFILE_CPUS] = OPT_CPUS,
    [PROFILE_PIDS] = OPT_PIDS,
    [PROFILE_DISK] = OPT_DISK,
    [PROFILE_DEFAULT_LIMITS] = OPT_NO_DEFAULT_LIMITS,
    [PROFILE_MIN_TIER] = OPT_MIN_TIER,
    [PROFILE_TIMEOUT] = OPT_TIMEOUT,
    [PROFILE_OUTPUT_CAP] = OPT_OUTPUT_CAP,
    [PROFILE_ENV] = OPT_ENV,
    [PROFILE_ENV_PASS] = OPT_ENV_PASS,
    [PROFILE_TTL] = 0,
};

/* "file1, file2" of the files read, for the not-found message. */
static void files_read(const struct profile_set *set, char *out, size_t size)
{
    size_t n = 0;

    out[0] = '\0';
    for (size_t i = 0; i < set->n_files && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "", set->files[i]);
    if (!set->n_files)
        snprintf(out, size, "none was found");
}

int policy_opts_use_profile(struct policy_opts *po, int cli_network)
{
    const char *name = po->profile ? po->profile : getenv("SANDBOXIO_PROFILE");
    const char *cmd = po->cmd ? po->cmd : "run";
    struct profile_error err = { 0 };
    const struct profile *p;
    char files[512];
    int rc, status;

    if (!name || (!po->profile && !*name))
        return 0;   /* no profile asked for: no file is read */
    rc = profile_set_load_default(&po->profiles, &err);
    if (rc != SBX_OK)
        return sbx_cli_error(err.code, "%s", err.message);
    p = profile_set_find(&po->profiles, name);
    if (!p) {
        files_read(&po->profiles, files, sizeof(files));
        return sbx_cli_error(SBX_E_PROFILE_NOT_FOUND, "%s: no profile '%s' (profiles files read: %s)",
                             po->profile ? "--profile" : "SANDBOXIO_PROFILE", name, files);
    }
    for (size_t i = 0; i < p->n_items; i++) {
        const struct profile_item *item = &p->items[i];
        int opt = option_of[item->key];

        if (!opt)
            continue;
        if (cli_network && (opt == OPT_NETWORK || opt == OPT_ALLOW_HOST))
            continue;
        if (opt == OPT_NO_DEFAULT_LIMITS && strcmp(item->value, "false") != 0)
            continue;   /* default-limits: true is the default */
        status = policy_opts_apply(po, cmd, opt, item->value);
        if (status) {
            fprintf(stderr, "  in profile '%s' (%s:%d:%d)\n", p->name, p->file, item->line,
                    item->column);
            return status;
        }
    }
    po->ttl_ms = p->ttl_ms;
    po->used = p;
    return 0;
}
