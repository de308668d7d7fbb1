/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_oneshot.c - SBX-RUN-001..003: sbx_run(), a sandbox made for one
 * command, gives what open + exec + destroy give: the exit status or
 * signal, the output captured or streamed, stdin and the environment, a
 * timeout that takes the whole tree, and nothing left behind. A backend may
 * take its own one-shot path here (the plugin's run); the core's fallback
 * is open, exec, destroy.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

#define TIMEOUT_MS 1000
#define GRACE_S 3.0

/* sbx_run() of cmd (freed) with the ordinary policy, or FAIL. */
static sbx_result *run_once(sbxc_ctx *ctx, sbx_cmd *cmd)
{
    sbx_result *r = NULL;
    sbx_policy *p = sbxc_policy(ctx);
    int rc = sbx_run(&r, ctx->client, ctx->dsn, p, cmd);
    sbx_policy_free(p);
    sbx_cmd_free(cmd);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_run", rc);
    if (!r)
        sbxc_fail(ctx, "sbx_run returned SBX_OK without a result");
    return r;
}

static void expect_output(sbxc_ctx *ctx, const char *what, const void *data, size_t len,
                          const char *want)
{
    SBXC_CHECK(ctx, len == strlen(want) && memcmp(data, want, len) == 0,
               "%s: got %zu bytes \"%.*s\", expected \"%s\"", what, len, (int)(len > 80 ? 80 : len),
               (const char *)data, want);
}

void sbxc_case_oneshot_basics(sbxc_ctx *ctx)
{
    sbx_result *r = run_once(ctx, sbxc_sh(ctx, "echo out; echo err >&2; exit 7", NULL));
    sbxc_expect_exit(ctx, r, 7, "sh exiting 7");
    size_t len;
    const void *data = sbx_result_stdout(r, &len);
    expect_output(ctx, "stdout", data, len, "out\n");
    data = sbx_result_stderr(r, &len);
    expect_output(ctx, "stderr", data, len, "err\n");
    sbx_result_free(r);

    r = run_once(ctx, sbxc_sh(ctx, "kill -s TERM $$", NULL));
    SBXC_CHECK(ctx, !sbx_result_exited(r) && sbx_result_signal(r) == 15,
               "SIGTERM: exited=%d code=%d signal=%d, expected death by signal 15",
               sbx_result_exited(r), sbx_result_exit_code(r), sbx_result_signal(r));
    sbx_result_free(r);

    const char *missing[] = { "/nonexistent/sbxc-no-such-program", NULL };
    sbx_cmd *cmd = sbxc_cmd(ctx, missing);
    r = NULL;
    sbx_policy *p = sbxc_policy(ctx);
    int rc = sbx_run(&r, ctx->client, ctx->dsn, p, cmd);
    sbx_policy_free(p);
    sbx_cmd_free(cmd);
    sbx_result_free(r);
    sbxc_expect_code(ctx, "sbx_run of a missing program", rc, SBX_E_EXEC_NOT_FOUND);
}

typedef struct collected {
    char out[256], err[256];
    size_t out_len, err_len;
} collected;

static int collect(void *userdata, int stream, const void *data, size_t len)
{
    collected *c = userdata;
    char *buf = stream == SBX_STDOUT ? c->out : c->err;
    size_t *n = stream == SBX_STDOUT ? &c->out_len : &c->err_len;
    size_t take = len < sizeof c->out - 1 - *n ? len : sizeof c->out - 1 - *n;
    memcpy(buf + *n, data, take);
    *n += take;
    return 0;
}

void sbxc_case_oneshot_stream_stdin_env(sbxc_ctx *ctx)
{
    sbx_cmd *cmd = sbxc_sh(ctx, "read -r line; echo \"$line/$SBXC_ONESHOT\"; echo e >&2", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_stdin", sbx_cmd_set_stdin(cmd, "from-stdin\n", 11));
    SBXC_OK(ctx, "sbx_cmd_set_env", sbx_cmd_set_env(cmd, "SBXC_ONESHOT", "from-env"));
    collected c = { .out_len = 0 };
    sbx_result *r = NULL;
    sbx_policy *p = sbxc_policy(ctx);
    int rc = sbx_run_stream(&r, ctx->client, ctx->dsn, p, cmd, collect, &c);
    sbx_policy_free(p);
    sbx_cmd_free(cmd);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_run_stream", rc);
    sbxc_expect_exit(ctx, r, 0, "read, echo");
    size_t len;
    sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, len == 0, "streamed output was also captured (%zu bytes)", len);
    sbx_result_free(r);
    expect_output(ctx, "streamed stdout", c.out, c.out_len, "from-stdin/from-env\n");
    expect_output(ctx, "streamed stderr", c.err, c.err_len, "e\n");
}

void sbxc_case_oneshot_timeout_nothing_left(sbxc_ctx *ctx)
{
    char token[17];
    sbxc_token(token);
    sbx_cmd *cmd = sbxc_sh(ctx, "sh -c \"sleep 30; : $1\" & sleep 30", token, NULL);
    SBXC_OK(ctx, "sbx_cmd_set_timeout", sbx_cmd_set_timeout(cmd, TIMEOUT_MS));
    double start = sbxc_now();
    sbx_result *r = run_once(ctx, cmd);
    double took = sbxc_now() - start;
    SBXC_CHECK(ctx, sbx_result_timed_out(r), "not reported as timed out (exited=%d code=%d "
               "signal=%d after %.2fs)", sbx_result_exited(r), sbx_result_exit_code(r),
               sbx_result_signal(r), took);
    SBXC_CHECK(ctx, took >= TIMEOUT_MS / 1000.0 * 0.9,
               "returned after %.2fs, before its %.1fs timeout", took, TIMEOUT_MS / 1000.0);
    sbx_result_free(r);

    /* Wherever the backend runs its processes on this host, none remains. */
    pid_t pid = 0;
    SBXC_CHECK(ctx, !sbxc_host_process_lingers(token, GRACE_S, &pid),
               "a process of the one-shot sandbox still runs on the host (pid %d)", (int)pid);
}
