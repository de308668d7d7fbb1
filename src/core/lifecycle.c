/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sandboxes that outlive a handle: open with a name and a TTL, attach from
 * another process, detach. Every path checks, before the plugin is called,
 * that it has the minor-2 members and declares (and probes) the attach
 * capability; an attach runs under the stored policy, never a wider one.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sbxu/clock.h>

struct sbx_sandbox_opts {
    char *name;
    uint64_t ttl_ms;
};

int sbx__attach_ready(const sbx_loaded_plugin *lp, uint64_t caps)
{
    const sbx_plugin *d = lp->desc;
    if (!SBX_PLUGIN_HAS(d, open_named) || !SBX_PLUGIN_HAS(d, attach) ||
        !SBX_PLUGIN_HAS(d, detach) || !SBX_PLUGIN_HAS(d, list) || !SBX_PLUGIN_HAS(d, set_ttl))
        return sbx__error_set(SBX_E_PLUGIN_NO_ATTACH,
                              "plugin '%s' (ABI minor %u) has no named, attachable sandboxes: "
                              "it lacks the minor-2 members open_named, attach, detach, list "
                              "and set_ttl", lp->scheme, d->abi_minor);
    if (!(caps & SBX_CAP_ATTACH))
        return sbx__error_set(SBX_E_CAP_ATTACH,
                              "backend '%s' does not offer the 'attach' capability here",
                              lp->scheme);
    return SBX_OK;
}

/* [a-z0-9][a-z0-9_.-]{0,62}: the same on every backend (a container name on docker). */
static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > SBX_SANDBOX_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || !strchr("_.-", c)))
            return 0;
    }
    return 1;
}

int sbx_sandbox_opts_new(sbx_sandbox_opts **out)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_opts_new: out is NULL");
    *out = sbx__calloc(1, sizeof(**out));
    return *out ? SBX_OK : SBX_E_NOMEM;
}

void sbx_sandbox_opts_free(sbx_sandbox_opts *opts)
{
    if (!opts)
        return;
    free(opts->name);
    free(opts);
}

int sbx_sandbox_opts_set_name(sbx_sandbox_opts *opts, const char *name)
{
    if (!opts)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_opts_set_name: opts is NULL");
    if (name && !name_ok(name))
        return sbx__error_set(SBX_E_BAD_SANDBOX_NAME,
                              "sandbox name '%.80s' is not 1 to %d of [a-z0-9_.-] starting with a "
                              "letter or digit", name, SBX_SANDBOX_NAME_MAX);
    char *copy = NULL;
    if (name && !(copy = sbx__strdup(name)))
        return SBX_E_NOMEM;
    free(opts->name);
    opts->name = copy;
    return SBX_OK;
}

int sbx_sandbox_opts_set_ttl(sbx_sandbox_opts *opts, uint64_t ttl_ms)
{
    if (!opts)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_opts_set_ttl: opts is NULL");
    /* Far beyond any use; keeps created + ttl inside int64_t milliseconds. */
    if (ttl_ms > (UINT64_C(1) << 40))
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "a TTL of %llu ms is too long",
                              (unsigned long long)ttl_ms);
    opts->ttl_ms = ttl_ms;
    return SBX_OK;
}

static int create_named(sbx_sandbox *sb, const sbx_sandbox_opts *opts)
{
    int rc = sbx__attach_ready(sb->plugin, sb->caps);
    char *stored = NULL;
    if (rc == SBX_OK)
        rc = sbx__policy_store(&sb->policy, &stored);
    if (rc == SBX_OK && opts->name && !(sb->name = sbx__strdup(opts->name)))
        rc = SBX_E_NOMEM;
    if (rc) {
        free(stored);
        return rc;
    }
    sbx_plugin_limits limits;
    sbx__sandbox_limits(sb, &limits);
    sbx_plugin_sandbox_opts popts = {
        .struct_size = sizeof(popts),
        .name = opts->name,
        .ttl_ms = opts->ttl_ms,
        .policy = stored,
    };
    int64_t now = sbxu_wall_ms();
    sbx_error_clear();
    rc = sb->plugin->desc->open_named(sb->plugin->state, &sb->dsn->view, &limits, &popts,
                                      &sb->handle);
    free(stored);
    sbx__error_ensure(rc, "creating the sandbox");
    if (rc == SBX_OK && !sb->handle)
        rc = sbx__error_set(SBX_E_INTERNAL, "plugin '%s' returned no sandbox handle",
                            sb->plugin->scheme);
    if (rc == SBX_OK) {
        sb->destroyed = false;
        sb->expires_ms = opts->ttl_ms ? now + (int64_t)opts->ttl_ms : 0;
    }
    return rc;
}

