/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_cancel.c - SBX-CANCEL-001..003: an sbx_cancel stops a command.
 * Triggered before the exec, nothing runs (the core does that for every
 * backend). Triggered from another thread while a command that writes
 * nothing sleeps, the exec returns SBX_E_EXEC_CANCELLED at once and the
 * command's whole tree is gone, in an open sandbox (which stays usable) and
 * in a one-shot run (which leaves nothing). Only a plugin of ABI minor 2 or
 * later is asked that: an older one cannot see cancel_fd.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cases.h"

/* When the other thread triggers, and what a backend may take beyond that. */
#define TRIGGER_AFTER_S 0.5
#define GRACE_S 5.0

/* A cancel, freed when the case ends whatever happens (the case is a process). */
static sbx_cancel *new_cancel(sbxc_ctx *ctx)
{
    sbx_cancel *c = NULL;
    SBXC_OK(ctx, "sbx_cancel_new", sbx_cancel_new(&c));
    return c;
}

static void need_cancel_fd(sbxc_ctx *ctx)
{
    if (ctx->backend->abi_minor < 2)
        sbxc_skip(ctx, "plugin ABI minor %u: it does not watch cancel_fd (minor 2)",
                  (unsigned)ctx->backend->abi_minor);
}

static int count_output(void *ud, int stream, const void *data, size_t len)
{
    (void)stream, (void)data;
    *(size_t *)ud += len;
    return 0;
}

void sbxc_case_cancel_before_start(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cancel *cancel = new_cancel(ctx);
    SBXC_OK(ctx, "sbx_cancel_trigger", sbx_cancel_trigger(cancel));
    sbx_cmd *cmd = sbxc_sh(ctx, "echo ran", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_cancel", sbx_cmd_set_cancel(cmd, cancel));

    sbx_result *r = NULL;
    sbxc_expect_code(ctx, "sbx_exec with a triggered cancel", sbx_exec(&r, sb, cmd),
                     SBX_E_EXEC_CANCELLED);
    SBXC_CHECK(ctx, r == NULL, "a cancelled sbx_exec gave a result");
    if (sbxc_has(ctx, SBX_CAP_STREAM)) {
        size_t seen = 0;
        sbxc_expect_code(ctx, "sbx_exec_stream with a triggered cancel",
                         sbx_exec_stream(&r, sb, cmd, count_output, &seen), SBX_E_EXEC_CANCELLED);
        SBXC_CHECK(ctx, seen == 0, "a cancelled command wrote %zu bytes", seen);
    }
    sbx_policy *p = sbxc_policy(ctx);
    sbxc_expect_code(ctx, "sbx_run with a triggered cancel",
                     sbx_run(&r, ctx->client, ctx->dsn, p, cmd), SBX_E_EXEC_CANCELLED);
    sbx_policy_free(p);

    /* The sandbox is untouched: the same command without the cancel runs. */
    SBXC_OK(ctx, "sbx_cmd_set_cancel(NULL)", sbx_cmd_set_cancel(cmd, NULL));
    r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "echo ran after the cancel was detached");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
    sbx_cancel_free(cancel);
}

static void *trigger_later(void *arg)
{
    struct timespec ts = {0, (long)(TRIGGER_AFTER_S * 1e9)};
    nanosleep(&ts, NULL);
    sbx_cancel_trigger(arg);
    return NULL;
}

/*
 * A tree that writes nothing for 10 s (well past the trigger and the grace:
 * a backend deaf to the cancel is caught by the time, without the case
 * waiting for its own limit), tagged with token on the host.
 */
static sbx_cmd *silent_tree(sbxc_ctx *ctx, const char *token, sbx_cancel *cancel)
{
    sbx_cmd *cmd = sbxc_sh(ctx, "sh -c \"sleep 10; : $1\" & sleep 10", token, NULL);
    SBXC_OK(ctx, "sbx_cmd_set_cancel", sbx_cmd_set_cancel(cmd, cancel));
    return cmd;
}

/* rc and took of a cancelled exec, then no process of token left on the host. */
static void expect_cancelled(sbxc_ctx *ctx, const char *what, int rc, const sbx_result *r,
                             double took, const char *token)
{
    sbxc_expect_code(ctx, what, rc, SBX_E_EXEC_CANCELLED);
    SBXC_CHECK(ctx, r == NULL, "%s: a cancelled exec gave a result", what);
    SBXC_CHECK(ctx, took <= TRIGGER_AFTER_S + GRACE_S,
               "%s: returned %.2fs after the start, over the %.1fs trigger plus %.0fs grace",
               what, took, TRIGGER_AFTER_S, GRACE_S);
    pid_t pid = 0;
    SBXC_CHECK(ctx, !sbxc_host_process_lingers(token, GRACE_S, &pid),
               "%s: a process of the cancelled command still runs on the host (pid %d)", what,
               (int)pid);
}

void sbxc_case_cancel_silent_exec(sbxc_ctx *ctx)
{
    need_cancel_fd(ctx);
    char token[17];
    sbxc_token(token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cancel *cancel = new_cancel(ctx);
    sbx_cmd *cmd = silent_tree(ctx, token, cancel);
    pthread_t t;
    SBXC_CHECK(ctx, pthread_create(&t, NULL, trigger_later, cancel) == 0, "pthread_create failed");
    double start = sbxc_now();
    sbx_result *r = NULL;
    int rc = sbx_exec(&r, sb, cmd);
    double took = sbxc_now() - start;
    pthread_join(t, NULL);
    sbx_cmd_free(cmd);
    expect_cancelled(ctx, "sbx_exec of a silent tree cancelled from another thread", rc, r, took,
                     token);

    /* Only the command was cancelled: the sandbox still runs commands. */
    const char *argv[] = {"true", NULL};
    r = sbxc_run(ctx, sb, sbxc_cmd(ctx, argv));
    sbxc_expect_exit(ctx, r, 0, "true after a cancelled exec");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
    sbx_cancel_free(cancel);
}

void sbxc_case_cancel_silent_run(sbxc_ctx *ctx)
{
    need_cancel_fd(ctx);
    char token[17];
    sbxc_token(token);
    sbx_cancel *cancel = new_cancel(ctx);
    sbx_cmd *cmd = silent_tree(ctx, token, cancel);
    sbx_policy *p = sbxc_policy(ctx);
    pthread_t t;
    SBXC_CHECK(ctx, pthread_create(&t, NULL, trigger_later, cancel) == 0, "pthread_create failed");
    double start = sbxc_now();
    sbx_result *r = NULL;
    int rc = sbx_run(&r, ctx->client, ctx->dsn, p, cmd);
    double took = sbxc_now() - start;
    pthread_join(t, NULL);
    sbx_policy_free(p);
    sbx_cmd_free(cmd);
    expect_cancelled(ctx, "sbx_run of a silent tree cancelled from another thread", rc, r, took,
                     token);
    sbx_cancel_free(cancel);
}
