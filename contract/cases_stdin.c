/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_stdin.c - SBX-EXEC-013..015: standard input (none by default; data
 * then EOF when given) and many execs on one sandbox at once.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

void sbxc_case_stdin_default_empty(sbxc_ctx *ctx)
{
    /* Give the case process a stdin with data in it: a backend that lets the
     * command inherit the caller's stdin would show it (or block on a tty). */
    char token[17];
    sbxc_token(token);
    int fds[2];
    if (pipe(fds) < 0)
        sbxc_fail(ctx, "pipe failed");
    if (write(fds[1], token, 16) != 16 || dup2(fds[0], 0) < 0)
        sbxc_fail(ctx, "could not set up the caller's stdin");
    close(fds[0]);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = { "cat", NULL };
    sbx_result *r = sbxc_run(ctx, sb, sbxc_cmd(ctx, argv));
    sbxc_expect_exit(ctx, r, 0, "cat with no stdin");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, token),
               "cat read the caller's own stdin: the command inherited it");
    SBXC_CHECK(ctx, len == 0, "cat with no stdin printed %zu bytes", len);
    sbx_result_free(r);
    close(fds[1]);
    sbxc_close(ctx, sb);
}

/* Feed data to cat and check it comes back whole. */
static void cat_round_trip(sbxc_ctx *ctx, sbx_sandbox *sb, const unsigned char *data, size_t n)
{
    const char *argv[] = { "cat", NULL };
    sbx_cmd *cmd = sbxc_cmd(ctx, argv);
    SBXC_OK(ctx, "sbx_cmd_set_stdin", sbx_cmd_set_stdin(cmd, data, n));
    SBXC_OK(ctx, "sbx_cmd_set_output_cap", sbx_cmd_set_output_cap(cmd, n + 1));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    char what[64];
    snprintf(what, sizeof what, "cat of %zu bytes of stdin", n);
    sbxc_expect_exit(ctx, r, 0, what);
    size_t len = 0;
    const unsigned char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, len == n, "%s: %zu bytes came back", what, len);
    for (size_t i = 0; i < n; i++)
        SBXC_CHECK(ctx, out[i] == data[i], "%s: byte %zu differs", what, i);
    sbx_result_free(r);
}

void sbxc_case_stdin(sbxc_ctx *ctx)
{
    /* The core and plugins must never raise a signal in the caller: a
     * command that does not read its stdin must not kill us with SIGPIPE. */
    signal(SIGPIPE, SIG_DFL);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    size_t n = ((size_t)3 << 20) + 17;
    unsigned char *data = malloc(n);
    if (!data)
        sbxc_fail(ctx, "out of memory");
    for (size_t i = 0; i < n; i++)
        data[i] = (unsigned char)((i * 7) ^ (i >> 11));
    cat_round_trip(ctx, sb, data, n);
    cat_round_trip(ctx, sb, (const unsigned char *)"", 0);

    /* Data, then EOF: a reader that stops at EOF finishes. */
    sbx_cmd *cmd = sbxc_sh(ctx, "n=0; while read -r line; do n=$((n+1)); done; echo $n", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_stdin", sbx_cmd_set_stdin(cmd, "a\nb\nc\n", 6));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "counting lines of stdin");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, len == 2 && memcmp(out, "3\n", 2) == 0, "the reader saw '%.*s' lines, not 3",
               (int)(len > 40 ? 40 : len), out ? out : "");
    sbx_result_free(r);

    /* Stdin the command never reads. */
    const char *argv[] = { "true", NULL };
    cmd = sbxc_cmd(ctx, argv);
    SBXC_OK(ctx, "sbx_cmd_set_stdin", sbx_cmd_set_stdin(cmd, data, n));
    r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "true with unread stdin");
    sbx_result_free(r);
    free(data);
    sbxc_close(ctx, sb);
}

#define PARALLEL 16

typedef struct job {
    sbx_sandbox *sb;
    int index;
    int rc;
    int exit_code;
    char out[32];
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    char id[16];
    snprintf(id, sizeof id, "job-%d", j->index);
    const char *argv[] = { "sh", "-c", "sleep 1; printf %s \"$1\"", "sh", id, NULL };
    sbx_cmd *cmd = NULL;
    j->rc = sbx_cmd_new(&cmd, argv);
    if (j->rc != SBX_OK)
        return NULL;
    sbx_result *r = NULL;
    j->rc = sbx_exec(&r, j->sb, cmd);
    sbx_cmd_free(cmd);
    if (j->rc == SBX_OK) {
        size_t len = 0;
        const char *out = sbx_result_stdout(r, &len);
        j->exit_code = sbx_result_exited(r) ? sbx_result_exit_code(r) : -1;
        snprintf(j->out, sizeof j->out, "%.*s", (int)(len < 31 ? len : 31), out ? out : "");
    }
    sbx_result_free(r);
    return NULL;
}

void sbxc_case_parallel_execs(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    job jobs[PARALLEL];
    pthread_t threads[PARALLEL];
    double start = sbxc_now();
    int started = 0;
    for (int i = 0; i < PARALLEL; i++) {
        jobs[i] = (job){ .sb = sb, .index = i, .rc = -1 };
        if (pthread_create(&threads[i], NULL, run_job, &jobs[i]) != 0)
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    SBXC_CHECK(ctx, started == PARALLEL, "could only start %d threads", started);
    for (int i = 0; i < PARALLEL; i++) {
        char want[16];
        snprintf(want, sizeof want, "job-%d", i);
        if (jobs[i].rc != SBX_OK)
            sbxc_fail(ctx, "exec %d of %d: %s (%s)", i, PARALLEL, sbx_error_id(jobs[i].rc),
                      sbx_strerror(jobs[i].rc));
        SBXC_CHECK(ctx, jobs[i].exit_code == 0, "exec %d ended with %d", i, jobs[i].exit_code);
        SBXC_CHECK(ctx, strcmp(jobs[i].out, want) == 0,
                   "exec %d printed '%s': outputs of concurrent execs got mixed", i, jobs[i].out);
    }
    snprintf(ctx->note, sizeof ctx->note, "%d execs of 1 s took %.1f s", PARALLEL,
             sbxc_now() - start);
    sbxc_close(ctx, sb);
}
