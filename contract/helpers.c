/* SPDX-License-Identifier: Apache-2.0 */
/*
 * helpers.c - what cases use to open sandboxes and run commands, each
 * helper turning an unexpected error into a FAIL that names the call.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case.h"

bool sbxc_has(const sbxc_ctx *ctx, uint64_t cap)
{
    return (ctx->backend->caps & cap) == cap;
}

sbx_policy *sbxc_policy(sbxc_ctx *ctx)
{
    sbx_policy *p = NULL;
    SBXC_OK(ctx, "sbx_policy_new", sbx_policy_new(&p));
    /* Cases that are not about the network still keep it shut where the
     * backend can promise that; elsewhere "open" asks nothing of it. */
    int net = sbxc_has(ctx, SBX_CAP_NET_NONE) ? SBX_NET_NONE : SBX_NET_OPEN;
    int rc = sbx_policy_set_network(p, net);
    if (rc != SBX_OK) {
        sbx_policy_free(p);
        sbxc_fail_rc(ctx, "sbx_policy_set_network", rc);
    }
    return p;
}

static void track(sbxc_ctx *ctx, sbx_sandbox *sb)
{
    for (size_t i = 0; i < SBXC_MAX_SANDBOXES; i++) {
        if (!ctx->sandboxes[i]) {
            ctx->sandboxes[i] = sb;
            return;
        }
    }
    sbx_sandbox_free(sb);
    sbxc_fail(ctx, "internal: a case opened more than %d sandboxes", SBXC_MAX_SANDBOXES);
}

void sbxc_untrack(sbxc_ctx *ctx, sbx_sandbox *sb)
{
    for (size_t i = 0; i < SBXC_MAX_SANDBOXES; i++)
        if (ctx->sandboxes[i] == sb)
            ctx->sandboxes[i] = NULL;
}

sbx_sandbox *sbxc_open(sbxc_ctx *ctx, const sbx_policy *policy)
{
    sbx_sandbox *sb = NULL;
    int rc = sbx_sandbox_open(&sb, ctx->client, ctx->dsn, policy);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_sandbox_open", rc);
    if (!sb)
        sbxc_fail(ctx, "sbx_sandbox_open returned SBX_OK without a sandbox");
    track(ctx, sb);
    return sb;
}

sbx_sandbox *sbxc_open_named(sbxc_ctx *ctx, const sbx_policy *policy, const char *name,
                             uint64_t ttl_ms)
{
    sbx_sandbox_opts *o = NULL;
    sbx_sandbox *sb = NULL;
    int rc = sbx_sandbox_opts_new(&o);
    if (rc == SBX_OK)
        rc = sbx_sandbox_opts_set_name(o, name);
    if (rc == SBX_OK)
        rc = sbx_sandbox_opts_set_ttl(o, ttl_ms);
    if (rc == SBX_OK)
        rc = sbx_sandbox_open_with(&sb, ctx->client, ctx->dsn, policy, o);
    sbx_sandbox_opts_free(o);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_sandbox_open_with", rc);
    if (!sb)
        sbxc_fail(ctx, "sbx_sandbox_open_with returned SBX_OK without a sandbox");
    track(ctx, sb);
    return sb;
}

void sbxc_detach(sbxc_ctx *ctx, sbx_sandbox *sb)
{
    sbxc_untrack(ctx, sb);
    int rc = sbx_sandbox_detach(sb);
    if (rc != SBX_OK) {
        sbx_sandbox_free(sb);
        sbxc_fail_rc(ctx, "sbx_sandbox_detach", rc);
    }
}

sbx_sandbox *sbxc_open_default(sbxc_ctx *ctx, size_t output_cap)
{
    sbx_policy *p = sbxc_policy(ctx);
    if (output_cap) {
        int rc = sbx_policy_set_output_cap(p, output_cap);
        if (rc != SBX_OK) {
            sbx_policy_free(p);
            sbxc_fail_rc(ctx, "sbx_policy_set_output_cap", rc);
        }
    }
    sbx_sandbox *sb = NULL;
    int rc = sbx_sandbox_open(&sb, ctx->client, ctx->dsn, p);
    sbx_policy_free(p);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_sandbox_open", rc);
    if (!sb)
        sbxc_fail(ctx, "sbx_sandbox_open returned SBX_OK without a sandbox");
    track(ctx, sb);
    return sb;
}

