/*
 * bench-docker: figures for the docker backend through the public API.
 *
 *   bench-docker DSN phases N   mean time of open, one exec of `true`, and
 *                               destroy, over N sandboxes one after another
 *   bench-docker DSN exec N     mean time of N execs of `true` in one open
 *                               sandbox
 *
 * Run from bench/docker/run.sh, which prints the command lines it used.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sandboxio/sandboxio.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "bench-docker: %s: %s %s\n", what, sbx_error_id(rc), e ? e->message : "");
    exit(1);
}

static void run_true(sbx_sandbox *sb)
{
    static const char *const argv[] = {"true", NULL};
    sbx_cmd *cmd;
    sbx_result *r;
    int rc = sbx_cmd_new(&cmd, argv);
    if (rc)
        die("sbx_cmd_new", rc);
    if ((rc = sbx_exec(&r, sb, cmd)))
        die("sbx_exec", rc);
    if (!sbx_result_exited(r) || sbx_result_exit_code(r) != 0)
        die("true did not exit 0", SBX_E_INTERNAL);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[2], "phases") && strcmp(argv[2], "exec"))) {
        fprintf(stderr, "usage: bench-docker DSN phases|exec N\n");
        return 2;
    }
    const char *dsn = argv[1];
    int n = atoi(argv[3]);
    if (n < 1)
        n = 1;
    sbx_client *c;
    sbx_sandbox *sb;
    int rc = sbx_client_new(&c);
    if (rc)
        die("sbx_client_new", rc);
    if (strcmp(argv[2], "phases") == 0) {
        double t_open = 0, t_exec = 0, t_destroy = 0;
        for (int i = 0; i < n; i++) {
            double t0 = now_s();
            if ((rc = sbx_sandbox_open(&sb, c, dsn, NULL)))
                die("sbx_sandbox_open", rc);
            double t1 = now_s();
            run_true(sb);
            double t2 = now_s();
            if ((rc = sbx_sandbox_destroy(sb)))
                die("sbx_sandbox_destroy", rc);
            double t3 = now_s();
            sbx_sandbox_free(sb);
            t_open += t1 - t0;
            t_exec += t2 - t1;
            t_destroy += t3 - t2;
        }
        printf("open %.1f ms, exec %.1f ms, destroy %.1f ms (mean of %d)\n", t_open / n * 1e3,
               t_exec / n * 1e3, t_destroy / n * 1e3, n);
    } else {
        if ((rc = sbx_sandbox_open(&sb, c, dsn, NULL)))
            die("sbx_sandbox_open", rc);
        run_true(sb);    /* warm up */
        double t0 = now_s();
        for (int i = 0; i < n; i++)
            run_true(sb);
        double t = now_s() - t0;
        printf("exec of true: %.2f ms (mean of %d)\n", t / n * 1e3, n);
        if ((rc = sbx_sandbox_destroy(sb)))
            die("sbx_sandbox_destroy", rc);
        sbx_sandbox_free(sb);
    }
    sbx_client_free(c);
    return 0;
}
