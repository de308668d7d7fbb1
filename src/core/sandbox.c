/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening and destroying sandboxes. The open path is where the core enforces
 * a policy fail-closed: DSN parsed, plugin loaded, effective capabilities
 * known, policy checked, and only then is the plugin asked to create
 * anything.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int sbx__effective_caps(sbx_loaded_plugin *lp, const sbx_dsn *dsn, uint64_t *caps)
{
    *caps = lp->desc->caps;
    if (!SBX_PLUGIN_HAS(lp->desc, probe))
        return SBX_OK;
    uint64_t probed = 0;
    sbx_error_clear();
    int rc = lp->desc->probe(lp->state, &dsn->view, &probed);
    if (rc)
        return sbx__error_ensure(rc, "probing the backend");
    /* A probe may only narrow what the descriptor promises. */
    *caps &= probed;
    return SBX_OK;
}

int sbx_client_probe(sbx_client *client, const char *dsn, uint64_t *caps, int *tier)
{
    if (!client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_probe: NULL argument");
    sbx_dsn *parsed = NULL;
    sbx_loaded_plugin *lp = NULL;
    uint64_t effective = 0;
    int rc = sbx_dsn_parse(&parsed, dsn);
    if (rc == SBX_OK)
        rc = sbx__loader_get(client, sbx_dsn_scheme(parsed), &lp);
    if (rc == SBX_OK)
        rc = sbx__effective_caps(lp, parsed, &effective);
    if (rc == SBX_OK) {
        if (caps)
            *caps = effective;
        if (tier)
            *tier = lp->desc->tier;
    }
    sbx_dsn_free(parsed);
    return rc;
}

/* One limit for the plugin: the policy's, else the default where it applies. */
static uint64_t limit_of(const sbx_sandbox *sb, uint64_t control, uint64_t *defaulted)
{
    uint64_t v = 0;
    int dflt = 0;
    (void)sbx_policy_limit(&v, &dflt, &sb->policy, sb->caps, control);
    if (dflt)
        *defaulted |= control;
    return v;
}

void sbx__sandbox_limits(const sbx_sandbox *sb, sbx_plugin_limits *limits)
{
    static const char *const no_hosts[] = {NULL};
    uint64_t defaulted = 0;
    *limits = (sbx_plugin_limits){
        .struct_size = sizeof(*limits),
        .network = sb->policy.network,
        .net_allow = sb->policy.allow.v ? (const char *const *)sb->policy.allow.v : no_hosts,
        .memory_bytes = limit_of(sb, SBX_CAP_LIMIT_MEMORY, &defaulted),
        .cpu_millis = (uint32_t)limit_of(sb, SBX_CAP_LIMIT_CPU, &defaulted),
        .pids = (uint32_t)limit_of(sb, SBX_CAP_LIMIT_PIDS, &defaulted),
        .disk_bytes = limit_of(sb, SBX_CAP_LIMIT_DISK, &defaulted),
    };
    limits->defaulted = defaulted;
}

int sbx__sandbox_prepare(sbx_sandbox **out, sbx_client *client, const char *dsn,
                         const sbx_policy *policy)
{
    int rc = sbx__sandbox_load(out, client, dsn, policy);
    if (rc)
        return rc;
    sbx_sandbox *sb = *out;
    rc = sbx__policy_check(&sb->policy, sb->caps, sb->tier, sb->plugin->scheme);
    if (rc) {
        sbx_sandbox_free(sb);
        *out = NULL;
    }
    return rc;
}

int sbx__sandbox_load(sbx_sandbox **out, sbx_client *client, const char *dsn,
                      const sbx_policy *policy)
{
    *out = NULL;
    sbx_sandbox *sb = sbx__calloc(1, sizeof(*sb));
    if (!sb)
        return SBX_E_NOMEM;
    sb->client = client;
    sb->destroyed = true; /* until the plugin has created it */
    int rc;
    if (policy)
        rc = sbx__policy_copy(&sb->policy, policy);
    else {
        sbx__policy_defaults(&sb->policy);
        rc = SBX_OK;
    }
    if (rc == SBX_OK)
        rc = sbx_dsn_parse(&sb->dsn, dsn);
    if (rc == SBX_OK)
        rc = sbx_dsn_to_string(sb->dsn, &sb->dsn_redacted);
    if (rc == SBX_OK)
        rc = sbx__loader_get(client, sbx_dsn_scheme(sb->dsn), &sb->plugin);
    if (rc == SBX_OK)
        rc = sbx__effective_caps(sb->plugin, sb->dsn, &sb->caps);
    if (rc == SBX_OK)
        sb->tier = sb->plugin->desc->tier;
    if (rc) {
        sbx_sandbox_free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

int sbx__sandbox_create(sbx_sandbox *sb)
{
    sbx_plugin_limits limits;
    sbx__sandbox_limits(sb, &limits);
    sbx_error_clear();
    int rc = sb->plugin->desc->open(sb->plugin->state, &sb->dsn->view, &limits, &sb->handle);
    sbx__error_ensure(rc, "creating the sandbox");
    if (rc == SBX_OK && !sb->handle)
        rc = sbx__error_set(SBX_E_INTERNAL, "plugin '%s' returned no sandbox handle",
                            sb->plugin->scheme);
    if (rc == SBX_OK)
        sb->destroyed = false;
    return rc;
}

int sbx_sandbox_open(sbx_sandbox **out, sbx_client *client, const char *dsn,
                     const sbx_policy *policy)
{
    if (!out || !client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_open: NULL argument");
    sbx_sandbox *sb;
    int rc = sbx__sandbox_prepare(&sb, client, dsn, policy);
    *out = NULL;
    if (rc == SBX_OK)
        rc = sbx__sandbox_create(sb);
    if (rc) {
        sbx_sandbox_free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

int sbx_sandbox_destroy(sbx_sandbox *sandbox)
{
    if (!sandbox)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_sandbox_destroy: sandbox is NULL");
    if (sandbox->destroyed)
        return SBX_OK;
    /* The plugin frees its handle whatever the outcome: never call it twice. */
    sandbox->destroyed = true;
    sbx_error_clear();
    int rc = sandbox->plugin->desc->destroy(sandbox->handle);
    sandbox->handle = NULL;
    return sbx__error_ensure(rc, "destroying the sandbox");
}

void sbx_sandbox_free(sbx_sandbox *sandbox)
{
    if (!sandbox)
        return;
    if (!sandbox->destroyed)
        sbx_sandbox_destroy(sandbox);
    sbx__policy_clear(&sandbox->policy);
    sbx_dsn_free(sandbox->dsn);
    sbx_free(sandbox->dsn_redacted);
    free(sandbox->name);
    free(sandbox);
}

int sbx__sandbox_usable(const sbx_sandbox *sb)
{
    if (!sb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sandbox is NULL");
    if (sb->destroyed)
        return sbx__error_set(SBX_E_SANDBOX_DESTROYED, "the sandbox was destroyed");
    return SBX_OK;
}

static const struct {
    uint64_t cap;
    int code;
} cap_codes[] = {
    {SBX_CAP_EXEC, SBX_E_CAP_EXEC},     {SBX_CAP_STREAM, SBX_E_CAP_STREAM},
    {SBX_CAP_STDIN, SBX_E_CAP_STDIN},   {SBX_CAP_CWD, SBX_E_CAP_CWD},
    {SBX_CAP_FILES, SBX_E_CAP_FILES},   {SBX_CAP_NATIVE, SBX_E_CAP_NATIVE},
    {SBX_CAP_ENV, SBX_E_POLICY_ENV},    {SBX_CAP_TIMEOUT, SBX_E_POLICY_TIMEOUT},
    {SBX_CAP_PTY, SBX_E_CAP_PTY},       {SBX_CAP_FILE_META, SBX_E_CAP_FILE_META},
    {SBX_CAP_CWD_ABS, SBX_E_CAP_CWD},
};

int sbx__sandbox_need(const sbx_sandbox *sb, uint64_t cap)
{
    if (sb->caps & cap)
        return SBX_OK;
    int code = SBX_E_INTERNAL;
    for (size_t i = 0; i < sizeof(cap_codes) / sizeof(cap_codes[0]); i++)
        if (cap_codes[i].cap == cap)
            code = cap_codes[i].code;
    return sbx__error_set(code, "backend '%s' does not declare the '%s' capability",
                          sb->plugin->scheme, sbx_cap_name(cap));
}

uint64_t sbx_sandbox_caps(const sbx_sandbox *sandbox)
{
    return sandbox ? sandbox->caps : 0;
}

int sbx_sandbox_tier(const sbx_sandbox *sandbox)
{
    return sandbox ? sandbox->tier : SBX_TIER_UNKNOWN;
}

const char *sbx_sandbox_backend(const sbx_sandbox *sandbox)
{
    return sandbox && sandbox->plugin ? sandbox->plugin->scheme : "";
}

const char *sbx_sandbox_id(const sbx_sandbox *sandbox)
{
    if (!sandbox || sandbox->destroyed || !SBX_PLUGIN_HAS(sandbox->plugin->desc, sandbox_id))
        return "";
    const char *id = sandbox->plugin->desc->sandbox_id(sandbox->handle);
    return id ? id : "";
}

const char *sbx_sandbox_dsn(const sbx_sandbox *sandbox)
{
    return sandbox && sandbox->dsn_redacted ? sandbox->dsn_redacted : "";
}

int sbx_native(sbx_sandbox *sandbox, const char *op, const char *json_in, char **json_out)
{
    int rc = sbx__sandbox_usable(sandbox);
    if (rc)
        return rc;
    if (!op || !*op || !json_out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_native: op and json_out are required");
    *json_out = NULL;
    if ((rc = sbx__sandbox_need(sandbox, SBX_CAP_NATIVE)) != SBX_OK)
        return rc;
    sbx_error_clear();
    rc = sandbox->plugin->desc->native(sandbox->handle, op, json_in, json_out);
    return sbx__error_ensure(rc, "native operation");
}
