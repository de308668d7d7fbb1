/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exec-storm-timeout DSN - in an open sandbox with a pids limit of 32,
 * exec a fork storm whose children keep the output stream open, with a
 * 2 s timeout: the exec must end, reported as timed out, only because the
 * whole tree was killed while it held every pid (the kill cannot fork
 * either: the last resort restarts the container). Then the sandbox must
 * still run commands. Exits 0 on success, 1 with a message otherwise.
 * Run by docker-timeout-kills-fork-storm.sh; the CLI's one-shot run has its
 * own check there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sandboxio/sandboxio.h>

static int fail(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "exec-storm-timeout: %s: %s %s\n", what, sbx_error_id(rc),
            e ? e->message : "");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: exec-storm-timeout DSN\n");
        return 2;
    }
    static const char *const storm[] = {"sh", "-c", "while :; do sleep 1000 & done", NULL};
    static const char *const again[] = {"true", NULL};
    sbx_client *c = NULL;
    sbx_policy *p = NULL;
    sbx_sandbox *sb = NULL;
    sbx_cmd *cmd = NULL, *after = NULL;
    sbx_result *r = NULL, *r2 = NULL;
    int status = 1, rc;
    if ((rc = sbx_client_new(&c)) || (rc = sbx_policy_new(&p)) || (rc = sbx_policy_set_pids(p, 32)))
        return fail("setting up", rc);
    if ((rc = sbx_sandbox_open(&sb, c, argv[1], p))) {
        fail("sbx_sandbox_open", rc);
        goto out;
    }
    if ((rc = sbx_cmd_new(&cmd, storm)) || (rc = sbx_cmd_set_timeout(cmd, 2000)) ||
        (rc = sbx_exec(&r, sb, cmd))) {
        fail("the storm's exec", rc);
        goto out;
    }
    if (!sbx_result_timed_out(r)) {
        fprintf(stderr, "exec-storm-timeout: not reported as timed out (exited=%d code=%d)\n",
                sbx_result_exited(r), sbx_result_exit_code(r));
        goto out;
    }
    if ((rc = sbx_cmd_new(&after, again)) || (rc = sbx_exec(&r2, sb, after))) {
        fail("an exec after the storm", rc);
        goto out;
    }
    if (!sbx_result_exited(r2) || sbx_result_exit_code(r2) != 0) {
        fprintf(stderr, "exec-storm-timeout: true after the storm did not exit 0\n");
        goto out;
    }
    printf("storm exec timed out (%.1f s); the sandbox runs commands again\n",
           (double)sbx_result_duration_ns(r) / 1e9);
    status = 0;
out:
    sbx_result_free(r);
    sbx_result_free(r2);
    sbx_cmd_free(cmd);
    sbx_cmd_free(after);
    if (sb && (rc = sbx_sandbox_destroy(sb)) && status == 0)
        status = fail("sbx_sandbox_destroy", rc);
    sbx_sandbox_free(sb);
    sbx_policy_free(p);
    sbx_client_free(c);
    return status;
}
