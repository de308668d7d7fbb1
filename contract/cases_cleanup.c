/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_cleanup.c - SBX-CLEAN-001: after destroy nothing of the sandbox is
 * left: no process on the host, no file where its work directory was, and
 * nothing a fresh sandbox can see.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cases.h"

#define GRACE_S 3.0

void sbxc_case_cleanup_after_destroy(sbxc_ctx *ctx)
{
    char token[17], left[40];
    sbxc_token(token);
    snprintf(left, sizeof left, "sbxc-left-%s", token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    /* A detached process that would run for a long time, and a file. */
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx,
                                              "sh -c \"sleep 1000; : $1\" >/dev/null 2>&1 "
                                              "</dev/null & printf %s \"$1\" > \"sbxc-left-$1\"; "
                                              "pwd",
                                              token, NULL));
    sbxc_expect_exit(ctx, r, 0, "starting a background process");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    char host_copy[4200];
    snprintf(host_copy, sizeof host_copy, "%.*s/%s", (int)strcspn(out ? out : "", "\n"),
             out ? out : "", left);
    sbx_result_free(r);
    sbxc_close(ctx, sb);

    pid_t pid = 0;
    SBXC_CHECK(ctx, !sbxc_host_process_lingers(token, GRACE_S, &pid),
               "a process of the destroyed sandbox still runs on the host (pid %d)", (int)pid);
    /* Where the work directory is a host path (tier none), it is gone. */
    struct stat st;
    SBXC_CHECK(ctx, lstat(host_copy, &st) < 0,
               "%s, written in the destroyed sandbox, is still on the host", host_copy);

    sb = sbxc_open_default(ctx, 0);
    SBXC_CHECK(ctx, !sbxc_sandbox_has_file(ctx, sb, left),
               "a fresh sandbox sees %s, a file of the destroyed one", left);
    r = sbxc_run(ctx, sb, sbxc_sh(ctx, "cat /proc/[0-9]*/cmdline 2>/dev/null; true", NULL));
    out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, token),
               "a fresh sandbox sees a process of the destroyed one");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}
