/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_timeout.c - SBX-TIME-*: a timeout kills the command and all its
 * children within the timeout plus a small grace, and the result says so.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cases.h"

#define TIMEOUT_MS 1000
/* What a backend may take beyond the deadline to kill and report. */
#define GRACE_S 3.0

static void expect_timed_out(sbxc_ctx *ctx, const sbx_result *r, double took, const char *what)
{
    SBXC_CHECK(ctx, sbx_result_timed_out(r), "%s: not reported as timed out (exited=%d code=%d "
               "signal=%d after %.2fs)", what, sbx_result_exited(r), sbx_result_exit_code(r),
               sbx_result_signal(r), took);
    SBXC_CHECK(ctx, !(sbx_result_exited(r) && sbx_result_exit_code(r) == 0),
               "%s: reported as timed out and also as a successful exit", what);
    SBXC_CHECK(ctx, took <= TIMEOUT_MS / 1000.0 + GRACE_S,
               "%s: returned after %.2fs, over the %.1fs timeout plus %.0fs grace", what, took,
               TIMEOUT_MS / 1000.0, GRACE_S);
    SBXC_CHECK(ctx, took >= TIMEOUT_MS / 1000.0 * 0.9,
               "%s: returned after %.2fs, before its %.1fs timeout", what, took,
               TIMEOUT_MS / 1000.0);
}

void sbxc_case_timeout_kills(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = { "sleep", "10", NULL };
    sbx_cmd *cmd = sbxc_cmd(ctx, argv);
    SBXC_OK(ctx, "sbx_cmd_set_timeout", sbx_cmd_set_timeout(cmd, TIMEOUT_MS));
    double start = sbxc_now();
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    expect_timed_out(ctx, r, sbxc_now() - start, "sleep 10 with a 1 s timeout");
    sbx_result_free(r);

    /* A command that ends in time is not "timed out". */
    const char *quick[] = { "true", NULL };
    cmd = sbxc_cmd(ctx, quick);
    SBXC_OK(ctx, "sbx_cmd_set_timeout", sbx_cmd_set_timeout(cmd, 30000));
    r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "true with a 30 s timeout");
    SBXC_CHECK(ctx, !sbx_result_timed_out(r), "true with a 30 s timeout: reported timed out");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

void sbxc_case_timeout_kills_tree(sbxc_ctx *ctx)
{
    char token[17];
    sbxc_token(token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    /* The children keep stdout open and outlive the shell unless killed
     * with it; one of them would leave a file behind 3 s later. */
    sbx_cmd *cmd = sbxc_sh(ctx,
                           "(sleep 3; echo late > sbxc-late) & "
                           "sh -c \"sleep 10; : $1\" & "
                           "sleep 10",
                           token, NULL);
    SBXC_OK(ctx, "sbx_cmd_set_timeout", sbx_cmd_set_timeout(cmd, TIMEOUT_MS));
    double start = sbxc_now();
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    expect_timed_out(ctx, r, sbxc_now() - start, "a shell with children, 1 s timeout");
    sbx_result_free(r);

    /* Wherever the backend runs its processes on this host, none of the
     * tree may remain (vacuous for a remote backend). */
    pid_t pid = 0;
    SBXC_CHECK(ctx, !sbxc_host_process_lingers(token, GRACE_S, &pid),
               "a child of the timed-out command still runs (host pid %d)", (int)pid);
    if (sbxc_has(ctx, SBX_CAP_PERSIST)) {
        while (sbxc_now() < start + 4.5) {
            struct timespec ts = { 0, 100000000L };
            nanosleep(&ts, NULL);
        }
        SBXC_CHECK(ctx, !sbxc_sandbox_has_file(ctx, sb, "sbxc-late"),
                   "a background child of the timed-out command ran on and wrote a file");
    }
    sbxc_close(ctx, sb);
}

void sbxc_case_policy_timeout(sbxc_ctx *ctx)
{
    sbx_policy *p = sbxc_policy(ctx);
    SBXC_OK(ctx, "sbx_policy_set_timeout", sbx_policy_set_timeout(p, TIMEOUT_MS));
    sbx_sandbox *sb = sbxc_open(ctx, p);
    sbx_policy_free(p);
    const char *argv[] = { "sleep", "10", NULL };
    double start = sbxc_now();
    sbx_result *r = sbxc_run(ctx, sb, sbxc_cmd(ctx, argv));
    expect_timed_out(ctx, r, sbxc_now() - start, "sleep 10 under a 1 s policy timeout");
    sbx_result_free(r);

    /* The smaller of the policy's and the command's timeouts applies. */
    sbx_cmd *cmd = sbxc_cmd(ctx, argv);
    SBXC_OK(ctx, "sbx_cmd_set_timeout", sbx_cmd_set_timeout(cmd, 60000));
    start = sbxc_now();
    r = sbxc_run(ctx, sb, cmd);
    expect_timed_out(ctx, r, sbxc_now() - start, "a 60 s command timeout under a 1 s policy");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}