int sbx_sandbox_open_with(sbx_sandbox **out, sbx_client *client, const char *dsn,
                          const sbx_policy *policy, const sbx_sandbox_opts *opts)
{
    if (!opts || (!opts->name && !opts->ttl_ms))
        return sbx_sandbox_open(out, client, dsn, policy);
    if (!out || !client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_open_with: NULL argument");
    sbx_sandbox *sb;
    int rc = sbx__sandbox_prepare(&sb, client, dsn, policy);
    *out = NULL;
    if (rc == SBX_OK)
        rc = create_named(sb, opts);
    if (rc) {
        sbx_sandbox_free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

/* Give the plugin's handle back without destroying the sandbox. */
static void let_go(sbx_sandbox *sb)
{
    if (sb->destroyed)
        return;
    sb->destroyed = true;
    (void)sb->plugin->desc->detach(sb->handle);
    sb->handle = NULL;
}

/* Take what attach() reported: the stored policy, narrowed by asked; name, expiry. */
static int adopt(sbx_sandbox *sb, const sbx_plugin_sandbox_info *info, const sbx_policy *asked)
{
    sbx_policy stored;
    int rc = sbx__policy_load(&stored, SBX_STRUCT_HAS(info, policy) ? info->policy : NULL);
    if (rc)
        return rc;
    sbx__policy_clear(&sb->policy);
    memset(&sb->policy, 0, sizeof(sb->policy));
    rc = sbx__policy_narrow(&sb->policy, &stored, asked, sb->caps);
    sbx__policy_clear(&stored);
    if (rc == SBX_OK)
        rc = sbx__policy_check(&sb->policy, sb->caps, sb->tier, sb->plugin->scheme);
    if (rc == SBX_OK && info->name && *info->name && !(sb->name = sbx__strdup(info->name)))
        rc = SBX_E_NOMEM;
    if (rc == SBX_OK)
        sb->expires_ms = info->expires_ms > 0 ? info->expires_ms : 0;
    return rc;
}

int sbx_sandbox_attach(sbx_sandbox **out, sbx_client *client, const char *dsn,
                       const char *id_or_name, const sbx_policy *policy)
{
    if (!out || !client || !dsn || !id_or_name || !*id_or_name)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_attach: NULL argument");
    *out = NULL;
    sbx_sandbox *sb;
    /* Loaded with the defaults, unchecked: the stored policy replaces them below. */
    int rc = sbx__sandbox_load(&sb, client, dsn, NULL);
    if (rc)
        return rc;
    rc = sbx__attach_ready(sb->plugin, sb->caps);
    sbx_plugin_sandbox_info info = {.struct_size = sizeof(info)};
    if (rc == SBX_OK) {
        sbx_error_clear();
        rc = sb->plugin->desc->attach(sb->plugin->state, &sb->dsn->view, id_or_name,
                                      &sb->handle, &info);
        sbx__error_ensure(rc, "attaching to the sandbox");
        if (rc == SBX_OK && !sb->handle)
            rc = sbx__error_set(SBX_E_INTERNAL, "plugin '%s' returned no sandbox handle",
                                sb->plugin->scheme);
        if (rc == SBX_OK) {
            sb->destroyed = false;
            rc = adopt(sb, &info, policy);
            if (rc)
                let_go(sb);
        }
    }
    if (rc) {
        sbx_sandbox_free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

int sbx_sandbox_detach(sbx_sandbox *sandbox)
{
    if (!sandbox)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_detach: sandbox is NULL");
    if (sandbox->destroyed) {
        sbx_sandbox_free(sandbox);
        return SBX_OK;
    }
    int rc = sbx__attach_ready(sandbox->plugin, sandbox->caps);
    if (rc)
        return rc;
    if (!sandbox->expires_ms)
        return sbx__error_set(SBX_E_DETACH_NO_TTL,
                              "the sandbox has no TTL: detached, it would never end (give it one "
                              "with sbx_sandbox_set_ttl(), or free it)");
    /* The plugin frees its handle whatever the outcome, as destroy does. */
    sandbox->destroyed = true;
    sbx_error_clear();
    rc = sandbox->plugin->desc->detach(sandbox->handle);
    sandbox->handle = NULL;
    sbx__error_ensure(rc, "detaching from the sandbox");
    sbx_sandbox_free(sandbox);
    return rc;
}
