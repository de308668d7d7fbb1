/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_pty.c - SBX-PTY-001..002: a command on a pseudo-terminal
 * (SBX_CAP_PTY) sees a terminal of the size asked on stdin, stdout and
 * stderr, as its controlling terminal, and a resize reaches it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

void sbxc_case_pty_size_and_terminal(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cmd *cmd = sbxc_sh(ctx, "test -t 0 && test -t 1 && test -t 2 && : </dev/tty && "
                                "echo \"size=$(stty size)\"; echo to-stderr >&2", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_pty", sbx_cmd_set_pty(cmd, 33, 101));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "a command on a terminal (stdin, stdout, stderr, /dev/tty)");
    size_t len = 0, elen = 0;
    const char *out = sbx_result_stdout(r, &len);
    sbx_result_stderr(r, &elen);
    SBXC_CHECK(ctx, sbxc_contains(out, len, "size=33 101"),
               "the terminal is not 33 x 101: %.*s", (int)(len > 200 ? 200 : len), out);
    /* One terminal: what the command writes to stderr arrives as stdout. */
    SBXC_CHECK(ctx, sbxc_contains(out, len, "to-stderr"), "stderr's output did not arrive as stdout");
    SBXC_CHECK(ctx, elen == 0, "%zu bytes arrived as stderr on a terminal", elen);
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

struct resize_case {
    int pipe[2];
    int signalled;
    char seen[4096];
    size_t n;
};

static int winsize(void *userdata, uint16_t *rows, uint16_t *cols)
{
    struct resize_case *rc = userdata;
    char c;
    while (read(rc->pipe[0], &c, 1) > 0)
        ;
    *rows = 50, *cols = 132;
    return 0;
}

/* Once the command says it waits, the caller's window "changes". */
static int on_output(void *userdata, int stream, const void *data, size_t len)
{
    struct resize_case *rc = userdata;
    size_t room = sizeof(rc->seen) - 1 - rc->n;
    (void)stream;
    memcpy(rc->seen + rc->n, data, len < room ? len : room);
    rc->n += len < room ? len : room;
    rc->seen[rc->n] = '\0';
    if (!rc->signalled && strstr(rc->seen, "waiting")) {
        rc->signalled = 1;
        if (write(rc->pipe[1], "x", 1) != 1)
            return 1;
    }
    return 0;
}

void sbxc_case_pty_resize(sbxc_ctx *ctx)
{
    struct resize_case rc = { .pipe = { -1, -1 } };
    if (pipe2(rc.pipe, O_CLOEXEC | O_NONBLOCK) < 0)
        sbxc_fail(ctx, "pipe failed");
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cmd *cmd = sbxc_sh(ctx, "trap 'echo \"resized=$(stty size)\"; exit 0' WINCH; "
                                "echo waiting; i=0; while [ $i -lt 200 ]; do sleep 0.1; "
                                "i=$((i+1)); done; exit 7", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_pty", sbx_cmd_set_pty(cmd, 24, 80));
    SBXC_OK(ctx, "sbx_cmd_set_pty_resize", sbx_cmd_set_pty_resize(cmd, rc.pipe[0], winsize, &rc));
    sbx_result *r = NULL;
    int code = sbx_exec_stream(&r, sb, cmd, on_output, &rc);
    sbx_cmd_free(cmd);
    if (code != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_exec_stream on a terminal", code);
    sbxc_expect_exit(ctx, r, 0, "a command waiting for SIGWINCH");
    SBXC_CHECK(ctx, strstr(rc.seen, "resized=50 132") != NULL,
               "the resize did not reach the terminal: %s", rc.seen);
    sbx_result_free(r);
    close(rc.pipe[0]);
    close(rc.pipe[1]);
    sbxc_close(ctx, sb);
}
