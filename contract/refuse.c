/* SPDX-License-Identifier: Apache-2.0 */
/*
 * refuse.c - a case whose tier or capability the backend lacks is not
 * simply skipped: the operation is attempted anyway and the core must refuse
 * it with the exact SBX_E3xxx code of that control, before anything runs.
 * Only then is the case reported as SKIP; a core that lets it through makes
 * the case FAIL.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "runner.h"

/* How the core must refuse one capability. */
typedef struct refusal {
    uint64_t cap;
    int code;       /* 0: the API has no operation that needs the cap alone */
    enum { BY_OPEN, BY_EXEC, BY_STREAM, BY_FILES, BY_META, BY_NATIVE, BY_ATTACH, BY_PAUSE,
           BY_NOTHING } how;
    int old_code;   /* also right: a plugin without the ABI members (0: none) */
} refusal;

/* Checked in this order: a case needing exec and stdin without either is
 * skipped on exec. */
static const refusal refusals[] = {
    { SBX_CAP_EXEC, SBX_E_CAP_EXEC, BY_EXEC, 0 },
    { SBX_CAP_FILES, SBX_E_CAP_FILES, BY_FILES, 0 },
    { SBX_CAP_FILE_META, SBX_E_CAP_FILE_META, BY_META, 0 },
    { SBX_CAP_STREAM, SBX_E_CAP_STREAM, BY_STREAM, 0 },
    { SBX_CAP_STDIN, SBX_E_CAP_STDIN, BY_EXEC, 0 },
    { SBX_CAP_PTY, SBX_E_CAP_PTY, BY_EXEC, 0 },
    { SBX_CAP_ENV, SBX_E_POLICY_ENV, BY_EXEC, 0 },
    { SBX_CAP_CWD, SBX_E_CAP_CWD, BY_EXEC, 0 },
    { SBX_CAP_CWD_ABS, SBX_E_CAP_CWD, BY_EXEC, 0 },
    { SBX_CAP_TIMEOUT, SBX_E_POLICY_TIMEOUT, BY_EXEC, 0 },
    { SBX_CAP_NET_NONE, SBX_E_POLICY_NETWORK_NONE, BY_OPEN, 0 },
    { SBX_CAP_NET_ALLOWLIST, SBX_E_POLICY_NETWORK_ALLOWLIST, BY_OPEN, 0 },
    { SBX_CAP_LIMIT_MEMORY, SBX_E_POLICY_MEMORY, BY_OPEN, 0 },
    { SBX_CAP_LIMIT_CPU, SBX_E_POLICY_CPU, BY_OPEN, 0 },
    { SBX_CAP_LIMIT_PIDS, SBX_E_POLICY_PIDS, BY_OPEN, 0 },
    { SBX_CAP_LIMIT_DISK, SBX_E_POLICY_DISK, BY_OPEN, 0 },
    { SBX_CAP_NATIVE, SBX_E_CAP_NATIVE, BY_NATIVE, 0 },
    { SBX_CAP_ATTACH, SBX_E_CAP_ATTACH, BY_ATTACH, SBX_E_PLUGIN_NO_ATTACH },
    { SBX_CAP_PAUSE, SBX_E_CAP_PAUSE, BY_PAUSE, SBX_E_PLUGIN_NO_PAUSE },
    { SBX_CAP_PERSIST, 0, BY_NOTHING, 0 },
    { SBX_CAP_OOM_REPORT, 0, BY_NOTHING, 0 },
    { SBX_CAP_SNAPSHOT, 0, BY_NOTHING, 0 },
    { SBX_CAP_PORTS, 0, BY_NOTHING, 0 },
};