void sbxc_close(sbxc_ctx *ctx, sbx_sandbox *sb)
{
    sbxc_untrack(ctx, sb);
    int rc = sbx_sandbox_destroy(sb);
    if (rc != SBX_OK) {
        sbx_sandbox_free(sb);
        sbxc_fail_rc(ctx, "sbx_sandbox_destroy", rc);
    }
    sbx_sandbox_free(sb);
}

sbx_cmd *sbxc_cmd(sbxc_ctx *ctx, const char *const *argv)
{
    sbx_cmd *cmd = NULL;
    SBXC_OK(ctx, "sbx_cmd_new", sbx_cmd_new(&cmd, argv));
    return cmd;
}

sbx_cmd *sbxc_sh(sbxc_ctx *ctx, const char *script, ...)
{
    const char *argv[32] = { "sh", "-c", script, "sh" };
    size_t n = 4;
    va_list ap;
    va_start(ap, script);
    const char *arg;
    while ((arg = va_arg(ap, const char *)) != NULL && n < 31)
        argv[n++] = arg;
    va_end(ap);
    argv[n] = NULL;
    return sbxc_cmd(ctx, argv);
}

sbx_result *sbxc_run(sbxc_ctx *ctx, sbx_sandbox *sb, sbx_cmd *cmd)
{
    sbx_result *r = NULL;
    int rc = sbx_exec(&r, sb, cmd);
    sbx_cmd_free(cmd);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_exec", rc);
    if (!r)
        sbxc_fail(ctx, "sbx_exec returned SBX_OK without a result");
    return r;
}

void sbxc_expect_exit(sbxc_ctx *ctx, const sbx_result *r, int code, const char *what)
{
    if (sbx_result_timed_out(r))
        sbxc_fail(ctx, "%s: timed out, expected exit status %d", what, code);
    if (!sbx_result_exited(r))
        sbxc_fail(ctx, "%s: killed by signal %d, expected exit status %d", what,
                  sbx_result_signal(r), code);
    if (sbx_result_exit_code(r) != code) {
        size_t elen = 0;
        const char *err = sbx_result_stderr(r, &elen);
        sbxc_fail(ctx, "%s: exit status %d, expected %d; stderr: %.*s", what,
                  sbx_result_exit_code(r), code, (int)(elen > 200 ? 200 : elen),
                  err ? err : "");
    }
}

char *sbxc_sh_ok(sbxc_ctx *ctx, sbx_sandbox *sb, const char *script)
{
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, script, NULL));
    char what[160];
    snprintf(what, sizeof what, "sh -c '%.120s'", script);
    sbxc_expect_exit(ctx, r, 0, what);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    char *copy = malloc(len + 1);
    if (!copy) {
        sbx_result_free(r);
        sbxc_fail(ctx, "out of memory");
    }
    if (len)
        memcpy(copy, out, len);
    copy[len] = '\0';
    sbx_result_free(r);
    return copy;
}

bool sbxc_sandbox_has_file(sbxc_ctx *ctx, sbx_sandbox *sb, const char *path)
{
    if (sbxc_has(ctx, SBX_CAP_FILES)) {
        void *data = NULL;
        size_t len = 0;
        int rc = sbx_file_read(sb, path, &data, &len);
        sbx_free(data);
        if (rc == SBX_OK)
            return true;
        if (rc == SBX_E_NOT_FOUND)
            return false;
        sbxc_fail_rc(ctx, "sbx_file_read", rc);
    }
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "test -e \"$1\"", path, NULL));
    if (!sbx_result_exited(r) || sbx_result_exit_code(r) > 1) {
        sbx_result_free(r);
        sbxc_fail(ctx, "test -e %s: neither 0 nor 1", path);
    }
    bool exists = sbx_result_exit_code(r) == 0;
    sbx_result_free(r);
    return exists;
}
