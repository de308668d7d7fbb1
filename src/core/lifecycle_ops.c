/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What can be done to a sandbox that outlives its handle besides attaching:
 * change its TTL, pause and resume it, and list a backend's sandboxes. Each
 * checks the plugin's members and capability before calling it.
 */
#include "internal.h"

#include <string.h>
#include <sbxu/clock.h>

int sbx_sandbox_set_ttl(sbx_sandbox *sandbox, uint64_t ttl_ms)
{
    int rc = sbx__sandbox_usable(sandbox);
    if (rc)
        return rc;
    if (ttl_ms == 0 || ttl_ms > (UINT64_C(1) << 40))
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "a TTL must be between 1 ms and 2^40 ms (to end the sandbox now, "
                              "destroy it)");
    if ((rc = sbx__attach_ready(sandbox->plugin, sandbox->caps)) != SBX_OK)
        return rc;
    int64_t now = sbxu_wall_ms();
    sbx_error_clear();
    rc = sandbox->plugin->desc->set_ttl(sandbox->handle, ttl_ms);
    if (rc == SBX_OK)
        sandbox->expires_ms = now + (int64_t)ttl_ms;
    return sbx__error_ensure(rc, "changing the sandbox's TTL");
}

/* SBX_E_PLUGIN_NO_PAUSE / SBX_E_CAP_PAUSE unless the sandbox can pause. */
static int pause_ready(const sbx_sandbox *sb)
{
    int rc = sbx__sandbox_usable(sb);
    if (rc)
        return rc;
    const sbx_plugin *d = sb->plugin->desc;
    if (!SBX_PLUGIN_HAS(d, pause) || !SBX_PLUGIN_HAS(d, resume))
        return sbx__error_set(SBX_E_PLUGIN_NO_PAUSE,
                              "plugin '%s' (ABI minor %u) has no pause and resume members",
                              sb->plugin->scheme, d->abi_minor);
    if (!(sb->caps & SBX_CAP_PAUSE))
        return sbx__error_set(SBX_E_CAP_PAUSE,
                              "backend '%s' does not offer the 'pause' capability here",
                              sb->plugin->scheme);
    return SBX_OK;
}

int sbx_sandbox_pause(sbx_sandbox *sandbox)
{
    int rc = pause_ready(sandbox);
    if (rc)
        return rc;
    sbx_error_clear();
    rc = sandbox->plugin->desc->pause(sandbox->handle);
    return sbx__error_ensure(rc, "pausing the sandbox");
}

int sbx_sandbox_resume(sbx_sandbox *sandbox)
{
    int rc = pause_ready(sandbox);
    if (rc)
        return rc;
    sbx_error_clear();
    rc = sandbox->plugin->desc->resume(sandbox->handle);
    return sbx__error_ensure(rc, "resuming the sandbox");
}

const char *sbx_sandbox_name(const sbx_sandbox *sandbox)
{
    return sandbox && sandbox->name ? sandbox->name : "";
}

int64_t sbx_sandbox_expires(const sbx_sandbox *sandbox)
{
    return sandbox ? sandbox->expires_ms : 0;
}

const char *sbx_sandbox_state_name(int state)
{
    switch (state) {
    case SBX_SANDBOX_RUNNING: return "running";
    case SBX_SANDBOX_PAUSED: return "paused";
    case SBX_SANDBOX_STOPPED: return "stopped";
    default: return "unknown";
    }
}

struct list_ctx {
    const char *backend;
    sbx_list_cb cb;
    void *ud;
};

/* The plugin's view of one sandbox, as the public struct; "" for NULL strings. */
static int list_entry(void *userdata, const sbx_plugin_sandbox_info *pi)
{
    struct list_ctx *l = userdata;
    if (!pi || !SBX_STRUCT_HAS(pi, state) || !pi->id)
        return 0; /* a malformed entry is skipped, never read past its size */
    sbx_sandbox_info info = {
        .backend = l->backend,
        .id = pi->id,
        .name = pi->name ? pi->name : "",
        .created_ms = pi->created_ms,
        .expires_ms = pi->expires_ms > 0 ? pi->expires_ms : 0,
        .owner = pi->owner ? pi->owner : "",
        .state = pi->state >= SBX_SANDBOX_UNKNOWN && pi->state <= SBX_SANDBOX_STOPPED
                     ? pi->state : SBX_SANDBOX_UNKNOWN,
    };
    return l->cb ? l->cb(l->ud, &info) : 0;
}

int sbx_client_list(sbx_client *client, const char *dsn, sbx_list_cb cb, void *userdata)
{
    if (!client || !dsn || !cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_list: NULL argument");
    sbx_dsn *parsed = NULL;
    sbx_loaded_plugin *lp = NULL;
    uint64_t caps = 0;
    int rc = sbx_dsn_parse(&parsed, dsn);
    if (rc == SBX_OK)
        rc = sbx__loader_get(client, sbx_dsn_scheme(parsed), &lp);
    if (rc == SBX_OK)
        rc = sbx__effective_caps(lp, parsed, &caps);
    if (rc == SBX_OK)
        rc = sbx__attach_ready(lp, caps);
    if (rc == SBX_OK) {
        struct list_ctx l = {lp->scheme, cb, userdata};
        sbx_error_clear();
        rc = lp->desc->list(lp->state, &parsed->view, list_entry, &l);
        sbx__error_ensure(rc, "listing the sandboxes");
    }
    sbx_dsn_free(parsed);
    return rc;
}