/* A policy asking for cap (and nothing else a backend might lack). */
static sbx_policy *policy_asking(sbxc_ctx *ctx, uint64_t cap)
{
    sbx_policy *p = sbxc_policy(ctx);
    int rc = SBX_OK;
    if (cap == SBX_CAP_NET_NONE)
        rc = sbx_policy_set_network(p, SBX_NET_NONE);
    else if (cap == SBX_CAP_NET_ALLOWLIST) {
        rc = sbx_policy_set_network(p, SBX_NET_ALLOWLIST);
        if (rc == SBX_OK)
            rc = sbx_policy_allow_host(p, "example.com:443");
    } else if (cap == SBX_CAP_LIMIT_MEMORY)
        rc = sbx_policy_set_memory(p, UINT64_C(256) << 20);
    else if (cap == SBX_CAP_LIMIT_CPU)
        rc = sbx_policy_set_cpu(p, 500);
    else if (cap == SBX_CAP_LIMIT_PIDS)
        rc = sbx_policy_set_pids(p, 64);
    else if (cap == SBX_CAP_LIMIT_DISK)
        rc = sbx_policy_set_disk(p, UINT64_C(16) << 20);
    if (rc != SBX_OK) {
        sbx_policy_free(p);
        sbxc_fail_rc(ctx, "building the policy", rc);
    }
    return p;
}

static int refused_open(sbxc_ctx *ctx, uint64_t cap)
{
    sbx_policy *p = policy_asking(ctx, cap);
    sbx_sandbox *sb = NULL;
    int rc = sbx_sandbox_open(&sb, ctx->client, ctx->dsn, p);
    sbx_policy_free(p);
    if (sb) {
        sbxc_close(ctx, sb);
        if (rc != SBX_OK)
            sbxc_fail(ctx, "sbx_sandbox_open returned %s but still created a sandbox",
                      sbx_error_id(rc));
    }
    return rc;
}

static int ignore_output(void *userdata, int stream, const void *data, size_t len)
{
    return 0;
}

/* The command of an exec-based refusal: it would leave marker behind. */
static sbx_cmd *marker_cmd(sbxc_ctx *ctx, uint64_t cap, const char *marker)
{
    sbx_cmd *cmd = sbxc_sh(ctx, "echo ran > \"$1\"", marker, NULL);
    int rc = SBX_OK;
    if (cap == SBX_CAP_STDIN)
        rc = sbx_cmd_set_stdin(cmd, "x\n", 2);
    else if (cap == SBX_CAP_PTY)
        rc = sbx_cmd_set_pty(cmd, 24, 80);
    else if (cap == SBX_CAP_ENV)
        rc = sbx_cmd_set_env(cmd, "SBXC_PROBE", "1");
    else if (cap == SBX_CAP_CWD)
        rc = sbx_cmd_set_cwd(cmd, ".");
    else if (cap == SBX_CAP_CWD_ABS)
        rc = sbx_cmd_set_cwd_abs(cmd, "/tmp");
    else if (cap == SBX_CAP_TIMEOUT)
        rc = sbx_cmd_set_timeout(cmd, 60000);
    if (rc != SBX_OK) {
        sbx_cmd_free(cmd);
        sbxc_fail_rc(ctx, "building the command", rc);
    }
    return cmd;
}

/* A sandbox with a TTL: refused, it must create nothing. */
static int refused_attach(sbxc_ctx *ctx)
{
    sbx_policy *p = sbxc_policy(ctx);
    sbx_sandbox_opts *o = NULL;
    sbx_sandbox *sb = NULL;
    int rc = sbx_sandbox_opts_new(&o);
    if (rc == SBX_OK)
        rc = sbx_sandbox_opts_set_ttl(o, 60000);
    if (rc == SBX_OK)
        rc = sbx_sandbox_open_with(&sb, ctx->client, ctx->dsn, p, o);
    sbx_sandbox_opts_free(o);
    sbx_policy_free(p);
    if (sb) {
        sbxc_close(ctx, sb);
        if (rc != SBX_OK)
            sbxc_fail(ctx, "sbx_sandbox_open_with returned %s but still created a sandbox",
                      sbx_error_id(rc));
    }
    return rc;
}

