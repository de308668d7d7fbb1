/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_exec.c - one sbx_exec into an open sandbox, for the callgrind gate
 * (tests/gates/perf-callgrind.sh): opens a sandbox of DSN (argv[1]), runs
 * `true` in it once to warm it, then once more inside measured_exec(),
 * the only function the gate counts (--toggle-collect=measured_exec).
 */
#include "config.h"

#include <stdio.h>
#include <sandboxio/sandboxio.h>

static const char *const true_argv[] = { "true", NULL };

static int exec_true(sbx_sandbox *sb, const sbx_cmd *cmd)
{
    sbx_result *r = NULL;
    int rc = sbx_exec(&r, sb, cmd);

    if (rc == SBX_OK && sbx_result_exit_code(r) != 0)
        rc = SBX_E_INTERNAL;
    sbx_result_free(r);
    return rc;
}

/* noinline: callgrind needs the function to exist to toggle on it. */
__attribute__((noinline)) static int measured_exec(sbx_sandbox *sb, const sbx_cmd *cmd)
{
    return exec_true(sb, cmd);
}

int main(int argc, char **argv)
{
    sbx_client *c = NULL;
    sbx_policy *p = NULL;
    sbx_sandbox *sb = NULL;
    sbx_cmd *cmd = NULL;
    int rc;

    if (argc != 2) {
        fprintf(stderr, "usage: perf_exec DSN\n");
        return 2;
    }
    if ((rc = sbx_client_new(&c)) == SBX_OK && (rc = sbx_policy_new(&p)) == SBX_OK &&
        (rc = sbx_sandbox_open(&sb, c, argv[1], p)) == SBX_OK &&
        (rc = sbx_cmd_new(&cmd, true_argv)) == SBX_OK &&
        (rc = exec_true(sb, cmd)) == SBX_OK)   /* the warm-up, not counted */
        rc = measured_exec(sb, cmd);
    if (rc != SBX_OK)
        fprintf(stderr, "perf_exec: SBX_E%04d: %s\n", rc,
                sbx_error_last() ? sbx_error_last()->message : "?");
    sbx_cmd_free(cmd);
    sbx_sandbox_free(sb);
    sbx_policy_free(p);
    sbx_client_free(c);
    return rc == SBX_OK ? 0 : 1;
}