/* Attempt the operation needing r->cap; returns its code. FAILs if it ran. */
static int attempt(sbxc_ctx *ctx, const refusal *r)
{
    if (r->how == BY_OPEN)
        return refused_open(ctx, r->cap);
    if (r->how == BY_ATTACH)
        return refused_attach(ctx);
    if (r->how == BY_PAUSE) {
        sbx_sandbox *sb = sbxc_open_default(ctx, 0);
        int rc = sbx_sandbox_pause(sb);
        /* Refused or not, it must be usable (and destroyable) afterwards. */
        if (rc == SBX_OK)
            sbx_sandbox_resume(sb);
        sbxc_close(ctx, sb);
        return rc;
    }

    char token[17], marker[40];
    sbxc_token(token);
    snprintf(marker, sizeof marker, "sbxc-refused-%s", token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    int rc;
    sbx_result *res = NULL;
    if (r->how == BY_EXEC || r->how == BY_STREAM) {
        sbx_cmd *cmd = marker_cmd(ctx, r->cap, marker);
        rc = r->how == BY_EXEC ? sbx_exec(&res, sb, cmd)
                               : sbx_exec_stream(&res, sb, cmd, ignore_output, NULL);
        sbx_cmd_free(cmd);
        sbx_result_free(res);
    } else if (r->how == BY_FILES) {
        rc = sbx_file_write(sb, marker, "ran\n", 4, 0644);
    } else if (r->how == BY_META) {
        rc = sbx_file_symlink(sb, marker, "ran");
    } else {
        char *out = NULL;
        rc = sbx_native(sb, "sbxc-contract-probe", NULL, &out);
        sbx_free(out);
    }
    /* "Refused" means nothing ran: the marker must not exist (checked
     * through what the backend still offers). */
    if (rc == r->code && (sbxc_has(ctx, SBX_CAP_FILES) || sbxc_has(ctx, SBX_CAP_EXEC)) &&
        r->how != BY_NATIVE && sbxc_sandbox_has_file(ctx, sb, marker))
        sbxc_fail(ctx, "refused with %s, yet the command ran (it left %s behind)",
                  sbx_error_id(rc), marker);
    sbxc_close(ctx, sb);
    return rc;
}

static void skip_for_cap(sbxc_ctx *ctx, const refusal *r)
{
    const char *name = sbx_cap_name(r->cap);
    bool declared = (ctx->backend->declared & r->cap) != 0;
    const char *why = declared ? "declared but not available for this DSN here"
                               : "not declared";
    if (r->code == 0)
        sbxc_skip(ctx, "capability %s %s (no operation for the core to refuse)", name, why);

    int rc = attempt(ctx, r);
    if (rc == r->code || (r->old_code && rc == r->old_code))
        sbxc_skip(ctx, "capability %s %s (refused with %s)", name, why, sbx_error_id(rc));
    if (rc == SBX_OK)
        sbxc_fail(ctx, "capability %s %s, but the core did not refuse an operation needing it "
                  "(expected %s)", name, why, sbx_error_id(r->code));
    sbxc_expect_code(ctx, "operation needing an absent capability", rc, r->code);
    sbxc_fail(ctx, "unreachable");
}

void sbxc_check_needs(sbxc_ctx *ctx, const sbxc_case *c)
{
    if ((c->flags & SBXC_NEEDS_ISOLATION) && ctx->backend->tier == SBX_TIER_NONE) {
        sbx_policy *p = sbxc_policy(ctx);
        int rc = sbx_policy_set_min_tier(p, SBX_TIER_NAMESPACE);
        sbx_sandbox *sb = NULL;
        if (rc == SBX_OK)
            rc = sbx_sandbox_open(&sb, ctx->client, ctx->dsn, p);
        sbx_policy_free(p);
        if (sb)
            sbxc_close(ctx, sb);
        if (rc == SBX_E_POLICY_TIER)
            sbxc_skip(ctx, "tier none offers no isolation (a namespace tier was refused with %s)",
                      sbx_error_id(rc));
        if (rc == SBX_OK)
            sbxc_fail(ctx, "the backend is tier none, yet the core accepted a policy "
                      "requiring tier namespace (expected %s)", sbx_error_id(SBX_E_POLICY_TIER));
        sbxc_expect_code(ctx, "a policy above the backend's tier", rc, SBX_E_POLICY_TIER);
    }
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const refusal *r = &refusals[i];
        if ((c->caps & r->cap) && !sbxc_has(ctx, r->cap))
            skip_for_cap(ctx, r);
    }
    uint64_t unknown = c->caps & ~ctx->backend->caps;
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        unknown &= ~refusals[i].cap;
    if (unknown)
        sbxc_skip(ctx, "needs capabilities 0x%llx the backend lacks",
                  (unsigned long long)unknown);
}
